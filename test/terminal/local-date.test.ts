// The local date, asked of src/contract/local-time.ts by every part (docs/terminal.md, "Local
// date and time zone"): a sale, the card payment that paid it, the store's context and the
// sandbox central count the same day, in the POS's zone, else the business's, else UTC.
// Real parts: the sandbox central over HTTP, a till over SQLite files, the simulated card unit.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral } from '../../src/central/index.js';
import type { SyncClock } from '../../src/sync/clock.js';
import { manualClock } from '../support/clock.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, tempDir, type Till } from './helpers.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

type Rec = Record<string, unknown>;

/**
 * A signed-in till and its sandbox on one clock, the demo POS and business set to these zones
 * (`pos` undefined: the POS has none) before the till's first pull.
 */
async function tillIn(clock: SyncClock, zones: { pos?: string; business: string }): Promise<Till> {
  const dir = tempDir('lt-local-date-');
  const central = await startCentral({
    db: join(dir, 'central.sqlite'),
    faultSeed: 1,
    clock: { now: () => clock.now() },
  });
  const { time_zone: _zone, ...pos } = central.store.getRecord('pos', DEMO.posId) as Rec;
  central.store.upsert('pos', DEMO.posId, zones.pos ? { ...pos, time_zone: zones.pos } : pos);
  const business = central.store.getRecord('business_settings', DEMO.businessId) as Rec;
  central.store.upsert('business_settings', DEMO.businessId, {
    ...business,
    base_time_zone: zones.business,
  });
  const t = await openTill({ dir, central, clock });
  cleanups.push(async () => {
    await t.close();
    await central.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await t.terminal.services.cards.settled;
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
  await t.ok('shift-open', {});
  return t;
}

/** Anna, presented by her card, buys a sandwich by bank card. */
const annaByCard = (id: string) => ({
  transaction_id: id,
  check: {
    customer_id: DEMO.customers.anna,
    id: DEMO.cards.anna,
    id_type: 'card',
    payment_type: 'bank-card',
    check_items: [item('SNK-1', 1)],
  },
});

// 11:00 UTC on 26 November: noon in Berlin, but already 01:00 on the 27th at UTC+14.
const NOW = Date.parse('2026-11-26T11:00:00Z');
const KIRITIMATI = 'Pacific/Kiritimati';

describe("the POS's local date", () => {
  it('is the same for the sale, its card payment, the store context and the sandbox central', async () => {
    const clock = manualClock(NOW);
    const t = await tillIn(clock, { pos: KIRITIMATI, business: 'Europe/Berlin' });
    const id = uuidv7(clock.now());
    const sale = await t.ok('sale-process', annaByCard(id));
    const { ledger } = t.terminal.store;

    expect(ledger.status(id)?.localDate).toBe('2026-11-27');
    expect(ledger.status(sale.payments[0]!.payment_id)?.localDate).toBe('2026-11-27');
    // The store's today: the sale's stats hold counts in the current day only on its own date.
    const { context } = t.terminal.store.assembleContext({
      check: { customer_id: DEMO.customers.anna },
      posId: DEMO.posId,
    });
    expect(context.pending.stats.day?.visits).toBe(1);
    // The sandbox's today: the day it counted Anna's totals as of.
    expect((await t.terminal.sync.push()).done).toBeGreaterThan(0);
    const stats = t.central.store.getRecord('customer_stats', DEMO.customers.anna) as Rec;
    expect(stats.as_of).toBe('2026-11-27');
  }, 30_000);

  it("is the business's for a POS without a zone: a cancel and its card reversal land on the sale's date", async () => {
    const t = await tillIn(manualClock(NOW), { business: KIRITIMATI });
    const id = uuidv7(NOW);
    await t.ok('sale-process', annaByCard(id));
    const cancel = await t.ok('sale-cancel', { transaction_id: id });
    const { ledger } = t.terminal.store;
    const reversal = cancel.payments[0]!;

    expect(ledger.status(id)?.localDate).toBe('2026-11-27');
    // Before, a return fell back from the POS straight to UTC (2026-11-26).
    expect(ledger.status(reversal.transaction_id!)?.localDate).toBe('2026-11-27');
    expect(ledger.status(reversal.payment_id)?.localDate).toBe('2026-11-27');
  }, 30_000);
});

describe('a card payment and its sale', () => {
  it('land on the same local date when midnight passes between recording the sale and reporting the card', async () => {
    // 23:59:59.5 on the 26th at UTC+14 until the sale is recorded, 00:00:00.5 on the 27th after.
    const before = Date.parse('2026-11-26T09:59:59.500Z');
    const after = before + 1_000;
    let recorded = (): boolean => false;
    const clock: SyncClock = {
      now: () => (recorded() ? after : before),
      monotonic: () => performance.now(),
    };
    const t = await tillIn(clock, { pos: KIRITIMATI, business: KIRITIMATI });
    const id = uuidv7(before);
    recorded = () => t.terminal.store.ledger.status(id) !== null;
    const sale = await t.ok('sale-process', annaByCard(id));
    const { ledger } = t.terminal.store;

    expect(clock.now()).toBe(after);
    expect(ledger.status(id)?.localDate).toBe('2026-11-26');
    expect(ledger.status(sale.payments[0]!.payment_id)?.localDate).toBe('2026-11-26');
  }, 30_000);
});
