// A queued sale's server answer against what the till recorded: every figure both sides must
// agree on (bonuses, coupons, money taken from accounts and fleet accesses) that differs goes
// to the attention list with both figures, never silently into a balance.
import { describe, expect, it } from 'vitest';
import { reconcile } from '../../src/sync/reconcile.js';
import { sale, testId } from '../store/helpers.js';
import { storePerTest } from '../store/store-per-test.js';

const db = storePerTest('reconcile-sale-');

const charge = (id: string, amount: number, direction = 'debit') => ({
  special_account_id: id,
  direction,
  amount,
});

/** A queued sale whose stored check took `charges`; its outbox row. */
function queued(charges: ReturnType<typeof charge>[]) {
  const id = testId();
  db.store.record(
    sale(id, {
      check: {
        transactionType: 'sale',
        posId: 'p1',
        amountToPay: '6.49',
        document: { transaction_id: id, amount_to_pay: 6.49, special_accounts_charges: charges },
      },
    }),
  );
  return db.store.outbox.byTransaction(id)!;
}

const check = (row: { transactionId: string }, response: unknown) =>
  reconcile({ store: db.store, now: () => db.clock.now(), newId: testId }, row as never, response);
const differs = () => db.store.attention.list().filter((i) => i.kind === 'sale-differs');

describe('a queued sale whose account charges the server answers otherwise', () => {
  it('lists a money account or fleet charge the server took otherwise, with both figures', () => {
    const row = queued([charge('acc-1', 6.49), charge('access-1', 2)]);
    check(row, {
      transaction_id: row.transactionId,
      special_accounts_charges: [charge('acc-1', 4.49), charge('access-1', 2)],
    });
    expect(differs()).toEqual([
      expect.objectContaining({
        transactionId: row.transactionId,
        details: expect.objectContaining({
          differences: [
            {
              field: 'special_accounts_charges',
              till: 'acc-1 debit 6.49, access-1 debit 2',
              server: 'acc-1 debit 4.49, access-1 debit 2',
            },
          ],
        }) as unknown,
      }),
    ]);
  });

  it('lists nothing when the server took the same charges, in any order', () => {
    const row = queued([charge('acc-1', 6.49), charge('access-1', 2, 'credit')]);
    check(row, {
      transaction_id: row.transactionId,
      special_accounts_charges: [charge('access-1', 2, 'credit'), charge('acc-1', 6.49)],
    });
    expect(differs()).toEqual([]);
  });

  it('takes an answer that does not carry the charges as saying nothing about them', () => {
    const row = queued([charge('acc-1', 6.49)]);
    check(row, { transaction_id: row.transactionId });
    expect(differs()).toEqual([]);
  });
});
