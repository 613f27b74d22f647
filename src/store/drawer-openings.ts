// The cash drawer opened on request (0009, `drawer-open`), by shift, oldest first.
import type Database from 'better-sqlite3';

export interface DrawerOpeningRecord {
  readonly id: string;
  readonly shiftId: string;
  readonly staffId: string;
  readonly staffName: string | null;
  readonly reason: string | null;
  /** Whether the printer took the pulse (false: no printer, or it failed). */
  readonly pulseSent: boolean;
  readonly openedAt: number;
}

interface Row {
  id: string;
  shift_id: string;
  staff_id: string;
  staff_name: string | null;
  reason: string | null;
  pulse_sent: number;
  opened_at: number;
}

const recordOf = (r: Row): DrawerOpeningRecord => ({
  id: r.id,
  shiftId: r.shift_id,
  staffId: r.staff_id,
  staffName: r.staff_name,
  reason: r.reason,
  pulseSent: r.pulse_sent === 1,
  openedAt: r.opened_at,
});

export function createDrawerOpenings(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO drawer_opening (id, shift_id, staff_id, staff_name, reason, pulse_sent, opened_at)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const ofShift = db.prepare<[string], Row>(
    'SELECT * FROM drawer_opening WHERE shift_id = ? ORDER BY opened_at, rowid',
  );
  return {
    add(o: DrawerOpeningRecord): DrawerOpeningRecord {
      insert.run(
        o.id,
        o.shiftId,
        o.staffId,
        o.staffName,
        o.reason,
        o.pulseSent ? 1 : 0,
        o.openedAt,
      );
      return o;
    },
    of(shiftId: string): DrawerOpeningRecord[] {
      return ofShift.all(shiftId).map(recordOf);
    },
  };
}

export type DrawerOpenings = ReturnType<typeof createDrawerOpenings>;
