// The payment flow's journal over the store (0003): written inprocess at phase created, moved
// through its phases with receipt, trace, masked card and result code while still inprocess,
// listed per unit while unresolved, and the newest receipt a unit gave.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewCardOperation } from '../../src/store/card-journal.js';
import type { Store } from '../../src/store/open.js';
import { openTest, tempDir, testClock, testId, type TempDir, type TestClock } from './helpers.js';

let t: TempDir;
let clock: TestClock;
let store: Store;
beforeEach(async () => {
  t = tempDir('card-');
  clock = testClock();
  store = await openTest(t.file, clock);
});
afterEach(() => {
  store.close();
  t.cleanup();
});

const op = (over: Partial<NewCardOperation> = {}): NewCardOperation => ({
  id: testId(),
  system: 'payment',
  protocol: 'zvt',
  operationType: 'purchase',
  amountCents: 1290,
  currency: 'EUR',
  transactionId: null,
  originalReceipt: null,
  baselineReceipt: 41,
  receiptNo: null,
  traceNo: null,
  panMasked: null,
  resultCode: null,
  note: null,
  ...over,
});

describe('the card journal', () => {
  it('records progress while the operation stays inprocess, then its outcome', () => {
    const e = store.cardJournal.create(op(), clock.now());
    expect(e).toMatchObject({
      status: 'inprocess',
      phase: 'created',
      amountCents: 1290,
      baselineReceipt: 41,
    });
    expect(store.payments.get(e.id)?.amount).toBe('12.90');
    clock.advance(10);
    const p = store.cardJournal.progress(
      e.id,
      {
        phase: 'authorised',
        receiptNo: 42,
        traceNo: 7,
        panMasked: '476173******0010',
        resultCode: '00',
      },
      clock.now(),
    );
    expect(p).toMatchObject({
      status: 'inprocess',
      phase: 'authorised',
      receiptNo: 42,
      traceNo: 7,
      panMasked: '476173******0010',
      resultCode: '00',
    });
    const done = store.cardJournal.progress(
      e.id,
      { status: 'success', phase: 'completed' },
      clock.now(),
    );
    expect(done).toMatchObject({ status: 'success', receiptNo: 42 });
    expect(store.cardJournal.listUnresolved('payment')).toEqual([]);
  });

  it('lists unresolved operations per unit, oldest first', () => {
    const a = store.cardJournal.create(op(), clock.now());
    clock.advance(1);
    store.cardJournal.create(op({ system: 'other' }), clock.now());
    clock.advance(1);
    const c = store.cardJournal.create(op(), clock.now());
    expect(store.cardJournal.listUnresolved('payment').map((x) => x.id)).toEqual([a.id, c.id]);
    expect(store.cardJournal.listUnresolved()).toHaveLength(3);
  });

  it("answers a unit's newest receipt", () => {
    expect(store.cardJournal.lastReceipt('payment')).toBeNull();
    const a = store.cardJournal.create(op(), clock.now());
    store.cardJournal.progress(a.id, { receiptNo: 10 }, clock.now());
    clock.advance(5);
    const b = store.cardJournal.create(op(), clock.now());
    store.cardJournal.progress(b.id, { receiptNo: 11 }, clock.now());
    const other = store.cardJournal.create(op({ system: 'other' }), clock.now());
    store.cardJournal.progress(other.id, { receiptNo: 99 }, clock.now());
    expect(store.cardJournal.lastReceipt('payment')).toBe(11);
  });

  it('refuses a card number that is not masked', () => {
    const e = store.cardJournal.create(op(), clock.now());
    expect(() =>
      store.cardJournal.progress(e.id, { panMasked: '4761739001010010' }, clock.now()),
    ).toThrow(/masked/);
  });

  it('links an operation to its sale', () => {
    const e = store.cardJournal.create(op(), clock.now());
    store.cardJournal.attach(e.id, 'sale-1', clock.now());
    expect(store.cardJournal.forTransaction('sale-1').map((x) => x.id)).toEqual([e.id]);
  });
});
