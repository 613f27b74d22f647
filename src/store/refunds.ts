// The refunds this terminal recorded against a sale (ledger_check.original_transaction_id,
// indexed since 0002): a later refund may return only what earlier ones left, and a sale
// with refunds is no longer cancelled whole.
import type Database from 'better-sqlite3';
import { StoredCheck } from '../contract/stored.js';
import { readStoredOrThrow } from './stored-json.js';

export interface RecordedRefund {
  readonly id: string;
  readonly document: StoredCheck;
  readonly syncStatus: string;
}

export function createRefunds(db: Database.Database) {
  const of = db.prepare<[string], { id: string; check_json: string; sync_status: string }>(
    `SELECT c.operation_id AS id, c.check_json, o.sync_status FROM ledger_check c
       JOIN ledger_operation o ON o.id = c.operation_id
      WHERE c.original_transaction_id = ? ORDER BY o.seq`,
  );
  return {
    /**
     * Refunds of a sale, oldest first (a rejected one too: its goods went back over the
     * counter). A refund check that no longer passes its schema throws `invalid-record`.
     */
    of(originalId: string): RecordedRefund[] {
      return of.all(originalId).map((r) => ({
        id: r.id,
        document: readStoredOrThrow(StoredCheck, r.check_json, `ledger_check ${r.id}`),
        syncStatus: r.sync_status,
      }));
    },
  };
}

export type Refunds = ReturnType<typeof createRefunds>;
