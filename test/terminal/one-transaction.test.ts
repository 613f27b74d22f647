// Every command whose effect is its writes is one transaction with its answer: a failure
// after the writes (injected through the store's answer port, `commandResults.onAnswer`,
// the way a failing output validation would fail) answers 500 and leaves nothing committed.
// A retry then succeeds. sale-process is the documented exception (docs/terminal.md): its
// sale commits with the card charge and the central service's answer, and a retry with the
// same transaction_id answers the committed sale.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, type Till } from './helpers.js';

let till: Till | null = null;
afterEach(async () => {
  await till?.close();
  till = null;
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

  it('sale-process: a failure after the sale committed is answered by the retry with the same id', async () => {
    const t = await manager();
    await t.ok('shift-open', {});
    const id = uuidv7(Date.now());
    const body = {
      transaction_id: id,
      check: { check_items: [item('WTR-1', 1, { price: 1.49 })], payment_type: 'cash' },
    };
    const undo = failAfterWrite(t, 'sale-process');
    expect((await t.call('sale-process', body)).status).toBe(500);
    undo();
    const again = await t.ok('sale-process', body);
    expect(again.transaction_id).toBe(id);
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
