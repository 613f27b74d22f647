// An outage end to end, against the sandbox with the real engine: the sandbox stops, the till
// keeps selling (cash, earning, spending within the stand-in limits, refusals past them naming
// the limit), the sandbox comes back, the outbox drains, and every balance on the terminal
// equals the server's. Also: a server refusal is kept, listed and corrected.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineCheck } from '../../src/contract/engine.js';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { dec, sub, toNumber, add, ZERO } from '../../src/money/index.js';
import type { Store } from '../../src/store/open.js';
import type { CentralClient } from '../../src/sync/client.js';
import { systemSyncClock } from '../../src/sync/clock.js';
import type { Connectivity } from '../../src/sync/connectivity.js';
import { OutboxPusher } from '../../src/sync/pusher.js';
import { Puller } from '../../src/sync/puller.js';
import type { SaleService } from '../../src/terminal/sale-service.js';
import { connectTill, drainAll, openTerminalStore, tillSales } from './world.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Till {
  store: Store;
  client: CentralClient;
  link: Connectivity;
  sales: SaleService;
  pusher: OutboxPusher;
  puller: Puller;
}

async function till(
  central: RunningCentral,
  dir: string,
  standin: Record<string, number> = {},
): Promise<Till> {
  const clock = systemSyncClock;
  const store = await openTerminalStore(dir, clock);
  const { link, client } = connectTill(store, central.url, central, clock);
  const pusher = new OutboxPusher({ store, client, clock, retry: { base_ms: 1, max_ms: 20 } });
  const puller = new Puller({ store, client, clock });
  const sales = tillSales({ store, client, link, clock }, central.terminal_id, {
    central: { timeouts: { online_deadline_ms: 1_000 } },
    standin,
  });
  cleanups.push(async () => {
    await client.close();
    store.close();
  });
  return { store, client, link, sales, pusher, puller };
}

const item = (code: string, category: string, quantity: number, price: number) => ({
  code,
  category,
  quantity,
  price,
});

/** Every customer's bonuses and every account's balance, as the terminal sees them now. */
function terminalBalances(store: Store) {
  const customers = store.cache.all('customer').map((c) => {
    const held = store.ledger.pendingFor(c.id);
    const lots = store.cache.bonusLotsOf(c.id).reduce((s, l) => add(s, dec(l.amount)), ZERO);
    return {
      customer_id: c.id,
      regular: toNumber(sub(dec(c.bonuses?.regular ?? 0), held.bonuses)),
      lots: toNumber(lots),
    };
  });
  const accounts = store.cache.all('special_account').map((a) => {
    const held = store.ledger.pendingFor(null, [a.id]).accounts.get(a.id) ?? ZERO;
    return {
      account_id: a.id,
      balance: toNumber(sub(dec((a as { balance?: number }).balance ?? 0), held)),
    };
  });
  return { customers, accounts };
}

function serverBalances(central: RunningCentral) {
  const customers = (
    central.store.list('customer') as { id: string; bonuses?: { regular?: number } }[]
  ).map((c) => {
    const lots = (
      central.store.findBy('bonus_lot', 'customer_id', c.id) as { amount: number }[]
    ).reduce((s, l) => add(s, dec(l.amount)), ZERO);
    return { customer_id: c.id, regular: c.bonuses?.regular ?? 0, lots: toNumber(lots) };
  });
  const accounts = (
    central.store.list('special_account') as { id: string; balance?: number }[]
  ).map((a) => ({ account_id: a.id, balance: a.balance ?? 0 }));
  return { customers, accounts };
}

const byId = <T extends { customer_id?: string; account_id?: string }>(rows: T[]) =>
  [...rows].sort((a, b) =>
    String(a.customer_id ?? a.account_id).localeCompare(String(b.customer_id ?? b.account_id)),
  );

describe('sale service through an outage', () => {
  it('keeps selling while the sandbox is down and ends with the server balances', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-outage-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const dbFile = join(dir, 'central.sqlite');
    let central = await startCentral({ db: dbFile });
    const port = Number(new URL(central.url).port);
    const t = await till(central, join(dir, 'till'), {
      customer_day_limit: 6,
      terminal_total_limit: 40,
    });
    expect((await t.puller.pull()).ok).toBe(true);

    await central.close();
    const customers = [DEMO.customers.anna, DEMO.customers.ben];
    const refusals: string[] = [];
    let offlineSpends = 0;
    for (let i = 0; i < 200; i++) {
      const kind = i % 4;
      let check: EngineCheck;
      if (kind === 0) check = { check_items: [item('WTR-1', 'shop', 1, 1.49)] };
      else if (kind === 1)
        check = {
          customer_id: customers[i % 2]!,
          check_items: [item('FUEL-95', 'fuel', 10, 1.789)],
        };
      else
        check = {
          customer_id: customers[i % 2]!,
          bonuses_redeemed_amount: 1,
          check_items: [item('COF-1', 'coffee', 1, 2.5)],
        };
      const r = await t.sales.process({ check });
      if (r.ok) {
        // Until a request fails, nothing says the link is down: the first cash sale is online.
        if (i >= 2) expect(r.subtype).toBe('offline');
        if (kind >= 2) offlineSpends += 1;
      } else {
        expect(kind).toBeGreaterThanOrEqual(2);
        expect(r.error.code).toBe('standin-limit');
        refusals.push(String(r.error.details?.limit));
      }
    }
    expect(offlineSpends).toBeGreaterThan(0);
    expect(refusals.length).toBeGreaterThan(0);
    expect(new Set(refusals)).toEqual(new Set(['customer-day']));
    expect(t.link.current).toBe('offline');

    central = await startCentral({ db: dbFile, port });
    cleanups.push(() => central.close());
    await drainAll(t.pusher, t.store, 60_000);
    expect(t.store.outbox.depth()).toEqual({ queued: 0, sending: 0, rejected: 0 });
    expect((await t.puller.pull()).ok).toBe(true);
    expect(byId(terminalBalances(t.store).customers)).toEqual(
      byId(serverBalances(central).customers),
    );
    expect(byId(terminalBalances(t.store).accounts)).toEqual(
      byId(serverBalances(central).accounts),
    );
  }, 120_000);

  it('keeps a server refusal, lists it and corrects the ledger to the server figures', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-refusal-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const central = await startCentral();
    cleanups.push(() => central.close());
    const t = await till(central, dir, { customer_day_limit: 1_000, terminal_total_limit: 1_000 });
    await t.puller.pull();
    // Offline, the till believes Ben has 40 + 5 bonuses; meanwhile another station spends them.
    central.store.upsert('customer', DEMO.customers.ben, {
      ...(central.store.getRecord('customer', DEMO.customers.ben) as object),
      bonuses: { regular: 0 },
    });
    central.server.setFaults({ error_rate: 1 });
    const r = await t.sales.process({
      check: {
        customer_id: DEMO.customers.ben,
        bonuses_redeemed_amount: 30,
        check_items: [item('OIL-1', 'shop', 5, 12.9)],
      },
    });
    expect(r.ok && r.subtype).toBe('offline');
    expect(toNumber(t.store.ledger.pendingFor(DEMO.customers.ben).bonuses)).toBe(30);
    central.server.setFaults({ error_rate: 0 });

    const drained = await t.pusher.drain();
    expect(drained.rejected).toBe(1);
    const [attention] = t.store.outbox.attention();
    expect(attention?.transactionId).toBe(r.transaction_id);
    expect((attention?.response as { error: { code: string } }).error.code).toBe(
      'insufficient-bonuses',
    );
    expect(t.store.ledger.status(r.transaction_id)?.syncStatus).toBe('rejected');
    await t.puller.pull();
    expect(toNumber(t.store.ledger.pendingFor(DEMO.customers.ben).bonuses)).toBe(0);
    expect(t.store.cache.customerById(DEMO.customers.ben)?.bonuses?.regular).toBe(0);
  }, 60_000);
});
