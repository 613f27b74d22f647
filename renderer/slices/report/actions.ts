// The shift report's actions: load it, print the X report (kept with the shift), close the
// shift with the cash counted, and the past shifts: list them, open one's Z report, print it
// again as a copy.
import { shiftCloseInput } from '../../requests.js';
import type { Event } from '../../state.js';
import type { Performers } from '../../till.js';
import type { CommandOutput } from '../../types.js';

export type ReportAction =
  | { type: 'report-load' }
  | { type: 'report-print' }
  | { type: 'shift-close' }
  | { type: 'past-load' }
  | { type: 'past-open'; shiftId: string }
  | { type: 'past-print'; shiftId: string };

/** The report shown, and whether the printer took it. */
const printed = (o: CommandOutput<'shift-report'>): Event[] => [
  { type: 'report-loaded', report: o.report },
  { type: 'notice', key: o.kept?.printed ? 'report.printed' : 'report.not-printed' },
];

/** How many past shifts the list shows. */
const PAST = 10;

export const reportActions: Performers<ReportAction> = {
  'report-load': (till) => till.loadReport(),
  'report-print': async (till) => {
    await till.run('shift-report', { print: true }, printed);
  },
  'shift-close': async (till) => {
    const built = shiftCloseInput(till.state);
    if (till.invalid(built)) return;
    await till.run('shift-close', built.input, (o) => ({ type: 'shift-closed', report: o.report }));
    await till.refreshStatus();
  },
  'past-load': async (till) => {
    await till.run('shifts-recent', { limit: PAST }, (o) => ({
      type: 'past-loaded',
      shifts: o.shifts,
    }));
  },
  'past-open': async (till, { shiftId }) => {
    await till.run('shift-report', { shift_id: shiftId }, (o) => ({
      type: 'report-loaded',
      report: o.report,
    }));
  },
  'past-print': async (till, { shiftId }) => {
    await till.run('shift-report', { shift_id: shiftId, print: true }, printed);
  },
};
