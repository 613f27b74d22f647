// Wet stock (docs/forecourt.md, "Tanks and wet stock"): opening + deliveries - sales = book,
// against the closing reading; the variance in litres and in percent of the litres sold.
import { describe, expect, it } from 'vitest';
import { dec, type Dec } from '../../src/money/index.js';
import { wetStock, type PumpSales, type TankPeriod } from '../../src/terminal/wetstock.js';

const sold = (m: Record<string, string>): PumpSales => ({
  source: 'sold-quantities',
  litresByGrade: () => new Map(Object.entries(m).map(([k, v]) => [k, dec(v)] as [string, Dec])),
});
const tank = (t: Partial<TankPeriod> & { tank: number }): TankPeriod => ({
  goodsCode: 'DIESEL',
  opening: dec('10000'),
  closing: dec('9000'),
  deliveries: dec(0),
  ...t,
});

describe('wet stock', () => {
  it('balances opening + deliveries - sales against the closing reading', () => {
    const r = wetStock({
      tanks: [tank({ tank: 1, deliveries: dec('5000'), closing: dec('13990') })],
      sales: sold({ DIESEL: '1000' }),
      thresholdPercent: dec('0.5'),
    });
    expect(r.tanks[0]).toMatchObject({ book: 14000, closing: 13990, variance: -10 });
  });

  it('gives the variance in percent of the litres sold', () => {
    const r = wetStock({
      tanks: [tank({ tank: 1, closing: dec('8997') })],
      sales: sold({ DIESEL: '1000' }),
      thresholdPercent: dec('0.5'),
    });
    expect(r.tanks[0]!.variance_percent).toBe(-0.3);
  });

  it('marks a variance beyond the threshold', () => {
    const r = wetStock({
      tanks: [tank({ tank: 1, closing: dec('8990') })],
      sales: sold({ DIESEL: '1000' }),
      thresholdPercent: dec('0.5'),
    });
    expect(r.tanks[0]!.over_threshold).toBe(true);
  });

  it('does not mark a variance within the threshold', () => {
    const r = wetStock({
      tanks: [tank({ tank: 1, closing: dec('8995') })],
      sales: sold({ DIESEL: '1000' }),
      thresholdPercent: dec('0.5'),
    });
    expect(r.tanks[0]!.over_threshold).toBe(false);
  });

  it('attributes no sales to a tank whose grade has several tanks; the grade line balances', () => {
    const r = wetStock({
      tanks: [tank({ tank: 1 }), tank({ tank: 2, closing: dec('9000') })],
      sales: sold({ DIESEL: '2000' }),
      thresholdPercent: dec('0.5'),
    });
    expect(r.tanks.map((t) => t.sales)).toEqual([null, null]);
    expect(r.grades[0]).toMatchObject({ goods_code: 'DIESEL', book: 18000, variance: 0 });
  });

  it('leaves the book unknown without an opening reading', () => {
    const r = wetStock({
      tanks: [tank({ tank: 1, opening: null })],
      sales: sold({ DIESEL: '1000' }),
      thresholdPercent: dec('0.5'),
    });
    expect(r.tanks[0]).toMatchObject({ book: null, variance: null, over_threshold: false });
  });

  it('gives no percent when nothing was sold', () => {
    const r = wetStock({
      tanks: [tank({ tank: 1, closing: dec('9990') })],
      sales: sold({}),
      thresholdPercent: dec('0.5'),
    });
    expect(r.tanks[0]).toMatchObject({ variance: -10, variance_percent: null });
  });

  it('keeps decimals exact (no binary floats)', () => {
    const r = wetStock({
      tanks: [tank({ tank: 1, opening: dec('0.3'), closing: dec('0.1'), deliveries: dec(0) })],
      sales: sold({ DIESEL: '0.2' }),
      thresholdPercent: dec('0.5'),
    });
    expect(r.tanks[0]!.variance).toBe(0);
  });
});
