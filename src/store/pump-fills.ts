// The forecourt's fills (0010): what each pump dispensed, kept until sold or recorded as a
// drive-off; and the prepays this till authorised on a pump (0014). A fill is known by its
// nozzle's totalizer after it, so the same fill read again after a restart is the same row
// (`record` answers the row kept), and a sale marks it sold in the sale's own transaction: a
// fill is sold once.
import type Database from 'better-sqlite3';

export type FillState = 'unpaid' | 'sold' | 'drive-off';

export interface PumpFill {
  readonly id: string;
  readonly pump: number;
  readonly nozzle: number;
  /** The grade's good code (the catalogue's fuel line). */
  readonly grade: string;
  /** Exact decimals as text, as the pump reported them. */
  readonly volume: string;
  readonly amount: string;
  readonly unitPrice: string;
  /** The nozzle's volume totalizer after the fill: the fill's identity on its nozzle. */
  readonly totalsAfter: string;
  /** The prepay's pump authorisation, when the fill was prepaid. */
  readonly authorisationId: string | null;
  readonly state: FillState;
  readonly transactionId: string | null;
  readonly finishedAt: number;
  readonly resolvedAt: number | null;
  readonly resolvedBy: string | null;
}

/** What the forecourt reports of a finished fill. */
export type FinishedFill = Omit<PumpFill, 'state' | 'transactionId' | 'resolvedAt' | 'resolvedBy'>;

interface Row {
  id: string;
  pump: number;
  nozzle: number;
  grade: string;
  volume: string;
  amount: string;
  unit_price: string;
  totals_after: string;
  authorisation_id: string | null;
  state: FillState;
  transaction_id: string | null;
  finished_at: number;
  resolved_at: number | null;
  resolved_by: string | null;
}

const fillOf = (r: Row): PumpFill => ({
  id: r.id,
  pump: r.pump,
  nozzle: r.nozzle,
  grade: r.grade,
  volume: r.volume,
  amount: r.amount,
  unitPrice: r.unit_price,
  totalsAfter: r.totals_after,
  authorisationId: r.authorisation_id,
  state: r.state,
  transactionId: r.transaction_id,
  finishedAt: r.finished_at,
  resolvedAt: r.resolved_at,
  resolvedBy: r.resolved_by,
});

export function createPumpFills(db: Database.Database) {
  const insert = db.prepare(
    `INSERT INTO pump_fill (id, pump, nozzle, grade, volume, amount, unit_price, totals_after,
       authorisation_id, state, finished_at)
     VALUES (@id, @pump, @nozzle, @grade, @volume, @amount, @unitPrice, @totalsAfter,
       @authorisationId, 'unpaid', @finishedAt)
     ON CONFLICT (pump, nozzle, totals_after) DO NOTHING`,
  );
  const byIdentity = db.prepare<[number, number, string], Row>(
    'SELECT * FROM pump_fill WHERE pump = ? AND nozzle = ? AND totals_after = ?',
  );
  const byId = db.prepare<[string], Row>('SELECT * FROM pump_fill WHERE id = ?');
  const latest = db.prepare<[number], Row>(
    'SELECT * FROM pump_fill WHERE pump = ? ORDER BY rowid DESC LIMIT 1',
  );
  const unpaid = db.prepare<[], Row>(
    "SELECT * FROM pump_fill WHERE state = 'unpaid' ORDER BY pump, finished_at, rowid",
  );
  const resolve = db.prepare(
    `UPDATE pump_fill SET state = @state, transaction_id = @transactionId,
       resolved_at = @at, resolved_by = @by
     WHERE id = @id AND state = 'unpaid'`,
  );
  const authorise = db.prepare(
    `INSERT INTO pump_authorisation (pump, transaction_id, authorised_at) VALUES (?, ?, ?)
     ON CONFLICT (pump) DO UPDATE SET transaction_id = excluded.transaction_id,
       authorised_at = excluded.authorised_at`,
  );
  const authorisationOf = db.prepare<[number], { transaction_id: string; authorised_at: number }>(
    'SELECT transaction_id, authorised_at FROM pump_authorisation WHERE pump = ?',
  );
  const forget = db.prepare('DELETE FROM pump_authorisation WHERE pump = ?');
  const holding = db.prepare<[string], { pump: number }>(
    'SELECT pump FROM pump_authorisation WHERE transaction_id = ? ORDER BY pump LIMIT 1',
  );
  const ofPrepay = db.prepare<[string], Row>(
    'SELECT * FROM pump_fill WHERE authorisation_id = ? ORDER BY finished_at, rowid',
  );
  const pumped = db.prepare(
    `INSERT INTO prepay_pump (transaction_id, pump, authorised_at) VALUES (?, ?, ?)
     ON CONFLICT (transaction_id) DO UPDATE SET pump = excluded.pump,
       authorised_at = excluded.authorised_at`,
  );
  const wasPumped = db.prepare<[string], { pump: number }>(
    'SELECT pump FROM prepay_pump WHERE transaction_id = ?',
  );
  const driveOffs = db.prepare<[number, number], Row>(
    `SELECT * FROM pump_fill WHERE state = 'drive-off' AND resolved_at >= ? AND resolved_at <= ?
     ORDER BY resolved_at, rowid`,
  );
  const since = db.prepare<[number], Row>(
    'SELECT * FROM pump_fill WHERE finished_at >= ? ORDER BY finished_at, rowid',
  );
  return {
    /** Keeps a finished fill, once: the row kept for the same fill read again. */
    record(f: FinishedFill): PumpFill {
      insert.run(f);
      return fillOf(byIdentity.get(f.pump, f.nozzle, f.totalsAfter)!);
    },
    /** The pump's last fill kept (the one it shows, when it still shows a kept fill). */
    latest(pump: number): PumpFill | null {
      const r = latest.get(pump);
      return r ? fillOf(r) : null;
    },
    get(id: string): PumpFill | null {
      const r = byId.get(id);
      return r ? fillOf(r) : null;
    },
    /** The fills waiting to be paid, by pump, oldest first (two on one pump: stacked). */
    unpaid(): PumpFill[] {
      return unpaid.all().map(fillOf);
    },
    /**
     * Sold by `transactionId` (in the sale's transaction) or recorded as a drive-off; false
     * when the fill is not unpaid any more (sold already: the caller refuses).
     */
    resolve(
      id: string,
      to: { state: 'sold' | 'drive-off'; transactionId: string | null; at: number; by: string },
    ): boolean {
      return resolve.run({ id, ...to }).changes === 1;
    },
    /** The pump is authorised for this prepay until its fill is kept. */
    authorise(pump: number, transactionId: string, at: number): void {
      authorise.run(pump, transactionId, at);
    },
    /** The prepay the pump is authorised for, or null (postpay, or none). */
    authorisationOf(pump: number): string | null {
      return authorisationOf.get(pump)?.transaction_id ?? null;
    },
    /** When the pump was authorised for its prepay (ms), or null. */
    authorisedAt(pump: number): number | null {
      return authorisationOf.get(pump)?.authorised_at ?? null;
    },
    /** The pump authorised for this prepay right now, or null (none, or its fill is kept). */
    pumpHolding(transactionId: string): number | null {
      return holding.get(transactionId)?.pump ?? null;
    },
    /** The fills drawn on this prepay's pump authorisation, oldest first (one, normally). */
    fillsOfPrepay(transactionId: string): PumpFill[] {
      return ofPrepay.all(transactionId).map(fillOf);
    },
    /**
     * This prepay is being authorised on `pump` (0014): from now on what it dispensed is the
     * pump's, kept after the pump's authorisation ends (its fill kept, its release run out).
     */
    prepayPumped(transactionId: string, pump: number, at: number): void {
      pumped.run(transactionId, pump, at);
    },
    /** The last pump this till authorised the prepay on, or null (it never reached a pump). */
    pumpOfPrepay(transactionId: string): number | null {
      return wasPumped.get(transactionId)?.pump ?? null;
    },
    /** The pump's prepay is over: its fill was kept, or it was released for postpay. */
    forget(pump: number): void {
      forget.run(pump);
    },
    /** The fills recorded as drive-offs from `from` to `to` (ms, inclusive): a shift's. */
    driveOffs(from: number, to: number): PumpFill[] {
      return driveOffs.all(from, to).map(fillOf);
    },
    /** Every fill finished since `ms` (the wet-stock and drive-off reports). */
    since(ms: number): PumpFill[] {
      return since.all(ms).map(fillOf);
    },
  };
}

export type PumpFills = ReturnType<typeof createPumpFills>;
