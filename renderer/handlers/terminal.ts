// Handlers of what the terminal reports and of the staff session: status, devices, sync
// progress and rounds, presets, sign-in and -out, the shift opening.
import type { Handlers, State } from '../state.js';
import type { Status } from '../types.js';
import { go, home, resetSale, withForm } from '../update.js';

export const terminal = {
  status: (state, event) => {
    const next: State = { ...state, status: event.status };
    if (!event.status.staff) {
      return state.screen === 'sign-in' ? next : go(resetSale(next), 'sign-in');
    }
    if (state.screen === 'sign-in') return go(next, home(next));
    if (!event.status.shift && (state.screen === 'sale' || state.screen === 'payment')) {
      return go(next, 'shift-open');
    }
    return next;
  },
  devices: (state, event) => ({ ...state, devices: event.devices }),
  device: (state, event) => {
    const others = state.devices.filter((d) => d.kind !== event.device.kind);
    const devices = [...others, event.device].sort((a, b) => a.kind.localeCompare(b.kind));
    return { ...state, devices };
  },
  'sync-progress': (state, event) => {
    const p = event.progress;
    const done = p.total !== null && p.done >= p.total;
    const status = state.status ? { ...state.status, sync: p.sync } : state.status;
    return { ...state, status, progress: done ? null : p };
  },
  synced: (state, event) => {
    const status = state.status ? { ...state.status, sync: event.output.sync } : null;
    return {
      ...state,
      status,
      lastSync: event.output,
      message: event.output.error
        ? { kind: 'warning', error: event.output.error }
        : {
            kind: 'notice',
            key: 'sync.done',
            params: { pushed: event.output.pushed, pulled: event.output.pulled },
          },
    };
  },
  presets: (state, event) => ({ ...state, presets: event.presets }),
  'signed-in': (state, event) => {
    const { staff, shift } = event.output;
    const status: Status | null = state.status ? { ...state.status, staff, shift } : null;
    const next = withForm({ ...state, status, message: null }, { 'auth-code': '' });
    return go(next, shift ? 'sale' : 'shift-open');
  },
  'signed-out': (state) => {
    const status = state.status ? { ...state.status, staff: null } : null;
    return go(resetSale({ ...state, status, message: null }), 'sign-in');
  },
  'shift-opened': (state, event) => {
    const status = state.status ? { ...state.status, shift: event.shift } : null;
    const next = withForm(
      { ...state, status, report: { report: null, closed: false } },
      { 'opening-cash': '' },
    );
    return go(next, 'sale');
  },
} satisfies Partial<Handlers>;
