// The sale pipeline (checkout.ts): a sale is computed once, in process mode, and that frozen
// check is what the card is charged for and what the till records; a transaction id this till
// voided after an unknown outcome is spent.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, tempDir, type Till } from './helpers.js';

let till: Till | null = null;
afterEach(async () => {
  await till?.close();
  till = null;
});

async function cashier(): Promise<Till> {
  till = await openTill();
  await till.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
  await till.ok('shift-open', {});
  return till;
}

/** Gives a customer bonuses on the server only: the till's copy does not know them yet. */
function creditOnServerOnly(t: Till, customerId: string, regular: number): void {
  const customer = t.central.store.getRecord('customer', customerId) as {
    bonuses?: { regular?: number };
  };
  t.central.store.upsert('customer', customerId, {
    ...customer,
    bonuses: { ...customer.bonuses, regular: (customer.bonuses?.regular ?? 0) + regular },
  });
}

describe('the sale pipeline', () => {
  it('refuses a card sale spending more bonuses than the till can grant before charging the card', async () => {
    const t = await cashier();
    creditOnServerOnly(t, DEMO.customers.anna, 500);
    const id = uuidv7(Date.now());
    await t.refused(
      'sale-process',
      {
        transaction_id: id,
        check: {
          customer_id: DEMO.customers.anna,
          id: DEMO.cards.anna,
          id_type: 'card',
          payment_type: 'bank-card',
          bonuses_redeemed_amount: 200,
          check_items: [item('OIL-1', 20)],
        },
      },
      'insufficient-bonuses',
    );
    // Nothing was charged, so nothing can be charged on one figure and sold at another.
    expect(t.terminal.store.cardJournal.forTransaction(id)).toHaveLength(0);
    expect(t.terminal.store.ledger.status(id)).toBeNull();
  }, 30_000);

  it('charges the card exactly the amount the sale is recorded at', async () => {
    const t = await cashier();
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: id,
      check: {
        customer_id: DEMO.customers.anna,
        id: DEMO.cards.anna,
        id_type: 'card',
        payment_type: 'bank-card',
        bonuses_redeemed_amount: 5,
        check_items: [item('OIL-1', 1), item('COF-1', 2)],
      },
    });
    const stored = t.terminal.store.ledger.storedCheck(id)!.document as {
      amount_to_pay: number;
    };
    expect(sale.payments).toHaveLength(1);
    expect(sale.payments[0]!.amount).toBe(stored.amount_to_pay);
    expect(sale.check.amount_to_pay).toBe(stored.amount_to_pay);
    const items = await t.ok('attention-list', {});
    expect(items.items.filter((i) => i.kind === 'payment-unresolved')).toHaveLength(0);
  }, 30_000);
});

describe('a transaction id voided after an unknown outcome', () => {
  /** A spending sale sent online by a till killed before the answer: voided at the next start. */
  async function voidedAtRestart(): Promise<{ t: Till; id: string }> {
    const first = await openTill();
    const { central, dir } = first;
    const id = uuidv7(Date.now());
    first.terminal.store.onlineAttempts.begin(id, Date.now());
    await first.terminal.close();
    till = await openTill({ central, dir });
    await till.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await till.ok('shift-open', {});
    return { t: till, id };
  }

  it('is reported voided by sale-status, with the void that spent it', async () => {
    const { t, id } = await voidedAtRestart();
    const status = await t.ok('sale-status', { transaction_id: id });
    expect(status).toMatchObject({ transaction_id: id, state: 'voided' });
  }, 30_000);

  it('refuses sale-process under the voided id with its own code', async () => {
    const { t, id } = await voidedAtRestart();
    await t.refused(
      'sale-process',
      {
        transaction_id: id,
        check: {
          customer_id: DEMO.customers.anna,
          id: DEMO.cards.anna,
          id_type: 'card',
          bonuses_redeemed_amount: 1,
          check_items: [item('COF-1', 1)],
        },
      },
      'transaction-voided',
    );
    expect(t.terminal.store.ledger.storedCheck(id)).toBeNull();
  }, 30_000);
});

describe('a coupon presented but not applicable', () => {
  it('stays open at the till and on the central service after the sale', async () => {
    const t = await cashier();
    // The free-coffee coupon on a check without coffee: valid, but its rule applies to nothing.
    const check = {
      customer_id: DEMO.customers.anna,
      id: DEMO.cards.anna,
      id_type: 'card',
      redeemed_coupons: [{ code: DEMO.coupons.coffee }],
      check_items: [item('WTR-1', 1)],
    };
    const sale = await t.ok('sale-process', { transaction_id: uuidv7(Date.now()), check });
    expect(sale.check.redeemed_coupons?.[0]).toMatchObject({ applicable: false });
    const server = t.central.store.findBy('coupon', 'code', DEMO.coupons.coffee) as Array<{
      status: string;
    }>;
    expect(server.map((c) => c.status)).toEqual(['open']);
    expect(t.terminal.store.ledger.couponHeld(DEMO.coupons.coffee)).toBe(false);
    // Still the customer's: a coffee later is free with it.
    const later = await t.ok('check-calc', {
      check: { ...check, check_items: [item('COF-1', 1)] },
    });
    expect(later.check.redeemed_coupons?.[0]).toMatchObject({ valid: true, applicable: true });
  }, 30_000);
});

describe('a spending sale for a customer with sales still queued', () => {
  it('goes through the queue behind them instead of overtaking them online', async () => {
    const dir = tempDir();
    const db = join(dir, 'central.sqlite');
    let central = await startCentral({ db, faultSeed: 1 });
    const port = Number(new URL(central.url).port);
    till = await openTill({ central, dir: join(dir, 'till') });
    const t = till;
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    const spend = {
      customer_id: DEMO.customers.anna,
      id: DEMO.cards.anna,
      id_type: 'card',
      bonuses_redeemed_amount: 1,
      check_items: [item('COF-1', 1)],
    };
    await central.close();
    const first = uuidv7(Date.now());
    expect((await t.ok('sale-process', { transaction_id: first, check: spend })).subtype).toBe(
      'offline',
    );
    central = await startCentral({ db, port, faultSeed: 1 });
    const second = uuidv7(Date.now());
    const sale = await t.ok('sale-process', { transaction_id: second, check: spend });
    // The link is back, yet Anna's first sale is still queued: the second waits behind it.
    expect(sale).toMatchObject({ subtype: 'offline', sync: { state: 'queued' } });
    await t.ok('sync-now', {});
    const sent = central.service.transactions().transactions.map((x) => x.transaction_id);
    expect(sent.filter((x) => x === first || x === second)).toEqual([first, second]);
    await t.close();
    till = null;
    await central.close();
  }, 30_000);
});

describe('a coupon emitted by a queued sale', () => {
  it('takes the code the central service confirmed once the sale is synced', async () => {
    const t = await cashier();
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: id,
      check: {
        customer_id: DEMO.customers.anna,
        id: DEMO.cards.anna,
        id_type: 'card',
        check_items: [item('FUEL-95', 30)],
      },
    });
    const provisional = sale.check.emitted_coupons?.[0]?.code;
    expect(provisional).toMatch(/^T01-/);
    await t.ok('sync-now', {});
    const status = await t.ok('sale-status', { transaction_id: id });
    const confirmed = status.state === 'committed' ? status.check.emitted_coupons?.[0]?.code : null;
    const wallet = t.central.store.findBy('coupon', 'code', confirmed ?? '') as Array<{
      customer_id?: string;
      status?: string;
    }>;
    expect(wallet).toEqual([
      expect.objectContaining({ customer_id: DEMO.customers.anna, status: 'open' }),
    ]);
    expect(confirmed).not.toBe(provisional);
  }, 30_000);
});
