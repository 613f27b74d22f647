// The sandbox's write_batch (docs/sync.md, "Drain over a slow link"): many writes in one
// request, each once under its own key, answered item by item, over real HTTP on 127.0.0.1.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { defaultEngine } from '../../src/central/engine.js';
import type { RunEngine } from '../../src/central/service.js';
import type { BatchWrite, CentralClient } from '../../src/sync/client.js';
import { makeClient } from '../sync/world.js';

let central: RunningCentral | null = null;
let client: CentralClient | null = null;
afterEach(async () => {
  await client?.close();
  await central?.close();
  client = null;
  central = null;
});

/** The transaction id the engine fails on (throws: a bug, answered 500), when set. */
let failOn: string | null = null;
const engine: RunEngine = (fixture) => {
  if (failOn !== null && (fixture.check as { transaction_id?: string }).transaction_id === failOn)
    throw new Error('the disk is on fire');
  return defaultEngine(fixture);
};

async function start(): Promise<{ central: RunningCentral; client: CentralClient }> {
  failOn = null;
  central = await startCentral({ engine, faultSeed: 7 });
  client = makeClient(central.url, central);
  return { central, client };
}

const id = (n: number) => `019a0000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const sale = (n: number, extra: Record<string, unknown> = {}): BatchWrite => ({
  name: 'processCheck',
  idempotencyKey: id(n),
  body: {
    transaction_id: id(n),
    check_items: [{ code: 'WTR-1', category: 'shop', quantity: 1, price: 1 + n / 100 }],
    ...extra,
  },
});
const statuses = (r: Awaited<ReturnType<CentralClient['writeBatch']>>) =>
  r.ok ? r.value.map((i) => (i.ok ? i.status : i.failure.kind === 'http' && i.failure.status)) : r;

describe('write_batch in the sandbox', () => {
  it('applies every item in the order listed, each recorded under its own key', async () => {
    const { central, client } = await start();
    const r = await client.writeBatch([sale(1), sale(2), sale(3)]);
    expect(statuses(r)).toEqual([200, 200, 200]);
    expect(central.store.transactions().map((t) => t.transaction_id)).toEqual([
      id(1),
      id(2),
      id(3),
    ]);
    // The key of an item is the key of the write sent alone: a repeat gets the first answer.
    const alone = await client.write('processCheck', sale(2).body, id(2));
    expect(alone).toMatchObject({ ok: true, value: r.ok && r.value[1]!.ok && r.value[1]!.value });
    expect(central.store.transactions()).toHaveLength(3);
  });

  it('applies a key listed twice in one batch once, and answers both with the first answer', async () => {
    const { central, client } = await start();
    const r = await client.writeBatch([sale(1), sale(1)]);
    expect(statuses(r)).toEqual([200, 200]);
    expect(r.ok && r.value[1]).toEqual(r.ok && r.value[0]);
    expect(central.store.transactions()).toHaveLength(1);
  });

  it('answers 409 to a key listed twice with another body, and applies the first only', async () => {
    const { central, client } = await start();
    const other = sale(1, {
      check_items: [{ code: 'WTR-1', category: 'shop', quantity: 2, price: 1 }],
    });
    const r = await client.writeBatch([sale(1), other]);
    expect(statuses(r)).toEqual([200, 409]);
    expect(central.store.transactions()).toHaveLength(1);
  });

  it('answers a refused item 422 and a malformed one 400, and takes the others', async () => {
    const { central, client } = await start();
    const overspent = sale(2, { customer_id: DEMO.customers.anna, bonuses_redeemed_amount: 1e6 });
    const malformed = sale(3, { check_items: [{ code: 'WTR-1', quantity: 'a lot' }] });
    const r = await client.writeBatch([sale(1), overspent, malformed, sale(4)]);
    expect(statuses(r)).toEqual([200, 422, 400, 200]);
    expect(central.store.transactions().map((t) => t.transaction_id)).toEqual([id(1), id(4)]);
    // The 422 is an answer, kept under its key like a success.
    const again = await client.writeBatch([overspent]);
    expect(again.ok && again.value[0]).toEqual(r.ok && r.value[1]);
  });

  it('stops at an item it fails on: the later items are 424 not-attempted and not applied', async () => {
    const { central, client } = await start();
    failOn = id(2);
    const r = await client.writeBatch([sale(1), sale(2), sale(3)]);
    expect(statuses(r)).toEqual([200, 500, 424]);
    expect(r.ok && r.value[2]).toMatchObject({ failure: { code: 'not-attempted' } });
    expect(central.store.transactions().map((t) => t.transaction_id)).toEqual([id(1)]);
  });

  it('cut off mid-way keeps the items before the cut, and its repeat applies the rest once', async () => {
    const { central, client } = await start();
    const items = [1, 2, 3, 4, 5, 6].map((n) => sale(n));
    expect((await client.signIn()).ok).toBe(true);
    central.server.setFaults({ commit_then_drop_rate: 1 });
    const cut = await client.writeBatch(items);
    expect(cut).toMatchObject({ ok: false, failure: { kind: 'network' } });
    expect(central.store.transactions().map((t) => t.transaction_id)).toEqual([
      id(1),
      id(2),
      id(3),
    ]);

    central.server.setFaults({ commit_then_drop_rate: 0 });
    const again = await client.writeBatch(items);
    expect(statuses(again)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(central.store.transactions().map((t) => t.transaction_id)).toEqual(
      items.map((i) => i.idempotencyKey),
    );
  });

  it('is unknown (404) when the sandbox plays a central without it', async () => {
    const { central, client } = await start();
    central.server.setFaults({ no_batch: true });
    const r = await client.writeBatch([sale(1)]);
    expect(r).toMatchObject({ ok: false, failure: { kind: 'http', status: 404 } });
    expect(central.store.transactions()).toHaveLength(0);
  });
});
