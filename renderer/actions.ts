// What the cashier can ask for: one typed union, `Action`, that buttons, forms, fields and
// shortcuts (keys.ts) hand to the controller, and the short function of the controller each
// one runs. The union is the map's keys: an action nobody handles, or a misspelt one, does
// not compile, and nothing is ever read back from the page as a name.
//
// An action either is an event the reducer takes as it is (`send`: typing, selecting a line,
// dismissing the message) or runs commands and turns their answers into events.
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
  type NavScreen,
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
  perform(action: Action): Promise<void>;
}

/** The function of each action of a union, each given exactly its own action. */
export type Performers<A extends { type: string }> = {
  [T in A['type']]: (till: Till, action: Extract<A, { type: T }>) => void | Promise<void>;
};

/** An action that is an event of the same shape: the reducer takes it as it is. */
const send = (till: Till, event: Event): void => till.dispatch(event);

type FrameAction =
  | { type: 'nav'; screen: NavScreen | 'shift-open' }
  | { type: 'back' }
  | { type: 'dismiss' }
  | { type: 'focus'; testid: string }
  | { type: 'field'; name: string; value: string }
  | { type: 'sync-now' };

const frame: Performers<FrameAction> = {
  nav: async (till, { screen }) => {
    if (screen === 'refund') till.dispatch({ type: 'refund-open', transactionId: null });
    else till.dispatch({ type: 'navigate', screen });
    if (screen === 'attention') await till.loadAttention();
    if (screen === 'report') await till.loadReport();
    if (screen === 'settings') await Promise.all([till.refreshStatus(), till.refreshDevices()]);
    if (screen === 'sale' && till.state.sale.calc.check === null) await till.calculate();
  },
  back: send,
  dismiss: send,
  focus: send,
  field: send,
  'sync-now': async (till) => {
    await till.run('sync-now', {}, (output) => ({ type: 'synced', output }));
  },
};

type SessionAction =
  | { type: 'sign-in' }
  | { type: 'sign-out' }
  | { type: 'shift-open' }
  | { type: 'report-load' }
  | { type: 'shift-close' };

const session: Performers<SessionAction> = {
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
};

type SaleAction =
  | { type: 'identify' }
  | { type: 'customer-clear' }
  | { type: 'item-add' }
  | { type: 'preset-add'; index: number }
  | { type: 'line-remove'; index: number }
  | { type: 'line-step'; index: number; delta: 1 | -1 }
  | { type: 'line-select'; index: number | null }
  | { type: 'select-step'; delta: 1 | -1 }
  | { type: 'bonuses-apply' }
  | { type: 'bonuses-max' }
  | { type: 'bonuses-clear' }
  | { type: 'coupon-add' }
  | { type: 'coupon-remove'; code: string }
  | { type: 'rule-toggle'; id: string }
  | { type: 'void-sale' }
  | { type: 'new-sale' };

const sale: Performers<SaleAction> = {
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
  'customer-clear': send,
  'item-add': send,
  'preset-add': send,
  'line-remove': send,
  'line-step': send,
  'line-select': send,
  'select-step': send,
  'bonuses-apply': send,
  'bonuses-max': send,
  'bonuses-clear': send,
  'coupon-add': send,
  'coupon-remove': send,
  'rule-toggle': send,
  'void-sale': send,
  'new-sale': send,
};

type PaymentAction =
  | { type: 'pay' }
  | { type: 'payment-method'; method: TransactionPaymentType }
  | { type: 'payment-account'; accountId: string }
  | { type: 'tender-add' }
  | { type: 'tender-remove'; index: number }
  | { type: 'sale-confirm' }
  | { type: 'sale-check-status' };

const payment: Performers<PaymentAction> = {
  pay: (till) => {
    if (till.state.sale.calc.pending) {
      till.payWhenCalculated = true;
      return;
    }
    till.dispatch({ type: 'payment-open', transactionId: till.newId() });
  },
  'payment-method': (till, { method }) => {
    const accounts = accountsFor(till.state.sale.draft.customer, method);
    const accountId = isAccountPayment(method) && accounts.length === 1 ? accounts[0]!.id : null;
    till.dispatch({ type: 'payment-method', method, accountId });
  },
  'payment-account': (till, { accountId }) =>
    till.dispatch({
      type: 'payment-method',
      method: till.state.sale.draft.payment.type,
      accountId,
    }),
  'tender-add': send,
  'tender-remove': send,
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
};

type RefundAction =
  | { type: 'refund-open'; transactionId: string | null }
  | { type: 'refund-load' }
  | { type: 'refund-all' }
  | { type: 'refund-submit' }
  | { type: 'cancel-submit' };

const refund: Performers<RefundAction> = {
  'refund-open': async (till, action) => {
    till.dispatch(action);
    if (action.transactionId) await till.perform({ type: 'refund-load' });
  },
  'refund-load': async (till) => {
    const built = saleStatusInput(till.state);
    if (till.invalid(built)) return;
    await till.run('sale-status', built.input, (output) => ({ type: 'refund-loaded', output }));
  },
  'refund-all': send,
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
};

type AttentionAction =
  | { type: 'attention-load' }
  | { type: 'attention-toggle-resolved' }
  | { type: 'attention-resolve'; id: string }
  | { type: 'payment-recover' };

const attention: Performers<AttentionAction> = {
  'attention-load': (till) => till.loadAttention(),
  'attention-toggle-resolved': (till) => {
    till.dispatch({ type: 'attention-toggle-resolved' });
    return till.loadAttention();
  },
  'attention-resolve': async (till, { id }) => {
    await till.run('attention-resolve', resolveInput(till.state, id), (o) => ({
      type: 'attention-resolved',
      item: o.item,
    }));
    await till.refreshStatus();
  },
  'payment-recover': async (till) => {
    await till.run('payment-recover', {}, (output) => ({ type: 'recovered', output }));
  },
};

/** Everything the cashier can ask for. */
export type Action =
  FrameAction | SessionAction | SaleAction | PaymentAction | RefundAction | AttentionAction;

/** Every group of actions (exported for the test that they do not overlap). */
export const ACTION_GROUPS = { frame, session, sale, payment, refund, attention } as const;

const PERFORMERS: Performers<Action> = {
  ...frame,
  ...session,
  ...sale,
  ...payment,
  ...refund,
  ...attention,
};

/** Runs an action. */
export async function perform(till: Till, action: Action): Promise<void> {
  // PERFORMERS[action.type] takes exactly this action's type; TypeScript cannot correlate
  // the two through the union, so the function is called as one of the whole Action.
  const run = PERFORMERS[action.type] as (till: Till, action: Action) => void | Promise<void>;
  await run(till, action);
}
