// The sale being put together: the draft (customer, lines, bonuses, coupons, manual rules,
// the payment method the engine prices for), its version (the controller runs `check-calc`
// when it moves), the selected line, the latest calculation, and the POS's presets.
import { dec, type Dec } from '../../money.js';
import type { State } from '../../state.js';
import type {
  CheckImplementedRule,
  CheckItemRequest,
  CheckResponse,
  CommandOutput,
  CustomerSource,
  CustomerSummary,
  ErrorBody,
  FillView,
  IdType,
  TransactionPaymentType,
  Warning,
} from '../../types.js';

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

/** A quick-pick item (POS presets); `price` as the engine will see it. */
export interface Preset {
  code: string;
  title?: string;
  price?: number;
  unit?: string;
  fuel?: boolean;
}

/**
 * A line of the check as the engine is asked for it, with a key of its own: the lines table
 * is keyed by it, so removing or merging a line moves no other row (nor the focus in it).
 */
export interface Line {
  key: number;
  item: CheckItemRequest;
}

/** What the cashier has put together; every change here is followed by a `check-calc`. */
export interface Draft {
  lines: Line[];
  identity: { id: string; id_type: IdType; cardotppassword?: string } | null;
  customer: CustomerSummary | null;
  customerSource: CustomerSource | null;
  coupons: string[];
  manualRuleIds: string[];
  /** Bonuses the customer wants to spend, as typed (exact text); '' = none. */
  bonuses: string;
  payment: { type: TransactionPaymentType; accountId: string | null };
  /** Pump fills sold on this check (their lines are the pump's figures, the terminal's). */
  fills: FillView[];
  /** The pump this check prepays (a pump authorisation, sent to the pump once paid). */
  prepayPump: number | null;
}

export interface Calculation {
  seq: number;
  pending: boolean;
  check: CheckResponse | null;
  warnings: Warning[];
  error: ErrorBody | null;
}

export interface SaleState {
  draft: Draft;
  /** Bumped on every draft change: the controller runs `check-calc` when it moves. */
  version: number;
  selected: number | null;
  calc: Calculation;
  presets: Preset[];
  /**
   * Whether the rules panel lists every rule the engine reported, also those that do not
   * concern the check's lines (`no-line`, `lines-taken`): with hundreds of rules they would
   * bury the few that matter, and cost a repaint on every line added.
   */
  allRules: boolean;
}

export type SaleField =
  | 'customer-id'
  | 'customer-id-type'
  | 'customer-otp'
  | 'item-kind'
  | 'item-code'
  | 'item-title'
  | 'item-price'
  | 'item-quantity'
  | 'item-amount'
  | 'item-reason'
  | 'bonuses'
  | 'coupon-code';

export const SALE_FORM = {
  'customer-id-type': 'auto',
  'item-kind': 'goods',
  'item-quantity': '1',
} as const satisfies Partial<Record<SaleField, string>>;

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
    fills: [],
    prepayPump: null,
  };
}

export function initialSale(): SaleState {
  return {
    draft: emptyDraft(),
    version: 0,
    selected: null,
    calc: { seq: 0, pending: false, check: null, warnings: [], error: null },
    presets: [],
    allRules: false,
  };
}

export type SaleEvent =
  | { type: 'presets'; presets: Preset[] }
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
  | { type: 'rules-all'; show: boolean }
  | { type: 'calc-started'; seq: number }
  | { type: 'calc-done'; seq: number; result: CommandOutput<'check-calc'> | { error: ErrorBody } }
  | { type: 'void-sale' }
  /** An unpaid postpay fill from the forecourt added to the check (the screen goes to it). */
  | { type: 'fill-added'; fill: FillView }
  | { type: 'fill-remove'; id: string }
  /** The check becomes the prepay of this pump (null: a plain sale again). */
  | { type: 'prepay-for'; pump: number | null }
  /** A grade of the prepaid pump picked: the item form gets its code and catalogue price. */
  | { type: 'prepay-grade'; code: string; price: string };

// ---- selectors ----

/**
 * How items may be entered at this POS: as its catalogue answered (goods slice), else as a
 * calculation's CheckPos `check_item_enter_mode` says, else without limits.
 */
export function enterMode(state: State) {
  return state.goods.mode ?? state.sale.calc.check?.pos?.check_item_enter_mode ?? 'without-limits';
}

/** The POS's time zone (CheckPos `time_zone`) once a calculation told it; else null. */
/** The zone the page's dates are shown in: the check's POS, else the till's own (status). */
export function posTimeZone(state: State): string | null {
  return state.sale.calc.check?.pos?.time_zone ?? state.status?.terminal.time_zone ?? null;
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
    s.draft.lines.length + s.draft.fills.length > 0 &&
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

/** Why a rule did not apply that says only that it does not concern these lines. */
const ABOUT_OTHER_LINES: readonly (string | null | undefined)[] = ['no-line', 'lines-taken'];

/**
 * The rules the panel lists, each with its index in the engine's report: every one when asked
 * for, else those that matter at the till (applied, to pick by hand, offered with what is
 * missing, or refused for a reason the customer can act on).
 */
export function shownRules(
  rules: readonly CheckImplementedRule[],
  all: boolean,
): { rule: CheckImplementedRule; index: number }[] {
  const out: { rule: CheckImplementedRule; index: number }[] = [];
  rules.forEach((rule, index) => {
    const data = rule.implementation_data;
    const manual = rule.automatic === 0 || rule.automatic === 4;
    if (all || data?.applied || manual || !ABOUT_OTHER_LINES.includes(data?.reason))
      out.push({ rule, index });
  });
  return out;
}
