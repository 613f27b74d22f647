// A forecourt behind the port, in memory, for the terminal's forecourt tests until the DART
// simulator drives them over pty pairs: pumps with nozzles at a unit price, a lift, a fill
// flowing to its preset and a hang-up, each nozzle's volume totalizer, and a refusal on
// demand. It reports state changes as the port's events, as a driver would.
import type {
  Authorisation,
  Filling,
  ForecourtEvent,
  ForecourtPort,
  PortResult,
  PumpState,
  Totals,
} from '../../src/devices/forecourt/port.js';
import {
  add,
  dec,
  div,
  lt,
  mul,
  mulRounded,
  sub,
  toFixed,
  type Dec,
} from '../../src/money/index.js';

const ok: PortResult = { ok: true, value: undefined };

export class FakeForecourt implements ForecourtPort {
  private readonly states = new Map<number, PumpState>();
  private readonly listeners = new Set<(e: ForecourtEvent) => void>();
  private readonly totals = new Map<string, Dec>();
  private readonly presets = new Map<number, Authorisation['preset']>();
  private readonly prices: readonly string[];
  /** Per pump, the prices it took from a price update (`takesPrices`). */
  private readonly told = new Map<number, readonly string[]>();
  /**
   * What the pumps do with a price update: acknowledge it and keep their own prices (`ignore`,
   * the default: the tests' prices are the catalogue's), sell at it from then on (`take`), or
   * not acknowledge it (`refuse`: the till keeps it as refused).
   */
  takesPrices: 'ignore' | 'take' | 'refuse' = 'ignore';
  /** The pumps (1..n) and each nozzle's unit price ("1.789"). */
  constructor(pumps: number, prices: readonly string[]) {
    this.prices = prices;
    for (let n = 1; n <= pumps; n++) this.set(n, { state: 'idle', nozzle: null, filling: null });
  }

  pumps(): PumpState[] {
    return [...this.states.values()];
  }
  pump(n: number): PumpState | null {
    return this.states.get(n) ?? null;
  }
  onEvent(fn: (e: ForecourtEvent) => void): () => void {
    this.listeners.add(fn);
    return () => void this.listeners.delete(fn);
  }
  /** Every authorisation the till sent, in order. */
  readonly authorisations: Authorisation[] = [];
  async authorise(a: Authorisation): Promise<PortResult> {
    this.authorisations.push(a);
    const s = this.states.get(a.pump);
    if (!s) return { ok: false, code: 'unknown-pump', message: 'no such pump' };
    this.presets.set(a.pump, a.preset);
    this.set(a.pump, { state: 'authorised' });
    return ok;
  }
  async stop(pump: number): Promise<PortResult> {
    if (!this.states.has(pump)) return { ok: false, code: 'unknown-pump', message: 'no such pump' };
    this.set(pump, { state: 'stopped' });
    return ok;
  }
  async suspend(pump: number): Promise<PortResult> {
    this.set(pump, { state: 'suspended' });
    return ok;
  }
  async resume(pump: number): Promise<PortResult> {
    this.set(pump, { state: 'fuelling' });
    return ok;
  }
  /** False: the pump does not take the clearing (the till was killed before it was sent). */
  clearing = true;
  async clearFill(pump: number): Promise<PortResult> {
    if (!this.clearing) return { ok: false, code: 'offline', message: 'the line is down' };
    this.set(pump, { state: 'idle', filling: null });
    return ok;
  }
  async endRelease(pump: number): Promise<PortResult> {
    const state = this.states.get(pump)?.state;
    if (state !== 'authorised')
      return {
        ok: false,
        code: 'wrong-state',
        message: `pump ${pump} is ${state ?? 'unknown'} now`,
      };
    return this.clearFill(pump);
  }
  async setPrices(pump: number, prices: Dec[]): Promise<PortResult> {
    if (this.takesPrices === 'refuse')
      return { ok: false, code: 'not-acknowledged', message: `pump ${pump} did not acknowledge` };
    if (this.takesPrices === 'take')
      this.told.set(
        pump,
        prices.map((p) => toFixed(p, 3)),
      );
    return ok;
  }
  /** The unit price pump `pump`'s nozzle sells at now. */
  priceOf(pump: number, nozzle: number): string {
    return this.told.get(pump)?.[nozzle - 1] ?? this.prices[nozzle - 1]!;
  }
  /** Totalizer reads to refuse before answering again (a line fault during the read). */
  failTotals = 0;
  async readTotals(pump: number, nozzle: number): Promise<PortResult<Totals>> {
    if (this.failTotals > 0) {
      this.failTotals--;
      return { ok: false, code: 'not-acknowledged', message: `pump ${pump} did not answer` };
    }
    const volume = toFixed(this.totals.get(`${pump}/${nozzle}`) ?? dec(100_000), 2);
    return { ok: true, value: { pump, nozzle, volume, amount: null } };
  }
  async readFilling(pump: number): Promise<PortResult<Filling | null>> {
    return { ok: true, value: this.states.get(pump)?.filling ?? null };
  }
  async close(): Promise<void> {}

  /**
   * The pump loses power and comes back: off the line for a moment, then idle at its own
   * prices (a price update it took is gone, as a DART pump starts "not programmed").
   */
  powerCycle(pump: number): void {
    this.set(pump, { state: 'offline', nozzle: null, filling: null });
    this.told.delete(pump);
    this.set(pump, { state: 'idle' });
  }

  // ---- the forecourt's side: what a driver at the pump does ----

  lift(pump: number, nozzle = 1): void {
    this.set(pump, { state: 'calling', nozzle });
  }

  /**
   * The nozzle back in its holster: before anything ran the pump is idle again; a pump the
   * cashier stopped mid-fill stays stopped, showing its fill.
   */
  hangUp(pump: number): void {
    if (this.states.get(pump)?.state === 'stopped') this.set(pump, { nozzle: null });
    else this.set(pump, { state: 'idle', nozzle: null });
  }

  /** The fill runs: `litres` dispensed so far, the nozzle still up (fuelling). */
  running(pump: number, litres: string): Filling {
    const s = this.states.get(pump)!;
    const nozzle = s.nozzle ?? 1;
    const price = dec(this.priceOf(pump, nozzle));
    const volume = dec(litres);
    this.meter(pump, nozzle, sub(volume, this.drawn(s)));
    const filling: Filling = {
      volume: toFixed(volume, 2),
      amount: toFixed(mulRounded(volume, price, 2), 2),
      price: toFixed(price, 3),
      nozzle,
    };
    this.set(pump, { state: 'fuelling', filling });
    return filling;
  }

  /** The litres of the fill under way (fuelling, or stopped and resumed), else none. */
  private drawn(s: PumpState): Dec {
    return s.state === 'fuelling' && s.filling ? dec(s.filling.volume) : dec(0);
  }

  private meter(pump: number, nozzle: number, litres: Dec): void {
    const key = `${pump}/${nozzle}`;
    this.totals.set(key, add(this.totals.get(key) ?? dec(100_000), litres));
  }

  /** The driver has started: the pump runs (nothing measured yet). */
  flowing(pump: number): void {
    const nozzle = this.states.get(pump)?.nozzle ?? 1;
    const price = this.priceOf(pump, nozzle);
    this.set(pump, {
      state: 'fuelling',
      filling: { volume: '0.00', amount: '0.00', price, nozzle },
    });
  }

  /** Dispenses `litres` (cut at the preset), then the nozzle goes back: the fill is finished. */
  fill(pump: number, litres: string): Filling {
    const s = this.states.get(pump)!;
    const nozzle = s.nozzle ?? 1;
    const price = dec(this.priceOf(pump, nozzle));
    let volume = dec(litres);
    const preset = this.presets.get(pump);
    if (preset?.kind === 'volume' && lt(preset.volume, volume)) volume = preset.volume;
    if (preset?.kind === 'amount' && lt(preset.amount, mul(volume, price)))
      volume = dec(toFixed(div(preset.amount, price, 2), 2));
    const filling: Filling = {
      volume: toFixed(volume, 2),
      amount: toFixed(mulRounded(volume, price, 2), 2),
      price: toFixed(price, 3),
      nozzle,
    };
    this.meter(pump, nozzle, sub(volume, this.drawn(s)));
    this.set(pump, { state: 'fuelling', filling });
    this.set(pump, { state: 'finished', nozzle: null, filling });
    return filling;
  }

  private set(pump: number, change: Partial<PumpState>): void {
    const before = this.states.get(pump);
    const next: PumpState = {
      pump,
      state: 'idle',
      nozzle: null,
      filling: null,
      detail: null,
      ...before,
      ...change,
      changed_at: new Date().toISOString(),
    };
    this.states.set(pump, next);
    for (const l of this.listeners)
      l({ kind: 'pump', previous: before?.state ?? null, pump: next });
  }
}
