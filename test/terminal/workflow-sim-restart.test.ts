// A kill takes the till, not the payment unit: the terminal's own simulated unit (the default
// devices, nothing injected) keeps its books in the data directory, so a till started again
// over the same directory meets the unit that holds its pre-authorisations and charges, as a
// real one would. The kill: the till's devices are closed (its line to the unit cut) and its
// store is left as it was; a new till opens over the same directory.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral } from '../../src/central/index.js';
import type { ZvtSimulator } from '../../src/devices/zvt/simulator.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, tempDir, type Till } from './helpers.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** One data directory and one central service for a run of tills with their default devices. */
async function world() {
  const dir = tempDir('lt-sims-');
  const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
  cleanups.push(async () => {
    await central.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async () => {
    const till = await openTill({ dir, central });
    cleanups.push(() => till.close());
    await till.terminal.services.cards.settled;
    return till;
  };
  return { start };
}

const unitOf = (t: Till) => t.terminal.devices?.simulators.payment as ZvtSimulator;
/** The unit's books: kind, amount, the receipt acted on, whether reversed. */
const booksOf = (t: Till) =>
  unitOf(t).ledger.map((x) => [x.kind, x.amount_cents, x.refers_to, x.reversed]);

/** The till dies: its line to the unit is cut; nothing else is tidied. */
async function kill(t: Till): Promise<void> {
  await t.terminal.devices?.close();
}

async function cashierOn(t: Till, openShift: boolean): Promise<void> {
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
  if (openShift) await t.ok('shift-open', {});
}

const anna = {
  customer_id: DEMO.customers.anna,
  id: DEMO.cards.anna,
  id_type: 'card',
  payment_type: 'bank-card',
};

/** A pump authorised for 50.00 on Anna's card: the card pre-authorised. */
async function authorisePump(t: Till): Promise<{ auth: string; receipt: number }> {
  const auth = uuidv7(Date.now());
  const answer = await t.ok('sale-process', {
    transaction_id: auth,
    check: {
      ...anna,
      transaction_type: 'preauthorization',
      check_items: [
        {
          code: 'FUEL-95',
          quantity: 27.93,
          amount: 50,
          quantity_recalculate_type: 'recalculate-by-amount',
        },
      ],
    },
  });
  expect(answer.payments[0]).toMatchObject({ operation: 'authorize', status: 'authorized' });
  const pre = unitOf(t).ledger.filter((x) => x.kind === 'pre-auth');
  expect(pre).toHaveLength(1);
  return { auth, receipt: pre[0]!.receipt_no };
}

function completion(auth: string, litres: number) {
  return {
    transaction_id: uuidv7(Date.now()),
    check: {
      ...anna,
      transaction_type: 'completion',
      preliminary_transaction_id: auth,
      check_items: [{ code: 'FUEL-95', quantity: litres, processed_quantity: litres }],
    },
  };
}

describe('a pre-authorisation outlives a kill of the till', () => {
  it('a pre-authorisation taken before a kill is completed after the restart', async () => {
    const w = await world();
    const a = await w.start();
    await cashierOn(a, true);
    const { auth, receipt } = await authorisePump(a);
    await kill(a);

    const b = await w.start();
    // The start leaves a reservation its pump still owns alone.
    expect(unitOf(b).ledger.map((t) => [t.kind, t.reversed])).toEqual([['pre-auth', false]]);
    await cashierOn(b, false);
    const sale = await b.ok('sale-process', completion(auth, 20));
    expect(sale.payments).toEqual([
      expect.objectContaining({ operation: 'completion', status: 'success', amount: 34.78 }),
    ]);
    expect(booksOf(b)).toEqual([
      ['pre-auth', 5_000, null, false],
      ['book-total', 3_478, receipt, false],
    ]);
  }, 30_000);

  it('a pre-authorisation taken before a kill is released after the restart', async () => {
    const w = await world();
    const a = await w.start();
    await cashierOn(a, true);
    const { auth, receipt } = await authorisePump(a);
    await kill(a);

    const b = await w.start();
    await cashierOn(b, false);
    // Nothing dispensed: the reservation is given back whole.
    const sale = await b.ok('sale-process', completion(auth, 0));
    expect(sale.payments).toEqual([]);
    expect(booksOf(b)).toEqual([
      ['pre-auth', 5_000, null, true],
      ['reversal', 5_000, receipt, false],
    ]);
  }, 30_000);

  it('a pre-authorisation whose pump authorisation a kill lost is released at the restart', async () => {
    const w = await world();
    const a = await w.start();
    // The card is pre-authorised; the till dies before the pump's authorisation is stored.
    const held = await a.terminal.services.cards.run('authorize', 50, uuidv7(Date.now()));
    if (!held.ok) throw new Error(JSON.stringify(held.error));
    await kill(a);

    const b = await w.start();
    expect(booksOf(b)).toEqual([
      ['pre-auth', 5_000, null, true],
      ['reversal', 5_000, held.entry.receipt_no, false],
    ]);
    expect(unitOf(b).openPreAuthorisations()).toEqual([]);
  }, 30_000);

  it('a completion the unit booked before a kill is settled exactly once', async () => {
    const w = await world();
    const a = await w.start();
    await cashierOn(a, true);
    const { auth, receipt } = await authorisePump(a);
    // The till dies the moment the unit books the completion, before the sale is recorded.
    unitOf(a).hooks.onBooked = async (tx) => {
      if (tx.kind === 'book-total') await kill(a);
    };
    const done = completion(auth, 20);
    expect((await a.call('sale-process', done)).status).not.toBe(200);

    const b = await w.start();
    await cashierOn(b, false);
    const sale = await b.ok('sale-process', done);
    expect(sale.payments).toEqual([
      expect.objectContaining({ operation: 'completion', status: 'success', amount: 34.78 }),
    ]);
    // The completion of a pump still open is left standing at start and the retry reuses it:
    // a real unit may refuse a second booking once a reversal released the hold.
    expect(booksOf(b)).toEqual([
      ['pre-auth', 5_000, null, false],
      ['book-total', 3_478, receipt, false],
    ]);
    expect(
      unitOf(b)
        .charges()
        .map((t) => t.amount_cents),
    ).toEqual([3_478]);
  }, 30_000);
});

describe('a card sale outlives a kill of the till', () => {
  it('a card sale charged before a kill is settled exactly once', async () => {
    const w = await world();
    const a = await w.start();
    await cashierOn(a, true);
    // One sale recorded with its charge, one charged and killed before it was recorded.
    const recorded = uuidv7(Date.now());
    await a.ok('sale-process', {
      transaction_id: recorded,
      check: { payment_type: 'bank-card', check_items: [item('WTR-1', 1)] },
    });
    const lost = uuidv7(Date.now());
    const charged = await a.terminal.services.cards.run('purchase', 2.5, lost);
    if (!charged.ok) throw new Error(JSON.stringify(charged.error));
    await kill(a);

    const b = await w.start();
    const settled = [
      ['purchase', 149, null, false],
      ['purchase', 250, null, true],
      ['reversal', 250, charged.entry.receipt_no, false],
    ];
    expect(booksOf(b)).toEqual(settled);
    await cashierOn(b, false);
    expect(
      (await b.ok('attention-list', {})).items.filter((i) => i.kind === 'payment-unresolved'),
    ).toEqual([]);

    // A further kill and start finds nothing left to do: still one charge, one reversal.
    await kill(b);
    const c = await w.start();
    expect(booksOf(c)).toEqual(settled);
  }, 30_000);
});
