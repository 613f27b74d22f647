// Open authorisations at the pumps (docs/forecourt.md, "Open authorisations"): a pump released
// for postpay or authorised for a prepay waits for its driver. One nobody lifts a nozzle at
// within `terminal.forecourt.release_after_ms` is released again (RESET: back to idle), and its
// prepay's pump authorisation ends, so the pump does not stay open for the next person to fill
// on someone else's release. The prepay itself stays open: it is completed as before (with
// what was dispensed, nothing), which gives its cash back or releases its card; the attention
// list says so (`prepay-unused`), since the driver who paid may have left the till.
import type { ForecourtPort } from '../devices/forecourt/port.js';
import type { TerminalPorts } from './ports.js';

export class PumpReleases {
  private readonly p: TerminalPorts;
  private readonly port: ForecourtPort;
  /** When each pump waiting for its driver was released (ms, the terminal's clock). */
  private readonly since = new Map<number, number>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(p: TerminalPorts, port: ForecourtPort) {
    this.p = p;
    this.port = port;
  }

  private get ttl(): number {
    return this.p.config.terminal.forecourt.release_after_ms;
  }

  /** A pump was released or authorised now. */
  opened(pump: number): void {
    this.since.set(pump, this.p.clock.now());
  }

  /** When the pump's release runs out (ms), or null when it is not waiting for its driver. */
  expiresAt(pump: number): number | null {
    if (this.ttl === 0 || this.port.pump(pump)?.state !== 'authorised') return null;
    return this.sinceOf(pump) + this.ttl;
  }

  /** Checks the releases every quarter of their lifetime (at most each second). */
  start(): void {
    if (this.ttl === 0 || this.timer) return;
    this.timer = setInterval(() => void this.sweep(), Math.min(1_000, this.ttl / 4));
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Releases again every pump whose release ran out; the pumps released. */
  async sweep(): Promise<number[]> {
    const now = this.p.clock.now();
    const { store, log } = this.p;
    const done: number[] = [];
    for (const s of this.port.pumps()) {
      const ends = this.expiresAt(s.pump);
      if (ends === null) this.since.delete(s.pump);
      if (ends === null || now < ends) continue;
      const reset = await this.port.endRelease(s.pump);
      if (!reset.ok && reset.code === 'wrong-state') {
        this.since.delete(s.pump); // the driver started meanwhile: the release was used
        continue;
      }
      if (!reset.ok) {
        log.warn('pump release not ended', { pump: s.pump, error: reset.message });
        continue;
      }
      const prepay = store.pumpFills.authorisationOf(s.pump);
      store.write(() => {
        store.pumpFills.forget(s.pump);
        if (prepay) this.noteUnused(s.pump, prepay);
      });
      this.since.delete(s.pump);
      log.info('pump released again: no nozzle lifted in time', { pump: s.pump, prepay });
      done.push(s.pump);
    }
    return done;
  }

  /** The owner is told a prepay's money waits: once per prepay (its ref). */
  private noteUnused(pump: number, prepay: string): void {
    const { store, ids, clock } = this.p;
    store.attention.note(
      {
        id: ids.newId(),
        kind: 'prepay-unused',
        ref: `prepay-unused:${prepay}`,
        transactionId: prepay,
        message: `the prepay at pump ${pump} was not used in time: complete it to give its money back`,
        details: { pump },
      },
      clock.now(),
    );
  }

  /** A pump found authorised with no release seen (a restart): its prepay's time, else now. */
  private sinceOf(pump: number): number {
    let at = this.since.get(pump);
    if (at === undefined) {
      at = this.p.store.pumpFills.authorisedAt(pump) ?? this.p.clock.now();
      this.since.set(pump, at);
    }
    return at;
  }
}
