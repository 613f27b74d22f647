// The reducer: `reduce(state, event)` hands each event to the one function its slice has for
// it. Each slice's reducer is typed `Reducer<ItsEvents>` (a missing function does not
// compile), `handlers` below is typed over every Event, and test/renderer/reduce.test.ts
// proves no event type belongs to two slices.
import { attention } from './slices/attention/reduce.js';
import { frame } from './slices/frame/reduce.js';
import { payment } from './slices/payment/reduce.js';
import { receipt } from './slices/receipt/reduce.js';
import { refund } from './slices/refund/reduce.js';
import { report } from './slices/report/reduce.js';
import { sale } from './slices/sale/reduce.js';
import { settings } from './slices/settings/reduce.js';
import { signIn } from './slices/sign-in/reduce.js';
import { recent } from './slices/recent/reduce.js';
import { cash } from './slices/cash/reduce.js';
import { goods } from './slices/goods/reduce.js';
import { keypad } from './slices/keypad/reduce.js';
import { loyalty } from './slices/loyalty/reduce.js';
import { forecourt } from './slices/forecourt/reduce.js';
import { tanks } from './slices/tanks/reduce.js';
import type { Event, Reducer, State } from './state.js';

/** Every slice's reducer (exported for the test that they do not overlap). */
export const SLICES = {
  frame,
  signIn,
  sale,
  payment,
  receipt,
  refund,
  attention,
  report,
  settings,
  recent,
  cash,
  goods,
  keypad,
  loyalty,
  forecourt,
  tanks,
} as const;

const handlers: Reducer<Event> = {
  ...frame,
  ...signIn,
  ...sale,
  ...payment,
  ...receipt,
  ...refund,
  ...attention,
  ...report,
  ...settings,
  ...recent,
  ...cash,
  ...goods,
  ...keypad,
  ...loyalty,
  ...forecourt,
  ...tanks,
};

export function reduce(state: State, event: Event): State {
  // handlers[event.type] takes exactly this event's type; TypeScript cannot correlate the
  // two through the union, so the handler is called as one of the whole Event.
  const handle = handlers[event.type] as (state: State, event: Event) => State;
  return handle(state, event);
}
