// Spending a customer's value needs the customer presented (docs/terminal.md, "The customer
// presents"): a check that spends bonuses or pays from a customer's account carries the card,
// phone or QR code read at the till; a bare customer_id (the caller's word) is refused before
// anything is charged or recorded. Sandbox central over HTTP, a real SQLite file.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, tillPerTest, type Till } from './helpers.js';

const { signedIn } = tillPerTest();

const anna = DEMO.customers.anna;
const annaCard = { id: DEMO.cards.anna, id_type: 'card' };
const bonusSpend = {
  customer_id: anna,
  bonuses_redeemed_amount: 2,
  check_items: [item('SNK-1', 1)],
};
const walletPayment = {
  customer_id: anna,
  payment_type: 'special-account',
  payment_id: DEMO.accounts.annaWallet,
  check_items: [item('WTR-1', 1)],
};

/** Sells `check` under a new id expecting `code`; proves nothing was recorded. */
async function refusedUnrecorded(t: Till, check: Record<string, unknown>, code: string) {
  const id = uuidv7(Date.now());
  const refused = await t.refused('sale-process', { transaction_id: id, check }, code);
  expect(await t.ok('sale-status', { transaction_id: id })).toMatchObject({ state: 'unknown' });
  expect(t.terminal.store.outbox.byTransaction(id)).toBeNull();
  return refused.error;
}

describe('a customer spends only when presented', () => {
  it('refuses a bonus spend for a bare customer_id, naming the identifier', async () => {
    const t = await signedIn();
    const error = await refusedUnrecorded(t, bonusSpend, 'customer-not-presented');
    expect(error).toMatchObject({
      path: 'check.id',
      details: { spends: 'check.bonuses_redeemed_amount' },
    });
    await t.refused('check-calc', { check: bonusSpend }, 'customer-not-presented');
  }, 30_000);

  it('refuses an account payment for a bare customer_id', async () => {
    const t = await signedIn();
    const error = await refusedUnrecorded(t, walletPayment, 'customer-not-presented');
    expect(error.details).toEqual({ spends: 'check.payment_type' });
  }, 30_000);

  it('refuses a fleet payment identified by the vehicle alone: a tag is not a person', async () => {
    const t = await signedIn();
    const check = {
      customer_id: DEMO.customers.driver2,
      corporate_customer_id: DEMO.customers.fleet,
      payment_type: 'corporate-special-account',
      payment_id: DEMO.accesses.driver2,
      id: 'TRUCK-1',
      id_type: 'vehicle',
      check_items: [item('DIESEL', 5)],
    };
    await refusedUnrecorded(t, check, 'customer-not-presented');
  }, 30_000);

  it("refuses another customer's card for the customer named", async () => {
    const t = await signedIn();
    const check = { ...bonusSpend, id: DEMO.cards.ben, id_type: 'card' };
    const error = await refusedUnrecorded(t, check, 'customer-mismatch');
    expect(error.path).toBe('check.customer_id');
  }, 30_000);

  it('refuses a presented card the till does not know', async () => {
    const t = await signedIn();
    const check = { ...bonusSpend, id: '7001999999999', id_type: 'card' };
    const error = await refusedUnrecorded(t, check, 'customer-not-found');
    expect(error.path).toBe('check.id');
  }, 30_000);

  it('sells the spend once the card is presented, with or without the customer_id', async () => {
    const t = await signedIn();
    const named = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: { ...bonusSpend, ...annaCard },
    });
    expect(named.check).toMatchObject({ customer_id: anna, bonuses_redeemed_amount: 2 });
    const { customer_id: _left, ...byCard } = walletPayment;
    const paid = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: { ...byCard, ...annaCard },
    });
    expect(paid.check).toMatchObject({ customer_id: anna, payment_type: 'special-account' });
  }, 30_000);

  it('still earns for a bare customer_id: earning spends nothing of the customer', async () => {
    const t = await signedIn();
    const sold = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: { customer_id: anna, check_items: [item('SNK-1', 2)] },
    });
    expect(sold.check.customer_id).toBe(anna);
    expect(Number(sold.check.bonuses_added_amount)).toBeGreaterThan(0);
  }, 30_000);
});
