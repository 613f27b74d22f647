// Answers of idempotent commands (0003): sale-process and sale-refund by their client-made
// transaction id, sale-cancel by the sale's id. The request's hash is kept beside the answer;
// a repeat with the same hash gets the answer, another hash is an idempotency conflict.
import type Database from 'better-sqlite3';

export interface StoredResult {
  readonly requestHash: string;
  readonly response: unknown;
  readonly createdAt: number;
}

export function createCommandResults(db: Database.Database) {
  const get = db.prepare<
    [string, string],
    { request_hash: string; response: string; created_at: number }
  >('SELECT request_hash, response, created_at FROM command_result WHERE command = ? AND key = ?');
  const put = db.prepare(
    `INSERT INTO command_result (command, key, request_hash, response, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (command, key) DO NOTHING`,
  );
  return {
    get(command: string, key: string): StoredResult | null {
      const r = get.get(command, key);
      return r
        ? {
            requestHash: r.request_hash,
            response: JSON.parse(r.response) as unknown,
            createdAt: r.created_at,
          }
        : null;
    },
    /** Keeps the first answer; a second put of the same key changes nothing. */
    put(command: string, key: string, requestHash: string, response: unknown, nowMs: number): void {
      put.run(command, key, requestHash, JSON.stringify(response), nowMs);
    },
  };
}

export type CommandResults = ReturnType<typeof createCommandResults>;
