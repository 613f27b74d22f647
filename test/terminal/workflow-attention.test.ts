// The attention list: a sale stood in offline that the central service then refuses is kept,
// shown with the server's reason, its sale-status says rejected, and a manager resolves it.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, type Till } from './helpers.js';

let till: Till | null = null;
afterEach(async () => {
  await till?.close();
  till = null;
});

describe('the attention list', () => {
  it('shows a rejected sale with its reason until a manager resolves it', async () => {
    till = await openTill({ standin: { customer_day_limit: 1_000, terminal_total_limit: 1_000 } });
    const t = till;
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    // Meanwhile another station spends Ben's bonuses; this till still believes he has them.
    t.central.store.upsert('customer', DEMO.customers.ben, {
      ...(t.central.store.getRecord('customer', DEMO.customers.ben) as object),
      bonuses: { regular: 0 },
    });
    t.central.server.setFaults({ error_rate: 1 });
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: id,
      check: {
        customer_id: DEMO.customers.ben,
        id: DEMO.cards.ben,
        id_type: 'card',
        bonuses_redeemed_amount: 30,
        check_items: [item('OIL-1', 5)],
      },
    });
    expect(sale.subtype).toBe('offline');
    t.central.server.setFaults({ error_rate: 0 });

    const synced = await t.ok('sync-now', {});
    expect(synced.rejected).toBe(1);
    const status = await t.ok('sale-status', { transaction_id: id });
    expect(status).toMatchObject({
      state: 'committed',
      sync: { state: 'rejected', error: { code: 'insufficient-bonuses' } },
    });
    const { items } = await t.ok('attention-list', {});
    const rejected = items.find((i) => i.kind === 'outbox-rejected');
    expect(rejected).toMatchObject({
      transaction_id: id,
      error: { code: 'insufficient-bonuses' },
      resolved_at: null,
    });
    expect((await t.ok('status', {})).attention).toBeGreaterThanOrEqual(1);

    await t.refused('attention-resolve', { id: rejected!.id }, 'role-required');
    await t.ok('staff-sign-out', {});
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
    const resolved = await t.ok('attention-resolve', {
      id: rejected!.id,
      comment: 'customer paid the difference in cash',
    });
    expect(resolved.item).toMatchObject({
      resolved_by: { id: DEMO.staff.manager },
      comment: 'customer paid the difference in cash',
    });
    expect(
      (await t.ok('attention-list', {})).items.find((i) => i.id === rejected!.id),
    ).toBeUndefined();
    expect(
      (await t.ok('attention-list', { include_resolved: true })).items.find(
        (i) => i.id === rejected!.id,
      ),
    ).toBeDefined();
    expect(t.terminal.store.outbox.attention()).toEqual([]);
  }, 30_000);
});
