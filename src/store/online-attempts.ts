// Online-first sales in flight (0005). A row is written, and committed, before the request
// leaves, and deleted in the transaction that records the outcome; a row found at start is a
// sale whose fate on the server is unknown (sync.md: the terminal's sale service voids it).
import type Database from 'better-sqlite3';

export interface OnlineAttempt {
  readonly transactionId: string;
  readonly startedAt: number;
}

export function createOnlineAttempts(db: Database.Database) {
  const begin = db.prepare(
    'INSERT INTO online_attempt (transaction_id, started_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const end = db.prepare('DELETE FROM online_attempt WHERE transaction_id = ?');
  const open = db.prepare<[], { transaction_id: string; started_at: number }>(
    'SELECT transaction_id, started_at FROM online_attempt ORDER BY started_at, transaction_id',
  );
  return {
    /** Before the request leaves: durable once this returns (its own commit). */
    begin(transactionId: string, nowMs: number): void {
      begin.run(transactionId, nowMs);
    },
    /** The outcome is recorded (call inside the transaction that records it). */
    end(transactionId: string): void {
      end.run(transactionId);
    },
    /** Attempts a previous run left open, oldest first. */
    open(): OnlineAttempt[] {
      return open.all().map((r) => ({ transactionId: r.transaction_id, startedAt: r.started_at }));
    },
  };
}

export type OnlineAttempts = ReturnType<typeof createOnlineAttempts>;
