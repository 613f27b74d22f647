// `coupon-sell` (docs/terminal.md, "Loyalty at the till"): a coupon or certificate sold at its
// batch's price (`customers_price_*`), paid with the customer's bonuses or from their money
// account, sent to the central service's `coupons/sell` exactly once under the client-made
// transaction_id; the answer carries the emitted coupon (code, expiry) for the receipt.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { DEMO, demoId, startCentral } from '../../src/central/index.js';
import { previewOf } from '../../src/devices/escpos/decode.js';
import type { PrinterSimulator } from '../../src/devices/escpos/simulator.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { openTill, tempDir, tillPerTest, type Till } from './helpers.js';

const { open } = tillPerTest();
const GIFT = demoId(501); // 25 bonuses
const CAR_WASH = demoId(502); // 8.50 EUR from a money account
const ANNA = DEMO.customers.anna; // 120.5 bonuses, a wallet of 50.00

async function cashier(card: string = DEMO.cards.anna): Promise<Till> {
  const t = await open();
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
  await t.ok('shift-open', { opening_cash: 0 });
  await t.ok('customer-identify', { id: card, id_type: 'card' });
  return t;
}

const sale = (over: Record<string, unknown> = {}) => ({
  transaction_id: uuidv7(Date.now()),
  customer_id: ANNA,
  batch_id: GIFT,
  ...over,
});

async function sandbox(t: Till) {
  const res = await fetch(`${t.central.url}/sandbox/balances`, {
    headers: { Authorization: `Bearer ${DEMO.apiKey}` },
  });
  return (await res.json()) as {
    customers: Array<{ customer_id: string; regular: number }>;
    accounts: Array<{ account_id: string; balance: number }>;
  };
}
const sandboxBonuses = async (t: Till, id = ANNA) =>
  (await sandbox(t)).customers.find((c) => c.customer_id === id)!.regular;
const sandboxWallet = async (t: Till) =>
  (await sandbox(t)).accounts.find((a) => a.account_id === DEMO.accounts.annaWallet)!.balance;

async function centralOps(t: Till, id: string): Promise<number> {
  const res = await fetch(`${t.central.url}/sandbox/transactions`, {
    headers: { Authorization: `Bearer ${DEMO.apiKey}` },
  });
  const body = (await res.json()) as { transactions: Array<{ transaction_id: string }> };
  return body.transactions.filter((x) => x.transaction_id === id).length;
}

async function tillView(t: Till) {
  const who = await t.ok('customer-identify', { id: DEMO.cards.anna, id_type: 'card' });
  return {
    bonuses: who.customer.bonuses.regular,
    wallet: who.customer.special_accounts.find((a) => a.id === DEMO.accounts.annaWallet)!.available,
  };
}

describe('coupon-sell', () => {
  it('lists the batches the till sells with the price coupon-sell charges, and no batch without a price', async () => {
    const t = await cashier();
    const out = await t.ok('coupon-batches', {});
    expect(out.batches.map((b) => [b.id, b.title, b.price])).toEqual([
      [GIFT, '10 bonus gift certificate', { type: 'bonuses', amount: 25 }],
      [CAR_WASH, 'Partner car wash', { type: 'special-account', amount: 8.5, currency: 'EUR' }],
    ]);
  }, 30_000);

  it('prints the coupon’s slip once: the coupon with its code, what it cost, the balance left; the answer carries what printed', async () => {
    const t = await cashier();
    const input = sale();
    const out = await t.ok('coupon-sell', input);
    const printer = t.terminal.devices?.simulators.printer as PrinterSimulator;
    for (let i = 0; i < 100 && printer.receipts.length < 1; i++)
      await new Promise((r) => setTimeout(r, 10));
    const paper = printer.receipts[0]!;
    expect(out.receipt).toEqual(previewOf(paper.commands, 42));
    const text = out.receipt!.rows.flatMap((r) => (r.kind === 'text' ? [r.text] : [])).join('\n');
    expect(text).toMatch(/10 bonus gift certificate/);
    expect(text).toMatch(/Cashier: Carla Cashier/);
    expect(text).toMatch(/Bonuses +25\.00/);
    expect(text).toMatch(/95\.50/);
    expect(text).toContain(out.coupon!.code);
    const marks = out.receipt!.rows.filter((r) => r.kind === 'barcode' || r.kind === 'qr');
    expect(marks).toEqual([expect.objectContaining({ data: out.coupon!.code })]);
    // the same key again answers the sale kept and prints nothing more
    await t.ok('coupon-sell', input);
    await new Promise((r) => setTimeout(r, 100));
    expect(printer.receipts).toHaveLength(1);
  }, 30_000);

  it('sells a certificate for bonuses: the coupon to print, and the answer, the sandbox and the till agree on the balance', async () => {
    const t = await cashier();
    const out = await t.ok('coupon-sell', sale());
    expect(out).toMatchObject({
      price: { type: 'bonuses', amount: 25 },
      special_account_id: null,
      sync: 'done',
      balance: 95.5,
    });
    expect(out.coupon?.code).toMatch(/^GIFT-10-/);
    expect(out.coupon?.expire_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await sandboxBonuses(t)).toBe(95.5);
    expect((await tillView(t)).bonuses).toBe(95.5);
  }, 30_000);

  it('sells a coupon paid from the customer’s money account at the batch’s price', async () => {
    const t = await cashier();
    const out = await t.ok('coupon-sell', sale({ batch_id: CAR_WASH }));
    expect(out).toMatchObject({
      price: { type: 'special-account', amount: 8.5, currency: 'EUR' },
      special_account_id: DEMO.accounts.annaWallet,
      balance: 41.5,
    });
    expect(await sandboxWallet(t)).toBe(41.5);
    expect((await tillView(t)).wallet).toBe(41.5);
  }, 30_000);

  it('refuses a sale the bonuses cannot pay, in plain words, and sends nothing', async () => {
    const t = await cashier(DEMO.cards.ben); // 40 bonuses
    await t.ok('coupon-sell', sale({ customer_id: DEMO.customers.ben }));
    const input = sale({ customer_id: DEMO.customers.ben });
    const r = await t.refused('coupon-sell', input, 'insufficient-funds');
    expect(r.error.message).toBe(
      '10 bonus gift certificate costs 25 bonuses, the customer has 15 bonuses',
    );
    expect(await centralOps(t, input.transaction_id)).toBe(0);
    expect(await sandboxBonuses(t, DEMO.customers.ben)).toBe(15);
  }, 30_000);

  it.each(['amount', 'customers_price_amount', 'coupon', 'code', 'terminal_id', 'balance'])(
    'refuses the system-owned field %s with 400 naming it',
    async (field) => {
      const t = await cashier();
      const r = await t.call('coupon-sell', sale({ [field]: 1 }));
      expect(r.status).toBe(400);
      expect((r.body as { error: { path: string } }).error.path).toBe(field);
    },
    30_000,
  );

  it('sells once when the same transaction_id is sent again', async () => {
    const t = await cashier();
    const input = sale();
    const first = await t.ok('coupon-sell', input);
    expect(await t.ok('coupon-sell', input)).toEqual(first);
    expect(await centralOps(t, input.transaction_id)).toBe(1);
    expect(await sandboxBonuses(t)).toBe(95.5);
  }, 30_000);

  it('sells once when the answer is lost: queued under the same key, the price held, delivered once', async () => {
    const t = await cashier();
    t.central.server.setFaults({ commit_then_drop_rate: 1 });
    const input = sale();
    const out = await t.ok('coupon-sell', input);
    t.central.server.setFaults({ commit_then_drop_rate: 0 });
    expect(out).toMatchObject({ sync: 'queued', coupon: null, balance: 95.5 });
    expect((await t.ok('sync-now', {})).pushed).toBe(1);
    expect(await centralOps(t, input.transaction_id)).toBe(1);
    expect(await sandboxBonuses(t)).toBe(95.5);
    expect((await tillView(t)).bonuses).toBe(95.5);
  }, 30_000);

  it('answers a queued sale asked again after delivery with the coupon to print', async () => {
    const t = await cashier();
    t.central.server.setFaults({ commit_then_drop_rate: 1 });
    const input = sale();
    expect((await t.ok('coupon-sell', input)).coupon).toBeNull();
    t.central.server.setFaults({ commit_then_drop_rate: 0 });
    await t.ok('sync-now', {});
    const again = await t.ok('coupon-sell', input);
    expect(again).toMatchObject({ sync: 'done', balance: 95.5 });
    expect(again.coupon?.code).toMatch(/^GIFT-10-/);
    expect(await centralOps(t, input.transaction_id)).toBe(1);
  }, 30_000);

  it('refuses an account-priced coupon for a customer without an account, naming special_account_id', async () => {
    const t = await cashier(DEMO.cards.ben);
    const input = sale({ customer_id: DEMO.customers.ben, batch_id: CAR_WASH });
    const r = await t.refused('coupon-sell', input, 'account-not-found');
    expect(r.error.path).toBe('special_account_id');
    expect(await centralOps(t, input.transaction_id)).toBe(0);
  }, 30_000);

  it('refuses an account for a certificate priced in bonuses', async () => {
    const t = await cashier();
    const r = await t.refused(
      'coupon-sell',
      sale({ special_account_id: DEMO.accounts.annaWallet }),
      'invalid-input',
    );
    expect(r.error.path).toBe('special_account_id');
  }, 30_000);

  it('is refused while the till is known offline, with nothing recorded: the central service makes the coupon', async () => {
    const t = await cashier();
    await t.central.close();
    await t.ok('sync-now', {});
    expect((await t.ok('status', {})).sync?.connection).toBe('offline');
    const r = await t.refused('coupon-sell', sale(), 'central-unreachable');
    expect(r.error.message).toMatch(/needs the central service/);
    expect((await t.ok('status', {})).sync?.outbox_depth).toBe(0);
    expect((await tillView(t)).bonuses).toBe(120.5);
  }, 30_000);
});

/**
 * The till dies between the central service's commit and its own record: `store.record`
 * throws for the sale, so its transaction writes nothing, as a SIGKILL at that point would.
 */
async function killedAfterCommit(t: Till, input: Record<string, unknown>): Promise<void> {
  const spy = vi.spyOn(t.terminal.store, 'record').mockImplementationOnce(() => {
    throw new Error('killed before the record');
  });
  const r = await t.call('coupon-sell', input);
  spy.mockRestore();
  expect(r.status).not.toBe(200);
  expect(await centralOps(t, input.transaction_id as string)).toBe(1);
}

describe('coupon-sell after a kill between the central service and the record', () => {
  it('queues at the restart a sale the central service applied and the till never recorded; its key sent again is answered, never refused', async () => {
    const dir = tempDir();
    const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
    const tills: Till[] = [];
    try {
      const start = async () => {
        const t = await openTill({ dir, central });
        tills.push(t);
        await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
        return t;
      };
      const first = await start();
      await first.ok('shift-open', { opening_cash: 0 });
      await first.ok('customer-identify', { id: DEMO.cards.ben, id_type: 'card' });
      const input = sale({ customer_id: DEMO.customers.ben }); // 40 bonuses, 25 the coupon
      await killedAfterCommit(first, input);
      expect(await sandboxBonuses(first, DEMO.customers.ben)).toBe(15);
      await first.close();

      // The restart pulled the central's debit: 15 bonuses, short of 25 by the till's figures.
      const again = await start();
      await again.ok('customer-identify', { id: DEMO.cards.ben, id_type: 'card' });
      const out = await again.ok('coupon-sell', input);
      expect(out).toMatchObject({
        transaction_id: input.transaction_id,
        sync: 'queued',
        coupon: null,
      });
      await again.ok('sync-now', {});
      const done = await again.ok('coupon-sell', input);
      expect(done).toMatchObject({ sync: 'done', balance: 15 });
      expect(done.coupon?.code).toMatch(/^GIFT-10-/);
      expect(await centralOps(again, input.transaction_id)).toBe(1);
      expect(await sandboxBonuses(again, DEMO.customers.ben)).toBe(15);
      await again.ok('sync-now', {});
      const ben = await again.ok('customer-identify', { id: DEMO.cards.ben, id_type: 'card' });
      expect(ben.customer.bonuses.regular).toBe(15);
    } finally {
      for (const t of tills.reverse()) await t.close().catch(() => undefined);
      await central.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('queues a sale sent before and never recorded when its key comes again, without the till’s funds check; another body under the key is a conflict', async () => {
    const t = await cashier(DEMO.cards.ben);
    const input = sale({ customer_id: DEMO.customers.ben });
    await killedAfterCommit(t, input);
    await t.ok('sync-now', {}); // the pull shows the central's debit: 15 bonuses
    await t.refused('coupon-sell', { ...input, batch_id: CAR_WASH }, 'idempotency-conflict');
    const out = await t.ok('coupon-sell', input);
    expect(out).toMatchObject({ sync: 'queued', coupon: null });
    expect((await t.ok('sync-now', {})).pushed).toBe(1);
    expect(await centralOps(t, input.transaction_id)).toBe(1);
    expect(await sandboxBonuses(t, DEMO.customers.ben)).toBe(15);
    await t.ok('sync-now', {});
    expect(
      (await t.ok('customer-identify', { id: DEMO.cards.ben, id_type: 'card' })).customer.bonuses
        .regular,
    ).toBe(15);
  }, 30_000);
});
