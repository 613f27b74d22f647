import { describe, expect, it } from 'vitest';
import {
  calcCheck,
  cancelInput,
  identifyInput,
  refundInput,
  saleInput,
  saleStatusInput,
  shiftOpenInput,
  signInInput,
} from '../../renderer/requests.js';
import { emptyDraft } from '../../renderer/slices/sale/state.js';
import {
  initialState,
  type Event,
  type FieldName,
  type Form,
  type State,
} from '../../renderer/state.js';
import { reduce } from '../../renderer/reduce.js';
import { commands } from '../../src/contract/commands.js';
import { calcCheck as calcResponse, committed, customer, status, TX_ID } from './fixtures.js';

const run = (s: State, ...events: Event[]) => events.reduce(reduce, s);
const typed = (fields: Form): Event[] =>
  (Object.entries(fields) as [FieldName, string][]).map(([name, value]) => ({
    type: 'field',
    name,
    value,
  }));

function atPayment(check = calcResponse()): State {
  let s = run(initialState(), { type: 'status', status: status() });
  s = run(s, {
    type: 'customer-identified',
    output: { customer: customer(), source: 'online' },
    identity: { id: '12345', id_type: 'card' },
  });
  s = run(s, ...typed({ 'item-code': 'A1', 'item-price': '10', 'item-quantity': '2' }), {
    type: 'item-add',
  });
  s = run(
    s,
    { type: 'calc-started', seq: 5 },
    { type: 'calc-done', seq: 5, result: { check, warnings: [] } },
  );
  return run(s, { type: 'payment-open', transactionId: TX_ID });
}

describe('calcCheck', () => {
  it('sends lines only for an anonymous cash sale', () => {
    const draft = {
      ...emptyDraft(),
      lines: [{ key: 0, item: { code: 'A', quantity: 1, price: 2 } }],
    };
    expect(calcCheck(draft)).toEqual({
      check_items: [{ code: 'A', quantity: 1, price: 2 }],
      payment_type: 'cash',
    });
  });

  it('sends the customer, bonuses, coupons and picked manual rules', () => {
    const draft = {
      ...emptyDraft(),
      identity: { id: '12345', id_type: 'card' as const },
      customer: customer(),
      bonuses: '10.5',
      coupons: ['C1'],
      manualRuleIds: ['r-manual'],
    };
    expect(calcCheck(draft)).toMatchObject({
      id: '12345',
      id_type: 'card',
      customer_id: customer().id,
      bonuses_redeemed_amount: 10.5,
      redeemed_coupons: [{ code: 'C1' }],
      manual_rules: true,
      implemented_rules: [{ id: 'r-manual' }],
    });
  });

  it('names a corporate customer as one', () => {
    const draft = { ...emptyDraft(), customer: customer({ type: 'corporate-customer' }) };
    const check = calcCheck(draft);
    expect(check.corporate_customer_id).toBe(customer().id);
    expect(check.customer_id).toBeUndefined();
  });

  it("names a driver's fleet as the corporate customer, beside the driver", () => {
    const fleet = '018f0000-0000-7000-8000-0000000000ff';
    const draft = { ...emptyDraft(), customer: customer({ corporate_customer_id: fleet }) };
    expect(calcCheck(draft)).toMatchObject({
      customer_id: customer().id,
      corporate_customer_id: fleet,
    });
  });

  it('sends the account a payment is taken from', () => {
    const draft = {
      ...emptyDraft(),
      payment: { type: 'special-account' as const, accountId: 'acc-1' },
    };
    expect(calcCheck(draft)).toMatchObject({
      payment_type: 'special-account',
      payment_id: 'acc-1',
    });
  });
});

describe('saleInput', () => {
  it('sends only fields the caller may set: the command boundary accepts every sale it builds', () => {
    const rule = '018f0000-0000-7000-8000-0000000000dd';
    const check = calcResponse({
      special_account_pin_required: true,
      special_account_odometer_required: 'required',
      special_account_vehicle_id_required: 'optional',
    });
    let s = atPayment(check);
    s = run(
      s,
      { type: 'payment-method', method: 'corporate-special-account' },
      { type: 'payment-account', accountId: rule },
      ...typed({ bonuses: '1', pin: '1234', odometer: '1000.5', 'vehicle-id': 'TRUCK-1' }),
    );
    const draft = { ...s.sale.draft, coupons: ['C1'], manualRuleIds: [rule] };
    s = { ...s, sale: { ...s.sale, draft } };
    const built = saleInput(s);
    if (!('input' in built)) throw new Error(JSON.stringify(built));
    const parsed = commands['sale-process'].input.safeParse(built.input);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(built.input.check).toMatchObject({ manual_rules: true, special_account_pin: '1234' });
    const cash = saleInput(atPayment());
    if (!('input' in cash)) throw new Error(JSON.stringify(cash));
    expect(commands['sale-process'].input.safeParse(cash.input).success).toBe(true);
  });

  it('pays the whole amount in cash by default', () => {
    const built = saleInput(atPayment());
    expect(built).toMatchObject({
      input: {
        transaction_id: TX_ID,
        check: { transaction_id: TX_ID, payments: [{ type: 'cash', amount: 27 }] },
      },
    });
  });

  it('pays the bonuses the screen showed granted when "All available" asked for more', () => {
    let s = run(initialState(), { type: 'status', status: status() });
    s = run(s, {
      type: 'customer-identified',
      output: { customer: customer(), source: 'online' },
      identity: { id: '12345', id_type: 'card' },
    });
    s = run(s, ...typed({ 'item-code': 'A1', 'item-price': '4.99', 'item-quantity': '1' }), {
      type: 'item-add',
    });
    s = run(s, { type: 'bonuses-max' });
    expect(calcCheck(s.sale.draft).bonuses_redeemed_amount).toBe(120.5);
    const granted = calcResponse({
      amount: 4.99,
      bonuses_redeemed_amount: 2.49,
      amount_to_pay: 2.5,
    });
    s = run(
      s,
      { type: 'calc-started', seq: 9 },
      { type: 'calc-done', seq: 9, result: { check: granted, warnings: [] } },
      { type: 'payment-open', transactionId: TX_ID },
    );
    expect(saleInput(s)).toMatchObject({
      input: {
        check: { bonuses_redeemed_amount: 2.49, payments: [{ type: 'cash', amount: 2.5 }] },
      },
    });
  });

  it('sends the cash the customer handed over, for the terminal to check and keep', () => {
    const s = run(atPayment(), ...typed({ 'cash-given': '50' }));
    expect(saleInput(s)).toMatchObject({ input: { cash_given: 50 } });
    expect(saleInput(atPayment())).not.toHaveProperty('input.cash_given');
  });

  it('refuses a split that does not add up', () => {
    const s = run(atPayment(), ...typed({ 'tender-amount': '5' }), { type: 'tender-add' });
    expect(saleInput(s)).toEqual({ errors: { 'tender-amount': 'validation.remaining' } });
  });

  it('asks for the PIN the engine requires', () => {
    let s = atPayment(calcResponse({ special_account_pin_required: true }));
    s = run(
      s,
      { type: 'payment-method', method: 'special-account' },
      { type: 'payment-account', accountId: 'acc-1' },
    );
    s = run(
      s,
      { type: 'calc-started', seq: 6 },
      {
        type: 'calc-done',
        seq: 6,
        result: { check: calcResponse({ special_account_pin_required: true }), warnings: [] },
      },
    );
    expect(saleInput(s)).toEqual({ errors: { pin: 'validation.required' } });
    const ok = saleInput(run(s, ...typed({ pin: '1234' })));
    expect(ok).toMatchObject({
      input: {
        check: {
          payment_type: 'special-account',
          payment_id: 'acc-1',
          special_account_pin: '1234',
          payments: [{ type: 'special-account', amount: 27, payment_id: 'acc-1' }],
        },
      },
    });
  });

  it('sends the odometer with its unit and refuses three decimals', () => {
    const check = calcResponse({
      special_account_odometer_required: 'required',
      special_account_vehicle_id_required: 'optional',
    });
    let s = atPayment(check);
    s = run(
      s,
      { type: 'payment-method', method: 'corporate-special-account' },
      { type: 'payment-account', accountId: 'acc-1' },
    );
    s = run(
      s,
      { type: 'calc-started', seq: 7 },
      { type: 'calc-done', seq: 7, result: { check, warnings: [] } },
    );
    expect(saleInput(run(s, ...typed({ odometer: '1000.123' })))).toEqual({
      errors: { odometer: 'validation.two-decimals' },
    });
    expect(
      saleInput(run(s, ...typed({ odometer: '1000.5', 'odometer-unit': 'mi' }))),
    ).toMatchObject({
      input: { check: { odometer: 1000.5, odometer_unit: 'mi' } },
    });
  });
});

describe('other inputs', () => {
  it('requires an auth code', () => {
    expect(signInInput(initialState())).toEqual({ errors: { 'auth-code': 'validation.required' } });
    expect(signInInput(run(initialState(), ...typed({ 'auth-code': '0042' })))).toEqual({
      input: { auth_code: '0042' },
    });
  });

  it('opens a shift with the float counted, 0 for an empty drawer, and never without', () => {
    expect(shiftOpenInput(initialState())).toEqual({
      errors: { 'opening-cash': 'validation.float-required' },
    });
    expect(shiftOpenInput(run(initialState(), ...typed({ 'opening-cash': '0' })))).toEqual({
      input: { opening_cash: 0 },
    });
    expect(shiftOpenInput(run(initialState(), ...typed({ 'opening-cash': '100.50' })))).toEqual({
      input: { opening_cash: 100.5 },
    });
    expect(shiftOpenInput(run(initialState(), ...typed({ 'opening-cash': '-1' })))).toEqual({
      errors: { 'opening-cash': 'validation.positive' },
    });
  });

  it('identifies with a guessed type and at least three characters', () => {
    expect(identifyInput(run(initialState(), ...typed({ 'customer-id': '12' })))).toEqual({
      errors: { 'customer-id': 'validation.min3' },
    });
    expect(identifyInput(run(initialState(), ...typed({ 'customer-id': '+4917012345' })))).toEqual({
      input: { id: '+4917012345', id_type: 'phone' },
    });
    expect(
      identifyInput(
        run(initialState(), ...typed({ 'customer-id': '12345', 'customer-id-type': 'vehicle' })),
      ),
    ).toEqual({
      input: { id: '12345', id_type: 'vehicle' },
    });
  });

  it('checks a transaction id before asking for its status', () => {
    expect(
      saleStatusInput(run(initialState(), ...typed({ 'refund-transaction-id': 'nope' }))),
    ).toEqual({
      errors: { 'refund-transaction-id': 'validation.uuid' },
    });
    expect(
      saleStatusInput(run(initialState(), ...typed({ 'refund-transaction-id': TX_ID }))),
    ).toEqual({
      input: { transaction_id: TX_ID },
    });
  });

  it('refunds the typed quantities, never more than sold', () => {
    const loaded = run(initialState(), { type: 'refund-loaded', output: committed() });
    expect(refundInput(loaded, 'R')).toEqual({
      errors: { 'refund-qty-0': 'validation.refund-none' },
    });
    expect(refundInput(run(loaded, ...typed({ 'refund-qty-0': '3' })), 'R')).toEqual({
      errors: { 'refund-qty-0': 'validation.over-sold' },
    });
    expect(
      refundInput(
        run(loaded, ...typed({ 'refund-qty-1': '1', 'refund-comment': ' broken ' })),
        'R',
      ),
    ).toEqual({
      input: {
        transaction_id: 'R',
        original_transaction_id: TX_ID,
        lines: [{ index: 1, quantity: 1 }],
        comment: 'broken',
      },
    });
  });

  it('cancels by the sale own id', () => {
    const loaded = run(initialState(), { type: 'refund-loaded', output: committed() });
    expect(cancelInput(loaded)).toEqual({ input: { transaction_id: TX_ID } });
  });
});
