// The frame's reducer: typing, focus, navigation, the message line, the busy flag, and what
// the terminal pushes about its devices and sync rounds.
import type { Reducer } from '../../state.js';
import {
  fail,
  focusOn,
  go,
  home,
  withForm,
  withMessage,
  type FrameEvent,
  type Screen,
} from './state.js';
import { withoutSelection } from '../recent/state.js';

/** Screens Esc leaves for the signed-in person's home. */
const BACK_HOME: readonly Screen[] = [
  'refund',
  'attention',
  'report',
  'settings',
  'recent',
  'cash',
  'forecourt',
];

export const frame: Reducer<FrameEvent> = {
  field: (state, event) => {
    const { [event.name]: _cleared, ...rest } = state.fieldErrors;
    return { ...withForm(state, { [event.name]: event.value }), fieldErrors: rest };
  },
  invalid: (state, event) => fail(state, { ...event.errors }),
  focus: (state, event) => focusOn(state, event.testid),
  navigate: (state, event) => {
    if (!state.status?.staff) return state;
    // a notice belongs to the screen it was said on; an error stays until it is read
    const left = state.message?.kind === 'notice' ? withMessage(state, null) : state;
    if (event.screen === 'sale' && !left.status?.shift) return go(left, 'shift-open');
    return go(left, event.screen);
  },
  back: (state) => {
    if (state.message) return withMessage(state, null);
    if (state.screen === 'payment' && state.busy === null) return go(state, 'sale');
    if (state.screen === 'loyalty' && state.busy === null) return go(state, 'sale');
    if (state.screen === 'tanks') return go(state, 'forecourt');
    // the sale opened closes before the list is left
    if (state.screen === 'recent' && state.recent.selected !== null)
      return focusOn(withoutSelection(state), 'recent-search');
    if (BACK_HOME.includes(state.screen)) {
      return state.status?.staff ? go(state, home(state)) : state;
    }
    return state;
  },
  dismiss: (state) => withMessage(state, null),
  busy: (state, event) => ({ ...state, busy: event.command }),
  failed: (state, event) => withMessage(state, { kind: 'error', error: event.error }),
  notice: (state, event) =>
    withMessage(state, {
      kind: 'notice',
      key: event.key,
      ...(event.params ? { params: event.params } : {}),
    }),
  'session-expired': (state) => ({ ...state, sessionExpired: true }),
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
};
