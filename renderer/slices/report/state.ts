// The shift report (X while the shift is open) and whether this screen closed the shift (Z).
import type { ShiftReport } from '../../types.js';

export interface ReportState {
  report: ShiftReport | null;
  closed: boolean;
}

export type ReportField = 'counted-cash';

export function initialReport(): ReportState {
  return { report: null, closed: false };
}

export type ReportEvent =
  { type: 'report-loaded'; report: ShiftReport } | { type: 'shift-closed'; report: ShiftReport };
