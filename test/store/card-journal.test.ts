// The payment flow's journal over the store (0003): written inprocess at phase created, moved
// through its phases with receipt, trace, masked card and result code while still inprocess,
// listed per unit while unresolved, and the newest receipt a unit gave.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { NewCardOperation } from '../../src/store/card-journal.js';
import { testId } from './helpers.js';
import { storePerTest } from './store-per-test.js';

const db = storePerTest('card-');

/** The journal's decimal amount column (0002), read from the file as another reader would. */
function amountColumn(id: string): string | undefined {
  const other = new Database(db.file, { readonly: true });
  try {
    return other
      .prepare<[string], { amount: string }>('SELECT amount FROM payment_journal WHERE id = ?')
      .get(id)?.amount;
  } finally {
    other.close();
  }
}

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
    const e = db.store.cardJournal.create(op(), db.clock.now());
    expect(e).toMatchObject({
      status: 'inprocess',
      phase: 'created',
      amountCents: 1290,
      baselineReceipt: 41,
    });
    expect(amountColumn(e.id)).toBe('12.90');
    db.clock.advance(10);
    const p = db.store.cardJournal.progress(
      e.id,
      {
        phase: 'authorised',
        receiptNo: 42,
        traceNo: 7,
        panMasked: '476173******0010',
        resultCode: '00',
      },
      db.clock.now(),
    );
    expect(p).toMatchObject({
      status: 'inprocess',
      phase: 'authorised',
      receiptNo: 42,
      traceNo: 7,
      panMasked: '476173******0010',
      resultCode: '00',
    });
    const done = db.store.cardJournal.progress(
      e.id,
      { status: 'success', phase: 'completed' },
      db.clock.now(),
    );
    expect(done).toMatchObject({ status: 'success', receiptNo: 42 });
    expect(db.store.cardJournal.listUnresolved('payment')).toEqual([]);
  });

  it('lists unresolved operations per unit, oldest first', () => {
    const a = db.store.cardJournal.create(op(), db.clock.now());
    db.clock.advance(1);
    db.store.cardJournal.create(op({ system: 'other' }), db.clock.now());
    db.clock.advance(1);
    const c = db.store.cardJournal.create(op(), db.clock.now());
    expect(db.store.cardJournal.listUnresolved('payment').map((x) => x.id)).toEqual([a.id, c.id]);
    expect(db.store.cardJournal.listUnresolved()).toHaveLength(3);
  });

  it("answers a unit's newest receipt", () => {
    expect(db.store.cardJournal.lastReceipt('payment')).toBeNull();
    const a = db.store.cardJournal.create(op(), db.clock.now());
    db.store.cardJournal.progress(a.id, { receiptNo: 10 }, db.clock.now());
    db.clock.advance(5);
    const b = db.store.cardJournal.create(op(), db.clock.now());
    db.store.cardJournal.progress(b.id, { receiptNo: 11 }, db.clock.now());
    const other = db.store.cardJournal.create(op({ system: 'other' }), db.clock.now());
    db.store.cardJournal.progress(other.id, { receiptNo: 99 }, db.clock.now());
    expect(db.store.cardJournal.lastReceipt('payment')).toBe(11);
  });

  it('refuses a card number that is not masked', () => {
    const e = db.store.cardJournal.create(op(), db.clock.now());
    expect(() =>
      db.store.cardJournal.progress(e.id, { panMasked: '4761739001010010' }, db.clock.now()),
    ).toThrow(/masked/);
  });

  it('links an operation to its sale', () => {
    const e = db.store.cardJournal.create(op(), db.clock.now());
    db.store.cardJournal.attach(e.id, 'sale-1', db.clock.now());
    expect(db.store.cardJournal.forTransaction('sale-1').map((x) => x.id)).toEqual([e.id]);
  });
});
