// Card money a kill left half-settled, found by the chaos run over the whole payment mix: the
// till dies between the unit's answer and the record of what the answer was for, and the next
// till meets the same simulated unit (its books in the data directory). Every operation that
// moved money is reported once, under the transaction its answer names; a reservation and its
// release move none and are never reported; a retry (or a sale made again under a new id)
// adopts the card operation its killed attempt left, instead of asking the unit again. A pump
// authorisation nobody completes is released when its lifetime is over.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral } from '../../src/central/index.js';
import type { ZvtSimulator } from '../../src/devices/zvt/simulator.js';
import type { SyncClock } from '../../src/sync/clock.js';
import { manualClock } from '../support/clock.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, tempDir, type Till } from './helpers.js';

let cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** One data directory and one central service for a run of tills with their default devices. */
async function world(o: { clock?: SyncClock; lifetime_s?: number } = {}) {
  const dir = tempDir('lt-settle-');
  const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
  cleanups.push(async () => {
    await central.close();
    rmSync(dir, { recursive: true, force: true });
  });
  /** A till over the directory; `settle: false` does not wait for its start-up settling. */
  const start = async (settle = true) => {
    const till = await openTill({
      dir,
      central,
      ...(o.clock ? { clock: o.clock } : {}),
      ...(o.lifetime_s
        ? { terminal_config: { fuel: { authorisation_lifetime_s: o.lifetime_s } } }
        : {}),
    });
    cleanups.push(() => till.close());
    if (settle) await till.terminal.services.cards.settled;
    return till;
  };
  return { start };
}

const unitOf = (t: Till) => t.terminal.devices?.simulators.payment as ZvtSimulator;
const booksOf = (t: Till) =>
  unitOf(t).ledger.map((x) => [x.kind, x.amount_cents, x.refers_to, x.reversed]);
/** The till dies: its line to the unit is cut; nothing else is tidied. */
const kill = (t: Till) => t.terminal.devices?.close();

/** The `bank_card_payments` row of a card operation, or null: its body as it will be sent. */
function reported(t: Till, paymentId: string): Record<string, unknown> | null {
  const row = t.terminal.store.outbox.byTransaction(paymentId);
  if (!row) return null;
  expect(row.operation).toBe('bank_card_payments');
  return (row.payload as { body: Record<string, unknown> }).body;
}

async function cashierOn(t: Till, openShift: boolean): Promise<void> {
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
  if (openShift) await t.ok('shift-open', {});
}

const anna = {
  customer_id: DEMO.customers.anna,
  id: DEMO.cards.anna,
  id_type: 'card',
  payment_type: 'bank-card',
};

function authorisation(id = uuidv7(Date.now())) {
  return {
    transaction_id: id,
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
  };
}

function completion(auth: string, litres: number, id = uuidv7(Date.now())) {
  return {
    transaction_id: id,
    check: {
      ...anna,
      transaction_type: 'completion',
      preliminary_transaction_id: auth,
      check_items: [{ code: 'FUEL-95', quantity: litres, processed_quantity: litres }],
    },
  };
}

describe('a reservation and its release move no money', () => {
  it('a pre-authorisation released at start is not reported as money given back', async () => {
    const w = await world();
    const a = await w.start();
    const pump = uuidv7(Date.now());
    // The card is pre-authorised; the till dies before the pump's authorisation is stored.
    const held = await a.terminal.services.cards.run('authorize', 50, pump);
    if (!held.ok) throw new Error(JSON.stringify(held.error));
    await kill(a);

    const b = await w.start();
    const journal = b.terminal.store.cardJournal.forTransaction(pump);
    expect(journal.map((e) => [e.operationType, e.status])).toEqual([
      ['authorize', 'authorized'],
      ['cancel', 'success'],
    ]);
    for (const e of journal) expect(reported(b, e.id)).toBeNull();
  }, 30_000);

  it('a completion that dispensed nothing releases the reservation, never reported, not even at the next start', async () => {
    const w = await world();
    const a = await w.start();
    await cashierOn(a, true);
    const auth = authorisation();
    await a.ok('sale-process', auth);
    const done = completion(auth.transaction_id, 0);
    await a.ok('sale-process', done);
    await kill(a);

    const b = await w.start();
    const release = b.terminal.store.cardJournal
      .forTransaction(done.transaction_id)
      .filter((e) => e.operationType === 'cancel');
    expect(release).toHaveLength(1);
    expect(reported(b, release[0]!.id)).toBeNull();
  }, 30_000);
});

describe('a retry adopts the card operation its killed attempt left', () => {
  it('a completion booked before a kill is adopted by the completion sold again under a new id', async () => {
    const w = await world();
    const a = await w.start();
    await cashierOn(a, true);
    const auth = authorisation();
    await a.ok('sale-process', auth);
    // The till dies the moment the unit books the completion, before the sale is recorded.
    unitOf(a).hooks.onBooked = async (tx) => {
      if (tx.kind === 'book-total') await kill(a);
    };
    const lost = completion(auth.transaction_id, 20);
    expect((await a.call('sale-process', lost)).status).not.toBe(200);

    const b = await w.start();
    const booked = b.terminal.store.cardJournal.forTransaction(lost.transaction_id);
    expect(booked.map((e) => [e.operationType, e.status])).toEqual([['completion', 'success']]);
    // Not reported under the lost id: no sale records it yet.
    expect(reported(b, booked[0]!.id)).toBeNull();

    await cashierOn(b, false);
    const again = completion(auth.transaction_id, 20);
    const sale = await b.ok('sale-process', again);
    expect(sale.payments).toEqual([
      expect.objectContaining({
        payment_id: booked[0]!.id,
        transaction_id: again.transaction_id,
        operation: 'completion',
        amount: 34.78,
      }),
    ]);
    expect(
      unitOf(b)
        .charges()
        .map((t) => t.amount_cents),
    ).toEqual([3_478]);
    expect(reported(b, booked[0]!.id)).toMatchObject({ transaction_id: again.transaction_id });
  }, 30_000);

  it('a cancel killed after the card was reversed gives back once, under the id of its reversal', async () => {
    const w = await world();
    const a = await w.start();
    await cashierOn(a, true);
    const sale = uuidv7(Date.now());
    await a.ok('sale-process', {
      transaction_id: sale,
      check: { payment_type: 'bank-card', check_items: [item('SNK-1', 1)] },
    });
    // The cancel reverses the card under its own new id, and the till dies before recording it.
    const receipt = a.terminal.store.cardJournal.forTransaction(sale)[0]!.receiptNo;
    const cancelId = uuidv7(Date.now());
    const back = await a.terminal.services.cards.run('cancel', 4.99, cancelId, receipt);
    if (!back.ok) throw new Error(JSON.stringify(back.error));
    await kill(a);

    const b = await w.start();
    await cashierOn(b, false);
    const cancel = await b.ok('sale-cancel', { transaction_id: sale });
    expect(cancel.payments).toEqual([
      expect.objectContaining({
        payment_id: back.entry.id,
        transaction_id: cancelId,
        operation: 'cancel',
        status: 'success',
        amount: 4.99,
      }),
    ]);
    expect(unitOf(b).ledger.filter((t) => t.kind === 'reversal')).toHaveLength(1);
    expect(reported(b, back.entry.id)).toMatchObject({ transaction_id: cancelId });
    expect(b.terminal.store.ledger.status(cancelId)?.kind).toBe('cancellation');
  }, 30_000);

  it('a refund killed after the card was refunded is retried without refunding twice', async () => {
    const w = await world();
    const a = await w.start();
    await cashierOn(a, true);
    const sale = uuidv7(Date.now());
    await a.ok('sale-process', {
      transaction_id: sale,
      check: { payment_type: 'bank-card', check_items: [item('SNK-1', 2)] },
    });
    const refundId = uuidv7(Date.now());
    const back = await a.terminal.services.cards.run('refund', 4.99, refundId);
    if (!back.ok) throw new Error(JSON.stringify(back.error));
    await kill(a);

    const b = await w.start();
    await cashierOn(b, false);
    const refund = await b.ok('sale-refund', {
      transaction_id: refundId,
      original_transaction_id: sale,
      lines: [{ index: 0, quantity: 1 }],
    });
    expect(refund.payments).toEqual([
      expect.objectContaining({ payment_id: back.entry.id, operation: 'refund', amount: 4.99 }),
    ]);
    expect(unitOf(b).ledger.filter((t) => t.kind === 'refund')).toHaveLength(1);
    expect(reported(b, back.entry.id)).toMatchObject({ transaction_id: refundId });
  }, 30_000);
});

describe('sale-status and the card', () => {
  it('sale-status of an id the till never recorded names the card operations made under it', async () => {
    const w = await world();
    const a = await w.start();
    const id = uuidv7(Date.now());
    // Charged, and the till died before the sale was recorded: the start reverses it.
    const charged = await a.terminal.services.cards.run('purchase', 1.49, id);
    if (!charged.ok) throw new Error(JSON.stringify(charged.error));
    await kill(a);

    const b = await w.start();
    await cashierOn(b, false);
    expect(await b.ok('sale-status', { transaction_id: id })).toEqual({
      transaction_id: id,
      state: 'unknown',
      payments: [
        expect.objectContaining({ payment_id: charged.entry.id, operation: 'purchase' }),
        expect.objectContaining({ operation: 'cancel', status: 'success', amount: 1.49 }),
      ],
    });
    expect(await b.ok('sale-status', { transaction_id: uuidv7(Date.now()) })).not.toHaveProperty(
      'payments',
    );
  }, 30_000);
});

describe('a pump authorisation nobody completes', () => {
  it('sale-status tells an integrator that lost the answer about the pump authorisation', async () => {
    const w = await world();
    const a = await w.start();
    await cashierOn(a, true);
    const auth = authorisation();
    const answer = await a.ok('sale-process', auth);
    const status = await a.ok('sale-status', { transaction_id: auth.transaction_id });
    expect(status).toMatchObject({
      state: 'authorised',
      pump: 'open',
      completion_transaction_id: null,
      payments: answer.payments,
    });
    const done = completion(auth.transaction_id, 20);
    await a.ok('sale-process', done);
    expect(await a.ok('sale-status', { transaction_id: auth.transaction_id })).toMatchObject({
      state: 'authorised',
      pump: 'completed',
      completion_transaction_id: done.transaction_id,
      expires_at: null,
    });
  }, 30_000);

  it('a pre-authorisation left open past its lifetime is released, and a late completion refused', async () => {
    const clock = manualClock(Date.now());
    const w = await world({ clock, lifetime_s: 600 });
    const a = await w.start();
    await cashierOn(a, true);
    const auth = authorisation();
    await a.ok('sale-process', auth);
    const status = await a.ok('sale-status', { transaction_id: auth.transaction_id });
    expect(status).toMatchObject({
      expires_at: new Date(clock.now() + 600_000).toISOString(),
    });

    clock.advance(599_000);
    await a.terminal.services.cards.releaseExpired();
    expect(unitOf(a).openPreAuthorisations()).toHaveLength(1);
    clock.advance(2_000);
    await a.terminal.services.cards.releaseExpired();
    expect(unitOf(a).openPreAuthorisations()).toEqual([]);
    expect(booksOf(a)).toEqual([
      ['pre-auth', 5_000, null, true],
      ['reversal', 5_000, unitOf(a).ledger[0]!.receipt_no, false],
    ]);
    expect(await a.ok('sale-status', { transaction_id: auth.transaction_id })).toMatchObject({
      pump: 'released',
    });
    await a.refused('sale-process', completion(auth.transaction_id, 20), 'authorisation-released');
  }, 30_000);

  it('a pre-authorisation whose lifetime ran out while the till was down is released at start', async () => {
    const clock = manualClock(Date.now());
    const w = await world({ clock, lifetime_s: 600 });
    const a = await w.start();
    await cashierOn(a, true);
    await a.ok('sale-process', authorisation());
    await kill(a);
    clock.advance(601_000);

    const b = await w.start();
    expect(unitOf(b).openPreAuthorisations()).toEqual([]);
  }, 30_000);
});

describe('an operation the start is settling', () => {
  it('is not listed for a person while the start resolves it with the unit', async () => {
    const w = await world();
    const a = await w.start();
    await cashierOn(a, true);
    // The till dies the moment the unit gets the pre-authorisation: its entry stays in process.
    unitOf(a).hooks.onCommand = (apdu) => {
      if (apdu.cls === 0x06 && apdu.ins === 0x22) void kill(a);
    };
    expect((await a.call('sale-process', authorisation())).status).not.toBe(200);

    const b = await w.start(false);
    b.terminal.services.attention.refresh();
    await b.terminal.services.cards.settled;
    b.terminal.services.attention.refresh();
    expect(
      b.terminal.store.attention.list().filter((i) => i.kind === 'payment-unresolved'),
    ).toEqual([]);
    expect(b.terminal.store.cardJournal.listUnresolved()).toEqual([]);
  }, 30_000);
});
