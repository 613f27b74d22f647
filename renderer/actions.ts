// What each `data-action` (buttons), `data-submit` (forms) and shortcut (keys.ts) does: a
// map from the action's name to a short function of the controller and the element's
// `data-arg`. ActionName is the map's keys: views and keys.ts are typed with it, so a
// misspelt name there does not compile.
//
// A name the map does not know can still reach performAction from the page (a stale build,
// a hand-edited DOM). Decision: that is a bug of the screen, never the cashier's doing, so it
// is reported to whoever reads the console (AppDeps.reportBug, console.error by default:
// devtools, Electron's renderer log, the browser tests) and the cashier sees nothing, no
// message line and no change: there is nothing they could do about it, and an error on a
// working till would only alarm them. It never throws: a throw from a click handler would
// show the cashier the same nothing and lose the name in an unhandled rejection.
import type { Api } from './api.js';
import {
  cancelInput,
  identifyInput,
  refundInput,
  resolveInput,
  saleInput,
  saleStatusInput,
  shiftCloseInput,
  shiftOpenInput,
  signInInput,
  type Built,
  type Errors,
} from './requests.js';
import {
  accountsFor,
  field,
  isAccountPayment,
  type Event,
  type Screen,
  type State,
} from './state.js';
import type {
  CommandInput,
  CommandName,
  CommandOutput,
  ErrorBody,
  TransactionPaymentType,
} from './types.js';

/** What an action may use of the controller (controller.ts implements it). */
export interface Till {
  readonly state: State;
  readonly api: Api;
  payWhenCalculated: boolean;
  dispatch(event: Event): void;
  run<N extends CommandName>(
    name: N,
    input: CommandInput<N>,
    onOk: (out: CommandOutput<N>) => Event | Event[] | void,
    onError?: (e: ErrorBody) => Event | void,
  ): Promise<boolean>;
  invalid<T>(built: Built<T>): built is { errors: Errors };
  calculate(): Promise<void>;
  refreshStatus(): Promise<void>;
  refreshDevices(): Promise<void>;
  loadAttention(): Promise<void>;
  loadReport(): Promise<void>;
  newId(): string;
  action(name: string, arg?: string): Promise<void>;
  reportBug(message: string): void;
}

type Action = (till: Till, arg: string | undefined) => void | Promise<void>;

/** An action that only tells the reducer. */
const send =
  (event: Event): Action =>
  (till) =>
    till.dispatch(event);

const frame = {
  nav: async (till, arg) => {
    const screen = arg as Screen;
    if (screen === 'refund') till.dispatch({ type: 'refund-open', transactionId: null });
    else till.dispatch({ type: 'navigate', screen });
    if (screen === 'attention') await till.loadAttention();
    if (screen === 'report') await till.loadReport();
    if (screen === 'settings') await Promise.all([till.refreshStatus(), till.refreshDevices()]);
    if (screen === 'sale' && till.state.sale.calc.check === null) await till.calculate();
  },
  back: send({ type: 'back' }),
  dismiss: send({ type: 'dismiss' }),
  focus: (till, arg) => (arg ? till.dispatch({ type: 'focus', testid: arg }) : undefined),
  'sync-now': async (till) => {
    await till.run('sync-now', {}, (output) => ({ type: 'synced', output }));
  },
} satisfies Record<string, Action>;

const session = {
  'sign-in': async (till) => {
    const built = signInInput(till.state);
    if (till.invalid(built)) return;
    const ok = await till.run('staff-sign-in', built.input, (output) => ({
      type: 'signed-in',
      output,
    }));
    if (ok) {
      await Promise.all([till.refreshStatus(), till.refreshDevices()]);
      await till.calculate();
    }
  },
  'sign-out': async (till) => {
    await till.run('staff-sign-out', {}, () => ({ type: 'signed-out' }));
  },
  'shift-open': async (till) => {
    const built = shiftOpenInput(till.state);
    if (till.invalid(built)) return;
    const opened = await till.run('shift-open', built.input, (o) => ({
      type: 'shift-opened',
      shift: o.shift,
    }));
    if (opened) await till.calculate();
  },
  'report-load': (till) => till.loadReport(),
  'shift-close': async (till) => {
    const built = shiftCloseInput(till.state);
    if (till.invalid(built)) return;
    await till.run('shift-close', built.input, (o) => ({ type: 'shift-closed', report: o.report }));
    await till.refreshStatus();
  },
} satisfies Record<string, Action>;

const sale = {
  identify: async (till) => {
    const built = identifyInput(till.state);
    if (till.invalid(built)) return;
    const input = built.input;
    const identity = {
      id: input.id,
      id_type: input.id_type,
      ...(input.cardotppassword ? { cardotppassword: input.cardotppassword } : {}),
    };
    await till.run('customer-identify', input, (output) => ({
      type: 'customer-identified',
      output,
      identity,
    }));
  },
  'customer-clear': send({ type: 'customer-clear' }),
  'item-add': send({ type: 'item-add' }),
  'preset-add': (till, arg) => till.dispatch({ type: 'preset-add', index: Number(arg) }),
  'line-remove': (till, arg) => till.dispatch({ type: 'line-remove', index: Number(arg) }),
  'line-inc': (till, arg) => till.dispatch({ type: 'line-step', index: Number(arg), delta: 1 }),
  'line-dec': (till, arg) => till.dispatch({ type: 'line-step', index: Number(arg), delta: -1 }),
  'line-select': (till, arg) => till.dispatch({ type: 'line-select', index: Number(arg) }),
  'select-next': send({ type: 'select-step', delta: 1 }),
  'select-prev': send({ type: 'select-step', delta: -1 }),
  'bonuses-apply': send({ type: 'bonuses-apply' }),
  'bonuses-max': send({ type: 'bonuses-max' }),
  'bonuses-clear': send({ type: 'bonuses-clear' }),
  'coupon-add': send({ type: 'coupon-add' }),
  'coupon-remove': (till, arg) =>
    arg ? till.dispatch({ type: 'coupon-remove', code: arg }) : undefined,
  'rule-toggle': (till, arg) => (arg ? till.dispatch({ type: 'rule-toggle', id: arg }) : undefined),
  'void-sale': send({ type: 'void-sale' }),
  'new-sale': send({ type: 'new-sale' }),
} satisfies Record<string, Action>;

const payment = {
  pay: (till) => {
    if (till.state.sale.calc.pending) {
      till.payWhenCalculated = true;
      return;
    }
    till.dispatch({ type: 'payment-open', transactionId: till.newId() });
  },
  'payment-method': (till, arg) => {
    const method = arg as TransactionPaymentType;
    const accounts = accountsFor(till.state.sale.draft.customer, method);
    const accountId = isAccountPayment(method) && accounts.length === 1 ? accounts[0]!.id : null;
    till.dispatch({ type: 'payment-method', method, accountId });
  },
  'payment-account': (till, arg) =>
    till.dispatch({
      type: 'payment-method',
      method: till.state.sale.draft.payment.type,
      accountId: arg ?? null,
    }),
  'tender-add': send({ type: 'tender-add' }),
  'tender-remove': (till, arg) => till.dispatch({ type: 'tender-remove', index: Number(arg) }),
  'sale-confirm': async (till) => {
    if (till.state.sale.calc.pending || till.state.sale.outcomeUnknown) return;
    // after a refusal the retry is a new transaction (the refused id stays refused)
    if (till.state.sale.transactionId === null)
      till.dispatch({ type: 'sale-id', transactionId: till.newId() });
    const built = saleInput(till.state);
    if (till.invalid(built)) return;
    await till.run(
      'sale-process',
      built.input,
      (result) => ({ type: 'sale-done', result }),
      (error) => ({ type: 'sale-failed', error }),
    );
    await till.refreshStatus();
  },
  'sale-check-status': async (till) => {
    const id = till.state.sale.transactionId;
    if (!id) return;
    await till.run('sale-status', { transaction_id: id }, (output) => ({
      type: 'sale-status',
      output,
    }));
  },
} satisfies Record<string, Action>;

const refund = {
  'refund-open': async (till, arg) => {
    till.dispatch({ type: 'refund-open', transactionId: arg ?? null });
    if (arg) await till.action('refund-load');
  },
  'refund-load': async (till) => {
    const built = saleStatusInput(till.state);
    if (till.invalid(built)) return;
    await till.run('sale-status', built.input, (output) => ({ type: 'refund-loaded', output }));
  },
  'refund-all': send({ type: 'refund-all' }),
  'refund-submit': async (till) => {
    till.dispatch({ type: 'refund-started', refundId: till.newId() });
    const id = till.state.refund.refundId;
    if (!id) return;
    const built = refundInput(till.state, id);
    if (till.invalid(built)) return;
    await till.run(
      'sale-refund',
      built.input,
      (output) => ({ type: 'refund-done', output }),
      (error) => ({ type: 'refund-failed', error }),
    );
    await till.refreshStatus();
  },
  'cancel-submit': async (till) => {
    // destructive: the first press arms, the second cancels
    if (field(till.state, 'cancel-armed') !== '1') {
      till.dispatch({ type: 'field', name: 'cancel-armed', value: '1' });
      till.dispatch({ type: 'notice', key: 'refund.confirm-cancel' });
      return;
    }
    till.dispatch({ type: 'field', name: 'cancel-armed', value: '' });
    const built = cancelInput(till.state);
    if (till.invalid(built)) return;
    await till.run('sale-cancel', built.input, (output) => ({ type: 'cancel-done', output }));
    await till.refreshStatus();
  },
} satisfies Record<string, Action>;

const attention = {
  'attention-load': (till) => till.loadAttention(),
  'attention-toggle-resolved': (till) => {
    till.dispatch({ type: 'attention-toggle-resolved' });
    return till.loadAttention();
  },
  'attention-resolve': async (till, arg) => {
    if (!arg) return;
    await till.run('attention-resolve', resolveInput(till.state, arg), (o) => ({
      type: 'attention-resolved',
      item: o.item,
    }));
    await till.refreshStatus();
  },
  'payment-recover': async (till) => {
    await till.run('payment-recover', {}, (output) => ({ type: 'recovered', output }));
  },
} satisfies Record<string, Action>;

/** Every group of actions (exported for the test that they do not overlap). */
export const ACTION_GROUPS = { frame, session, sale, payment, refund, attention } as const;

const ACTIONS = { ...frame, ...session, ...sale, ...payment, ...refund, ...attention };

/** Every action the screen knows: the names views and keys.ts may put on the page. */
export type ActionName = keyof typeof ACTIONS;

export function isActionName(name: string): name is ActionName {
  return Object.hasOwn(ACTIONS, name);
}

/** Runs the named action; an unknown name is reported as a bug (see the top of this file). */
export async function performAction(till: Till, name: string, arg?: string): Promise<void> {
  if (!isActionName(name)) {
    till.reportBug(`unknown data-action "${name}": no action of the screen has this name`);
    return;
  }
  await ACTIONS[name](till, arg);
}
