// `sales-recent` (docs/terminal.md, "Recent sales"): the till's sales, newest first, found by
// time, amount, card or customer and paged, each with what a UI needs to open it, reprint it,
// refund some lines or cancel it without anybody typing an id.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, tillPerTest, type Till } from './helpers.js';

const { signedIn } = tillPerTest();

const anna = {
  customer_id: DEMO.customers.anna,
  id: DEMO.cards.anna,
  id_type: 'card',
};

/** A sale of `items`, Anna's when `customer`, answered with its id. */
async function sell(t: Till, items: unknown[], customer = false): Promise<string> {
  const transaction_id = uuidv7(Date.now());
  await t.ok('sale-process', {
    transaction_id,
    check: { ...(customer ? anna : {}), check_items: items, payment_type: 'cash' },
  });
  return transaction_id;
}

describe('sales-recent', () => {
  it('lists the sales newest first with their total, payment kinds, customer and status', async () => {
    const t = await signedIn();
    const first = await sell(t, [item('WTR-1', 1)]);
    const second = await sell(t, [item('COF-1', 1)], true);
    const r = await t.ok('sales-recent', {});
    expect(r.sales.map((s) => s.transaction_id)).toEqual([second, first]);
    expect(r.sales[1]).toMatchObject({
      total: 1.49,
      payment_types: ['cash'],
      customer: null,
    });
    expect(r.sales[0]?.customer).toMatchObject({ id: DEMO.customers.anna, card: DEMO.cards.anna });
    expect(r.next_cursor).toBeNull();
  }, 30_000);

  it('shows a sale still queued for the central service as queued, and committed once sent', async () => {
    const t = await signedIn();
    // A sale that spends nothing is recorded here first and sent by the outbox.
    const sale = await sell(t, [item('WTR-1', 1)]);
    expect((await t.ok('sales-recent', {})).sales[0]).toMatchObject({
      transaction_id: sale,
      status: 'queued',
    });
    expect((await t.ok('sync-now', {})).error).toBeNull();
    expect((await t.ok('sales-recent', {})).sales[0]?.status).toBe('committed');
  }, 30_000);

  it('shows what was already refunded per line, and a cancelled sale as cancelled', async () => {
    const t = await signedIn(DEMO.authCodes.senior);
    const sale = await sell(t, [item('WTR-1', 3), item('COF-1', 1)]);
    await t.ok('sale-refund', {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: sale,
      lines: [{ index: 0, quantity: 2 }],
    });
    const other = await sell(t, [item('WTR-1', 1)]);
    await t.ok('sale-cancel', { transaction_id: other });
    const r = await t.ok('sales-recent', {});
    const refunded = r.sales.find((s) => s.transaction_id === sale);
    expect(refunded?.lines[0]?.refunded).toEqual({ quantity: 2, amount: 2.98 });
    expect(refunded?.lines[1]?.refunded).toEqual({ quantity: 0, amount: 0 });
    expect(r.sales.find((s) => s.transaction_id === other)?.status).toBe('cancelled');
  }, 30_000);

  it('finds a customer’s sales by name, phone or loyalty card number', async () => {
    const t = await signedIn();
    await sell(t, [item('WTR-1', 1)]);
    const hers = await sell(t, [item('WTR-1', 1)], true);
    for (const customer of ['anna gold', '1000001'])
      expect((await t.ok('sales-recent', { customer })).sales.map((s) => s.transaction_id)).toEqual(
        [hers],
      );
    const byCard = await t.ok('sales-recent', { card: DEMO.cards.anna });
    expect(byCard.sales.map((s) => s.transaction_id)).toEqual([hers]);
  }, 30_000);

  it('finds a card sale by the last digits of the masked card', async () => {
    const t = await signedIn();
    await t.terminal.services.cards.settled;
    await sell(t, [item('WTR-1', 1)]);
    const transaction_id = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id,
      check: { payment_type: 'bank-card', check_items: [item('COF-1', 1)] },
    });
    const mine = (await t.ok('sales-recent', {})).sales.find(
      (s) => s.transaction_id === transaction_id,
    );
    expect(mine?.payment_types).toEqual(['bank-card']);
    const masked = mine?.cards[0] ?? '';
    expect(masked).toMatch(/\d{4}$/);
    const found = await t.ok('sales-recent', { card: masked.slice(-4) });
    expect(found.sales.map((s) => s.transaction_id)).toEqual([transaction_id]);
  }, 30_000);

  it('finds sales by an exact amount or an amount range', async () => {
    const t = await signedIn();
    const one = await sell(t, [item('WTR-1', 1)]);
    const two = await sell(t, [item('WTR-1', 2)]);
    const ids = async (input: Record<string, unknown>) =>
      (await t.ok('sales-recent', input)).sales.map((s) => s.transaction_id);
    expect(await ids({ amount: 2.98 })).toEqual([two]);
    expect(await ids({ amount_min: 1, amount_max: 2 })).toEqual([one]);
  }, 30_000);

  it('finds sales by when they were recorded', async () => {
    const t = await signedIn();
    await sell(t, [item('WTR-1', 1)]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await t.ok('sales-recent', { from: future })).sales).toEqual([]);
    expect((await t.ok('sales-recent', { to: future })).sales).toHaveLength(1);
  }, 30_000);

  it('pages by limit and the cursor it answers', async () => {
    const t = await signedIn();
    const a = await sell(t, [item('WTR-1', 1)]);
    const b = await sell(t, [item('WTR-1', 1)]);
    const c = await sell(t, [item('WTR-1', 1)]);
    const page1 = await t.ok('sales-recent', { limit: 2 });
    expect(page1.sales.map((s) => s.transaction_id)).toEqual([c, b]);
    const page2 = await t.ok('sales-recent', { limit: 2, cursor: page1.next_cursor! });
    expect(page2.sales.map((s) => s.transaction_id)).toEqual([a]);
    expect(page2.next_cursor).toBeNull();
  }, 30_000);
});
