import { describe, expect, it } from 'vitest';
import { toFixed } from '../../src/money/index.js';
import { StoreError } from '../../src/store/errors.js';
import { sale, testId } from './helpers.js';
import { storePerTest } from './store-per-test.js';

const db = storePerTest('ledger-');

const pendingBonuses = () => toFixed(db.store.ledger.pendingFor('c1').bonuses);
const pendingAccount = () => {
  const v = db.store.ledger.pendingFor('c1', ['a1']).accounts.get('a1');
  return v ? toFixed(v) : '0';
};

describe('recording a sale', () => {
  it('writes the sale, its effects, its holds and its outbox row together', () => {
    const id = testId();
    expect(db.store.record(sale(id))).toEqual({ status: 'committed', seq: 1 });
    expect(db.store.ledger.status(id)).toMatchObject({
      kind: 'check',
      syncStatus: 'unconfirmed',
      outboxStatus: 'queued',
      seq: 1,
    });
    const fx = db.store.ledger.effectsOf(id);
    expect(fx.bonuses.map((b) => [b.kind, b.amount])).toEqual([
      ['redeem', '3'],
      ['add', '0.48'],
    ]);
    expect(fx.payments).toEqual([
      { payment_type: 'cash', payment_id: 'EUR', amount: '6.49', currency: 'EUR' },
    ]);
    expect(fx.pending.map((p) => p.kind).sort()).toEqual(['account', 'bonuses', 'coupon', 'stats']);
    expect(db.store.outbox.byTransaction(id)).toMatchObject({
      operation: 'process_check',
      status: 'queued',
      seq: 1,
      payloadVersion: 1,
    });
    expect(db.store.ledger.storedCheck(id)?.document).toEqual({
      transaction_id: id,
      amount: 9.99,
      amount_to_pay: 6.49,
    });
    expect(db.store.check().ok).toBe(true);
  });

  it('gives each operation the next per-terminal sequence number', () => {
    expect(db.store.record(sale(testId())).seq).toBe(1);
    expect(db.store.record(sale(testId())).seq).toBe(2);
  });

  it('records an id only once: a retry writes nothing and answers with the first seq', () => {
    const id = testId();
    db.store.record(sale(id));
    expect(db.store.record(sale(id, { bonuses: { redeemed: 50 } }))).toEqual({
      status: 'exists',
      seq: 1,
    });
    expect(pendingBonuses()).toBe('3');
    expect(db.store.ledger.count()).toBe(1);
  });

  it('writes nothing at all when any part of the operation fails', () => {
    const id = testId();
    expect(() =>
      db.store.record(
        sale(id, {
          outbox: {
            operation: 'process_check',
            payload: {},
            version: 1,
            status: 'bogus' as 'queued',
          },
        }),
      ),
    ).toThrow(StoreError);
    expect(db.store.ledger.status(id)).toBeNull();
    expect(db.store.ledger.pendingFor('c1').bonuses.units).toBe(0n);
    expect(db.store.outbox.depth().queued).toBe(0);
  });

  it('holds spending against the cache at once and credits not at all', () => {
    db.store.record(sale(testId(), { bonuses: { redeemed: '1.5', added: '9' } }));
    db.store.record(sale(testId(), { bonuses: { redeemed: '2.25' } }));
    expect(pendingBonuses()).toBe('3.75');
    expect(pendingAccount()).toBe('4.00');
  });

  it('keeps the pending stats with their local dates', () => {
    db.store.record(sale(testId(), { localDate: '2026-11-21' }));
    db.store.record(sale(testId()));
    expect(
      db.store.ledger.pendingFor('c1').stats.map((s) => [s.localDate, toFixed(s.amount), s.visits]),
    ).toEqual([
      ['2026-11-21', '9.99', 1],
      ['2026-11-22', '9.99', 1],
    ]);
  });

  it('holds a redeemed coupon until the cache reflects it', () => {
    db.store.record(sale(testId()));
    expect(db.store.ledger.couponHeld('CPN-1')).toBe(true);
    expect(db.store.ledger.couponHeld('OTHER')).toBe(false);
  });

  it('keeps the highest odometer reading per vehicle and unit', () => {
    db.store.record(sale(testId(), { odometer: { vehicleId: 'v1', value: '1200.5', unit: 'km' } }));
    db.store.record(sale(testId(), { odometer: { vehicleId: 'v1', value: 999, unit: 'km' } }));
    expect(toFixed(db.store.ledger.lastOdometer('v1', 'km') ?? { units: 0n, scale: 0 })).toBe(
      '1200.5',
    );
    expect(db.store.ledger.lastOdometer('v1', 'mi')).toBeNull();
  });

  it('moves the provisional coupon counter past the numbers a sale used', () => {
    expect(db.store.ledger.nextCouponSeq()).toBe(1);
    db.store.record(sale(testId(), { couponSeqUsed: 4 }));
    expect(db.store.ledger.nextCouponSeq()).toBe(5);
  });

  it('sums offline spending not yet confirmed, for the terminal and per customer and day', () => {
    db.store.record(sale(testId()));
    db.store.record(sale(testId(), { customerId: 'c2' }));
    db.store.record(sale(testId(), { subtype: 'online' }));
    const s = db.store.ledger.offlineSpending('c1', '2026-11-22');
    expect([toFixed(s.terminal.bonuses), toFixed(s.terminal.money)]).toEqual(['6', '4.00']);
    expect([toFixed(s.customerDay.bonuses), toFixed(s.customerDay.money)]).toEqual(['3', '2.00']);
  });
});

describe('confirmation and release', () => {
  function pull(
    changes: Array<{ entity: string; op: 'upsert'; id: string; data: unknown }>,
    requestedAt = db.clock.now(),
  ) {
    return db.store.applyPage({ changes, cursor: 'c', requestedAt });
  }
  const customerRec = {
    entity: 'customer',
    op: 'upsert' as const,
    id: 'c1',
    data: { id: 'c1', access_type: 'full-bonuses-access', bonuses: { regular: 97 } },
  };

  it('keeps the hold after the server confirms, until a pull brings the reflecting record', () => {
    const id = testId();
    db.store.record(sale(id));
    const row = db.store.outbox.byTransaction(id);
    db.clock.advance(1000);
    db.store.outbox.markDone(row?.id ?? 0, { ok: true }, db.clock.now());
    expect(db.store.ledger.status(id)?.syncStatus).toBe('confirmed');
    expect(pendingBonuses()).toBe('3');
    db.clock.advance(1000);
    pull([customerRec]);
    expect(pendingBonuses()).toBe('0');
    // The other holds wait for their own records.
    expect(pendingAccount()).toBe('2.00');
    pull([
      { entity: 'special_account', op: 'upsert', id: 'a1', data: { id: 'a1', customer_id: 'c1' } },
    ]);
    expect(pendingAccount()).toBe('0');
  });

  it('reads a coupon our own cancel reopened as reopened until a pull brings its record', () => {
    const id = testId();
    db.store.record(sale(id));
    expect(db.store.ledger.couponMark('CPN-1')).toBe('redeemed');
    const cancel = testId();
    db.store.record({
      id: cancel,
      kind: 'cancellation',
      subtype: 'online',
      customerId: 'c1',
      localDate: '2026-11-22',
      cancellation: { transactionId: id },
      coupons: [{ code: 'CPN-1', action: 'reopen' }],
      outbox: { operation: 'cancel_check', payload: { transaction_id: id }, version: 1 },
    });
    expect(db.store.ledger.couponMark('CPN-1')).toBe('reopened');
    expect(db.store.ledger.couponHeld('CPN-1')).toBe(false);
    // Redeemed again (a stand-in sale): held again.
    const again = testId();
    db.store.record(sale(again));
    expect(db.store.ledger.couponMark('CPN-1')).toBe('redeemed');
    for (const t of [id, cancel, again])
      db.store.outbox.markDone(db.store.outbox.byTransaction(t)?.id ?? 0, null, db.clock.now());
    db.clock.advance(1000);
    pull([
      {
        entity: 'coupon',
        op: 'upsert',
        id: 'k1',
        data: { id: 'k1', code: 'CPN-1', status: 'redeemed' },
      },
    ]);
    expect(db.store.ledger.couponMark('CPN-1')).toBeNull();
  });

  it('does not release a hold by a page requested before the confirmation', () => {
    const id = testId();
    db.store.record(sale(id));
    const requestedAt = db.clock.now();
    db.clock.advance(1000);
    db.store.outbox.markDone(db.store.outbox.byTransaction(id)?.id ?? 0, null, db.clock.now());
    pull([customerRec], requestedAt);
    expect(pendingBonuses()).toBe('3');
  });

  it('does not release an unconfirmed hold by any pull', () => {
    db.store.record(sale(testId()));
    db.clock.advance(1000);
    pull([customerRec]);
    expect(pendingBonuses()).toBe('3');
  });

  it('drops the holds of a rejected operation and keeps the row for staff', () => {
    const id = testId();
    db.store.record(sale(id));
    const row = db.store.outbox.byTransaction(id);
    db.store.outbox.markRejected(
      row?.id ?? 0,
      { error: { code: 'insufficient-bonuses', message: 'no' } },
      db.clock.now(),
    );
    expect(pendingBonuses()).toBe('0');
    expect(db.store.ledger.status(id)?.syncStatus).toBe('rejected');
    expect(db.store.outbox.attention().map((r) => r.transactionId)).toEqual([id]);
    expect(db.store.check().ok).toBe(true);
  });

  it('records a sale already applied online as confirmed', () => {
    const id = testId();
    db.store.record(
      sale(id, {
        subtype: 'online',
        outbox: {
          operation: 'process_check',
          payload: {},
          version: 1,
          status: 'done',
          response: { ok: 1 },
        },
      }),
    );
    expect(db.store.ledger.status(id)).toMatchObject({
      syncStatus: 'confirmed',
      outboxStatus: 'done',
    });
    expect(db.store.outbox.depth().queued).toBe(0);
    db.clock.advance(1);
    pull([customerRec]);
    expect(pendingBonuses()).toBe('0');
  });

  it("keeps a driver's hold until the driver's access record arrives, whatever the fleet account's says", () => {
    const id = testId();
    db.store.record(
      sale(id, {
        accounts: [{ accountId: 'fa1', accessId: 'acc1', direction: 'debit', amount: '44.01' }],
        outbox: { operation: 'process_check', payload: {}, version: 1, status: 'done' },
      }),
    );
    const held = () => db.store.ledger.pendingFor(null, ['fa1'], ['acc1']).accounts;
    expect(Object.fromEntries(held())).toEqual({ fa1: expect.anything(), acc1: expect.anything() });
    db.clock.advance(1);
    // The fleet account's record alone does not show the driver's usage.
    pull([
      {
        entity: 'special_account',
        op: 'upsert',
        id: 'fa1',
        data: { id: 'fa1', customer_id: 'f1' },
      },
    ]);
    expect(held().size).toBe(2);
    pull([
      {
        entity: 'corporate_access',
        op: 'upsert',
        id: 'acc1',
        data: { id: 'acc1', customer_id: 'c1' },
      },
    ]);
    expect(held().size).toBe(0);
  });

  it('releases at the end of a pull every hold confirmed before its last page was asked for', () => {
    const id = testId();
    db.store.record(
      sale(id, { outbox: { operation: 'process_check', payload: {}, version: 1, status: 'done' } }),
    );
    // A page asked for before the sale was recorded brings the changed records: kept.
    const early = db.clock.now() - 1;
    db.store.applyPage({
      changes: [customerRec],
      cursor: 'd1',
      requestedAt: early,
      hasMore: false,
    });
    expect(pendingBonuses()).toBe('3');
    db.clock.advance(1);
    // The next pull has nothing new, yet the feed is read to its end: the cache shows the sale.
    db.store.applyPage({ changes: [], cursor: 'd1', requestedAt: db.clock.now(), hasMore: false });
    expect(db.store.ledger.effectsOf(id).pending).toEqual([]);
  });

  it('keeps the holds at the end of a pull when a page has more to come', () => {
    db.store.record(
      sale(testId(), {
        outbox: { operation: 'process_check', payload: {}, version: 1, status: 'done' },
      }),
    );
    db.clock.advance(1);
    db.store.applyPage({ changes: [], cursor: 'd1', requestedAt: db.clock.now(), hasMore: true });
    expect(pendingAccount()).toBe('2.00');
  });

  it('releases every confirmed hold when a snapshot begun after the confirmation is swapped in', () => {
    const id = testId();
    db.store.record(
      sale(id, { outbox: { operation: 'process_check', payload: {}, version: 1, status: 'done' } }),
    );
    db.clock.advance(1);
    db.store.applyPage({
      changes: [customerRec],
      cursor: 's',
      requestedAt: db.clock.now(),
      snapshot: true,
      hasMore: false,
    });
    expect(db.store.ledger.effectsOf(id).pending).toEqual([]);
  });
});

describe('cancellations', () => {
  it('records a cancellation with its own id and marks the check cancelled', () => {
    const original = testId();
    db.store.record(sale(original));
    const cancel = testId();
    db.store.record({
      id: cancel,
      kind: 'cancellation',
      subtype: 'offline',
      customerId: 'c1',
      localDate: '2026-11-22',
      cancellation: { transactionId: original, comment: 'wrong pump' },
      bonuses: { returned: 3, writtenOff: '0.48' },
      accounts: [{ accountId: 'a1', direction: 'credit', amount: '2.00' }],
      coupons: [{ code: 'CPN-1', action: 'reopen' }],
      outbox: { operation: 'cancel_check', payload: { transaction_id: original }, version: 1 },
    });
    expect(db.store.ledger.storedCheck(original)?.cancelledBy).toBe(cancel);
    expect(db.store.outbox.byTransaction(cancel)?.operation).toBe('cancel_check');
    // The write-off is held at once; the returned bonuses count once confirmed.
    expect(pendingBonuses()).toBe('3.48');
  });

  it('refuses to cancel one check twice', () => {
    const original = testId();
    db.store.record(sale(original));
    const cancel = (id: string) =>
      db.store.record({
        id,
        kind: 'cancellation',
        subtype: 'offline',
        localDate: '2026-11-22',
        cancellation: { transactionId: original },
        outbox: { operation: 'cancel_check', payload: {}, version: 1 },
      });
    cancel(testId());
    expect(() => cancel(testId())).toThrow(expect.objectContaining({ code: 'constraint' }));
  });
});
