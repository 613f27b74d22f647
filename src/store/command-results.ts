// Answers of idempotent commands (0003): sale-process and sale-refund by their client-made
// transaction id, sale-cancel by the sale's id. The request's hash is kept beside the answer;
// a repeat with the same hash gets the answer, another hash is an idempotency conflict.
//
// One transaction with its answer (docs/terminal.md): an answer is checked against its
// command's output schema before it is kept, inside the transaction of the command's writes,
// so an answer that cannot be given rolls the writes back instead of following a commit.
import type Database from 'better-sqlite3';
import { commands, isCommandName } from '../contract/commands.js';
import { problemsOf } from '../contract/problems.js';

export interface StoredResult {
  readonly requestHash: string;
  readonly response: unknown;
  readonly createdAt: number;
}

/** Runs on every answer before it is given or kept; throws to refuse it (and roll back). */
export type AnswerCheck = (command: string, answer: unknown) => void;

/** An answer that breaks its command's output schema: a bug, never committed. */
export class AnswerRefused extends Error {
  readonly command: string;
  readonly problems: ReadonlyArray<{ path: string; message: string }>;
  constructor(command: string, problems: ReadonlyArray<{ path: string; message: string }>) {
    const first = problems[0];
    super(
      `the ${command} answer breaks its schema${first ? ` at ${first.path}: ${first.message}` : ''}`,
    );
    this.name = 'AnswerRefused';
    this.command = command;
    this.problems = problems;
  }
}

/** The command's output schema decides; keys that are not commands (fuel records) pass. */
export function checkAgainstSchema(command: string, answer: unknown): void {
  if (!isCommandName(command)) return;
  const out = commands[command].output.safeParse(answer);
  if (!out.success) throw new AnswerRefused(command, problemsOf(out.error));
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
  const checks: AnswerCheck[] = [checkAgainstSchema];
  const check = (command: string, answer: unknown): void => {
    for (const c of [...checks]) c(command, answer);
  };
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
    /**
     * Keeps the first answer; a second put of the same key changes nothing. Throws (the
     * caller's transaction rolls back) when the answer fails a check.
     */
    put(command: string, key: string, requestHash: string, response: unknown, nowMs: number): void {
      check(command, response);
      put.run(command, key, requestHash, JSON.stringify(response), nowMs);
    },
    /**
     * Checks an answer that is given without being kept (shift-open, shift-close, ...), inside
     * the command's transaction; throws when it cannot be given.
     */
    check,
    /**
     * Adds a check to every answer, before it is given or kept: the port through which a test
     * injects a failure after a command's writes. Returns its removal.
     */
    onAnswer(extra: AnswerCheck): () => void {
      checks.push(extra);
      return () => {
        const at = checks.indexOf(extra);
        if (at >= 0) checks.splice(at, 1);
      };
    },
  };
}

export type CommandResults = ReturnType<typeof createCommandResults>;
