// What this till's own cancels leave behind, and the server's answer to them: a certificate the
// cancel reopened can be redeemed again (in stand-in too) with the server agreeing, and the
// bonuses a cancel said were owed are reconciled with what the server actually wrote off.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, tempDir, type Till } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Balances {
  customers: Array<{ customer_id: string; regular: number; promotional: number; owed: number }>;
}
interface Transactions {
  transactions: Array<{ transaction_id: string; operation: string; cancelled: number }>;
}

async function sandbox<T>(central: RunningCentral, path: string): Promise<T> {
  const r = await fetch(`${central.url}/sandbox/${path}`, {
    headers: { Authorization: `Bearer ${DEMO.apiKey}` },
  });
  return (await r.json()) as T;
}

/** A till on a sandbox that can be stopped and started again on the same port (an outage). */
async function outageTill(): Promise<{
  t: Till;
  central: () => RunningCentral;
  down: () => Promise<void>;
  up: () => Promise<void>;
}> {
  const dir = tempDir();
  const db = join(dir, 'central.sqlite');
  let central: RunningCentral = await startCentral({ db, faultSeed: 1 });
  const port = Number(new URL(central.url).port);
  const t = await openTill({ central, dir: join(dir, 'till') });
  let running = true;
  cleanups.push(async () => {
    await t.close();
    if (running) await central.close();
  });
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.senior });
  await t.ok('shift-open', {});
  return {
    t,
    central: () => central,
    async down() {
      await central.close();
      running = false;
    },
    async up() {
      central = await startCentral({ db, port, faultSeed: 1 });
      running = true;
    },
  };
}

const giftSale = {
  customer_id: DEMO.customers.ben,
  id: DEMO.cards.ben,
  id_type: 'card',
  redeemed_coupons: [{ code: DEMO.coupons.gift }],
  check_items: [item('WTR-1', 1)],
};

describe('our own cancel and the server', () => {
  it.each([
    ['queued', false],
    ['done', true],
  ])(
    'a certificate our own cancel reopened (%s) can be redeemed again in stand-in, and the server agrees',
    async (_, pushed) => {
      const { t, central, down, up } = await outageTill();
      const first = uuidv7(Date.now());
      const sale = await t.ok('sale-process', { transaction_id: first, check: giftSale });
      expect(sale.subtype).toBe('online');
      expect(sale.check.redeemed_coupons?.[0]).toMatchObject({ code: DEMO.coupons.gift });
      const credited = sale.check.bonuses_added_amount ?? 0;
      expect(credited).toBeGreaterThanOrEqual(10);
      await t.ok('sale-cancel', { transaction_id: first });
      // Done: the server reopened it, but no pull has brought that record yet.
      if (pushed) expect((await t.terminal.sync.push()).done).toBe(1);

      await down();
      const again = uuidv7(Date.now());
      const standIn = await t.ok('sale-process', { transaction_id: again, check: giftSale });
      expect(standIn.subtype).toBe('offline');
      expect(standIn.check.redeemed_coupons?.[0]).not.toMatchObject({ valid: false });
      expect(standIn.check.bonuses_added_amount).toBe(credited);
      // Redeemed again here: a third sale sees it spent.
      const third = await t.ok('check-calc', { check: giftSale });
      expect(third.check.redeemed_coupons?.[0]).toMatchObject({ valid: false });

      await up();
      const synced = await t.ok('sync-now', {});
      expect(synced.pushed).toBe(pushed ? 1 : 2);
      expect(await t.ok('sale-status', { transaction_id: again })).toMatchObject({
        sync: { state: 'done' },
      });
      const server = await sandbox<Balances>(central(), 'balances');
      const ben = server.customers.find((c) => c.customer_id === DEMO.customers.ben)!;
      const who = await t.ok('customer-identify', { id: DEMO.cards.ben, id_type: 'card' });
      expect(who.customer.bonuses.regular).toBe(ben.regular);
      // Redeemed once on the server: the first sale is cancelled, the stand-in one stands.
      const tx = await sandbox<Transactions>(central(), 'transactions');
      expect(tx.transactions.find((x) => x.transaction_id === first)?.cancelled).toBeTruthy();
      expect(tx.transactions.find((x) => x.transaction_id === again)?.cancelled).toBeFalsy();
      const after = await t.ok('check-calc', { check: giftSale });
      expect(after.check.redeemed_coupons?.[0]).toMatchObject({ valid: false });
      expect(t.terminal.store.attention.list()).toEqual([]);
    },
    60_000,
  );
});

describe('bonuses owed after a cancel', () => {
  it('owed bonuses are reconciled with the server answer to the cancel', async () => {
    const { t, central } = await outageTill();
    // Sale A earns; the till's cache does not show the credit yet (no pull since).
    const earn = uuidv7(Date.now());
    const a = await t.ok('sale-process', {
      transaction_id: earn,
      check: {
        customer_id: DEMO.customers.ben,
        id: DEMO.cards.ben,
        id_type: 'card',
        payment_type: 'cash',
        check_items: [item('COF-1', 3), item('SNK-1', 1)],
      },
    });
    const earned = a.check.bonuses_added_amount ?? 0;
    expect(earned).toBeGreaterThan(0);
    // Sale B spends everything the till sees (40 regular + a 5 lot).
    const who = await t.ok('customer-identify', { id: DEMO.cards.ben, id_type: 'card' });
    const spend = who.customer.bonuses.available;
    const b = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: {
        customer_id: DEMO.customers.ben,
        id: DEMO.cards.ben,
        id_type: 'card',
        bonuses_redeemed_amount: spend,
        check_items: [item('OIL-1', 8)],
      },
    });
    expect(b.check.bonuses_redeemed_amount).toBe(spend);
    // The till sees no balance left: the cancel says the customer owes what A earned.
    const cancel = await t.ok('sale-cancel', { transaction_id: earn });
    expect(cancel.owed?.bonuses).toBe(earned);
    const [noted] = t.terminal.store.attention.list();
    expect(noted).toMatchObject({ kind: 'bonuses-owed', details: { bonuses: earned } });

    await t.ok('sync-now', {});
    const server = await sandbox<Balances>(central(), 'balances');
    const ben = server.customers.find((c) => c.customer_id === DEMO.customers.ben)!;
    // The server had the credit: it took the whole write-off, nothing is owed.
    expect(ben.owed).toBe(0);
    expect(t.terminal.store.attention.list()).toEqual([]);
    const settled = t.terminal.store.attention.get(noted!.id)!;
    expect(settled.resolvedAt).not.toBeNull();
    expect(settled.resolvedBy).toBeNull();
    expect(settled.comment).toContain(`this till counted ${earned}`);
    // And the till's figures are the server's.
    const after = await t.ok('customer-identify', { id: DEMO.cards.ben, id_type: 'card' });
    expect(after.customer.bonuses.regular).toBe(ben.regular);
  }, 60_000);
});

describe('a queued sale the server answers otherwise', () => {
  it('a queued sale the server cannot agree with goes to the attention list with both figures', async () => {
    const { t, central, down, up } = await outageTill();
    // Another till redeems Ben's certificate; this one has not pulled since.
    const other = await openTill({ central: central() });
    await other.ok('staff-sign-in', { auth_code: DEMO.authCodes.senior });
    await other.ok('shift-open', {});
    await other.ok('sale-process', { transaction_id: uuidv7(Date.now()), check: giftSale });
    await other.close();

    await down();
    const id = uuidv7(Date.now());
    const standIn = await t.ok('sale-process', { transaction_id: id, check: giftSale });
    expect(standIn.subtype).toBe('offline');
    const here = standIn.check.bonuses_added_amount ?? 0;
    expect(here).toBeGreaterThanOrEqual(10);
    expect(t.terminal.store.attention.list()).toEqual([]);

    await up();
    await t.ok('sync-now', {});
    const tx = await sandbox<{ transactions: Array<{ transaction_id: string }> }>(
      central(),
      'transactions',
    );
    expect(tx.transactions.some((x) => x.transaction_id === id)).toBe(true);
    const items = await t.ok('attention-list', {});
    const differs = items.items.filter((i) => i.kind === 'sale-differs');
    expect(differs).toHaveLength(1);
    expect(differs[0]).toMatchObject({
      transaction_id: id,
      details: {
        customer_id: DEMO.customers.ben,
        differences: expect.arrayContaining([
          { field: 'redeemed_coupons', till: DEMO.coupons.gift, server: '' },
        ]) as unknown,
      },
    });
    const bonuses = (
      differs[0]!.details!.differences as Array<{ field: string; till: number; server: number }>
    ).find((d) => d.field === 'bonuses_added_amount')!;
    expect(bonuses.till).toBe(here);
    expect(bonuses.server).toBeLessThan(here);
  }, 60_000);
});
