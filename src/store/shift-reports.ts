// Shift reports kept (0009): an X report printed during a shift, the Z report of its close;
// the report is the `shift-report` answer's JSON, read back through its schema.
import type Database from 'better-sqlite3';
import { ShiftReport } from '../contract/commands.js';
import { readStoredOrThrow } from './stored-json.js';

export type ReportKind = 'x' | 'z';

export interface KeptShiftReport {
  readonly id: string;
  readonly shiftId: string;
  readonly kind: ReportKind;
  readonly report: ShiftReport;
  readonly printed: boolean;
  readonly createdAt: number;
}

interface Row {
  id: string;
  shift_id: string;
  kind: string;
  report: string;
  printed: number;
  created_at: number;
}

const recordOf = (r: Row): KeptShiftReport => ({
  id: r.id,
  shiftId: r.shift_id,
  // The table's CHECK admits only these two.
  kind: r.kind === 'z' ? 'z' : 'x',
  report: readStoredOrThrow(ShiftReport, r.report, `shift_report ${r.id}`),
  printed: r.printed === 1,
  createdAt: r.created_at,
});

export function createShiftReports(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO shift_report (id, shift_id, kind, report, printed, created_at)
     VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const ofShift = db.prepare<[string], Row>(
    'SELECT * FROM shift_report WHERE shift_id = ? ORDER BY created_at, rowid',
  );
  const byId = db.prepare<[string], Row>('SELECT * FROM shift_report WHERE id = ?');
  const printed = db.prepare('UPDATE shift_report SET printed = 1 WHERE id = ?');
  const recent = db
    .prepare<[number], string>('SELECT id FROM shift ORDER BY opened_at DESC, rowid DESC LIMIT ?')
    .pluck();
  return {
    add(r: KeptShiftReport): KeptShiftReport {
      insert.run(r.id, r.shiftId, r.kind, JSON.stringify(r.report), r.printed ? 1 : 0, r.createdAt);
      return r;
    },
    get: (id: string): KeptShiftReport | null => {
      const r = byId.get(id);
      return r ? recordOf(r) : null;
    },
    /** A shift's kept reports, oldest first. */
    of: (shiftId: string): KeptShiftReport[] => ofShift.all(shiftId).map(recordOf),
    markPrinted: (id: string): void => void printed.run(id),
    /** The ids of the latest shifts, newest first. */
    recentShiftIds: (limit: number): string[] => recent.all(limit),
  };
}

export type ShiftReports = ReturnType<typeof createShiftReports>;
