// The shift report's actions: load it, and close the shift with the cash counted.
import { shiftCloseInput } from '../../requests.js';
import type { Performers } from '../../till.js';

export type ReportAction = { type: 'report-load' } | { type: 'shift-close' };

export const reportActions: Performers<ReportAction> = {
  'report-load': (till) => till.loadReport(),
  'shift-close': async (till) => {
    const built = shiftCloseInput(till.state);
    if (till.invalid(built)) return;
    await till.run('shift-close', built.input, (o) => ({ type: 'shift-closed', report: o.report }));
    await till.refreshStatus();
  },
};
