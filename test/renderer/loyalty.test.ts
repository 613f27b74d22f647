// Loyalty at the till on the screen: coupons sold and bonuses moved for the customer the sale
// identified, each under one key until answered, their results said in words, and the
// customer's balances replaced by the till's new ones.
import { describe, expect, it } from 'vitest';
import { perform } from '../../renderer/actions.js';
import { keyIntent, type KeyPress } from '../../renderer/keys.js';
import { reduce } from '../../renderer/reduce.js';
import { bonusOperationInput } from '../../renderer/slices/loyalty/input.js';
import { initialState, type Event, type FieldName, type State } from '../../renderer/state.js';
import type { BonusOperation, ErrorBody } from '../../renderer/types.js';
import { fakeTill, reducingTill } from './fake-till.js';
import { BATCH, couponSale, CUSTOMER_ID, customer, status, STAFF_ID } from './fixtures.js';

const run = (s: State, ...events: Event[]) => events.reduce(reduce, s);
const typed = (s: State, name: FieldName, value: string) => run(s, { type: 'field', name, value });
const press = (key: string): KeyPress => ({
  key,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  inField: false,
});

const OTHER = '018f0000-0000-7000-8000-0000000001f6';
const KEY = '0190c2a4-0000-7000-8000-0000000000d1';
const manager = status({ staff: { ...status().staff!, roles: ['manager'] } });
const identity = { id: '4000000000001', id_type: 'card' as const };

/** Signed in, on the sale with Bob identified. */
function identified(s = manager): State {
  return run(
    initialState(),
    { type: 'status', status: s },
    { type: 'navigate', screen: 'sale' },
    {
      type: 'customer-identified',
      output: { customer: customer(), source: 'online' },
      identity,
    },
  );
}

const moved = (over: Partial<BonusOperation> = {}): BonusOperation => ({
  transaction_id: KEY,
  customer_id: CUSTOMER_ID,
  kind: 'add',
  amount: 10,
  comment: 'complaint settled',
  balance: 110,
  subtype: 'online',
  sync: 'done',
  staff: { id: STAFF_ID, name: 'Ann' },
  recorded_at: '2026-11-27T10:00:00Z',
  ...over,
});

describe('the loyalty screen', () => {
  it('opens on F7 from the sale only when a customer is identified', () => {
    expect(keyIntent(identified(), press('F7'))).toEqual({ type: 'loyalty-open' });
    const anonymous = run(initialState(), { type: 'status', status: manager });
    expect(keyIntent(run(anonymous, { type: 'navigate', screen: 'sale' }), press('F7'))).toBeNull();
  });

  it('goes back to the sale on Esc', () => {
    const s = run(identified(), { type: 'navigate', screen: 'loyalty' });
    expect(run(s, { type: 'back' }).screen).toBe('sale');
  });

  it('sells a coupon again after a lost answer under the same key, another batch under a new one', async () => {
    const keys: string[] = [];
    let ids = 0;
    const till = reducingTill(identified(), {
      newId: () => `00000000-0000-7000-8000-00000000000${++ids}`,
      run: (async (name: string, input: { transaction_id: string }) => {
        if (name === 'coupon-sell') keys.push(input.transaction_id);
        return false; // no answer
      }) as never,
    });
    const press = (batchId: string) => till.perform({ type: 'coupon-buy', batchId });
    await press(BATCH);
    await press(BATCH);
    await press(OTHER);
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('says the coupon sold with its code, drops its key and shows it for the customer', () => {
    const s = run(
      identified(),
      { type: 'coupon-sale-key', batchId: BATCH, key: KEY },
      { type: 'coupon-sold', sale: couponSale() },
    );
    expect(s.loyalty.saleKey).toBeNull();
    expect(s.loyalty.sold?.coupon?.code).toBe('GIFT-10-AB12');
    expect(s.message).toMatchObject({
      kind: 'notice',
      key: 'loyalty.sold',
      params: { code: 'GIFT-10-AB12', amount: '25.00' },
    });
  });

  it('says a coupon sale without an answer is queued, with no code to give', () => {
    const s = run(identified(), {
      type: 'coupon-sold',
      sale: couponSale({ coupon: null, sync: 'queued' }),
    });
    expect(s.message).toMatchObject({ key: 'loyalty.sold-queued' });
  });

  it('replaces the customer’s balances with the till’s new ones and prices the sale again', () => {
    const s = identified();
    const after = run(s, {
      type: 'customer-refreshed',
      customer: customer({ bonuses: { regular: 75, promotional: 20.5, available: 95.5 } }),
    });
    expect(after.sale.draft.customer?.bonuses.available).toBe(95.5);
    expect(after.sale.version).toBe(s.sale.version + 1);
  });

  it('keeps the sale’s customer when another customer’s answer arrives', () => {
    const s = identified();
    const other = customer({ id: '018f0000-0000-7000-8000-0000000000ce' });
    expect(run(s, { type: 'customer-refreshed', customer: other })).toBe(s);
  });
});

describe('the bonus operation form', () => {
  const filled = (s: State) =>
    typed(
      typed(typed(s, 'bonus-kind', 'write-off'), 'bonus-amount', '12.5'),
      'bonus-comment',
      'duplicate',
    );

  it('sends the kind, the amount and why for the identified customer under the key kept', () => {
    const s = run(filled(identified()), { type: 'bonus-key', key: KEY });
    expect(bonusOperationInput(s)).toEqual({
      input: {
        transaction_id: KEY,
        customer_id: CUSTOMER_ID,
        kind: 'write-off',
        amount: 12.5,
        comment: 'duplicate',
      },
    });
  });

  it('refuses an empty reason, naming its field', () => {
    const s = run(typed(identified(), 'bonus-amount', '5'), { type: 'bonus-key', key: KEY });
    expect(bonusOperationInput(s)).toEqual({
      errors: { 'bonus-comment': 'loyalty.comment-required' },
    });
  });

  it('clears the form and says what moved and the balance now', () => {
    const s = run(
      filled(identified()),
      { type: 'bonus-key', key: KEY },
      { type: 'bonus-moved', operation: moved() },
    );
    expect(s.loyalty.bonusKey).toBeNull();
    expect(s.form['bonus-amount']).toBe('');
    expect(s.message).toMatchObject({
      key: 'loyalty.added',
      params: { amount: '10.00', balance: '110.00' },
    });
  });

  it('puts the focus in the field a refusal names', async () => {
    const refused: ErrorBody = {
      code: 'invalid-input',
      message: 'comment: too long',
      path: 'comment',
    };
    const events: Event[] = [];
    const till = fakeTill(run(filled(identified()), { type: 'bonus-key', key: KEY }), {
      dispatch: (e) => void events.push(e),
      run: (async (_n: string, _i: unknown, _ok: unknown, onError?: (e: ErrorBody) => Event) => {
        const e = onError?.(refused);
        if (e) events.push(e);
        return false;
      }) as never,
    });
    await perform(till, { type: 'bonus-move' });
    expect(events).toEqual([
      { type: 'failed', error: refused },
      { type: 'focus', testid: 'bonus-comment' },
    ]);
  });
});
