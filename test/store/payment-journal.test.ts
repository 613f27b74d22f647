import { describe, expect, it } from 'vitest';
import { storePerTest } from './store-per-test.js';

const db = storePerTest('payments-');

describe('payment journal', () => {
  it('keeps an operation inprocess across a restart so it can be reconciled', async () => {
    db.store.payments.begin(
      {
        id: 'pay-1',
        operationType: 'purchase',
        system: 'provider_1',
        amount: 12.5,
        currency: 'EUR',
        request: { amount: 1250 },
      },
      db.clock.now(),
    );
    await db.reopen();
    expect(db.store.payments.inProcess()).toMatchObject([
      { id: 'pay-1', status: 'inprocess', amount: '12.5', request: { amount: 1250 } },
    ]);
  });

  it('settles an operation with the device answer and links it to its sale', () => {
    db.store.payments.begin(
      { id: 'pay-1', operationType: 'purchase', amount: '7.00', currency: 'EUR' },
      db.clock.now(),
    );
    db.store.payments.settle('pay-1', 'success', { rrn: '123' }, db.clock.now(), 'tx-1');
    expect(db.store.payments.inProcess()).toEqual([]);
    expect(db.store.payments.forTransaction('tx-1')).toMatchObject([
      { id: 'pay-1', status: 'success', response: { rrn: '123' } },
    ]);
  });

  it('refuses to settle an operation it never began', () => {
    expect(() => db.store.payments.settle('nope', 'fail', null, db.clock.now())).toThrow(
      expect.objectContaining({ code: 'invalid-record' }),
    );
  });
});
