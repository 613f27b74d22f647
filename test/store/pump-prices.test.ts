// Pump prices and totalizers (migration 0012): each price update kept per nozzle with the
// pump's answer, the last confirmed one found again after a restart; a totalizer reading kept
// once per shift, moment and nozzle.
import { describe, expect, it } from 'vitest';
import type { PumpPriceUpdate } from '../../src/store/pump-prices.js';
import { testId } from './helpers.js';
import { storePerTest } from './store-per-test.js';

const db = storePerTest('pump-prices-');

const update = (price: string, outcome: PumpPriceUpdate['outcome']): PumpPriceUpdate => ({
  id: testId(),
  pump: 1,
  prices: [
    { nozzle: 1, goodsCode: 'FUEL-95', price },
    { nozzle: 2, goodsCode: 'DIESEL', price: '1.659' },
  ],
  outcome,
  message: outcome === 'refused' ? 'pump 1 did not acknowledge CD5' : null,
  sentAt: db.clock.now(),
});

const shift = () =>
  db.store.shifts.open({ id: testId(), staffId: testId(), staffName: null }, db.clock.now());

describe('pump prices', () => {
  it('finds the last update a pump confirmed after a restart, not a later refused one', async () => {
    const confirmed = update('1.789', 'confirmed');
    db.store.pumpPrices.recordUpdate(confirmed, [testId(), testId()]);
    db.store.pumpPrices.recordUpdate(update('1.799', 'refused'), [testId(), testId()]);
    const store = await db.reopen();
    expect(store.pumpPrices.lastConfirmed(1)).toEqual(confirmed);
    expect(store.pumpPrices.recent().map((u) => u.outcome)).toEqual(['confirmed', 'refused']);
  });
});

describe('pump totalizers', () => {
  it('keeps the first reading of a shift’s moment: a second one never moves its start', () => {
    const s = shift();
    const reading = (volume: string) => ({
      id: testId(),
      shiftId: s.id,
      moment: 'open' as const,
      pump: 1,
      nozzle: 1,
      goodsCode: 'FUEL-95',
      volume,
      readAt: db.clock.now(),
    });
    db.store.pumpPrices.addTotals(reading('1000.00'));
    db.store.pumpPrices.addTotals(reading('1011.37'));
    expect(db.store.pumpPrices.totalsOf(s.id).map((r) => r.volume)).toEqual(['1000.00']);
  });
});
