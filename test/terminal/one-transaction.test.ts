// Every command whose effect is its writes is one transaction with its answer: a failure
// after the writes (injected through the store's answer port, `commandResults.onAnswer`,
// the way a failing output validation would fail) answers 500 and leaves nothing committed.
// A retry then succeeds. sale-process rolls back too when nothing of the sale left the till
// (queued, or standing in); a sale whose money moved outside it (a card charged, or the
// central service applied it online first) commits whatever its answer, and a retry with the
// same transaction_id answers it (docs/terminal.md).
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral } from '../../src/central/index.js';
import type { PrinterSimulator } from '../../src/devices/escpos/simulator.js';
import { ZvtSimulator } from '../../src/devices/zvt/simulator.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, paymentDevices, tempDir, type Till } from './helpers.js';

let till: Till | null = null;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  await till?.close();
  till = null;
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function manager(): Promise<Till> {
  till = await openTill();
  await till.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
  return till;
}

/** Makes every answer of `command` fail after its writes, until the returned undo. */
function failAfterWrite(t: Till, command: string): () => void {
  return t.terminal.store.commandResults.onAnswer((name) => {
    if (name === command) throw new Error(`injected failure after the ${command} writes`);
  });
}

async function cashSale(t: Till): Promise<string> {
  const id = uuidv7(Date.now());
  await t.ok('sale-process', {
    transaction_id: id,
    check: { check_items: [item('WTR-1', 2, { price: 1.49 })], payment_type: 'cash' },
  });
  return id;
}

describe('one transaction with the answer', () => {
  it('shift-open: a failure after the write opens no shift', async () => {
    const t = await manager();
    const undo = failAfterWrite(t, 'shift-open');
    expect((await t.call('shift-open', { opening_cash: 100 })).status).toBe(500);
    expect(t.terminal.store.shifts.current()).toBeNull();
    undo();
    expect((await t.ok('shift-open', { opening_cash: 100 })).shift.number).toBe(1);
  }, 30_000);

  it('shift-close: a failure after the write leaves the shift open', async () => {
    const t = await manager();
    await t.ok('shift-open', { opening_cash: 100 });
    const undo = failAfterWrite(t, 'shift-close');
    expect((await t.call('shift-close', { counted_cash: 100 })).status).toBe(500);
    expect(t.terminal.store.shifts.current()).not.toBeNull();
    undo();
    const closed = await t.ok('shift-close', { counted_cash: 100 });
    expect(closed.report.shift.closed_at).not.toBeNull();
  }, 30_000);

  it('attention-resolve: a failure after the write leaves the item open', async () => {
    const t = await manager();
    const { store } = t.terminal;
    const id = uuidv7(Date.now());
    store.attention.note(
      { id, kind: 'clock-skew', ref: 'test', message: 'the clock is off' },
      Date.now(),
    );
    const undo = failAfterWrite(t, 'attention-resolve');
    expect((await t.call('attention-resolve', { id, comment: 'checked' })).status).toBe(500);
    expect(store.attention.get(id)?.resolvedAt).toBeNull();
    undo();
    const done = await t.ok('attention-resolve', { id, comment: 'checked' });
    expect(done.item.resolved_at).not.toBeNull();
  }, 30_000);

  it('sale-cancel: a failure after the write cancels nothing and queues nothing', async () => {
    const t = await manager();
    await t.ok('shift-open', {});
    const id = await cashSale(t);
    const { store } = t.terminal;
    const undo = failAfterWrite(t, 'sale-cancel');
    expect((await t.call('sale-cancel', { transaction_id: id })).status).toBe(500);
    expect(store.ledger.storedCheck(id)?.cancelledBy).toBeNull();
    expect(store.commandResults.get('sale-cancel', id)).toBeNull();
    expect(store.outbox.depth().queued).toBe(0); // the sale went online; no cancel is queued
    undo();
    const cancelled = await t.ok('sale-cancel', { transaction_id: id });
    expect(cancelled.transaction_id).toBe(id);
    expect(store.ledger.storedCheck(id)?.cancelledBy).not.toBeNull();
  }, 30_000);

  it('sale-refund: a failure after the write refunds nothing', async () => {
    const t = await manager();
    await t.ok('shift-open', {});
    const original = await cashSale(t);
    const { store } = t.terminal;
    const refund = {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: original,
      lines: [{ index: 0, quantity: 1 }],
    };
    const undo = failAfterWrite(t, 'sale-refund');
    expect((await t.call('sale-refund', refund)).status).toBe(500);
    expect(store.refunds.of(original)).toEqual([]);
    expect(store.ledger.status(refund.transaction_id)).toBeNull();
    undo();
    await t.ok('sale-refund', refund);
    expect(store.refunds.of(original)).toHaveLength(1);
  }, 30_000);
});

/** Nothing of the sale `id` is on the till: no ledger row, no outbox row, no tender, no answer. */
function nothingOf(t: Till, id: string): void {
  const { store } = t.terminal;
  expect(store.ledger.status(id)).toBeNull();
  expect(store.outbox.byTransaction(id)).toBeNull();
  expect(store.shifts.cashTenderOf(id)).toBeNull();
  expect(store.commandResults.get('sale-process', id)).toBeNull();
}

const printerOf = (t: Till) => t.terminal.devices?.simulators.printer as PrinterSimulator;

async function printed(t: Till, n: number): Promise<void> {
  // The simulated printer takes the bytes on its own turn of the event loop.
  for (let i = 0; i < 50 && printerOf(t).receipts.length < n; i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(printerOf(t).receipts).toHaveLength(n);
}

describe('sale-process: one transaction with its answer when nothing left the till', () => {
  it('a queued cash sale: a failure after the write records nothing and prints nothing', async () => {
    const t = await manager();
    await t.ok('shift-open', {});
    const id = uuidv7(Date.now());
    const body = {
      transaction_id: id,
      check: { check_items: [item('WTR-1', 1, { price: 1.49 })], payment_type: 'cash' },
      cash_given: 5,
    };
    const undo = failAfterWrite(t, 'sale-process');
    expect((await t.call('sale-process', body)).status).toBe(500);
    nothingOf(t, id);
    expect((await t.ok('sale-status', { transaction_id: id })).state).toBe('unknown');
    await printed(t, 0);
    undo();
    const sale = await t.ok('sale-process', body);
    expect(sale.cash).toEqual({ given: 5, change: 3.51 });
    expect(sale.receipt_printed).toBe(true);
    expect(t.terminal.store.shifts.cashTenderOf(id)).toMatchObject({ change: '3.51' });
    expect((await t.ok('sale-status', { transaction_id: id })).state).toBe('committed');
    await printed(t, 1);
  }, 30_000);

  it('a stand-in sale: a failure after the write records nothing, and the retry stands in', async () => {
    const dir = tempDir();
    const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    till = await openTill({
      central,
      dir: join(dir, 'till'),
      standin: { customer_day_limit: 10, terminal_total_limit: 100 },
    });
    const t = till;
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    await t.ok('customer-identify', { id: DEMO.cards.anna, id_type: 'card' });
    await central.close();
    // The kept-alive connection is found dead first: the sale's request is then refused.
    expect((await t.terminal.sync.pull()).ok).toBe(false);
    const id = uuidv7(Date.now());
    const body = {
      transaction_id: id,
      check: {
        customer_id: DEMO.customers.anna,
        id: DEMO.cards.anna,
        id_type: 'card',
        bonuses_redeemed_amount: 5,
        check_items: [item('COF-2', 2), item('SNK-1', 1)],
        payment_type: 'cash',
      },
      cash_given: 50,
    };
    const undo = failAfterWrite(t, 'sale-process');
    expect((await t.call('sale-process', body)).status).toBe(500);
    nothingOf(t, id);
    // The central service applied nothing (refused connection): no attempt is left to void.
    expect(t.terminal.store.onlineAttempts.open()).toEqual([]);
    undo();
    const sale = await t.ok('sale-process', body);
    expect(sale.subtype).toBe('offline');
    expect(sale.sync.state).toBe('queued');
    expect(t.terminal.store.shifts.cashTenderOf(id)).not.toBeNull();
  }, 30_000);
});

/** Anna, presented by her card, spends 5 bonuses on a cash sale: it goes online first. */
const annaSpends = (id: string) => ({
  transaction_id: id,
  check: {
    customer_id: DEMO.customers.anna,
    id: DEMO.cards.anna,
    id_type: 'card',
    bonuses_redeemed_amount: 5,
    check_items: [item('COF-2', 2), item('SNK-1', 1)],
    payment_type: 'cash',
  },
});

describe('sale-process: a sale whose money moved outside the till commits whatever its answer', () => {
  it('a card sale: a failure after the charge and the record leaves the sale committed, and the retry answers it', async () => {
    const dir = tempDir('lt-cards-');
    const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
    const sim = new ZvtSimulator({ transport: 'serial', ackMs: 300 });
    cleanups.push(async () => {
      await central.close();
      rmSync(dir, { recursive: true, force: true });
    });
    till = await openTill({ dir, central, deviceSet: paymentDevices(sim) });
    const t = till;
    await t.terminal.services.cards.settled;
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    const id = uuidv7(Date.now());
    const body = {
      transaction_id: id,
      check: { payment_type: 'bank-card', check_items: [item('WTR-1', 1)] },
    };
    const undo = failAfterWrite(t, 'sale-process');
    expect((await t.call('sale-process', body)).status).toBe(500);
    expect(t.terminal.store.ledger.status(id)).not.toBeNull();
    expect(sim.charges()).toHaveLength(1);
    undo();
    const again = await t.ok('sale-process', body);
    expect(again.payments).toEqual([expect.objectContaining({ status: 'success', amount: 1.49 })]);
    expect(sim.charges()).toHaveLength(1);
    expect((await t.ok('sale-status', { transaction_id: id })).state).toBe('committed');
  }, 30_000);

  it('an online-first sale the central service applied: a failure after the record leaves it committed, and the retry answers it', async () => {
    const t = await manager();
    await t.ok('shift-open', {});
    await t.ok('customer-identify', { id: DEMO.cards.anna, id_type: 'card' });
    const id = uuidv7(Date.now());
    const body = annaSpends(id);
    const undo = failAfterWrite(t, 'sale-process');
    expect((await t.call('sale-process', body)).status).toBe(500);
    expect(t.terminal.store.ledger.status(id)).not.toBeNull();
    undo();
    const again = await t.ok('sale-process', body);
    expect(again).toMatchObject({ transaction_id: id, subtype: 'online' });
    expect(again.sync.state).toBe('done');
    expect((await t.ok('sale-status', { transaction_id: id })).state).toBe('committed');
  }, 30_000);

  it('a stand-in after a lost answer (the central service may hold the sale): a failure after the record leaves it committed, and the retry answers it', async () => {
    till = await openTill({ standin: { customer_day_limit: 10, terminal_total_limit: 100 } });
    const t = till;
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.ok('shift-open', {});
    await t.ok('customer-identify', { id: DEMO.cards.anna, id_type: 'card' });
    t.central.server.setFaults({ commit_then_drop_rate: 1 });
    const id = uuidv7(Date.now());
    const body = annaSpends(id);
    const undo = failAfterWrite(t, 'sale-process');
    expect((await t.call('sale-process', body)).status).toBe(500);
    expect(t.terminal.store.ledger.status(id)).toMatchObject({ subtype: 'offline' });
    t.central.server.setFaults({ commit_then_drop_rate: 0 });
    undo();
    const again = await t.ok('sale-process', body);
    expect(again).toMatchObject({ transaction_id: id, subtype: 'offline' });
    expect((await t.ok('sale-status', { transaction_id: id })).state).toBe('committed');
  }, 30_000);

  it('a printer that fails never undoes a sale: it commits and answers receipt_printed false', async () => {
    const t = await manager();
    await t.ok('shift-open', {});
    printerOf(t).offline = true;
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: id,
      check: { check_items: [item('WTR-1', 1, { price: 1.49 })], payment_type: 'cash' },
    });
    expect(sale.receipt_printed).toBe(false);
    expect((await t.ok('sale-status', { transaction_id: id })).state).toBe('committed');
  }, 30_000);
});

describe('the shift report reads whatever is stored', () => {
  it('reports and closes a shift whose stored figures are out of bounds, leaving them out', async () => {
    const t = await manager();
    await t.ok('shift-open', { opening_cash: 100 });
    const good = await cashSale(t);
    const bad = await cashSale(t);
    const strange = await cashSale(t);
    // Figures written before the bounds existed: a 1e308 sale and opening cash.
    const db = new Database(join(t.dir, 'terminal.sqlite'));
    const huge = `1${'0'.repeat(308)}`;
    db.prepare('UPDATE ledger_check SET amount_to_pay = ? WHERE operation_id = ?').run(huge, bad);
    db.prepare('UPDATE ledger_payment SET amount = ? WHERE operation_id = ?').run(huge, bad);
    db.prepare('UPDATE shift SET opening_cash = ?').run(huge);
    db.prepare("UPDATE ledger_payment SET payment_type = 'barter' WHERE operation_id = ?").run(
      strange,
    );
    db.close();

    const report = await t.ok('shift-report', {});
    expect(report.report.sales.count).toBe(1);
    expect(report.report.sales.amount).toBe(2.98);
    const shift = t.terminal.store.shifts.current()!;
    expect(t.terminal.store.shifts.unreadableOf(shift)).toEqual([
      { id: bad, field: 'amount_to_pay' },
      { id: strange, field: 'payments' },
    ]);
    const closed = await t.ok('shift-close', { counted_cash: 2.98 });
    expect(closed.report.sales.count).toBe(1);
    expect(t.terminal.store.shifts.current()).toBeNull();
    expect(good).not.toBe(bad);
  }, 30_000);
});
