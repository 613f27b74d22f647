// The retail sale with the central service unreachable: the till stands in (the sale spends
// bonuses within the stand-in limits), marks it offline and queues it; past the limit it
// refuses naming the limit. When the service is back the outbox drains, the sale is done, and
// the till's figures equal the server's.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, tempDir, type Till } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('a sale while the central service is unreachable', () => {
  it('stands in within the limits, refuses past them, and syncs when the service is back', async () => {
    const dir = tempDir();
    const db = join(dir, 'central.sqlite');
    let central: RunningCentral = await startCentral({ db, faultSeed: 1 });
    const port = Number(new URL(central.url).port);
    const t: Till = await openTill({
      central,
      dir: join(dir, 'till'),
      standin: { customer_day_limit: 10, terminal_total_limit: 100 },
    });
    cleanups.push(() => t.close());
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    await t.ok('customer-identify', { id: DEMO.cards.anna, id_type: 'card' });

    await central.close();
    const check = {
      customer_id: DEMO.customers.anna,
      id: DEMO.cards.anna,
      id_type: 'card',
      bonuses_redeemed_amount: 5,
      check_items: [item('COF-2', 2), item('SNK-1', 1)],
    };
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', { transaction_id: id, check });
    expect(sale.subtype).toBe('offline');
    expect(sale.check.transaction_subtype).toBe('offline');
    expect(sale.sync.state).toBe('queued');
    expect(sale.check.bonuses_redeemed_amount).toBe(5);
    expect(sale.check.bonuses_added_amount).toBeGreaterThan(0);

    // Offline, Anna may spend 10 a day: 5 more is over.
    const over = await t.refused(
      'sale-process',
      {
        transaction_id: uuidv7(Date.now()),
        check: { ...check, bonuses_redeemed_amount: 6, check_items: [item('OIL-1', 2)] },
      },
      'standin-limit',
    );
    expect(over.error.details).toMatchObject({ limit: 'customer-day' });
    // Identify answers from the cache, with the offline spending held.
    const who = await t.ok('customer-identify', { id: DEMO.cards.anna, id_type: 'card' });
    expect(who.source).toBe('cache');
    const status = await t.ok('status', {});
    expect(status.sync).toMatchObject({ connection: 'offline', outbox_depth: 1 });
    // the till's dates are shown in its POS's zone, whatever the screen shows
    expect(status.terminal.time_zone).toBe('Europe/Berlin');

    central = await startCentral({ db, port, faultSeed: 1 });
    cleanups.push(() => central.close());
    const synced = await t.ok('sync-now', {});
    expect(synced.pushed).toBe(1);
    expect(synced.sync.connection).toBe('online');
    expect(await t.ok('sale-status', { transaction_id: id })).toMatchObject({
      state: 'committed',
      subtype: 'offline',
      sync: { state: 'done' },
    });

    const balances = (await (
      await fetch(`${central.url}/sandbox/balances`, {
        headers: { Authorization: `Bearer ${DEMO.apiKey}` },
      })
    ).json()) as {
      customers: Array<{ customer_id: string; regular: number; promotional: number }>;
    };
    const anna = balances.customers.find((c) => c.customer_id === DEMO.customers.anna)!;
    const after = await t.ok('customer-identify', { id: DEMO.cards.anna, id_type: 'card' });
    expect(after.source).toBe('online');
    expect(after.customer.bonuses.regular).toBe(anna.regular);
    expect(after.customer.bonuses.available).toBeCloseTo(anna.regular + anna.promotional, 2);
  }, 60_000);
});

describe('sync-now while the central service is down', () => {
  it('sends a queued sale without the coupons the till could not redeem, so the server spends none of them', async () => {
    const dir = tempDir();
    const db = join(dir, 'central.sqlite');
    let central: RunningCentral = await startCentral({ db, faultSeed: 1 });
    const port = Number(new URL(central.url).port);
    const t = await openTill({
      central,
      dir: join(dir, 'till'),
      standin: { customer_day_limit: 100, terminal_total_limit: 100 },
    });
    cleanups.push(() => t.close());
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    // A coupon the central service issued after the till's last pull: the till does not know it.
    const [known] = central.store.findBy('coupon', 'code', DEMO.coupons.coffee) as object[];
    const fresh = { ...known, id: '018f0000-0000-7000-8000-00000000fe01', code: 'FRESH-0001' };
    central.store.upsert('coupon', fresh.id, fresh);
    // The central service is down: the online attempt is refused a connection, nothing landed.
    // (A sync first: the kept-alive socket the closed service left fails it, not the sale, and
    // a failure on such a socket cannot be told from one after the request arrived.)
    await central.close();
    await t.ok('sync-now', {});
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: id,
      check: {
        customer_id: DEMO.customers.anna,
        redeemed_coupons: [{ code: 'FRESH-0001' }],
        check_items: [item('COF-1', 1)],
      },
    });
    expect(sale.subtype).toBe('offline');
    expect(sale.check.redeemed_coupons?.[0]).toMatchObject({ code: 'FRESH-0001', valid: false });
    central = await startCentral({ db, port, faultSeed: 1 });
    cleanups.push(() => central.close());
    await t.ok('sync-now', {});
    expect(t.terminal.store.outbox.byTransaction(id)?.status).toBe('done');
    // The customer got nothing for it at the till: the server keeps it open for them.
    expect(central.store.getRecord('coupon', fresh.id)).toMatchObject({ status: 'open' });
  }, 30_000);

  it('sends a stand-in after a lost answer as it was sent online, coupons and all, so the server takes it as the same sale', async () => {
    const t = await openTill({ standin: { customer_day_limit: 100, terminal_total_limit: 100 } });
    cleanups.push(() => t.close());
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    const [known] = t.central.store.findBy('coupon', 'code', DEMO.coupons.coffee) as object[];
    const fresh = { ...known, id: '018f0000-0000-7000-8000-00000000fe02', code: 'FRESH-0002' };
    t.central.store.upsert('coupon', fresh.id, fresh);
    // The online attempt lands and its answer is lost: the till stands in for a sale the
    // server may hold, and must queue the very request it sent.
    t.central.server.setFaults({ commit_then_drop_rate: 1 });
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: id,
      check: {
        customer_id: DEMO.customers.anna,
        redeemed_coupons: [{ code: 'FRESH-0002' }],
        check_items: [item('COF-1', 1)],
      },
    });
    expect(sale.subtype).toBe('offline');
    t.central.server.setFaults({ commit_then_drop_rate: 0 });
    await t.ok('sync-now', {});
    expect(t.terminal.store.outbox.byTransaction(id)?.status).toBe('done');
  }, 30_000);

  it('sync-now answers with the error when the central service is down', async () => {
    const dir = tempDir();
    const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
    const t: Till = await openTill({ central, dir: join(dir, 'till') });
    cleanups.push(() => t.close());
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    await central.close();
    await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: { check_items: [item('COF-2', 1)] },
    });

    const r = await t.call('sync-now', {});
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      pushed: 0,
      sync: { connection: 'offline', outbox_depth: 1 },
      error: { code: expect.any(String) as unknown },
    });
  }, 30_000);
});
