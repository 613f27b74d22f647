// Pump totalizers at shift open and close (issue 16, point 6; docs/forecourt.md, "Totalizers
// at shift open and close"): every set-up nozzle's volume totalizer read through the forecourt
// port and kept with the shift; the litres the pumps delivered in a shift are close - open per
// grade, the wet stock's pump sales (a `PumpSales` of source `totalizers`) whenever every
// nozzle was read at both ends, else the wet stock falls back to the sold quantities.
import type { ForecourtPort } from '../devices/forecourt/port.js';
import { add, dec, isNegative, isZero, sub, ZERO, type Dec } from '../money/index.js';
import type { TotalsMoment } from '../store/pump-prices.js';
import type { ShiftRecord } from '../store/shifts.js';
import type { FuelGrades } from './forecourt-grades.js';
import type { TerminalPorts } from './ports.js';
import type { PumpSales } from './wetstock.js';

export class PumpTotalsService {
  private readonly p: TerminalPorts;
  private readonly port: ForecourtPort | null;
  private readonly grades: FuelGrades;

  constructor(p: TerminalPorts, port: ForecourtPort | null, grades: FuelGrades) {
    this.p = p;
    this.port = port;
    this.grades = grades;
  }

  /** The set-up nozzles of the pumps this port drives. */
  private nozzles(): { pump: number; nozzle: number; goodsCode: string }[] {
    const port = this.port;
    if (!port) return [];
    return this.grades
      .pumps()
      .filter((pump) => port.pump(pump) !== null)
      .flatMap((pump) => this.grades.nozzlesOf(pump).map((n) => ({ pump, ...n })));
  }

  /**
   * Reads each nozzle's volume totalizer and keeps it with the shift; a nozzle that does not
   * answer is logged (a warning unless its pump is offline) and left out (the shift's wet stock
   * then uses the sold quantities).
   * Returns how many were kept.
   */
  async read(shiftId: string, moment: TotalsMoment): Promise<number> {
    const { store, clock, ids, log } = this.p;
    let kept = 0;
    for (const n of this.nozzles()) {
      const r = await this.port!.readTotals(n.pump, n.nozzle);
      if (!r.ok) {
        // A pump known to be off the line (or not polled yet at start) is a state, not a fault:
        // the wet stock's source says what it means. One that is there and does not answer is.
        const level = r.code === 'offline' ? 'info' : 'warn';
        log[level]('totalizer not read', { shift_id: shiftId, moment, ...n, error: r.message });
        continue;
      }
      store.pumpPrices.addTotals({
        id: ids.newId(),
        shiftId,
        moment,
        pump: n.pump,
        nozzle: n.nozzle,
        goodsCode: n.goodsCode,
        volume: r.value.volume,
        readAt: clock.now(),
      });
      kept++;
    }
    if (kept > 0) log.info('totalizers read', { shift_id: shiftId, moment, nozzles: kept });
    return kept;
  }

  /**
   * Litres per grade the pumps delivered in `shifts` (close - open of each nozzle), or null
   * unless every set-up nozzle was read at the open and the close of every one of them.
   */
  salesOf(shifts: readonly ShiftRecord[]): PumpSales | null {
    const expected = this.nozzles();
    if (expected.length === 0 || shifts.length === 0) return null;
    const by = new Map<string, Dec>();
    for (const s of shifts) {
      const readings = this.p.store.pumpPrices.totalsOf(s.id);
      for (const n of expected) {
        const at = (m: TotalsMoment) =>
          readings.find((r) => r.moment === m && r.pump === n.pump && r.nozzle === n.nozzle);
        const open = at('open');
        const close = at('close');
        if (!open || !close) return null;
        const litres = sub(dec(close.volume), dec(open.volume));
        // A totalizer only grows; a smaller one is a replaced or reset meter: not a sale.
        if (isNegative(litres)) {
          this.p.log.warn('totalizer went back: wet stock uses the sold quantities', {
            shift_id: s.id,
            ...n,
          });
          return null;
        }
        if (!isZero(litres)) by.set(close.goodsCode, add(by.get(close.goodsCode) ?? ZERO, litres));
      }
    }
    return { source: 'totalizers', litresByGrade: () => by };
  }
}
