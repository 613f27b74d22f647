// Cash paid into or out of the drawer outside a sale (0008), by shift, oldest first.
import type Database from 'better-sqlite3';

export interface CashMovementRecord {
  readonly id: string;
  readonly shiftId: string;
  readonly kind: 'paid-in' | 'paid-out';
  /** Exact decimal text. */
  readonly amount: string;
  readonly reason: string;
  readonly staffId: string;
  readonly staffName: string | null;
  readonly recordedAt: number;
}

interface Row {
  id: string;
  shift_id: string;
  kind: string;
  amount: string;
  reason: string;
  staff_id: string;
  staff_name: string | null;
  recorded_at: number;
}

const recordOf = (r: Row): CashMovementRecord => ({
  id: r.id,
  shiftId: r.shift_id,
  // The table's CHECK admits only these two.
  kind: r.kind === 'paid-out' ? 'paid-out' : 'paid-in',
  amount: r.amount,
  reason: r.reason,
  staffId: r.staff_id,
  staffName: r.staff_name,
  recordedAt: r.recorded_at,
});

export function createCashMovements(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO cash_movement (id, shift_id, kind, amount, reason, staff_id, staff_name, recorded_at)
     VALUES (@id, @shiftId, @kind, @amount, @reason, @staffId, @staffName, @recordedAt)`,
  );
  const ofShift = db.prepare<[string], Row>(
    'SELECT * FROM cash_movement WHERE shift_id = ? ORDER BY recorded_at, rowid',
  );
  return {
    add(m: CashMovementRecord): CashMovementRecord {
      insert.run(m);
      return m;
    },
    of(shiftId: string): CashMovementRecord[] {
      return ofShift.all(shiftId).map(recordOf);
    },
  };
}

export type CashMovements = ReturnType<typeof createCashMovements>;
