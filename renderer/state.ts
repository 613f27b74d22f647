// The cashier UI's view model: one immutable State, the Events that change it and the
// selectors the views read. `reduce(state, event)` (reduce.ts) is pure and gives every event
// type its own handler (handlers/*.ts). Everything the screen shows is derived from State,
// and every change goes through reduce, so the whole workflow (sign in, sell, pay, refund) is
// testable in Node without a DOM. Effects (API calls, clocks, random ids) live in app.ts and
// come back as events.
import { numberStyle, type Lang, type MessageKey } from './i18n.js';
import { ZERO, add, cmp, dec, parseTyped, sub, type Dec } from './money.js';
import type {
  AttentionItem,
  CancelResult,
  CheckItemRequest,
  CheckResponse,
  CommandName,
  CommandOutput,
  CommittedSale,
  CustomerSource,
  CustomerSummary,
  DeviceState,
  ErrorBody,
  IdType,
  RecoverResult,
  RefundResult,
  SaleResult,
  SaleStatus,
  Shift,
  ShiftReport,
  StaffRole,
  Status,
  SyncNowResult,
  SyncProgress,
  TransactionPaymentType,
  Warning,
} from './types.js';

export type Screen =
  | 'sign-in'
  | 'shift-open'
  | 'sale'
  | 'payment'
  | 'receipt'
  | 'refund'
  | 'attention'
  | 'report'
  | 'settings';

/** Screens a signed-in cashier reaches from the navigation bar. */
export const NAV_SCREENS = ['sale', 'refund', 'attention', 'report', 'settings'] as const;
export type NavScreen = (typeof NAV_SCREENS)[number];

/** How an item line is entered: goods, or fuel prepaid by amount or by quantity. */
export type ItemKind = 'goods' | 'fuel-amount' | 'fuel-quantity';
export const ITEM_KINDS: readonly ItemKind[] = ['goods', 'fuel-amount', 'fuel-quantity'];

/** `auto` guesses the identifier type from what was typed or scanned. */
export type IdTypeChoice = IdType | 'auto';
export const ID_TYPE_CHOICES: readonly IdTypeChoice[] = [
  'auto',
  'card',
  'phone',
  'qr',
  'email',
  'external-id',
  'vehicle',
  'avi',
];

export const PAYMENT_TYPES: readonly TransactionPaymentType[] = [
  'cash',
  'bank-card',
  'special-account',
  'corporate-special-account',
];

/** A quick-pick item (POS presets); `price` as the engine will see it. */
export interface Preset {
  code: string;
  title?: string;
  price?: number;
  unit?: string;
  fuel?: boolean;
}

/** One part of a split payment; `amount` is exact decimal text. */
export interface Tender {
  type: 'cash' | 'bank-card';
  amount: string;
}

/** What the cashier has put together; every change here is followed by a `check-calc`. */
export interface Draft {
  lines: CheckItemRequest[];
  identity: { id: string; id_type: IdType; cardotppassword?: string } | null;
  customer: CustomerSummary | null;
  customerSource: CustomerSource | null;
  coupons: string[];
  manualRuleIds: string[];
  /** Bonuses the customer wants to spend, as typed (exact text); '' = none. */
  bonuses: string;
  payment: { type: TransactionPaymentType; accountId: string | null };
}

export interface Receipt {
  transactionId: string;
  subtype: SaleResult['subtype'];
  check: CheckResponse;
  warnings: Warning[];
  payments: SaleResult['payments'];
  sync: SaleResult['sync'];
  receiptPrinted: boolean | null;
  /** The cash handed over and the change, as the terminal recorded them. */
  cash?: SaleResult['cash'];
  /** The receipt as printed: the ESC/POS bytes sent, decoded by the terminal. */
  preview?: SaleResult['receipt'];
}

export type MessageKind = 'error' | 'warning' | 'notice';

export interface Message {
  kind: MessageKind;
  key?: MessageKey;
  params?: Record<string, string | number>;
  error?: ErrorBody;
}

export interface State {
  language: Lang;
  screen: Screen;
  status: Status | null;
  devices: DeviceState[];
  /** A snapshot or sync round in progress (the progress bar). */
  progress: SyncProgress | null;
  /** The blocking command in flight, if any. */
  busy: CommandName | null;
  /** The page's session is gone (browser kiosk): the agent must print a new URL. */
  sessionExpired: boolean;
  message: Message | null;
  /** Text of every input, by field name (the DOM mirrors it). */
  form: Readonly<Record<string, string>>;
  fieldErrors: Readonly<Record<string, MessageKey>>;
  /** Move the focus to this data-testid after the next render (seq makes a repeat count). */
  focus: { testid: string; seq: number } | null;
  presets: Preset[];
  sale: {
    draft: Draft;
    /** Bumped on every draft change: the controller runs `check-calc` when it moves. */
    version: number;
    selected: number | null;
    calc: {
      seq: number;
      pending: boolean;
      check: CheckResponse | null;
      warnings: Warning[];
      error: ErrorBody | null;
    };
    /** Made before the first attempt, kept for every retry (sync.md). */
    transactionId: string | null;
    tenders: Tender[];
    /** `sale-process` got no answer: ask `sale-status` before anything else. */
    outcomeUnknown: boolean;
    receipt: Receipt | null;
    lastTransactionId: string | null;
  };
  refund: {
    sale: CommittedSale | null;
    /** The refund's own id, kept across retries of the same refund. */
    refundId: string | null;
    result: RefundResult | null;
    cancelled: CancelResult | null;
  };
  attention: { items: AttentionItem[]; includeResolved: boolean; loaded: boolean };
  report: { report: ShiftReport | null; closed: boolean };
  recover: RecoverResult | null;
  lastSync: SyncNowResult | null;
}

export function emptyDraft(): Draft {
  return {
    lines: [],
    identity: null,
    customer: null,
    customerSource: null,
    coupons: [],
    manualRuleIds: [],
    bonuses: '',
    payment: { type: 'cash', accountId: null },
  };
}

const initialForm: Record<string, string> = {
  'customer-id-type': 'auto',
  'item-kind': 'goods',
  'item-quantity': '1',
  'odometer-unit': 'km',
  'tender-type': 'cash',
};

export function initialState(language: Lang = 'en'): State {
  return {
    language,
    screen: 'sign-in',
    status: null,
    devices: [],
    progress: null,
    busy: null,
    sessionExpired: false,
    message: null,
    form: { ...initialForm, language },
    fieldErrors: {},
    focus: { testid: 'sign-in-code', seq: 1 },
    presets: [],
    sale: {
      draft: emptyDraft(),
      version: 0,
      selected: null,
      calc: { seq: 0, pending: false, check: null, warnings: [], error: null },
      transactionId: null,
      tenders: [],
      outcomeUnknown: false,
      receipt: null,
      lastTransactionId: null,
    },
    refund: { sale: null, refundId: null, result: null, cancelled: null },
    attention: { items: [], includeResolved: false, loaded: false },
    report: { report: null, closed: false },
    recover: null,
    lastSync: null,
  };
}

// ---- events ----

export type Event =
  | { type: 'field'; name: string; value: string }
  | { type: 'invalid'; errors: Readonly<Record<string, MessageKey>> }
  | { type: 'focus'; testid: string }
  | { type: 'navigate'; screen: Screen }
  | { type: 'back' }
  | { type: 'dismiss' }
  | { type: 'language'; language: Lang }
  | { type: 'busy'; command: CommandName | null }
  | { type: 'failed'; error: ErrorBody }
  | { type: 'notice'; key: MessageKey; params?: Record<string, string | number> }
  | { type: 'session-expired' }
  | { type: 'status'; status: Status }
  | { type: 'devices'; devices: DeviceState[] }
  | { type: 'device'; device: DeviceState }
  | { type: 'sync-progress'; progress: SyncProgress }
  | { type: 'presets'; presets: Preset[] }
  | { type: 'signed-in'; output: CommandOutput<'staff-sign-in'> }
  | { type: 'signed-out' }
  | { type: 'shift-opened'; shift: Shift }
  | {
      type: 'customer-identified';
      output: CommandOutput<'customer-identify'>;
      identity: Draft['identity'];
    }
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
  | { type: 'calc-started'; seq: number }
  | { type: 'calc-done'; seq: number; result: CommandOutput<'check-calc'> | { error: ErrorBody } }
  | { type: 'payment-open'; transactionId: string }
  | { type: 'payment-method'; method: TransactionPaymentType; accountId?: string | null }
  | { type: 'tender-add' }
  | { type: 'tender-remove'; index: number }
  | { type: 'sale-done'; result: SaleResult }
  | { type: 'sale-failed'; error: ErrorBody }
  /** A fresh transaction id for a sale that has none (after a refusal): the retry's. */
  | { type: 'sale-id'; transactionId: string }
  | { type: 'sale-status'; output: SaleStatus }
  | { type: 'void-sale' }
  | { type: 'new-sale' }
  | { type: 'refund-open'; transactionId: string | null }
  | { type: 'refund-loaded'; output: SaleStatus }
  | { type: 'refund-all' }
  | { type: 'refund-started'; refundId: string }
  | { type: 'refund-done'; output: RefundResult }
  | { type: 'refund-failed'; error: ErrorBody }
  | { type: 'cancel-done'; output: CancelResult }
  | { type: 'attention-loaded'; items: AttentionItem[] }
  | { type: 'attention-toggle-resolved' }
  | { type: 'attention-resolved'; item: AttentionItem }
  | { type: 'report-loaded'; report: ShiftReport }
  | { type: 'shift-closed'; report: ShiftReport }
  | { type: 'recovered'; output: RecoverResult }
  | { type: 'synced'; output: SyncNowResult };

export type EventType = Event['type'];
export type EventOf<T extends EventType> = Extract<Event, { type: T }>;
/** One handler per event type; reduce.ts holds them all, so a missing one does not compile. */
export type Handlers = { [T in EventType]: (state: State, event: EventOf<T>) => State };

// ---- selectors ----

const ROLE_RANK: Record<StaffRole, number> = { cashier: 0, 'senior-cashier': 1, manager: 2 };

/** Whether the signed-in staff member holds `role` or a higher one (interfaces.md, Roles). */
export function hasRole(state: State, role: StaffRole): boolean {
  const roles = state.status?.staff?.roles ?? [];
  return roles.some((r) => ROLE_RANK[r] >= ROLE_RANK[role]);
}

export function field(state: State, name: string): string {
  return state.form[name] ?? '';
}

/** How items may be entered at this POS (CheckPos `check_item_enter_mode`). */
export function enterMode(state: State) {
  return state.sale.calc.check?.pos?.check_item_enter_mode ?? 'without-limits';
}

/** The POS's time zone (CheckPos `time_zone`) once a calculation told it; else null. */
export function posTimeZone(state: State): string | null {
  return state.sale.calc.check?.pos?.time_zone ?? null;
}

/** The check's money digits (default 2, engine.md 1). */
export function amountDigits(check: CheckResponse | null | undefined): number {
  return check?.amount_decimal_digits ?? 2;
}

export function bonusDigits(check: CheckResponse | null | undefined): number {
  return check?.bonuses_decimal_digits ?? 2;
}

/** What is due: the engine's `amount_to_pay` of the latest calculation. */
export function amountDue(state: State): Dec | null {
  const due = state.sale.calc.check?.amount_to_pay;
  return due === undefined ? null : dec(due);
}

/** Due minus the tenders taken so far; null while no calculation is there. */
export function remaining(state: State): Dec | null {
  const due = amountDue(state);
  if (due === null) return null;
  let left = due;
  for (const t of state.sale.tenders) {
    const d = parseTyped(t.amount);
    if (d) left = sub(left, d);
  }
  return left;
}

/** Change for the cash the customer handed over, when it covers the cash part. */
export function change(state: State): Dec | null {
  const given = parseTyped(field(state, 'cash-given'), numberStyle(state.language));
  if (given === null) return null;
  const cash = state.sale.tenders.filter((t) => t.type === 'cash');
  let cashDue: Dec | null = null;
  if (cash.length > 0) {
    cashDue = ZERO;
    for (const t of cash) {
      const d = parseTyped(t.amount);
      if (d) cashDue = add(cashDue, d);
    }
  } else if (state.sale.tenders.length === 0 && state.sale.draft.payment.type === 'cash') {
    cashDue = amountDue(state);
  }
  if (cashDue === null) return null;
  const c = sub(given, cashDue);
  return cmp(c, ZERO) < 0 ? null : c;
}

export function isAccountPayment(type: TransactionPaymentType): boolean {
  return type === 'special-account' || type === 'corporate-special-account';
}

/** The customer's accounts this payment type pays from (a fleet's through the driver's access). */
export function accountsFor(
  customer: CustomerSummary | null,
  type: TransactionPaymentType,
): CustomerSummary['special_accounts'] {
  return (customer?.special_accounts ?? []).filter((a) => a.payment_type === type);
}

/**
 * Whether the sale may move to payment: lines, a calculation that answered, no refusal. A
 * calculation still running does not disable the button: the controller opens the payment
 * when it lands (`payment-open` itself waits for it).
 */
export function canPay(state: State): boolean {
  const s = state.sale;
  return (
    s.draft.lines.length > 0 &&
    s.calc.check !== null &&
    s.calc.error === null &&
    state.busy === null
  );
}

/** Guess an identifier type from what was typed or scanned. */
export function guessIdType(id: string): IdType {
  const t = id.trim();
  if (t.includes('@')) return 'email';
  if (/^\+\d[\d\s-]{5,}$/.test(t)) return 'phone';
  if (t.length > 24 || /[^\w-]/.test(t)) return 'qr';
  return 'card';
}
