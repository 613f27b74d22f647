// The ledger's invariants (docs/store.md): each query names the operations that break one.
// `db check` and the store's own check report them; a whole ledger gives none.
import type Database from 'better-sqlite3';

const INVARIANTS: ReadonlyArray<readonly [string, string]> = [
  [
    'operation without its outbox row',
    'SELECT o.id FROM ledger_operation o WHERE NOT EXISTS (SELECT 1 FROM outbox x WHERE x.transaction_id = o.id)',
  ],
  [
    'check operation without its check',
    "SELECT o.id FROM ledger_operation o WHERE o.kind = 'check' AND NOT EXISTS (SELECT 1 FROM ledger_check c WHERE c.operation_id = o.id)",
  ],
  [
    'cancellation without its record',
    "SELECT o.id FROM ledger_operation o WHERE o.kind = 'cancellation' AND NOT EXISTS (SELECT 1 FROM ledger_cancellation c WHERE c.operation_id = o.id)",
  ],
  [
    'outbox seq differs from the operation',
    'SELECT o.id FROM ledger_operation o JOIN outbox x ON x.transaction_id = o.id WHERE x.seq <> o.seq',
  ],
  [
    'done row of an unconfirmed operation',
    "SELECT o.id FROM ledger_operation o JOIN outbox x ON x.transaction_id = o.id WHERE x.status = 'done' AND o.sync_status <> 'confirmed'",
  ],
  [
    'rejected row of a non-rejected operation',
    "SELECT o.id FROM ledger_operation o JOIN outbox x ON x.transaction_id = o.id WHERE x.status = 'rejected' AND o.sync_status <> 'rejected'",
  ],
  [
    'hold of a rejected operation',
    "SELECT DISTINCT o.id FROM pending p JOIN ledger_operation o ON o.id = p.operation_id WHERE o.sync_status = 'rejected'",
  ],
  [
    'unconfirmed hold marked confirmed',
    "SELECT DISTINCT o.id FROM pending p JOIN ledger_operation o ON o.id = p.operation_id WHERE o.sync_status = 'unconfirmed' AND p.confirmed_at IS NOT NULL",
  ],
];

/** The invariants' statements, prepared once: a check runs them all. */
export function invariantStatements(
  db: Database.Database,
): ReadonlyArray<readonly [string, Database.Statement<[], { id: string }>]> {
  return INVARIANTS.map(([problem, sql]) => [problem, db.prepare<[], { id: string }>(sql)]);
}

/** Breaches of the ledger's invariants, at most `limit` ids each (empty when whole). */
export function breaches(
  invariants: ReturnType<typeof invariantStatements>,
  limit: number,
): Array<{ problem: string; ids: string[] }> {
  const out: Array<{ problem: string; ids: string[] }> = [];
  for (const [problem, stmt] of invariants) {
    const ids: string[] = [];
    for (const r of stmt.iterate()) {
      ids.push(r.id);
      if (ids.length >= limit) break;
    }
    if (ids.length > 0) out.push({ problem, ids });
  }
  return out;
}
