// The report slice's reducer.
import type { Reducer } from '../../state.js';
import { withForm } from '../frame/state.js';
import type { ReportEvent } from './state.js';

export const report: Reducer<ReportEvent> = {
  'report-loaded': (state, event) => ({
    ...state,
    report: { ...state.report, report: event.report, closed: false },
  }),
  'past-loaded': (state, event) => ({
    ...state,
    report: { ...state.report, past: event.shifts },
  }),
  'shift-closed': (state, event) => {
    const status = state.status ? { ...state.status, shift: null } : null;
    return withForm(
      {
        ...state,
        status,
        report: { report: event.report, closed: true, past: null },
        message: { kind: 'notice', key: 'report.closed' },
      },
      { 'counted-cash': '' },
    );
  },
};
