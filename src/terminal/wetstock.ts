// Wet stock (issue 16, point 6; docs/forecourt.md "Tanks and wet stock"): per tank and per
// grade, opening stock + deliveries - pump sales = book stock, against the closing reading.
// The variance is closing - book in litres and in percent of the litres sold (throughput).
// Pure: figures in, lines out, all in src/money decimals; the service gathers the figures.
import type { WetStockLine } from '../contract/tanks.js';
import {
  abs,
  add,
  dec,
  div,
  gt,
  isZero,
  mul,
  round,
  sub,
  toNumber,
  ZERO,
  type Dec,
} from '../money/index.js';

export interface TankPeriod {
  tank: number;
  goodsCode: string | null;
  /** The tank's reading at the period's start; null: none taken yet. */
  opening: Dec | null;
  /** The tank's reading at the period's end; null: none taken. */
  closing: Dec | null;
  /** What deliveries added in the period (volume after - volume before, each). */
  deliveries: Dec;
}

/**
 * Litres sold per grade in a period. The seam for pump totalizers: today the sold quantities
 * of the period's sales (`soldQuantities`); a forecourt port reading totalizers at shift open
 * and close answers the same question (close - open per grade) and replaces it.
 */
export interface PumpSales {
  readonly source: 'sold-quantities' | 'totalizers';
  litresByGrade(): ReadonlyMap<string, Dec>;
}

export interface WetStockInput {
  tanks: readonly TankPeriod[];
  sales: PumpSales;
  thresholdPercent: Dec;
}

const L = 3;
const n = (d: Dec | null): number | null => (d === null ? null : toNumber(round(d, L)));
const plus = (a: Dec | null, b: Dec | null): Dec | null =>
  a === null || b === null ? null : add(a, b);

function line(
  key: { tank?: number; goodsCode: string | null },
  opening: Dec | null,
  deliveries: Dec,
  sales: Dec | null,
  closing: Dec | null,
  threshold: Dec,
): WetStockLine {
  const book = opening === null || sales === null ? null : sub(add(opening, deliveries), sales);
  const variance = book === null || closing === null ? null : sub(closing, book);
  const percent =
    variance === null || sales === null || isZero(sales)
      ? null
      : div(mul(variance, dec(100)), sales, 2);
  return {
    ...(key.tank === undefined ? {} : { tank: key.tank }),
    goods_code: key.goodsCode,
    opening: n(opening),
    deliveries: toNumber(round(deliveries, L)),
    sales: n(sales),
    book: n(book),
    closing: n(closing),
    variance: n(variance),
    variance_percent: percent === null ? null : toNumber(percent),
    over_threshold: percent !== null && gt(abs(percent), threshold),
  };
}

/**
 * The wet-stock lines. A grade's sales are attributed to a tank only when that tank is the
 * grade's only one; with several, the tanks' lines carry no sales and the grade's line is the
 * one that balances. A grade sold but held by no configured tank gets a grade line alone.
 */
export function wetStock(i: WetStockInput): { tanks: WetStockLine[]; grades: WetStockLine[] } {
  const sold = i.sales.litresByGrade();
  const byGrade = new Map<string, TankPeriod[]>();
  for (const t of i.tanks) {
    if (t.goodsCode === null) continue;
    byGrade.set(t.goodsCode, [...(byGrade.get(t.goodsCode) ?? []), t]);
  }
  const tanks = [...i.tanks]
    .sort((a, b) => a.tank - b.tank)
    .map((t) => {
      const alone = t.goodsCode !== null && byGrade.get(t.goodsCode)?.length === 1;
      const sales = alone ? (sold.get(t.goodsCode!) ?? ZERO) : null;
      return line(t, t.opening, t.deliveries, sales, t.closing, i.thresholdPercent);
    });
  const codes = [...new Set([...byGrade.keys(), ...sold.keys()])].sort();
  const grades = codes.map((code) => {
    const ts = byGrade.get(code) ?? [];
    const sum = (f: (t: TankPeriod) => Dec | null): Dec | null =>
      ts.length === 0 ? null : ts.map(f).reduce<Dec | null>(plus, ZERO);
    const deliveries = ts.reduce((d, t) => add(d, t.deliveries), ZERO);
    const opening = sum((t) => t.opening);
    const closing = sum((t) => t.closing);
    return line(
      { goodsCode: code },
      opening,
      deliveries,
      sold.get(code) ?? ZERO,
      closing,
      i.thresholdPercent,
    );
  });
  return { tanks, grades };
}
