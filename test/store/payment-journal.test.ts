import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/open.js';
import { openTest, tempDir, testClock, type TempDir, type TestClock } from './helpers.js';

let t: TempDir;
let clock: TestClock;
let store: Store;
beforeEach(async () => {
  t = tempDir('payments-');
  clock = testClock();
  store = await openTest(t.file, clock);
});
afterEach(() => {
  store.close();
  t.cleanup();
});

describe('payment journal', () => {
  it('keeps an operation inprocess across a restart so it can be reconciled', async () => {
    store.payments.begin(
      {
        id: 'pay-1',
        operationType: 'purchase',
        system: 'provider_1',
        amount: 12.5,
        currency: 'EUR',
        request: { amount: 1250 },
      },
      clock.now(),
    );
    store.close();
    store = await openTest(t.file, clock);
    expect(store.payments.inProcess()).toMatchObject([
      { id: 'pay-1', status: 'inprocess', amount: '12.5', request: { amount: 1250 } },
    ]);
  });

  it('settles an operation with the device answer and links it to its sale', () => {
    store.payments.begin(
      { id: 'pay-1', operationType: 'purchase', amount: '7.00', currency: 'EUR' },
      clock.now(),
    );
    store.payments.settle('pay-1', 'success', { rrn: '123' }, clock.now(), 'tx-1');
    expect(store.payments.inProcess()).toEqual([]);
    expect(store.payments.forTransaction('tx-1')).toMatchObject([
      { id: 'pay-1', status: 'success', response: { rrn: '123' } },
    ]);
  });

  it('refuses to settle an operation it never began', () => {
    expect(() => store.payments.settle('nope', 'fail', null, clock.now())).toThrow(
      expect.objectContaining({ code: 'invalid-record' }),
    );
  });
});
