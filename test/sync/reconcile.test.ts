// The server's answer to a cancel or refund against the bonuses owed the till recorded: the
// server's figure stands, and every difference is visible on the attention list.
import { describe, expect, it } from 'vitest';
import type { OutboxRow } from '../../src/store/outbox.js';
import { reconcileOwed } from '../../src/sync/reconcile.js';
import { sale, testId } from '../store/helpers.js';
import { storePerTest } from '../store/store-per-test.js';

const db = storePerTest('reconcile-');

/** A sale and its cancel, the cancel's outbox row; `owed` noted as the till's figure. */
function cancelled(owed: number | null): OutboxRow {
  const saleId = testId();
  const id = testId();
  db.store.record(sale(saleId));
  db.store.record({
    id,
    kind: 'cancellation',
    subtype: 'online',
    customerId: 'c1',
    localDate: '2026-11-22',
    cancellation: { transactionId: saleId },
    bonuses: { returned: 3, writtenOff: 0 },
    outbox: { operation: 'cancel_check', payload: { transaction_id: saleId }, version: 1 },
  });
  if (owed !== null)
    db.store.attention.note(
      {
        id: testId(),
        kind: 'bonuses-owed',
        ref: id,
        transactionId: id,
        message: `the customer owes ${owed} bonuses`,
        details: { customer_id: 'c1', bonuses: owed },
      },
      db.clock.now(),
    );
  return db.store.outbox.byTransaction(id)!;
}

const reconcile = (row: OutboxRow, response: unknown) =>
  reconcileOwed({ store: db.store, now: () => db.clock.now(), newId: testId }, row, response);
const answer = (owed: number) => ({ transaction_cancelled: 1, owed: { bonuses: owed } });
const open = () => db.store.attention.list();

describe('owed bonuses against the server answer', () => {
  it('settles the item when the server took the whole write-off', () => {
    const row = cancelled(2.15);
    reconcile(row, answer(0));
    expect(open()).toEqual([]);
    const item = db.store.attention.find('bonuses-owed', row.transactionId)!;
    expect(item.resolvedAt).toBe(db.clock.now());
    expect(item.resolvedBy).toBeNull();
    expect(item.comment).toContain('this till counted 2.15');
  });

  it('corrects the figure to the server one, keeping both', () => {
    const row = cancelled(2.15);
    reconcile(row, answer(1.5));
    expect(open()).toHaveLength(1);
    expect(open()[0]).toMatchObject({
      ref: row.transactionId,
      details: { customer_id: 'c1', bonuses: 1.5, till_bonuses: 2.15 },
    });
    expect(open()[0]!.message).toContain('owes 1.5 bonuses');
  });

  it('a difference the till cannot reconcile goes to the attention list with both figures', () => {
    // The till counted nothing owed; the server could not take 3.
    const row = cancelled(null);
    reconcile(row, answer(3));
    expect(open()).toHaveLength(1);
    expect(open()[0]).toMatchObject({
      kind: 'bonuses-owed',
      transactionId: row.transactionId,
      details: { customer_id: 'c1', bonuses: 3, till_bonuses: 0 },
    });
  });

  it('an item staff already resolved gets a new item when the server disagrees', () => {
    const row = cancelled(2.15);
    const item = db.store.attention.find('bonuses-owed', row.transactionId)!;
    db.store.attention.resolve(item.id, { id: testId(), name: 'M' }, 'collected', db.clock.now());
    reconcile(row, answer(0));
    expect(open()).toHaveLength(1);
    expect(open()[0]).toMatchObject({
      ref: `${row.transactionId}:server`,
      details: { bonuses: 0, till_bonuses: 2.15 },
    });
  });

  it('leaves the item as it is when the server agrees or does not say', () => {
    const row = cancelled(2.15);
    reconcile(row, answer(2.15));
    reconcile(row, { transaction_cancelled: 1 });
    expect(open()).toHaveLength(1);
    expect(open()[0]!.details).toEqual({ customer_id: 'c1', bonuses: 2.15 });
  });
});
