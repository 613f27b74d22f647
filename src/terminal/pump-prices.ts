// Fuel prices to the pumps (issue 16, point 4; docs/forecourt.md, "Prices at the pumps"): each
// set-up pump is told the catalogue price of each nozzle's grade (the central service's, as
// cached) with a price update (CD5 on DART), at start and whenever the cache changes a fuel
// price. A pump is told only while it sells nothing (idle, or a nozzle up before its release):
// a fill in progress, or one finished and not yet sold, keeps the price it started with; the
// update waits, and goes when the pump is idle. What each pump confirmed (its acknowledgement)
// or refused is kept (store.pumpPrices) and logged; a confirmation holds until the pump goes
// offline or out of order (it may come back with other prices), and it is told again then.
// A fill is sold at the price the pump reported for it (src/terminal/forecourt.ts), never at
// the catalogue's.
import type { PumpStateName } from '../contract/forecourt.js';
import type { ForecourtPort } from '../devices/forecourt/port.js';
import { dec, toFixed } from '../money/index.js';
import type { PumpPriceRow } from '../store/pump-prices.js';
import type { FuelGrades } from './forecourt-grades.js';
import type { TerminalPorts } from './ports.js';

/** States in which a pump takes a new price: nothing is being sold on it. */
const READY: ReadonlySet<PumpStateName> = new Set<PumpStateName>(['idle', 'calling']);

/**
 * States after which what a pump confirmed is no longer known to hold: off the line or out of
 * order, it may have been power-cycled (a DART pump starts "not programmed"), swapped, or had
 * its prices set at the pump meanwhile (review 27, M3). It is told again once it is ready.
 */
const UNSURE: ReadonlySet<PumpStateName> = new Set<PumpStateName>(['offline', 'out-of-order']);

export interface PumpPriceOptions {
  port: ForecourtPort;
  grades: FuelGrades;
  /** The catalogue price of a goods code (the till's POS); undefined when it has none. */
  priceOf(code: string): number | undefined;
  /** A stamp that changes when the cached catalogue may have changed (cache.posVersion). */
  version(): string;
  /** How often the cache's stamp is looked at (and waiting updates tried again). */
  checkMs?: number;
  /**
   * A pump being released or authorised right now (forecourt.ts): it is not told a price then,
   * so a fill never runs at another price than the one its authorisation was checked against.
   */
  held?: (pump: number) => boolean;
}

const keyOf = (rows: readonly PumpPriceRow[]) =>
  rows.map((r) => `${r.nozzle}:${r.goodsCode}:${r.price}`).join(',');

export class PumpPriceService {
  private readonly p: TerminalPorts;
  private readonly o: Required<PumpPriceOptions>;
  /**
   * Per pump, the prices it confirmed in this run (a restarted till tells every pump again),
   * forgotten when the pump goes offline or out of order.
   */
  private readonly told = new Map<number, string>();
  /** Per pump, how often it went offline or out of order: a confirmation from before is void. */
  private readonly lapses = new Map<number, number>();
  /** Per pump, prices it refused: not sent again until they change or the pump's state does. */
  private readonly refused = new Map<number, string>();
  /** Per pump, what was last logged as waiting or unpriceable (logged once, not per check). */
  private readonly noted = new Map<number, string>();
  private readonly busy = new Set<number>();
  private readonly again = new Set<number>();
  private seen: string | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(p: TerminalPorts, o: PumpPriceOptions) {
    this.p = p;
    this.o = { checkMs: 2_000, held: () => false, ...o };
  }

  /**
   * The price a pump's nozzle sells at, as far as this run knows it: the one the pump confirmed
   * in this run, while the catalogue still wants it there and no update to the pump is under
   * way; null otherwise (not told yet, refused, a newer price waiting or being sent, a pump or
   * nozzle not set up). A prepay preset by volume is checked against it (forecourt.ts).
   */
  confirmed(pump: number, nozzle: number): string | null {
    const told = this.told.get(pump);
    if (told === undefined || this.busy.has(pump)) return null;
    const state = this.o.port.pump(pump)?.state;
    if (state === undefined || UNSURE.has(state)) return null;
    const rows = this.wanted(pump);
    if (!rows || keyOf(rows) !== told) return null;
    return rows.find((r) => r.nozzle === nozzle)?.price ?? null;
  }

  /** Tells every pump its prices now (waiting where it sells), then follows pumps and cache. */
  start(): void {
    if (this.unsubscribe) return;
    this.stopped = false;
    this.unsubscribe = this.o.port.onEvent((e) => {
      if (UNSURE.has(e.pump.state)) this.lapsed(e.pump.pump, e.pump.state);
      if (!this.ready(e.pump.pump, e.pump.state)) return;
      this.refused.delete(e.pump.pump);
      void this.toPump(e.pump.pump);
    });
    this.seen = this.o.version();
    void this.refresh();
    this.timer = setInterval(() => void this.check(), this.o.checkMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * The pump went offline or out of order: what it confirmed may not hold any more (power
   * cycle, swap, prices set at the pump), so it is told again at its next ready state, and a
   * prepay preset by volume waits for that (`confirmed` null meanwhile).
   */
  private lapsed(pump: number, state: PumpStateName): void {
    this.lapses.set(pump, (this.lapses.get(pump) ?? 0) + 1);
    if (!this.told.delete(pump)) return;
    this.noted.delete(pump);
    this.p.log.info('pump prices to be told again: the pump went off the line or out of order', {
      pump,
      state,
    });
  }

  /**
   * A pump may be told prices: it sells nothing (idle, or a nozzle up before its release), or
   * it waits for them to sell at all (powered up without its prices: out of order until told).
   */
  private ready(pump: number, state: PumpStateName): boolean {
    return (
      READY.has(state) || (state === 'out-of-order' && this.o.port.awaitsPrices?.(pump) === true)
    );
  }

  /** Every set-up pump told the prices it should sell at, where it has not confirmed them. */
  async refresh(): Promise<void> {
    await Promise.all(this.o.grades.pumps().map((n) => this.toPump(n)));
  }

  /** The prices of a pump's nozzles from the catalogue; null when a grade has no price. */
  wanted(pump: number): PumpPriceRow[] | null {
    const rows: PumpPriceRow[] = [];
    for (const n of this.o.grades.nozzlesOf(pump)) {
      const price = this.o.priceOf(n.goodsCode);
      if (price === undefined) {
        this.note(
          pump,
          `no price:${n.goodsCode}`,
          'pump prices not sent: the cached catalogue has no price for a grade',
          {
            pump,
            goods_code: n.goodsCode,
          },
        );
        return null;
      }
      rows.push({ nozzle: n.nozzle, goodsCode: n.goodsCode, price: toFixed(dec(price)) });
    }
    return rows.length > 0 ? rows : null;
  }

  private async check(): Promise<void> {
    const v = this.o.version();
    if (v !== this.seen) {
      this.seen = v;
      this.refused.clear();
    }
    await this.refresh();
  }

  /** Sends one pump its prices when they differ from what it confirmed and it sells nothing. */
  private async toPump(pump: number): Promise<void> {
    if (this.busy.has(pump)) {
      this.again.add(pump);
      return;
    }
    const rows = this.wanted(pump);
    if (!rows) return;
    const key = keyOf(rows);
    if (this.told.get(pump) === key || this.refused.get(pump) === key) return;
    const state = this.o.port.pump(pump)?.state;
    if (this.o.held(pump)) {
      // tried again at the next check or the pump's next change
      this.note(pump, `held:${key}`, 'pump prices waiting: the pump is being released', { pump });
      return;
    }
    if (!state || !this.ready(pump, state)) {
      this.note(pump, `wait:${key}:${state}`, 'pump prices waiting: the pump is not idle', {
        pump,
        state: state ?? 'unknown',
      });
      return;
    }
    this.busy.add(pump);
    try {
      await this.send(pump, rows, key);
    } finally {
      this.busy.delete(pump);
      if (this.again.delete(pump)) void this.toPump(pump);
    }
  }

  private async send(pump: number, rows: PumpPriceRow[], key: string): Promise<void> {
    const { store, clock, ids, log } = this.p;
    const lapses = this.lapses.get(pump) ?? 0;
    const done = await this.o.port.setPrices(
      pump,
      rows.map((r) => dec(r.price)),
    );
    // The till closed while the pump answered: its store is gone, the next start tells it again.
    if (this.stopped) return;
    const message = done.ok ? null : done.message;
    store.pumpPrices.recordUpdate(
      {
        id: ids.newId(),
        pump,
        prices: rows,
        outcome: done.ok ? 'confirmed' : 'refused',
        message,
        sentAt: clock.now(),
      },
      rows.map(() => ids.newId()),
    );
    const fields = { pump, prices: rows.map((r) => `${r.goodsCode} ${r.price}`) };
    if (done.ok) {
      // gone offline or out of order while the update was on its way: not known to hold
      if ((this.lapses.get(pump) ?? 0) === lapses) this.told.set(pump, key);
      this.noted.delete(pump);
      log.info('pump prices confirmed', fields);
    } else {
      this.refused.set(pump, key);
      // Gone off the line meanwhile: it is told again when it answers (its next idle state).
      const level = done.code === 'offline' ? 'info' : 'warn';
      log[level]('pump prices refused', { ...fields, code: done.code, error: message });
    }
  }

  private note(pump: number, what: string, msg: string, fields: Record<string, unknown>): void {
    if (this.noted.get(pump) === what) return;
    this.noted.set(pump, what);
    this.p.log.info(msg, fields);
  }
}
