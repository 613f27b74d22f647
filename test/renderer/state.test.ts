import { describe, expect, it } from 'vitest';
import { change, remaining } from '../../renderer/slices/payment/state.js';
import { canPay, guessIdType } from '../../renderer/slices/sale/state.js';
import {
  initialState,
  type Event,
  type FieldName,
  type Form,
  type State,
} from '../../renderer/state.js';
import { reduce } from '../../renderer/reduce.js';
import { toFixed } from '../../renderer/money.js';
import {
  calcCheck,
  committed,
  customer,
  printer,
  saleResult,
  shift,
  status,
  TX_ID,
} from './fixtures.js';

/** The draft's lines as the engine is asked for them. */
const items = (s: State) => s.sale.draft.lines.map((l) => l.item);

function run(state: State, ...events: Event[]): State {
  return events.reduce(reduce, state);
}

const typed = (fields: Form): Event[] =>
  (Object.entries(fields) as [FieldName, string][]).map(([name, value]) => ({
    type: 'field',
    name,
    value,
  }));

/** Signed in, shift open, on the sale screen. */
function selling(): State {
  return run(initialState(), { type: 'status', status: status() });
}

/** Two lines and a calculation that answered. */
function priced(): State {
  let s = run(
    selling(),
    ...typed({ 'item-code': 'A1', 'item-price': '10', 'item-quantity': '2' }),
    { type: 'item-add' },
  );
  s = run(s, ...typed({ 'item-code': 'B2', 'item-price': '10' }), { type: 'item-add' });
  return run(
    s,
    { type: 'calc-started', seq: 1 },
    { type: 'calc-done', seq: 1, result: { check: calcCheck(), warnings: [] } },
  );
}

describe('navigation', () => {
  it('starts on the sign-in screen', () => {
    expect(initialState().screen).toBe('sign-in');
  });

  it('goes to the sale when the status shows staff and an open shift', () => {
    expect(selling().screen).toBe('sale');
  });

  it('asks for a shift when none is open', () => {
    expect(run(initialState(), { type: 'status', status: status({ shift: null }) }).screen).toBe(
      'shift-open',
    );
  });

  it('returns to sign-in when the staff member was signed out elsewhere', () => {
    const s = run(selling(), { type: 'status', status: status({ staff: null }) });
    expect(s.screen).toBe('sign-in');
  });

  it('refuses to leave sign-in while nobody is signed in', () => {
    expect(run(initialState(), { type: 'navigate', screen: 'sale' }).screen).toBe('sign-in');
  });

  it('moves to the sale after sign-in with an open shift', () => {
    const s = run(initialState(), ...typed({ 'auth-code': '1234' }), {
      type: 'signed-in',
      output: { staff: status().staff!, shift },
    });
    expect(s.screen).toBe('sale');
    expect(s.form['auth-code']).toBe('');
  });

  it('Esc closes the message before it leaves a screen', () => {
    let s = run(priced(), { type: 'payment-open', transactionId: TX_ID });
    s = run(s, { type: 'failed', error: { code: 'x', message: 'm', path: '' } });
    s = run(s, { type: 'back' });
    expect(s.message).toBeNull();
    expect(s.screen).toBe('payment');
    expect(run(s, { type: 'back' }).screen).toBe('sale');
  });
});

describe('item entry', () => {
  it('adds a goods line and bumps the draft version', () => {
    const before = selling();
    const s = run(
      before,
      ...typed({ 'item-code': 'A1', 'item-price': '2.50', 'item-quantity': '3' }),
      { type: 'item-add' },
    );
    expect(items(s)).toEqual([{ code: 'A1', price: 2.5, quantity: 3 }]);
    expect(s.sale.version).toBe(before.sale.version + 1);
    expect(s.form['item-code']).toBe('');
    expect(s.focus?.testid).toBe('item-code');
  });

  it('merges goods scanned twice into one line', () => {
    let s = run(selling(), ...typed({ 'item-code': 'A1', 'item-price': '1' }), {
      type: 'item-add',
    });
    s = run(s, ...typed({ 'item-code': 'A1', 'item-price': '1' }), { type: 'item-add' });
    expect(items(s)).toEqual([{ code: 'A1', price: 1, quantity: 2 }]);
  });

  it('marks a missing code and does not add the line', () => {
    const s = run(selling(), ...typed({ 'item-price': '1' }), { type: 'item-add' });
    expect(items(s)).toEqual([]);
    expect(s.fieldErrors['item-code']).toBe('validation.required');
    expect(s.focus?.testid).toBe('item-code');
  });

  it('refuses a quantity that is not a number', () => {
    const s = run(
      selling(),
      ...typed({ 'item-code': 'A1', 'item-price': '1', 'item-quantity': 'x' }),
      { type: 'item-add' },
    );
    expect(s.fieldErrors['item-quantity']).toBe('validation.number');
  });

  it('turns a fuel prepay by amount into litres at the list price', () => {
    const s = run(
      selling(),
      ...typed({
        'item-kind': 'fuel-amount',
        'item-code': 'DSL',
        'item-price': '1.799',
        'item-amount': '50',
      }),
      { type: 'item-add' },
    );
    expect(items(s)[0]).toEqual({
      code: 'DSL',
      price: 1.799,
      price_decimal_digits: 3,
      quantity: 27.793,
      amount: 50,
      quantity_decimal_digits: 3,
      quantity_recalculate_type: 'recalculate-by-amount',
    });
  });

  it('sends the price digits the cashier typed beyond the currency, up to 3', () => {
    const line = (price: string) =>
      run(
        selling(),
        ...typed({
          'item-kind': 'fuel-quantity',
          'item-code': 'DSL',
          'item-price': price,
          'item-quantity': '10',
        }),
        { type: 'item-add' },
      ).sale.draft.lines[0]?.item;
    expect(line('1.659')).toMatchObject({ price: 1.659, price_decimal_digits: 3 });
    expect(line('1.6590')).toMatchObject({ price: 1.659, price_decimal_digits: 3 });
    expect(line('1.66')).not.toHaveProperty('price_decimal_digits');
  });

  it('takes a fuel prepay by litres as a quantity', () => {
    const s = run(
      selling(),
      ...typed({
        'item-kind': 'fuel-quantity',
        'item-code': 'DSL',
        'item-price': '1.799',
        'item-quantity': '40',
      }),
      { type: 'item-add' },
    );
    expect(items(s)[0]).toMatchObject({
      code: 'DSL',
      quantity: 40,
      quantity_decimal_digits: 3,
    });
  });

  it('refuses typed items at a presets-only POS', () => {
    const s = run(
      selling(),
      { type: 'calc-started', seq: 1 },
      {
        type: 'calc-done',
        seq: 1,
        result: {
          check: calcCheck({ pos: { check_item_enter_mode: 'presets-only' } }),
          warnings: [],
        },
      },
      ...typed({ 'item-code': 'A1', 'item-price': '1' }),
      { type: 'item-add' },
    );
    expect(items(s)).toEqual([]);
    expect(s.fieldErrors['item-code']).toBe('validation.presets-only');
  });

  it('adds a preset as one unit', () => {
    const s = run(
      selling(),
      { type: 'presets', presets: [{ code: 'CF', title: 'Coffee', price: 2 }] },
      { type: 'preset-add', index: 0 },
    );
    expect(items(s)).toEqual([{ code: 'CF', title: 'Coffee', price: 2, quantity: 1 }]);
  });

  it('steps a quantity up and down but never to zero', () => {
    let s = run(selling(), ...typed({ 'item-code': 'A1', 'item-price': '1' }), {
      type: 'item-add',
    });
    s = run(s, { type: 'line-step', index: 0, delta: 1 });
    expect(items(s)[0]!.quantity).toBe(2);
    s = run(
      s,
      { type: 'line-step', index: 0, delta: -1 },
      { type: 'line-step', index: 0, delta: -1 },
    );
    expect(items(s)[0]!.quantity).toBe(1);
  });

  it("keeps each line's key through another line's removal and a merge", () => {
    let s = run(selling(), ...typed({ 'item-code': 'A1', 'item-price': '1' }), {
      type: 'item-add',
    });
    s = run(s, ...typed({ 'item-code': 'B2', 'item-price': '1' }), { type: 'item-add' });
    s = run(s, ...typed({ 'item-code': 'C3', 'item-price': '1' }), { type: 'item-add' });
    const [a, b, c] = s.sale.draft.lines.map((l) => l.key);
    expect(new Set([a, b, c]).size).toBe(3);
    s = run(s, { type: 'line-remove', index: 0 });
    s = run(s, ...typed({ 'item-code': 'B2', 'item-price': '1' }), { type: 'item-add' });
    expect(s.sale.draft.lines.map((l) => [l.key, l.item.code, l.item.quantity])).toEqual([
      [b, 'B2', 2],
      [c, 'C3', 1],
    ]);
    s = run(s, ...typed({ 'item-code': 'D4', 'item-price': '1' }), { type: 'item-add' });
    expect([a, b, c]).not.toContain(s.sale.draft.lines[2]!.key);
  });

  it('removes a line and keeps a selection', () => {
    const s = run(priced(), { type: 'line-remove', index: 1 });
    expect(items(s).map((l) => l.code)).toEqual(['A1']);
    expect(s.sale.selected).toBe(0);
  });
});

describe('calculation', () => {
  it('keeps the latest answer and drops a stale one', () => {
    let s = run(selling(), { type: 'calc-started', seq: 1 }, { type: 'calc-started', seq: 2 });
    s = run(s, {
      type: 'calc-done',
      seq: 1,
      result: { check: calcCheck({ amount_to_pay: 1 }), warnings: [] },
    });
    expect(s.sale.calc.check).toBeNull();
    s = run(s, { type: 'calc-done', seq: 2, result: { check: calcCheck(), warnings: [] } });
    expect(s.sale.calc.check?.amount_to_pay).toBe(27);
    expect(s.sale.calc.pending).toBe(false);
  });

  it('keeps the last totals when a calculation is refused', () => {
    const s = run(
      priced(),
      { type: 'calc-started', seq: 2 },
      {
        type: 'calc-done',
        seq: 2,
        result: { error: { code: 'goods-not-payable', message: 'no', path: 'check' } },
      },
    );
    expect(s.sale.calc.check?.amount_to_pay).toBe(27);
    expect(s.sale.calc.error?.code).toBe('goods-not-payable');
    expect(canPay(s)).toBe(false);
  });

  it('allows payment only with lines and a calculation that answered', () => {
    expect(canPay(selling())).toBe(false);
    expect(canPay(priced())).toBe(true);
  });

  it('waits for a running calculation before it opens the payment', () => {
    const s = run(
      priced(),
      { type: 'calc-started', seq: 9 },
      { type: 'payment-open', transactionId: TX_ID },
    );
    expect(s.screen).toBe('sale');
  });
});

describe('customer, bonuses, coupons and rules', () => {
  const identified = (s: State) =>
    run(s, {
      type: 'customer-identified',
      output: { customer: customer(), source: 'online' },
      identity: { id: '12345', id_type: 'card' },
    });

  it('takes an identified customer into the draft', () => {
    const s = identified(selling());
    expect(s.sale.draft.customer?.name).toBe('Bob');
    expect(s.sale.draft.identity).toEqual({ id: '12345', id_type: 'card' });
  });

  it('refuses bonuses before a customer is identified', () => {
    const s = run(selling(), ...typed({ bonuses: '10' }), { type: 'bonuses-apply' });
    expect(s.sale.draft.bonuses).toBe('');
    expect(s.fieldErrors.bonuses).toBe('validation.customer-first');
  });

  it('offers all available bonuses', () => {
    const s = run(identified(selling()), { type: 'bonuses-max' });
    expect(s.sale.draft.bonuses).toBe('120.5');
    expect(s.form.bonuses).toBe('120.5');
  });

  it('lists a coupon code once', () => {
    const s = run(
      selling(),
      ...typed({ 'coupon-code': 'C1' }),
      { type: 'coupon-add' },
      ...typed({ 'coupon-code': 'C1' }),
      { type: 'coupon-add' },
    );
    expect(s.sale.draft.coupons).toEqual(['C1']);
  });

  it('lets a cashier not pick manual rules', () => {
    const s = run(selling(), { type: 'rule-toggle', id: 'r-manual' });
    expect(s.sale.draft.manualRuleIds).toEqual([]);
    expect(s.message?.key).toBe('error.role-required');
  });

  it('lets a senior cashier pick and unpick a manual rule', () => {
    const senior = run(initialState(), {
      type: 'status',
      status: status({ staff: { ...status().staff!, roles: ['senior-cashier'] } }),
    });
    const on = run(senior, { type: 'rule-toggle', id: 'r-manual' });
    expect(on.sale.draft.manualRuleIds).toEqual(['r-manual']);
    expect(run(on, { type: 'rule-toggle', id: 'r-manual' }).sale.draft.manualRuleIds).toEqual([]);
  });
});

describe('payment', () => {
  it("takes the customer's only account of an account method, and none of another", () => {
    const atPayment = run(
      priced(),
      {
        type: 'customer-identified',
        output: { customer: customer(), source: 'online' },
        identity: { id: '12345', id_type: 'card' },
      },
      { type: 'payment-open', transactionId: TX_ID },
    );
    const special = run(atPayment, { type: 'payment-method', method: 'special-account' });
    expect(special.sale.draft.payment).toEqual({ type: 'special-account', accountId: 'acc-1' });
    const fleet = run(special, { type: 'payment-method', method: 'corporate-special-account' });
    expect(fleet.sale.draft.payment).toEqual({
      type: 'corporate-special-account',
      accountId: null,
    });
    const cash = run(special, { type: 'payment-method', method: 'cash' });
    expect(cash.sale.draft.payment).toEqual({ type: 'cash', accountId: null });
  });

  it('keeps the transaction id of the first attempt', () => {
    let s = run(priced(), { type: 'payment-open', transactionId: TX_ID });
    s = run(s, { type: 'back' }, { type: 'payment-open', transactionId: 'another' });
    expect(s.payment.transactionId).toBe(TX_ID);
    expect(s.screen).toBe('payment');
  });

  it('splits cash and card exactly', () => {
    let s = run(priced(), { type: 'payment-open', transactionId: TX_ID });
    s = run(s, ...typed({ 'tender-type': 'cash', 'tender-amount': '10.10' }), {
      type: 'tender-add',
    });
    expect(toFixed(remaining(s)!)).toBe('16.90');
    expect(s.form['tender-amount']).toBe('16.90');
    s = run(s, ...typed({ 'tender-type': 'bank-card' }), { type: 'tender-add' });
    expect(toFixed(remaining(s)!)).toBe('0.00');
    expect(s.payment.tenders).toEqual([
      { type: 'cash', amount: '10.10' },
      { type: 'bank-card', amount: '16.90' },
    ]);
  });

  it('refuses a part larger than what is left', () => {
    const s = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      ...typed({ 'tender-amount': '30' }),
      { type: 'tender-add' },
    );
    expect(s.payment.tenders).toEqual([]);
    expect(s.fieldErrors['tender-amount']).toBe('validation.over-remaining');
  });

  it('computes change from the cash given', () => {
    const s = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      ...typed({ 'cash-given': '50' }),
    );
    expect(toFixed(change(s)!)).toBe('23');
  });

  it('keeps the id and asks for the status when the sale got no answer', () => {
    const s = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      {
        type: 'sale-failed',
        error: { code: 'unreachable', message: 'offline', path: '(root)' },
      },
    );
    expect(s.payment.transactionId).toBe(TX_ID);
    expect(s.payment.outcomeUnknown).toBe(true);
  });

  it('drops the id after a definite refusal', () => {
    const s = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      {
        type: 'sale-failed',
        error: { code: 'pin-invalid', message: 'wrong', path: 'check.special_account_pin' },
      },
    );
    expect(s.payment.transactionId).toBeNull();
    expect(s.message?.error?.code).toBe('pin-invalid');
  });

  it('ends the sale when the terminal says it is recorded but cannot show it', () => {
    const s = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      {
        type: 'sale-failed',
        error: { code: 'sale-unreadable', message: 'recorded', path: 'transaction_id' },
      },
    );
    expect(items(s)).toEqual([]);
    expect(s.payment.transactionId).toBeNull();
    expect(s.message?.error?.code).toBe('sale-unreadable');
  });

  it('takes a fresh id for the retry after a refusal, and keeps a live one', () => {
    const other = '018f0000-0000-7000-8000-00000000abcd';
    const refused = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      { type: 'sale-failed', error: { code: 'pin-invalid', message: 'wrong', path: '(root)' } },
      { type: 'sale-id', transactionId: other },
    );
    expect(refused.payment.transactionId).toBe(other);
    const live = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      { type: 'sale-id', transactionId: other },
    );
    expect(live.payment.transactionId).toBe(TX_ID);
  });

  it('shows the receipt of a committed sale and clears the draft', () => {
    const s = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      { type: 'sale-done', result: saleResult() },
    );
    expect(s.screen).toBe('receipt');
    expect(s.receipt.receipt?.transactionId).toBe(TX_ID);
    expect(items(s)).toEqual([]);
    expect(s.receipt.lastTransactionId).toBe(TX_ID);
  });

  it('shows the receipt when the status says the sale was committed after all', () => {
    const s = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      { type: 'sale-failed', error: { code: 'unreachable', message: '', path: '' } },
      { type: 'sale-status', output: committed() },
    );
    expect(s.screen).toBe('receipt');
  });

  it('allows a retry when the status says the sale never committed', () => {
    const s = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      { type: 'sale-failed', error: { code: 'unreachable', message: '', path: '' } },
      { type: 'sale-status', output: { transaction_id: TX_ID, state: 'unknown' } },
    );
    expect(s.payment.outcomeUnknown).toBe(false);
    expect(s.payment.transactionId).toBe(TX_ID);
    expect(s.screen).toBe('payment');
  });

  it('sells again under a new transaction id when the status says the sale was voided', () => {
    const s = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      { type: 'sale-failed', error: { code: 'unreachable', message: '', path: '' } },
      {
        type: 'sale-status',
        output: {
          transaction_id: TX_ID,
          state: 'voided',
          void_transaction_id: '01900000-0000-7000-8000-000000000001',
          reason: 'void: the till stopped before the answer',
        },
      },
    );
    expect(s.payment.outcomeUnknown).toBe(false);
    expect(s.payment.transactionId).toBeNull();
    expect(s.message).toMatchObject({ key: 'payment.voided' });
  });
});

describe('refunds and the rest', () => {
  it('opens the refund screen with the last sale', () => {
    const done = run(
      priced(),
      { type: 'payment-open', transactionId: TX_ID },
      { type: 'sale-done', result: saleResult() },
    );
    const s = run(done, { type: 'refund-open', transactionId: null });
    expect(s.screen).toBe('refund');
    expect(s.form['refund-transaction-id']).toBe(TX_ID);
  });

  it('fills every line for a full refund', () => {
    const s = run(
      selling(),
      { type: 'refund-loaded', output: committed() },
      { type: 'refund-all' },
    );
    expect(s.form['refund-qty-0']).toBe('2');
    expect(s.form['refund-qty-1']).toBe('1');
  });

  it('asks again before cancelling a sale loaded after Cancel was pressed for another', () => {
    const armed = run(
      selling(),
      { type: 'refund-loaded', output: committed() },
      { type: 'cancel-arm' },
    );
    expect(armed.refund.cancelArmed).toBe(true);
    expect(armed.message?.key).toBe('refund.confirm-cancel');
    const other = '018f0000-0000-7000-8000-00000000abcd';
    const next = run(armed, {
      type: 'refund-loaded',
      output: committed({ transaction_id: other }),
    });
    expect(next.refund.cancelArmed).toBe(false);
  });

  it('keeps the refund id only while the outcome is unknown', () => {
    let s = run(
      selling(),
      { type: 'refund-loaded', output: committed() },
      { type: 'refund-started', refundId: 'R1' },
    );
    s = run(
      s,
      { type: 'refund-failed', error: { code: 'unreachable', message: '', path: '' } },
      { type: 'refund-started', refundId: 'R2' },
    );
    expect(s.refund.refundId).toBe('R1');
    s = run(s, { type: 'refund-failed', error: { code: 'role-required', message: '', path: '' } });
    expect(s.refund.refundId).toBeNull();
  });

  it('hides the progress bar when the snapshot is complete', () => {
    let s = run(selling(), {
      type: 'sync-progress',
      progress: { phase: 'snapshot', done: 10, total: 100, sync: status().sync! },
    });
    expect(s.progress?.done).toBe(10);
    s = run(s, {
      type: 'sync-progress',
      progress: { phase: 'snapshot', done: 100, total: 100, sync: status().sync! },
    });
    expect(s.progress).toBeNull();
  });

  it('replaces a device by kind', () => {
    const s = run(
      selling(),
      { type: 'devices', devices: [printer] },
      { type: 'device', device: { ...printer, state: 'failed' } },
    );
    expect(s.devices).toHaveLength(1);
    expect(s.devices[0]!.state).toBe('failed');
  });

  it('switches the language from the settings, to one it has a table for only', () => {
    const s = run(selling(), { type: 'language', value: 'en' });
    expect(s.settings.language).toBe('en');
    expect(run(selling(), { type: 'language', value: 'xx' }).settings.language).toBe('en');
  });
});

describe('guessIdType', () => {
  it('reads a leading plus as a phone', () => {
    expect(guessIdType('+49 170 1234567')).toBe('phone');
  });

  it('reads an at sign as an e-mail', () => {
    expect(guessIdType('bob@example.com')).toBe('email');
  });

  it('reads a long or symbol-laden scan as a QR code', () => {
    expect(guessIdType('https://x.example/c/abc')).toBe('qr');
  });

  it('reads digits as a card', () => {
    expect(guessIdType('4000123412341234')).toBe('card');
  });
});
