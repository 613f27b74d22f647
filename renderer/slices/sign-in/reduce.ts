// The sign-in slice's reducer: the status says who is signed in and whether a shift is open,
// and the screen follows (a sign-out elsewhere ends the sale on this screen too).
import type { Reducer, State } from '../../state.js';
import type { Status } from '../../types.js';
import { go, home, withForm } from '../frame/state.js';
import { noReceipt } from '../receipt/state.js';
import { initialReport } from '../report/state.js';
import { freshSale } from '../sale/reduce.js';
import type { SignInEvent } from './state.js';

/** Nobody is signed in any more: the sale in progress and the last receipt go. */
function signedOut(state: State): State {
  return go(noReceipt(freshSale(state)), 'sign-in');
}

export const signIn: Reducer<SignInEvent> = {
  status: (state, event) => {
    const next: State = { ...state, status: event.status };
    if (!event.status.staff) return state.screen === 'sign-in' ? next : signedOut(next);
    if (state.screen === 'sign-in') return go(next, home(next));
    if (!event.status.shift && (state.screen === 'sale' || state.screen === 'payment')) {
      return go(next, 'shift-open');
    }
    return next;
  },
  'signed-in': (state, event) => {
    const { staff, shift } = event.output;
    const status: Status | null = state.status ? { ...state.status, staff, shift } : null;
    const next = withForm({ ...state, status, message: null }, { 'auth-code': '' });
    return go(next, shift ? 'sale' : 'shift-open');
  },
  'signed-out': (state) => {
    const status = state.status ? { ...state.status, staff: null } : null;
    return signedOut({ ...state, status, message: null });
  },
  'shift-opened': (state, event) => {
    const status = state.status ? { ...state.status, shift: event.shift } : null;
    const next = withForm({ ...state, status, report: initialReport() }, { 'opening-cash': '' });
    return go(next, 'sale');
  },
};
