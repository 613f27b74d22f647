// The forecourt's fills (migration 0010): a fill is known by its nozzle's totalizer after it,
// so the same fill read again (after a restart) is the same row; it is sold once, or recorded
// as a drive-off; two unpaid fills on one pump stack.
import { describe, expect, it } from 'vitest';
import type { FinishedFill } from '../../src/store/pump-fills.js';
import { testId } from './helpers.js';
import { storePerTest } from './store-per-test.js';

const db = storePerTest('fills-');

const fill = (over: Partial<FinishedFill> = {}): FinishedFill => ({
  id: testId(),
  pump: 1,
  nozzle: 1,
  grade: 'FUEL-95',
  volume: '11.37',
  amount: '20.34',
  unitPrice: '1.789',
  totalsAfter: '104211.37',
  authorisationId: null,
  finishedAt: db.clock.now(),
  ...over,
});

describe('pump fills', () => {
  it('keeps a fill read again after a restart as the one row it already is', async () => {
    const first = db.store.pumpFills.record(fill());
    const store = await db.reopen();
    const again = store.pumpFills.record(fill({ id: testId() }));
    expect(again.id).toBe(first.id);
    expect(store.pumpFills.unpaid()).toHaveLength(1);
  });

  it('keeps the pump’s own volume, amount and price exactly', () => {
    const kept = db.store.pumpFills.record(
      fill({ volume: '0.01', amount: '0.02', unitPrice: '1.789' }),
    );
    expect(kept).toMatchObject({
      volume: '0.01',
      amount: '0.02',
      unitPrice: '1.789',
      state: 'unpaid',
    });
  });

  it('stacks two unpaid fills on one pump, oldest first', () => {
    const a = db.store.pumpFills.record(fill());
    db.clock.advance(60_000);
    const b = db.store.pumpFills.record(
      fill({ totalsAfter: '104230.00', finishedAt: db.clock.now() }),
    );
    expect(db.store.pumpFills.unpaid().map((f) => f.id)).toEqual([a.id, b.id]);
  });

  it('sells a fill once: a second sale of it is refused', () => {
    const f = db.store.pumpFills.record(fill());
    const at = db.clock.now();
    expect(
      db.store.pumpFills.resolve(f.id, { state: 'sold', transactionId: testId(), at, by: 'st1' }),
    ).toBe(true);
    expect(
      db.store.pumpFills.resolve(f.id, { state: 'sold', transactionId: testId(), at, by: 'st1' }),
    ).toBe(false);
    expect(db.store.pumpFills.unpaid()).toEqual([]);
  });

  it('records a drive-off with who recorded it, and keeps it for the report', () => {
    const f = db.store.pumpFills.record(fill());
    db.store.pumpFills.resolve(f.id, {
      state: 'drive-off',
      transactionId: null,
      at: db.clock.now(),
      by: 'st1',
    });
    expect(db.store.pumpFills.get(f.id)).toMatchObject({ state: 'drive-off', resolvedBy: 'st1' });
    expect(db.store.pumpFills.since(0).map((x) => x.state)).toEqual(['drive-off']);
  });

  it('tells the same volume on another nozzle from the same fill', () => {
    db.store.pumpFills.record(fill());
    db.store.pumpFills.record(fill({ id: testId(), nozzle: 2 }));
    expect(db.store.pumpFills.unpaid()).toHaveLength(2);
  });
});
