// The command inputs the screen sends, built from the view model. Pure: each builder gives
// the input, or the field errors that keep it from being sent (keyed by field name, so the
// screen marks the right input). What a schema checks again at the boundary is checked here
// only so the cashier hears about it before a round trip.
import { numberStyle, type MessageKey } from './i18n.js';
import { ZERO, cmp, dec, parseTyped, toNumber, type Dec } from './money.js';
import type { NumberStyle } from './format.js';
import { field, type Errors } from './slices/frame/state.js';
import { remaining } from './slices/payment/state.js';
import { leftOf } from './slices/refund/state.js';
import {
  amountDue,
  guessIdType,
  isAccountPayment,
  type Draft,
  type IdTypeChoice,
} from './slices/sale/state.js';
import type { FieldName, State } from './state.js';
import type {
  CheckRequest,
  CommandInput,
  IdType,
  OdometerUnitType,
  PaymentRequest,
} from './types.js';

export type Built<T> = { input: T } | { errors: Errors };

/** A decimal >= 0 the cashier typed in a field, read in the state's language. */
function nonNegative(state: State, text: string): Dec | MessageKey {
  const d = parseTyped(text, numberStyle(state.settings.language));
  if (d === null) return 'validation.number';
  return cmp(d, ZERO) < 0 ? 'validation.positive' : d;
}

/** A positive decimal (or zero when allowed) typed in `num`'s style; the error key otherwise. */
export function positive(text: string, num: NumberStyle, allowZero = false): Dec | MessageKey {
  if (text.trim() === '') return 'validation.required';
  const d = parseTyped(text, num);
  if (d === null) return 'validation.number';
  const sign = cmp(d, ZERO);
  if (sign < 0 || (sign === 0 && !allowZero)) return 'validation.positive';
  return d;
}

export function isDec(v: Dec | MessageKey): v is Dec {
  return typeof v === 'object';
}

/** The check `check-calc` prices: the lines and everything the cashier chose. */
export function calcCheck(draft: Draft): CheckRequest {
  const check: CheckRequest = { check_items: draft.lines.map((l) => ({ ...l.item })) };
  if (draft.identity) {
    check.id = draft.identity.id;
    check.id_type = draft.identity.id_type;
    if (draft.identity.cardotppassword) check.cardotppassword = draft.identity.cardotppassword;
  }
  if (draft.customer) {
    if (draft.customer.type === 'corporate-customer')
      check.corporate_customer_id = draft.customer.id;
    else {
      check.customer_id = draft.customer.id;
      // a driver: the fleet's rules apply too (engine.md 10)
      if (draft.customer.corporate_customer_id)
        check.corporate_customer_id = draft.customer.corporate_customer_id;
    }
  }
  const bonuses = parseTyped(draft.bonuses);
  if (bonuses && cmp(bonuses, ZERO) > 0) check.bonuses_redeemed_amount = toNumber(bonuses);
  if (draft.coupons.length > 0) check.redeemed_coupons = draft.coupons.map((code) => ({ code }));
  if (draft.manualRuleIds.length > 0) {
    check.manual_rules = true;
    check.implemented_rules = draft.manualRuleIds.map((id) => ({ id }));
  }
  if (draft.fills.length > 0) check.fills = draft.fills.map((f) => f.id);
  if (draft.prepayPump !== null) check.transaction_type = 'preauthorization';
  check.payment_type = draft.payment.type;
  if (isAccountPayment(draft.payment.type) && draft.payment.accountId) {
    // for a corporate payment this is the corporate special account access id (engine.md 10)
    check.payment_id = draft.payment.accountId;
  }
  return check;
}

/** The payments a sale records: one account charge, or the cash and card parts of a split. */
export function salePayments(state: State): { payments: PaymentRequest[] } | { errors: Errors } {
  const due = amountDue(state);
  if (due === null) return { errors: { 'payment-confirm': 'validation.recalculate' } };
  const { payment } = state.sale.draft;
  if (isAccountPayment(payment.type)) {
    if (!payment.accountId) return { errors: { 'payment-account': 'validation.required' } };
    return {
      payments: [{ type: payment.type, amount: toNumber(due), payment_id: payment.accountId }],
    };
  }
  const tenders = state.payment.tenders;
  if (tenders.length === 0) return { payments: [{ type: payment.type, amount: toNumber(due) }] };
  const left = remaining(state);
  if (left !== null && cmp(left, ZERO) !== 0) {
    return { errors: { 'tender-amount': 'validation.remaining' } };
  }
  return {
    payments: tenders.map((t) => ({
      type: t.type,
      amount: toNumber(parseTyped(t.amount) ?? ZERO),
    })),
  };
}

/** `sale-process`: the calc check plus the payment's own values (PIN, odometer, vehicle). */
export function saleInput(state: State): Built<CommandInput<'sale-process'>> {
  const transactionId = state.payment.transactionId;
  const calculated = state.sale.calc.check;
  if (!transactionId || !calculated)
    return { errors: { 'payment-confirm': 'validation.recalculate' } };
  const errors: Errors = {};
  const check: CheckRequest = { ...calcCheck(state.sale.draft), transaction_id: transactionId };
  // The sale asks for the bonuses the calculation granted, the figure on the screen: "All
  // available" asks for the whole balance, which calc caps (a warning) and process refuses.
  const granted = calculated.bonuses_redeemed_amount ?? 0;
  if (check.bonuses_redeemed_amount !== undefined && granted > 0)
    check.bonuses_redeemed_amount = granted;
  const paid = salePayments(state);
  if ('errors' in paid) Object.assign(errors, paid.errors);
  else {
    check.payments = paid.payments;
    // the first part names the payment when the split has no account in it
    if (!isAccountPayment(state.sale.draft.payment.type) && paid.payments[0]) {
      check.payment_type = paid.payments[0].type;
    }
  }

  if (isAccountPayment(state.sale.draft.payment.type)) {
    const pin = field(state, 'pin');
    if (pin !== '') check.special_account_pin = pin;
    else if (calculated.special_account_pin_required) errors.pin = 'validation.required';

    const odometer = field(state, 'odometer').trim();
    if (odometer !== '') {
      const d = nonNegative(state, odometer);
      if (typeof d === 'string') errors.odometer = d;
      else if (d.scale > 2) errors.odometer = 'validation.two-decimals';
      else {
        check.odometer = toNumber(d);
        check.odometer_unit = (field(state, 'odometer-unit') || 'km') as OdometerUnitType;
      }
    } else if (calculated.special_account_odometer_required === 'required') {
      errors.odometer = 'validation.required';
    }

    const vehicle = field(state, 'vehicle-id').trim();
    if (vehicle !== '') check.vehicle_id = vehicle;
    else if (calculated.special_account_vehicle_id_required === 'required') {
      errors['vehicle-id'] = 'validation.required';
    }
  }
  // The cash handed over: the terminal refuses less than the cash part and records the change.
  const given = field(state, 'cash-given').trim();
  let cashGiven: number | undefined;
  if (given !== '') {
    const d = nonNegative(state, given);
    if (typeof d === 'string') errors['cash-given'] = d;
    else cashGiven = toNumber(d);
  }
  if (Object.keys(errors).length > 0) return { errors };
  return {
    input: {
      transaction_id: transactionId,
      check,
      ...(cashGiven !== undefined ? { cash_given: cashGiven } : {}),
    },
  };
}

export function signInInput(state: State): Built<CommandInput<'staff-sign-in'>> {
  const code = field(state, 'auth-code');
  if (code.trim() === '') return { errors: { 'auth-code': 'validation.required' } };
  return { input: { auth_code: code } };
}

export function shiftOpenInput(state: State): Built<CommandInput<'shift-open'>> {
  const text = field(state, 'opening-cash').trim();
  // the float is counted at every opening (0 for an empty drawer): without it the shift's
  // expected cash, and so over or short at close, is unknown
  if (text === '') return { errors: { 'opening-cash': 'validation.float-required' } };
  const d = nonNegative(state, text);
  return typeof d === 'string'
    ? { errors: { 'opening-cash': d } }
    : { input: { opening_cash: toNumber(d) } };
}

export function shiftCloseInput(state: State): Built<CommandInput<'shift-close'>> {
  const text = field(state, 'counted-cash').trim();
  if (text === '') return { input: {} };
  const d = nonNegative(state, text);
  return typeof d === 'string'
    ? { errors: { 'counted-cash': d } }
    : { input: { counted_cash: toNumber(d) } };
}

/** `customer-identify` from the customer fields (the limits table: at least 3 characters). */
export function identifyInput(state: State): Built<CommandInput<'customer-identify'>> {
  const id = field(state, 'customer-id').trim();
  if (id.length < 3) return { errors: { 'customer-id': 'validation.min3' } };
  const choice = (field(state, 'customer-id-type') || 'auto') as IdTypeChoice;
  const id_type: IdType = choice === 'auto' ? guessIdType(id) : choice;
  const otp = field(state, 'customer-otp').trim();
  if (otp !== '' && otp.length < 3) return { errors: { 'customer-otp': 'validation.min3' } };
  return { input: otp === '' ? { id, id_type } : { id, id_type, cardotppassword: otp } };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function saleStatusInput(state: State): Built<CommandInput<'sale-status'>> {
  const id = field(state, 'refund-transaction-id').trim();
  if (!UUID.test(id)) return { errors: { 'refund-transaction-id': 'validation.uuid' } };
  return { input: { transaction_id: id } };
}

function comment(state: State, name: FieldName): { comment?: string } {
  const text = field(state, name).trim();
  return text === '' ? {} : { comment: text };
}

/** `sale-refund` of the quantities typed per line; each at most what the line sold. */
export function refundInput(state: State, refundId: string): Built<CommandInput<'sale-refund'>> {
  const sale = state.refund.sale;
  if (!sale) return { errors: { 'refund-transaction-id': 'validation.required' } };
  const errors: Errors = {};
  const lines: { index: number; quantity: number }[] = [];
  (sale.check.check_items ?? []).forEach((item, index) => {
    const name = `refund-qty-${index}` as const;
    const text = field(state, name).trim();
    if (text === '') return;
    const d = nonNegative(state, text);
    if (typeof d === 'string') errors[name] = d;
    else if (cmp(d, dec(item.quantity)) > 0) errors[name] = 'validation.over-sold';
    else if (cmp(d, leftOf(state.refund, index, item.quantity)) > 0)
      errors[name] = 'validation.over-left';
    else if (cmp(d, ZERO) > 0) lines.push({ index, quantity: toNumber(d) });
  });
  if (Object.keys(errors).length > 0) return { errors };
  if (lines.length === 0) return { errors: { 'refund-qty-0': 'validation.refund-none' } };
  return {
    input: {
      transaction_id: refundId,
      original_transaction_id: sale.transaction_id,
      lines,
      ...comment(state, 'refund-comment'),
    },
  };
}

export function cancelInput(state: State): Built<CommandInput<'sale-cancel'>> {
  const sale = state.refund.sale;
  if (!sale) return { errors: { 'refund-transaction-id': 'validation.required' } };
  return { input: { transaction_id: sale.transaction_id, ...comment(state, 'refund-comment') } };
}

export function resolveInput(state: State, id: string): CommandInput<'attention-resolve'> {
  return { id, ...comment(state, `attention-comment-${id}`) };
}
