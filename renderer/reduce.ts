// The reducer: `reduce(state, event)` hands each event to the one handler of its type. The
// handlers live by concern in handlers/*.ts; `handlers` below is typed `Handlers`, so an
// event type without a handler is a compile error, and test/renderer/reduce.test.ts proves
// no type has two.
import { attention, refund, report } from './handlers/back-office.js';
import { frame } from './handlers/frame.js';
import { offers } from './handlers/offers.js';
import { outcome, payment } from './handlers/payment.js';
import { calc, customer, lines } from './handlers/sale.js';
import { terminal } from './handlers/terminal.js';
import type { Event, Handlers, State } from './state.js';

/** Every group of handlers, by concern (exported for the test that they do not overlap). */
export const HANDLER_GROUPS = {
  frame,
  terminal,
  customer,
  lines,
  offers,
  calc,
  payment,
  outcome,
  refund,
  attention,
  report,
} as const;

const handlers: Handlers = {
  ...frame,
  ...terminal,
  ...customer,
  ...lines,
  ...offers,
  ...calc,
  ...payment,
  ...outcome,
  ...refund,
  ...attention,
  ...report,
};

export function reduce(state: State, event: Event): State {
  // handlers[event.type] takes exactly this event's type; TypeScript cannot correlate the
  // two through the union, so the handler is called as one of the whole Event.
  const handle = handlers[event.type] as (state: State, event: Event) => State;
  return handle(state, event);
}
