// Pump prices and totalizers (0012): each price update sent to a pump, one row per nozzle, with
// whether the pump confirmed it; and each nozzle's volume totalizer read at a shift's open and
// close (the first reading of a moment is kept: a second read never moves a shift's start).
import type Database from 'better-sqlite3';

export interface PumpPriceRow {
  readonly nozzle: number;
  readonly goodsCode: string;
  /** Exact decimal text, as sent. */
  readonly price: string;
}

export interface PumpPriceUpdate {
  readonly id: string;
  readonly pump: number;
  readonly prices: readonly PumpPriceRow[];
  readonly outcome: 'confirmed' | 'refused';
  readonly message: string | null;
  readonly sentAt: number;
}

export type TotalsMoment = 'open' | 'close';

export interface PumpTotalsReading {
  readonly id: string;
  readonly shiftId: string;
  readonly moment: TotalsMoment;
  readonly pump: number;
  readonly nozzle: number;
  readonly goodsCode: string;
  /** The nozzle's volume totalizer, exact decimal text. */
  readonly volume: string;
  readonly readAt: number;
}

interface PriceRow {
  update_id: string;
  pump: number;
  nozzle: number;
  goods_code: string;
  price: string;
  outcome: string;
  message: string | null;
  sent_at: number;
}

interface TotalsRow {
  id: string;
  shift_id: string;
  moment: string;
  pump: number;
  nozzle: number;
  goods_code: string;
  volume: string;
  read_at: number;
}

/** Rows of one update (same update_id, nozzle order) as the update. */
function updatesOf(rows: PriceRow[]): PumpPriceUpdate[] {
  const by = new Map<string, PriceRow[]>();
  for (const r of rows) by.set(r.update_id, [...(by.get(r.update_id) ?? []), r]);
  return [...by.values()].map((rs) => {
    const r = rs[0]!;
    return {
      id: r.update_id,
      pump: r.pump,
      prices: rs.map((x) => ({ nozzle: x.nozzle, goodsCode: x.goods_code, price: x.price })),
      // The table's CHECK admits only these two.
      outcome: r.outcome === 'confirmed' ? 'confirmed' : 'refused',
      message: r.message,
      sentAt: r.sent_at,
    };
  });
}

const totalsOf = (r: TotalsRow): PumpTotalsReading => ({
  id: r.id,
  shiftId: r.shift_id,
  moment: r.moment === 'close' ? 'close' : 'open',
  pump: r.pump,
  nozzle: r.nozzle,
  goodsCode: r.goods_code,
  volume: r.volume,
  readAt: r.read_at,
});

export function createPumpPrices(db: Database.Database) {
  const insertPrice = db.prepare(
    `INSERT INTO pump_price (id, update_id, pump, nozzle, goods_code, price, outcome, message, sent_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const ofUpdate = db.prepare<[string], PriceRow>(
    'SELECT * FROM pump_price WHERE update_id = ? ORDER BY nozzle',
  );
  const lastConfirmed = db.prepare<[number], { update_id: string }>(
    `SELECT update_id FROM pump_price WHERE pump = ? AND outcome = 'confirmed'
     ORDER BY sent_at DESC, rowid DESC LIMIT 1`,
  );
  const recent = db.prepare<[number], PriceRow>(
    `SELECT * FROM pump_price WHERE update_id IN (
       SELECT update_id FROM pump_price GROUP BY update_id ORDER BY MAX(rowid) DESC LIMIT ?)
     ORDER BY rowid`,
  );
  const insertTotals = db.prepare(
    `INSERT INTO pump_totals (id, shift_id, moment, pump, nozzle, goods_code, volume, read_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (shift_id, moment, pump, nozzle) DO NOTHING`,
  );
  const totalsOfShift = db.prepare<[string], TotalsRow>(
    'SELECT * FROM pump_totals WHERE shift_id = ? ORDER BY moment, pump, nozzle',
  );
  const one = (id: string): PumpPriceUpdate | null => updatesOf(ofUpdate.all(id))[0] ?? null;
  return {
    /** Keeps one update sent to a pump (`ids`: one row id per price). */
    recordUpdate(u: PumpPriceUpdate, ids: readonly string[]): void {
      db.transaction(() => {
        u.prices.forEach((p, i) =>
          insertPrice.run(
            ids[i],
            u.id,
            u.pump,
            p.nozzle,
            p.goodsCode,
            p.price,
            u.outcome,
            u.message,
            u.sentAt,
          ),
        );
      })();
    },
    /** The last update the pump confirmed: the prices it sells at, as far as we told it. */
    lastConfirmed(pump: number): PumpPriceUpdate | null {
      const row = lastConfirmed.get(pump);
      return row ? one(row.update_id) : null;
    },
    /** The latest `limit` updates, oldest first. */
    recent(limit = 50): PumpPriceUpdate[] {
      return updatesOf(recent.all(limit));
    },
    /** Keeps a totalizer reading; a second reading of the same moment is ignored. */
    addTotals(r: PumpTotalsReading): void {
      insertTotals.run(
        r.id,
        r.shiftId,
        r.moment,
        r.pump,
        r.nozzle,
        r.goodsCode,
        r.volume,
        r.readAt,
      );
    },
    totalsOf(shiftId: string): PumpTotalsReading[] {
      return totalsOfShift.all(shiftId).map(totalsOf);
    },
  };
}

export type PumpPrices = ReturnType<typeof createPumpPrices>;
