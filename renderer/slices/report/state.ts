// The shift report (X while the shift is open) and whether this screen closed the shift (Z).
import { ZERO, cmp, dec, sub, type Dec } from '../../money.js';
import type { PastShift, ShiftReport } from '../../types.js';

export interface ReportState {
  report: ShiftReport | null;
  closed: boolean;
  /** The latest shifts with the reports kept of each; null until asked for. */
  past: PastShift[] | null;
}

export type ReportField = 'counted-cash';

export function initialReport(): ReportState {
  return { report: null, closed: false, past: null };
}

export type ReportEvent =
  | { type: 'report-loaded'; report: ShiftReport }
  | { type: 'shift-closed'; report: ShiftReport }
  | { type: 'past-loaded'; shifts: PastShift[] };

/** Counted minus expected, exactly; null when either is unknown. */
export function overShort(r: ShiftReport): { value: Dec; sign: number } | null {
  const counted = r.shift.counted_cash;
  if (counted === undefined || r.expected_cash === undefined) return null;
  const value = sub(dec(counted), dec(r.expected_cash));
  return { value, sign: cmp(value, ZERO) };
}
