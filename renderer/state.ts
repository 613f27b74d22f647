// The cashier UI's view model: one immutable State and a pure `reduce(state, event)`.
// Everything the screen shows is derived from it, and every change goes through it, so the
// whole workflow (sign in, sell, pay, refund) is testable in Node without a DOM. Effects (API
// calls, clocks, random ids) live in app.ts and come back here as events.
import { ZERO, add, cmp, dec, div, parseTyped, sub, toFixed, toNumber, type Dec } from './money.js';
import { isLang, type Lang, type MessageKey } from './i18n.js';
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
  const given = parseTyped(field(state, 'cash-given'));
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

// ---- helpers of the reducer ----

type Errors = Record<string, MessageKey>;

function withForm(state: State, patch: Record<string, string>): State {
  return { ...state, form: { ...state.form, ...patch } };
}

function focusOn(state: State, testid: string): State {
  return { ...state, focus: { testid, seq: (state.focus?.seq ?? 0) + 1 } };
}

function withDraft(state: State, draft: Draft, patch: Partial<State['sale']> = {}): State {
  return {
    ...state,
    sale: {
      ...state.sale,
      ...patch,
      draft,
      version: state.sale.version + 1,
      // What the customer pays may change: any split taken so far no longer holds.
      tenders: [],
    },
  };
}

function fail(state: State, errors: Errors): State {
  const first = Object.keys(errors)[0];
  const next = { ...state, fieldErrors: errors };
  return first ? focusOn(next, first) : next;
}

/** A positive decimal (or zero when allowed) from a field; the error key otherwise. */
function positive(text: string, allowZero = false): Dec | MessageKey {
  if (text.trim() === '') return 'validation.required';
  const d = parseTyped(text);
  if (d === null) return 'validation.number';
  const sign = cmp(d, ZERO);
  if (sign < 0 || (sign === 0 && !allowZero)) return 'validation.positive';
  return d;
}

function isDec(v: Dec | MessageKey): v is Dec {
  return typeof v === 'object';
}

/** The line the item form describes, or the errors keyed by field name. */
export function itemFromForm(state: State): { line: CheckItemRequest } | { errors: Errors } {
  const errors: Errors = {};
  const kind = (field(state, 'item-kind') || 'goods') as ItemKind;
  const code = field(state, 'item-code').trim();
  const title = field(state, 'item-title').trim();
  if (code === '') errors['item-code'] = 'validation.required';
  const price = positive(field(state, 'item-price'), kind === 'goods');
  if (!isDec(price)) errors['item-price'] = price;

  let quantity: Dec | MessageKey;
  let amount: Dec | null = null;
  if (kind === 'fuel-amount') {
    const a = positive(field(state, 'item-amount'));
    if (!isDec(a)) errors['item-amount'] = a;
    else amount = a;
    // litres the prepaid amount buys at the list price; the engine recalculates on discount
    quantity = isDec(a) && isDec(price) ? div(a, price, 3) : 'validation.required'; // price > 0 here
  } else {
    quantity = positive(field(state, 'item-quantity'));
    if (!isDec(quantity)) errors['item-quantity'] = quantity;
  }
  if (Object.keys(errors).length > 0 || !isDec(quantity) || !isDec(price)) return { errors };

  const line: CheckItemRequest = { code, quantity: toNumber(quantity), price: toNumber(price) };
  if (title !== '') line.title = title;
  // A price typed finer than the currency (1.659 €/l) is charged as typed, up to 3 digits;
  // left out, the engine would round it to the currency's digits.
  const priceDigits = Math.min(price.scale, 3);
  if (priceDigits > amountDigits(state.sale.calc.check)) line.price_decimal_digits = priceDigits;
  if (kind !== 'goods') line.quantity_decimal_digits = 3;
  if (kind === 'fuel-amount' && amount) {
    line.amount = toNumber(amount);
    line.quantity_recalculate_type = 'recalculate-by-amount';
  }
  return { line };
}

/** Goods scanned twice become one line of two, as a cashier expects. */
function addLine(
  lines: CheckItemRequest[],
  line: CheckItemRequest,
): { lines: CheckItemRequest[]; index: number } {
  const mergeable = line.amount === undefined && line.quantity_decimal_digits === undefined;
  const at = mergeable
    ? lines.findIndex(
        (l) =>
          l.code === line.code &&
          l.price === line.price &&
          l.amount === undefined &&
          l.quantity_decimal_digits === undefined &&
          (l.title ?? '') === (line.title ?? ''),
      )
    : -1;
  if (at < 0) return { lines: [...lines, line], index: lines.length };
  const merged = toNumber(add(dec(lines[at]!.quantity), dec(line.quantity)));
  return { lines: lines.map((l, i) => (i === at ? { ...l, quantity: merged } : l)), index: at };
}

const clearedItemForm = {
  'item-code': '',
  'item-title': '',
  'item-price': '',
  'item-quantity': '1',
  'item-amount': '',
};

function resetSale(state: State): State {
  const fresh = initialState(state.language).sale;
  return {
    ...state,
    sale: {
      ...fresh,
      // the calc seq keeps rising, so an answer to the old sale can never land on the new one
      calc: { ...fresh.calc, seq: state.sale.calc.seq },
      version: state.sale.version + 1,
      lastTransactionId: state.sale.lastTransactionId,
    },
    form: {
      ...state.form,
      ...clearedItemForm,
      'customer-id': '',
      'customer-otp': '',
      bonuses: '',
      'coupon-code': '',
      pin: '',
      odometer: '',
      'vehicle-id': '',
      'cash-given': '',
      'tender-amount': '',
    },
    fieldErrors: {},
  };
}

/** Where a signed-in person lands: a sale when a shift is open, else the shift screen. */
function home(state: State): Screen {
  return state.status?.shift ? 'sale' : 'shift-open';
}

const screenFocus: Partial<Record<Screen, string>> = {
  'sign-in': 'sign-in-code',
  'shift-open': 'shift-opening-cash',
  sale: 'item-code',
  payment: 'payment-confirm',
  receipt: 'receipt-new-sale',
  refund: 'refund-transaction-id',
  report: 'report-refresh',
  attention: 'attention-refresh',
  settings: 'settings-language',
};

function go(state: State, screen: Screen): State {
  const next = { ...state, screen, fieldErrors: {} };
  const target = screenFocus[screen];
  return target ? focusOn(next, target) : next;
}

function receiptOf(result: SaleResult): Receipt {
  return {
    transactionId: result.transaction_id,
    subtype: result.subtype,
    check: result.check,
    warnings: result.warnings,
    payments: result.payments,
    sync: result.sync,
    receiptPrinted: result.receipt_printed,
    ...(result.cash ? { cash: result.cash } : {}),
  };
}

function committedReceipt(sale: CommittedSale): Receipt {
  return {
    transactionId: sale.transaction_id,
    subtype: sale.subtype,
    check: sale.check,
    warnings: [],
    payments: [],
    sync: sale.sync,
    receiptPrinted: null,
  };
}

/** A committed sale: a fresh sale behind it, its receipt on the screen. */
function showReceipt(state: State, receipt: Receipt): State {
  const next = resetSale({ ...state, message: null });
  return go(
    { ...next, sale: { ...next.sale, receipt, lastTransactionId: receipt.transactionId } },
    'receipt',
  );
}

// ---- the reducer ----

export function reduce(state: State, event: Event): State {
  switch (event.type) {
    case 'field': {
      const { [event.name]: _cleared, ...rest } = state.fieldErrors;
      const next = { ...withForm(state, { [event.name]: event.value }), fieldErrors: rest };
      return event.name === 'language' && isLang(event.value)
        ? { ...next, language: event.value }
        : next;
    }
    case 'invalid':
      return fail(state, { ...event.errors });
    case 'focus':
      return focusOn(state, event.testid);
    case 'navigate': {
      if (!state.status?.staff && event.screen !== 'sign-in') return state;
      if ((event.screen === 'sale' || event.screen === 'payment') && !state.status?.shift) {
        return go(state, 'shift-open');
      }
      if (event.screen === 'payment' && (!canPay(state) || state.sale.calc.pending)) return state;
      return go(state, event.screen);
    }
    case 'back': {
      if (state.message) return { ...state, message: null };
      if (state.screen === 'payment' && state.busy === null) return go(state, 'sale');
      if (
        state.screen === 'refund' ||
        state.screen === 'attention' ||
        state.screen === 'report' ||
        state.screen === 'settings'
      ) {
        return state.status?.staff ? go(state, home(state)) : state;
      }
      return state;
    }
    case 'dismiss':
      return { ...state, message: null };
    case 'language':
      return withForm({ ...state, language: event.language }, { language: event.language });
    case 'busy':
      return { ...state, busy: event.command };
    case 'failed':
      return { ...state, message: { kind: 'error', error: event.error } };
    case 'notice':
      return {
        ...state,
        message: {
          kind: 'notice',
          key: event.key,
          ...(event.params ? { params: event.params } : {}),
        },
      };
    case 'session-expired':
      return { ...state, sessionExpired: true };
    case 'status': {
      const next: State = { ...state, status: event.status };
      if (!event.status.staff) {
        return state.screen === 'sign-in' ? next : go(resetSale(next), 'sign-in');
      }
      if (state.screen === 'sign-in') return go(next, home(next));
      if (!event.status.shift && (state.screen === 'sale' || state.screen === 'payment')) {
        return go(next, 'shift-open');
      }
      return next;
    }
    case 'devices':
      return { ...state, devices: event.devices };
    case 'device': {
      const others = state.devices.filter((d) => d.kind !== event.device.kind);
      const devices = [...others, event.device].sort((a, b) => a.kind.localeCompare(b.kind));
      return { ...state, devices };
    }
    case 'sync-progress': {
      const p = event.progress;
      const done = p.total !== null && p.done >= p.total;
      const status = state.status ? { ...state.status, sync: p.sync } : state.status;
      return { ...state, status, progress: done ? null : p };
    }
    case 'presets':
      return { ...state, presets: event.presets };
    case 'signed-in': {
      const { staff, shift } = event.output;
      const status: Status | null = state.status ? { ...state.status, staff, shift } : null;
      const next = withForm({ ...state, status, message: null }, { 'auth-code': '' });
      return go(next, shift ? 'sale' : 'shift-open');
    }
    case 'signed-out': {
      const status = state.status ? { ...state.status, staff: null } : null;
      return go(resetSale({ ...state, status, message: null }), 'sign-in');
    }
    case 'shift-opened': {
      const status = state.status ? { ...state.status, shift: event.shift } : null;
      const next = withForm(
        { ...state, status, report: { report: null, closed: false } },
        { 'opening-cash': '' },
      );
      return go(next, 'sale');
    }
    case 'customer-identified': {
      const draft: Draft = {
        ...state.sale.draft,
        identity: event.identity,
        customer: event.output.customer,
        customerSource: event.output.source,
        // bonuses and accounts belong to the customer: a new customer starts afresh
        bonuses: '',
        payment: { type: 'cash', accountId: null },
      };
      return focusOn(
        withForm(withDraft(state, draft), { 'customer-id': '', 'customer-otp': '', bonuses: '' }),
        'item-code',
      );
    }
    case 'customer-clear': {
      const draft: Draft = {
        ...state.sale.draft,
        identity: null,
        customer: null,
        customerSource: null,
        bonuses: '',
        payment: { type: 'cash', accountId: null },
      };
      return withDraft(state, draft);
    }
    case 'item-add': {
      const mode = enterMode(state);
      if (mode === 'presets-only') return fail(state, { 'item-code': 'validation.presets-only' });
      const built = itemFromForm(state);
      if ('errors' in built) return fail(state, built.errors);
      const { lines, index } = addLine(state.sale.draft.lines, built.line);
      const next = withDraft(state, { ...state.sale.draft, lines }, { selected: index });
      return focusOn({ ...withForm(next, clearedItemForm), fieldErrors: {} }, 'item-code');
    }
    case 'preset-add': {
      const p = state.presets[event.index];
      if (!p || enterMode(state) === 'manually-only') return state;
      const line: CheckItemRequest = { code: p.code, quantity: 1 };
      if (p.title !== undefined) line.title = p.title;
      if (p.price !== undefined) line.price = p.price;
      if (p.unit !== undefined) line.unit = p.unit;
      const { lines, index } = addLine(state.sale.draft.lines, line);
      return withDraft(state, { ...state.sale.draft, lines }, { selected: index });
    }
    case 'line-remove': {
      const lines = state.sale.draft.lines.filter((_, i) => i !== event.index);
      if (lines.length === state.sale.draft.lines.length) return state;
      const selected = lines.length === 0 ? null : Math.min(event.index, lines.length - 1);
      return withDraft(state, { ...state.sale.draft, lines }, { selected });
    }
    case 'line-step': {
      const line = state.sale.draft.lines[event.index];
      if (!line || line.amount !== undefined) return state; // a prepaid line's litres are computed
      const q = add(dec(line.quantity), dec(event.delta));
      if (cmp(q, ZERO) <= 0) return state;
      const lines = state.sale.draft.lines.map((l, i) =>
        i === event.index ? { ...l, quantity: toNumber(q) } : l,
      );
      return withDraft(state, { ...state.sale.draft, lines }, { selected: event.index });
    }
    case 'line-select':
      return { ...state, sale: { ...state.sale, selected: event.index } };
    case 'select-step': {
      const n = state.sale.draft.lines.length;
      if (n === 0) return state;
      const cur = state.sale.selected;
      const selected =
        cur === null
          ? event.delta > 0
            ? 0
            : n - 1
          : Math.max(0, Math.min(n - 1, cur + event.delta));
      return { ...state, sale: { ...state.sale, selected } };
    }
    case 'bonuses-apply': {
      const text = field(state, 'bonuses').trim();
      if (text === '') return withDraft(state, { ...state.sale.draft, bonuses: '' });
      const d = positive(text, true);
      if (!isDec(d)) return fail(state, { bonuses: d });
      if (!state.sale.draft.customer) return fail(state, { bonuses: 'validation.customer-first' });
      return withDraft(state, { ...state.sale.draft, bonuses: text.replace(',', '.') });
    }
    case 'bonuses-max': {
      const c = state.sale.draft.customer;
      if (!c) return fail(state, { bonuses: 'validation.customer-first' });
      const text = toFixed(dec(c.bonuses.available));
      return withDraft(withForm(state, { bonuses: text }), { ...state.sale.draft, bonuses: text });
    }
    case 'bonuses-clear':
      return withDraft(withForm(state, { bonuses: '' }), { ...state.sale.draft, bonuses: '' });
    case 'coupon-add': {
      const code = field(state, 'coupon-code').trim();
      if (code === '') return fail(state, { 'coupon-code': 'validation.required' });
      const next = withForm(state, { 'coupon-code': '' });
      if (state.sale.draft.coupons.includes(code)) return next; // a code listed twice is one coupon
      return withDraft(next, { ...state.sale.draft, coupons: [...state.sale.draft.coupons, code] });
    }
    case 'coupon-remove':
      return withDraft(state, {
        ...state.sale.draft,
        coupons: state.sale.draft.coupons.filter((c) => c !== event.code),
      });
    case 'rule-toggle': {
      if (!hasRole(state, 'senior-cashier')) {
        return { ...state, message: { kind: 'error', key: 'error.role-required' } };
      }
      const ids = state.sale.draft.manualRuleIds;
      const manualRuleIds = ids.includes(event.id)
        ? ids.filter((i) => i !== event.id)
        : [...ids, event.id];
      return withDraft(state, { ...state.sale.draft, manualRuleIds });
    }
    case 'calc-started':
      return {
        ...state,
        sale: { ...state.sale, calc: { ...state.sale.calc, seq: event.seq, pending: true } },
      };
    case 'calc-done': {
      if (event.seq !== state.sale.calc.seq) return state; // a stale answer: a newer calc is on its way
      const r = event.result;
      const calc =
        'error' in r
          ? { ...state.sale.calc, pending: false, error: r.error, warnings: [] }
          : { seq: event.seq, pending: false, check: r.check, warnings: r.warnings, error: null };
      return { ...state, sale: { ...state.sale, calc } };
    }
    case 'payment-open': {
      if (!canPay(state) || state.sale.calc.pending) return state;
      const transactionId = state.sale.transactionId ?? event.transactionId;
      const amount = state.sale.calc.check?.amount_to_pay;
      const next = withForm(
        { ...state, sale: { ...state.sale, transactionId } },
        { 'tender-amount': amount === undefined ? '' : toFixed(dec(amount)), 'cash-given': '' },
      );
      return go(next, 'payment');
    }
    case 'payment-method': {
      const accountId = isAccountPayment(event.method) ? (event.accountId ?? null) : null;
      const payment = { type: event.method, accountId };
      const next = withDraft(state, { ...state.sale.draft, payment });
      return withForm(next, { 'tender-type': event.method === 'bank-card' ? 'bank-card' : 'cash' });
    }
    case 'tender-add': {
      const type = field(state, 'tender-type') === 'bank-card' ? 'bank-card' : 'cash';
      const amount = positive(field(state, 'tender-amount'));
      if (!isDec(amount)) return fail(state, { 'tender-amount': amount });
      const left = remaining(state);
      if (left !== null && cmp(amount, left) > 0) {
        return fail(state, { 'tender-amount': 'validation.over-remaining' });
      }
      const tenders = [
        ...state.sale.tenders,
        { type, amount: field(state, 'tender-amount').trim().replace(',', '.') } satisfies Tender,
      ];
      const next: State = { ...state, sale: { ...state.sale, tenders }, fieldErrors: {} };
      const rest = remaining(next);
      return withForm(next, { 'tender-amount': rest === null ? '' : String(toNumber(rest)) });
    }
    case 'tender-remove': {
      const tenders = state.sale.tenders.filter((_, i) => i !== event.index);
      return { ...state, sale: { ...state.sale, tenders } };
    }
    case 'sale-done':
      return showReceipt(state, receiptOf(event.result));
    case 'sale-failed': {
      if (event.error.code === 'unreachable') {
        // The sale may have been committed: ask before trying again, with the same id.
        return {
          ...state,
          sale: { ...state.sale, outcomeUnknown: true },
          message: { kind: 'warning', key: 'payment.outcome-unknown' },
        };
      }
      // Recorded, but its stored figures cannot be shown: the goods are sold, so the sale
      // ends here; confirming again would sell them twice.
      if (event.error.code === 'sale-unreadable')
        return { ...resetSale(state), message: { kind: 'error', error: event.error } };
      // A definite refusal: the next attempt is a new transaction (a changed body under the
      // same id would be an idempotency conflict).
      const next = {
        ...state,
        sale: { ...state.sale, transactionId: null, outcomeUnknown: false },
      };
      return { ...next, message: { kind: 'error', error: event.error } };
    }
    case 'sale-id':
      return state.sale.transactionId === null
        ? { ...state, sale: { ...state.sale, transactionId: event.transactionId } }
        : state;
    case 'sale-status': {
      const o = event.output;
      if (o.state === 'committed') return showReceipt(state, committedReceipt(o));
      // A voided id is spent: confirming again sells under a new transaction id.
      const voided = o.state === 'voided';
      return {
        ...state,
        sale: {
          ...state.sale,
          outcomeUnknown: false,
          ...(voided ? { transactionId: null } : {}),
        },
        message: { kind: 'notice', key: voided ? 'payment.voided' : 'payment.not-committed' },
      };
    }
    case 'void-sale':
      return focusOn(resetSale(state), 'item-code');
    case 'new-sale':
      return go(resetSale({ ...state, sale: { ...state.sale, receipt: null } }), 'sale');
    case 'refund-open': {
      const next = withForm(
        { ...state, refund: { sale: null, refundId: null, result: null, cancelled: null } },
        { 'refund-transaction-id': event.transactionId ?? state.sale.lastTransactionId ?? '' },
      );
      return go(next, 'refund');
    }
    case 'refund-loaded': {
      const o = event.output;
      if (o.state !== 'committed') {
        return {
          ...state,
          refund: { ...state.refund, sale: null },
          message: { kind: 'error', key: 'refund.not-found' },
        };
      }
      const form: Record<string, string> = {};
      (o.check.check_items ?? []).forEach((_, i) => (form[`refund-qty-${i}`] = ''));
      return withForm(
        {
          ...state,
          refund: { sale: o, refundId: null, result: null, cancelled: null },
          message: null,
        },
        form,
      );
    }
    case 'refund-all': {
      const items = state.refund.sale?.check.check_items ?? [];
      const form: Record<string, string> = {};
      items.forEach((it, i) => (form[`refund-qty-${i}`] = String(it.quantity)));
      return withForm(state, form);
    }
    case 'refund-started':
      return {
        ...state,
        refund: { ...state.refund, refundId: state.refund.refundId ?? event.refundId },
      };
    case 'refund-done':
      return {
        ...state,
        refund: { ...state.refund, refundId: null, result: event.output },
        message: { kind: 'notice', key: 'refund.done' },
      };
    case 'refund-failed': {
      const keep = event.error.code === 'unreachable';
      return {
        ...state,
        refund: { ...state.refund, refundId: keep ? state.refund.refundId : null },
        message: { kind: 'error', error: event.error },
      };
    }
    case 'cancel-done':
      return {
        ...state,
        refund: { ...state.refund, cancelled: event.output },
        message: { kind: 'notice', key: 'refund.cancelled' },
      };
    case 'attention-loaded':
      return { ...state, attention: { ...state.attention, items: event.items, loaded: true } };
    case 'attention-toggle-resolved':
      return {
        ...state,
        attention: { ...state.attention, includeResolved: !state.attention.includeResolved },
      };
    case 'attention-resolved': {
      const items = state.attention.includeResolved
        ? state.attention.items.map((i) => (i.id === event.item.id ? event.item : i))
        : state.attention.items.filter((i) => i.id !== event.item.id);
      return withForm(
        { ...state, attention: { ...state.attention, items } },
        { [`attention-comment-${event.item.id}`]: '' },
      );
    }
    case 'report-loaded':
      return { ...state, report: { report: event.report, closed: false } };
    case 'shift-closed': {
      const status = state.status ? { ...state.status, shift: null } : null;
      return withForm(
        {
          ...state,
          status,
          report: { report: event.report, closed: true },
          message: { kind: 'notice', key: 'report.closed' },
        },
        { 'counted-cash': '' },
      );
    }
    case 'recovered':
      return {
        ...state,
        recover: event.output,
        message: {
          kind: 'notice',
          key: 'attention.recovered',
          params: { count: event.output.recovered.length, pending: event.output.pending },
        },
      };
    case 'synced': {
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
    }
  }
}
