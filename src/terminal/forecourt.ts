// The cashier's forecourt (issue 16, point 3; docs/forecourt.md, "The forecourt at the till"):
// the pumps as the forecourt port reports them, a calling pump released for postpay, a pump
// authorised for a prepay with the preset its authorisation paid for, one pump or all
// stopped, a pump resumed; and each fill a pump finishes kept at once (src/store/pump-fills.ts)
// with the pump's own figures, known by its nozzle's totalizer, so a fill read again after a
// restart is the same fill and is sold once.
import {
  isErrorResponse,
  type CommandOutput,
  type ErrorResponse,
  type HandlerInput,
  type SignedInStaff,
} from '../contract/commands.js';
import type {
  FillView,
  PumpGrade,
  PumpState,
  PumpStateName,
  PumpView,
} from '../contract/forecourt.js';
import {
  sameFill,
  type Filling,
  type ForecourtPort,
  type Preset,
} from '../devices/forecourt/port.js';
import { dec, eq, isZero, round, toFixed } from '../money/index.js';
import type { PumpFill, PumpFills } from '../store/pump-fills.js';
import { refuse } from './command-map.js';
import { FillDesk, fillNotUnpaid } from './fill-lines.js';
import { PumpReleases } from './pump-releases.js';
import type { TerminalPorts } from './ports.js';
import { iso } from './workflow.js';

/** The good a pump's nozzle sells (its grade), or null when the pump's set-up does not say. */
export type GradeOf = (pump: number, nozzle: number) => string | null;

/**
 * The price a pump's nozzle sells at as far as the till knows it (pump-prices.ts): confirmed by
 * the pump in this run, with no other price on its way to it; null when not known so.
 */
export type ConfirmedPrice = (pump: number, nozzle: number) => string | null;

/** The pumps' prices as the till knows them. */
export interface PumpPrices {
  /** Each pump's grades at the catalogue's prices, as a prepay sells them. */
  onSale(): PumpGrade[];
  /** The price a pump's nozzle confirmed in this run; null: none confirmed. */
  confirmed: ConfirmedPrice;
}

/** Unpaid fills a pump may hold before it is released again (one stacked behind another). */
export const MAX_UNPAID = 2;

/** States in which a released pump may still deliver fuel on its release. */
const DELIVERING: ReadonlySet<PumpStateName> = new Set<PumpStateName>([
  'authorised',
  'fuelling',
  'suspended',
  'offline',
]);

/** How long a pump may take to report a release it acknowledged (a few DART polls). */
const REPORT_WITHIN_MS = 2_000;

/** A fill whose reading failed is read again after this, doubling up to the longest wait. */
const READ_AGAIN_MS = 1_000;
const READ_AGAIN_MAX_MS = 30_000;

/**
 * States in which a pump may still show a fill not kept yet: finished or stopped, and out of
 * order or not answering (a pump switched off mid-fill, one silent a moment, shows it again).
 * In any other a fill on show is gone: the pump was cleared or released again.
 */
const SHOWING: ReadonlySet<PumpStateName> = new Set<PumpStateName>([
  'finished',
  'stopped',
  'out-of-order',
  'offline',
]);

/** Fuel was drawn: the pump shows a filling of more than nothing. */
const drawn = (f: Filling | null): f is Filling => f !== null && !isZero(dec(f.volume));

/**
 * The pump shows a fill that is over, to be kept: finished, or stopped by the cashier with its
 * nozzle hung up (a stopped pump whose nozzle is still up may be resumed and go on with the
 * same fill, so it is kept once, at its real end; docs/forecourt.md, "A fill the cashier
 * stopped").
 */
const ended = (s: PumpState): boolean =>
  s.state === 'finished' || (s.state === 'stopped' && s.nozzle === null && drawn(s.filling));

const noForecourt = (): ErrorResponse =>
  refuse('no-forecourt', 'no pumps are connected to this till', '(root)');

export class ForecourtService {
  private readonly p: TerminalPorts;
  private readonly port: ForecourtPort | null;
  private readonly gradeOf: GradeOf;
  private readonly prices: PumpPrices;
  private unsubscribe: (() => void) | null = null;
  /** Told when a pump's unpaid fills change without a pump event (the screen's, issue 16). */
  changed: ((pump: number) => void) | null = null;

  private readonly desk: FillDesk;
  private readonly releases: PumpReleases | null;
  /**
   * Pumps whose finished fill is being kept (its totalizer read): released meanwhile, the next
   * driver's litres would reach that totalizer and keep the fill again under a new identity.
   */
  private readonly keeping = new Set<number>();
  /**
   * Pumps showing a fill the till has not kept (its totalizer or filling could not be read):
   * refused a release or authorisation, which would take the fill off the pump unsold, until it
   * is kept or found kept before. Read again on a timer, and at each release asked.
   */
  private readonly unkept = new Map<number, { tries: number; timer: NodeJS.Timeout | null }>();
  /** Pumps a release or authorisation is being sent to; those it reached, not yet reported. */
  private readonly sending = new Set<number>();
  private readonly sent = new Map<number, { shown: PumpState; at: number }>();

  constructor(
    p: TerminalPorts,
    port: ForecourtPort | null,
    gradeOf: GradeOf,
    desk: FillDesk = new FillDesk(),
    prices: PumpPrices = { onSale: () => [], confirmed: () => null },
  ) {
    this.p = p;
    this.port = port;
    this.gradeOf = gradeOf;
    this.prices = prices;
    this.desk = desk;
    this.releases = port ? new PumpReleases(p, port) : null;
    desk.onSold((fills) => this.clearPumps(fills));
    desk.onAsked((n) => this.mayDeliver(n));
  }

  /** Follows the pumps; a fill finished while the till was down is kept now. */
  start(): void {
    const port = this.port;
    if (!port || this.unsubscribe) return;
    this.unsubscribe = port.onEvent((e) => this.follow(e.pump));
    for (const pump of port.pumps()) this.follow(pump);
    this.releases?.start();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.releases?.stop();
    for (const u of this.unkept.values()) if (u.timer) clearTimeout(u.timer);
    this.unkept.clear();
  }

  /** A pump's news: a fill over is kept; a pump that shows no fill any more holds none. */
  private follow(s: PumpState): void {
    if (ended(s)) void this.keepFill(s);
    else if (!SHOWING.has(s.state)) this.settled(s.pump);
  }

  /** The fill the pump showed is kept (or gone from the pump): nothing to hold it for. */
  private settled(pump: number): void {
    const u = this.unkept.get(pump);
    if (u?.timer) clearTimeout(u.timer);
    this.unkept.delete(pump);
  }

  /** The fill on show was not kept: the pump is held, and the fill read again in a while. */
  private unread(pump: number): void {
    const u = this.unkept.get(pump) ?? { tries: 0, timer: null };
    this.unkept.set(pump, u);
    if (u.timer) return;
    u.tries++;
    const ms = Math.min(READ_AGAIN_MAX_MS, READ_AGAIN_MS * 2 ** (u.tries - 1));
    u.timer = setTimeout(() => {
      u.timer = null;
      const s = this.port?.pump(pump);
      if (this.unsubscribe && this.unkept.has(pump) && s && ended(s)) void this.keepFill(s, true);
    }, ms);
    u.timer.unref?.();
  }

  /** Releases again the pumps nobody used in time (a timer does it; tests call it). */
  expireReleases(): Promise<number[]> {
    return this.releases?.sweep() ?? Promise.resolve([]);
  }

  /** `forecourt-state`. */
  state(): CommandOutput<'forecourt-state'> | ErrorResponse {
    if (!this.port) return noForecourt();
    const unpaid = this.p.store.pumpFills.unpaid();
    return {
      pumps: this.port.pumps().map((s) => this.view(s, unpaid)),
      unpaid: unpaid.map(fillView),
      grades: this.prices.onSale(),
    };
  }

  /** `pump-release`: a calling (or idle) pump released for postpay. */
  release(i: HandlerInput<'pump-release'>): Promise<CommandOutput<'pump-release'> | ErrorResponse> {
    return this.oneAtATime(i.pump, () => this.releaseNow(i));
  }

  private async releaseNow(
    i: HandlerInput<'pump-release'>,
  ): Promise<CommandOutput<'pump-release'> | ErrorResponse> {
    const ready = this.releasable(i.pump);
    if ('error' in ready) return ready;
    // None named, every nozzle of the pump: a pump keeps the allowed nozzles of its last
    // authorisation (a prepay's grade) until it is reset, and would refuse another grade.
    const nozzles = i.nozzles ?? this.nozzlesKnown(i.pump);
    const done = await ready.port.authorise({
      pump: i.pump,
      ...(nozzles.length > 0 ? { nozzles } : {}),
    });
    if (!done.ok) return refuse(`pump-${done.code}`, done.message, 'pump');
    this.p.store.pumpFills.forget(i.pump);
    this.releases?.opened(i.pump);
    return { pump: this.viewOf(i.pump) };
  }

  /** `pump-authorise`: a prepay's pump, preset to what its authorisation paid for. */
  authorise(
    i: HandlerInput<'pump-authorise'>,
  ): Promise<CommandOutput<'pump-authorise'> | ErrorResponse> {
    return this.oneAtATime(i.pump, () => this.authoriseNow(i));
  }

  private async authoriseNow(
    i: HandlerInput<'pump-authorise'>,
  ): Promise<CommandOutput<'pump-authorise'> | ErrorResponse> {
    const ready = this.releasable(i.pump);
    if ('error' in ready) return ready;
    const preset = this.presetOf(i.transaction_id);
    if ('error' in preset) return preset;
    const nozzles = this.nozzlesOf(i.pump, preset.code);
    if ('error' in nozzles) return nozzles;
    if (preset.preset.kind === 'volume') {
      const priced = this.pricedAsSold(i.pump, nozzles.only, preset.code, preset.price);
      if (priced) return priced;
    }
    // Before the pump is told: an AUTHORIZE not acknowledged may still have reached it, and
    // from here what the prepay dispensed is the pump's, never the caller's (its completion).
    this.p.store.pumpFills.prepayPumped(i.transaction_id, i.pump, this.p.clock.now());
    const done = await ready.port.authorise({
      pump: i.pump,
      preset: preset.preset,
      ...(nozzles.only ? { nozzles: nozzles.only } : {}),
    });
    if (!done.ok) return refuse(`pump-${done.code}`, done.message, 'pump');
    this.p.store.pumpFills.authorise(i.pump, i.transaction_id, this.p.clock.now());
    this.releases?.opened(i.pump);
    return { pump: this.viewOf(i.pump), preset: preset.shown };
  }

  /** `pump-stop`: one pump, or every pump when none is named. */
  async stopPumps(
    i: HandlerInput<'pump-stop'>,
  ): Promise<CommandOutput<'pump-stop'> | ErrorResponse> {
    const port = this.port;
    if (!port) return noForecourt();
    const which = i.pump !== undefined ? [i.pump] : port.pumps().map((s) => s.pump);
    if (i.pump !== undefined && !port.pump(i.pump)) return unknownPump(i.pump);
    const refused: string[] = [];
    for (const n of which) {
      const done = await port.stop(n);
      if (!done.ok) refused.push(`pump ${n}: ${done.message}`);
    }
    if (refused.length > 0 && i.pump !== undefined)
      return refuse('pump-not-stopped', refused.join('; '), 'pump');
    return { pumps: which.map((n) => this.viewOf(n)), not_stopped: refused };
  }

  /** `pump-resume`: a stopped or suspended pump goes on. */
  async resume(
    i: HandlerInput<'pump-resume'>,
  ): Promise<CommandOutput<'pump-resume'> | ErrorResponse> {
    const port = this.port;
    if (!port) return noForecourt();
    if (!port.pump(i.pump)) return unknownPump(i.pump);
    const done = await port.resume(i.pump);
    if (!done.ok) return refuse(`pump-${done.code}`, done.message, 'pump');
    return { pump: this.viewOf(i.pump) };
  }

  /**
   * `pump-drive-off`: an unpaid fill whose driver left without paying. Recorded with who and
   * when, on the attention list for the owner, counted in the shift report; the pump is free.
   */
  driveOff(
    i: HandlerInput<'pump-drive-off'>,
    by: SignedInStaff | null,
  ): CommandOutput<'pump-drive-off'> | ErrorResponse {
    const { store, clock, ids } = this.p;
    const f = store.pumpFills.get(i.fill_id);
    if (!f) return refuse('fill-not-found', 'no fill of a pump has this id', 'fill_id');
    // A prepaid fill is paid: its prepay is completed from it (the change given back).
    if (f.state === 'unpaid' && f.authorisationId !== null)
      return refuse('fill-prepaid', 'this fill was prepaid: complete its prepay', 'fill_id', {
        authorisation_id: f.authorisationId,
      });
    if (this.desk.taking(f.id))
      return refuse(
        'fill-being-sold',
        `this fill of pump ${f.pump} is being sold right now`,
        'fill_id',
      );
    const done = store.write(() => {
      const at = clock.now();
      const by_ = by?.id ?? 'integrator';
      if (!store.pumpFills.resolve(f.id, { state: 'drive-off', transactionId: null, at, by: by_ }))
        return false;
      store.attention.note(
        {
          id: ids.newId(),
          kind: 'drive-off',
          ref: `drive-off:${f.id}`,
          message: `drive-off at pump ${f.pump}: ${f.volume} l of ${f.grade}, ${f.amount} unpaid`,
          details: {
            fill_id: f.id,
            pump: f.pump,
            volume: f.volume,
            amount: f.amount,
            comment: i.comment ?? null,
          },
        },
        at,
      );
      return true;
    });
    if (!done) return fillNotUnpaid(store.pumpFills.get(f.id)!, 'fill_id');
    const kept = store.pumpFills.get(f.id)!;
    this.p.log.warn('drive-off recorded', { pump: f.pump, fill: f.id, amount: f.amount });
    this.clearPumps([kept]);
    return { fill: fillView(kept) };
  }

  /**
   * Fills a sale just sold (or driven off): a pump still showing one of them (not yet
   * released again) is cleared, so it goes back to idle. A pump that does not answer keeps it
   * on show; the fill is sold either way (the store says so), and the pump is cleared when the
   * fill is read again at the next start (keepFill). A pump being released is not cleared: its
   * state may still show the sold fill (a DART pump reads "authorised" only at a later poll),
   * and a RESET would cancel the next driver's release; the port clears only while the pump
   * still shows the fill's figures (review 27, M2).
   */
  private clearPumps(fills: readonly PumpFill[]): void {
    const port = this.port;
    if (!port) return;
    for (const f of fills) {
      this.changed?.(f.pump); // one unpaid fill fewer, whatever the pump shows
      if (this.releasing(f.pump)) continue;
      const s = port.pump(f.pump);
      if ((s?.state !== 'finished' && s?.state !== 'stopped') || !s.filling) continue;
      // a lifted nozzle may stand for the fill's after a restart (keptBefore)
      if (s.filling.nozzle !== f.nozzle && s.nozzle === null) continue;
      if (!sameFill(s.filling, f)) continue;
      void port.clearFill(f.pump, f).then((done) => {
        if (!done.ok) this.p.log.warn('pump not cleared', { pump: f.pump, error: done.message });
      });
    }
  }

  /**
   * Whether a pump may still deliver on the release it holds: released, fuelling or paused, or
   * not answering (nobody knows). One stopped (a DART pump stopped ends its authorisation) or
   * idle (switched off and on) cannot.
   */
  private mayDeliver(pump: number): boolean {
    const s = this.port?.pump(pump);
    // A fill on show not kept yet was drawn on the release: its prepay waits for it (completed
    // now, with no fill to name, it would give back the money for fuel the driver has).
    return s === undefined || s === null || DELIVERING.has(s.state) || this.holdsUnkept(s);
  }

  /**
   * The pump shows a fill the till has not kept: being read, unread, or stopped mid-fill and
   * not kept (its nozzle still up, or hung up a moment ago). A release would wipe it.
   */
  private holdsUnkept(s: PumpState): boolean {
    if (this.keeping.has(s.pump) || this.unkept.has(s.pump)) return true;
    return s.state === 'stopped' && drawn(s.filling) && !this.keptLast(s.pump, s.filling);
  }

  /** The pump's last fill kept has these figures (the fill on show is that one). */
  private keptLast(pump: number, f: Filling): boolean {
    const last = this.p.store.pumpFills.latest(pump);
    return last !== null && last.nozzle === f.nozzle && sameFill(last, f);
  }

  /** A pump that may be released: known, not fuelling, not holding too many unpaid fills. */
  private releasable(pump: number): { port: ForecourtPort } | ErrorResponse {
    const port = this.port;
    if (!port) return noForecourt();
    const s = port.pump(pump);
    if (!s) return unknownPump(pump);
    if (s.state === 'offline' || s.state === 'out-of-order')
      return refuse(
        'pump-offline',
        `pump ${pump} is ${s.state === 'offline' ? 'not answering' : 'out of order'}`,
        'pump',
      );
    if (s.state === 'fuelling' || s.state === 'authorised')
      return refuse('pump-busy', `pump ${pump} is already released`, 'pump');
    // a suspended fill is still running: a release would end it (review 27, L3)
    if (s.state === 'suspended')
      return refuse('pump-busy', `pump ${pump} is suspended mid-fill: resume or stop it`, 'pump');
    if (this.holdsUnkept(s)) {
      const reading = this.keeping.has(pump) || this.unkept.has(pump);
      if (!reading && s.state === 'stopped' && s.nozzle !== null)
        return refuse(
          'pump-stopped',
          `pump ${pump} was stopped during a fill: hang up its nozzle to end it, or resume the pump`,
          'pump',
        );
      // not kept yet (its reading failed, or it is under way): read again now, the release
      // refused, since its AUTHORIZE would take the fill off the pump unsold
      if (!this.keeping.has(pump) && ended(s)) void this.keepFill(s, true);
      return refuse(
        'pump-fill-unread',
        `pump ${pump}’s last fill is still being read: try again in a moment`,
        'pump',
      );
    }
    const unpaid = this.p.store.pumpFills.unpaid().filter((f) => f.pump === pump).length;
    if (unpaid >= MAX_UNPAID)
      return refuse('pump-unpaid', `pump ${pump} has ${unpaid} fills to be paid first`, 'pump', {
        unpaid,
      });
    return { port };
  }

  /**
   * One release or authorisation of a pump at a time: from the command sent until the pump
   * reports it. A DART pump reads `authorised` only at a later poll, so a second release in
   * that window would pass `releasable` and send a second AUTHORIZE (the last one deciding
   * whose prepay the fill is); refused `pump-busy` instead.
   */
  private async oneAtATime<T>(
    pump: number,
    run: () => Promise<T | ErrorResponse>,
  ): Promise<T | ErrorResponse> {
    if (this.sending.has(pump) || this.unreported(pump))
      return refuse('pump-busy', `pump ${pump} is being released right now`, 'pump');
    this.sending.add(pump);
    try {
      const out = await run();
      const shown = this.port?.pump(pump);
      // acknowledged, and the pump has not reported it yet: the state it shows is stale
      if (!isErrorResponse(out) && shown && (shown.state === 'idle' || shown.state === 'calling'))
        this.sent.set(pump, { shown, at: this.p.clock.now() });
      return out;
    } finally {
      this.sending.delete(pump);
    }
  }

  /**
   * A release or authorisation of the pump is being sent, or was sent and not reported yet: the
   * pump is told no prices meanwhile (pump-prices.ts), so it fuels at the price checked here.
   */
  releasing(pump: number): boolean {
    return this.sending.has(pump) || this.unreported(pump);
  }

  /**
   * A prepay preset by volume pays for its litres at the price it was sold at: the pump must
   * sell them at that price, or the money it runs up is not what was paid (a fleet prepay
   * capped at what the account leaves would run over the cap, and its completion be refused).
   * So each nozzle that may deliver must have confirmed, in this run, the prepay's price, with
   * no other price on its way; null when they have, else the refusal (docs/forecourt.md, "A
   * prepay capped by the account's limits").
   */
  private pricedAsSold(
    pump: number,
    only: number[] | null,
    code: string | null,
    sold: number | undefined,
  ): ErrorResponse | null {
    const grade = code ?? 'its fuel';
    const unconfirmed = () =>
      refuse(
        'pump-price-unconfirmed',
        `pump ${pump} has not confirmed its price for ${grade} to this till: try again in a moment, or use another pump`,
        'pump',
        { pump, goods_code: code },
      );
    // a pump whose nozzles are not set up is told no prices: its price is never known
    if (!only || only.length === 0 || sold === undefined) return unconfirmed();
    const prepay = toFixed(dec(sold), 3);
    for (const nozzle of only) {
      const price = this.prices.confirmed(pump, nozzle);
      if (price === null) return unconfirmed();
      if (!eq(dec(price), dec(sold)))
        return refuse(
          'pump-price-differs',
          `pump ${pump} sells ${grade} at ${price}, this prepay was sold at ${prepay}: complete it and sell it again`,
          'pump',
          { pump, goods_code: code, pump_price: price, prepay_price: prepay },
        );
    }
    return null;
  }

  /** Released a moment ago, and the pump still shows what it showed then (no report yet). */
  private unreported(pump: number): boolean {
    const sent = this.sent.get(pump);
    if (!sent) return false;
    const stale = this.port?.pump(pump) === sent.shown;
    if (stale && this.p.clock.now() - sent.at < REPORT_WITHIN_MS) return true;
    this.sent.delete(pump);
    return false;
  }

  /**
   * The preset a prepay paid for: its fuel line's amount when prepaid by amount at the list
   * price, else its litres (a quantity prepay, or one the engine recalculated at a discount).
   */
  private presetOf(id: string):
    | {
        preset: Preset;
        shown: { kind: 'amount' | 'volume'; value: string };
        code: string | null;
        /** The unit price the prepay's line was sold at (the catalogue's, before discounts). */
        price: number | undefined;
      }
    | ErrorResponse {
    const { store } = this.p;
    const kept = store.commandResults.get('fuel-authorisation', id);
    if (!kept)
      return refuse(
        'authorisation-not-found',
        'no pump authorisation has this id: sell the prepay first (sale-process, preauthorization)',
        'transaction_id',
      );
    if (store.commandResults.has('fuel-completion', id))
      return refuse('already-completed', 'this prepay was completed', 'transaction_id');
    const inUse = prepayInUse(store.pumpFills, id);
    if (inUse) return inUse;
    const line = kept.response.check.check_items?.[0];
    const code = line?.code ?? null;
    const price = line?.price;
    // A prepay the engine recalculated sold litres at a discounted price: the pump, knowing only
    // its list price, is preset to those litres (docs/forecourt.md, "A prepay capped").
    const recalculated = line?.additions?.quantity_recalculate_skipped === false;
    if (
      !recalculated &&
      line?.amount !== undefined &&
      line.quantity_recalculate_type !== undefined
    ) {
      const value = String(line.amount);
      const amount = dec(value);
      return {
        preset: { kind: 'amount', amount },
        shown: { kind: 'amount', value },
        code,
        price,
      };
    }
    // Pumps measure hundredths of a litre (a finer preset is refused on the wire): rounded
    // down, so the pump never delivers more than was sold.
    const volume = round(dec(line?.quantity ?? 0), 2, 'down');
    const value = toFixed(volume);
    return { preset: { kind: 'volume', volume }, shown: { kind: 'volume', value }, code, price };
  }

  /**
   * The nozzles of the pump that sell the prepaid grade: only they may deliver (a cheaper grade
   * would give more litres than the prepay holds). None set up for the pump: any nozzle.
   */
  private nozzlesOf(pump: number, code: string | null): { only: number[] | null } | ErrorResponse {
    const known = this.nozzlesKnown(pump);
    const selling = known.filter((n) => this.gradeOf(pump, n) === code);
    if (known.length === 0 || code === null) return { only: null };
    if (selling.length === 0)
      return refuse('pump-grade', `pump ${pump} does not sell ${code}`, 'pump', { code });
    return { only: selling };
  }

  /** The pump's set-up nozzles (a grade each), in order; none when it is not set up. */
  private nozzlesKnown(pump: number): number[] {
    const known: number[] = [];
    for (let n = 1; n <= 15; n++) if (this.gradeOf(pump, n) !== null) known.push(n);
    return known;
  }

  /**
   * Keeps a fill over (finished, or stopped and hung up) once, with its nozzle's totalizer
   * after it as its identity. Not kept (a reading failed), the pump is held until it is.
   * `again`: a read again of a fill held unkept, whose release was refused.
   */
  private async keepFill(s: PumpState, again = false): Promise<void> {
    const port = this.port;
    const f = s.filling;
    if (!port || this.keeping.has(s.pump)) return; // the same fill, being read already
    // A release of the pump is under way: it passed `releasable` with no fill being read or
    // held unkept, so the fill on show was kept before it. Its totalizer is not read again:
    // the AUTHORIZE may reach the pump first, and the next driver's litres in that reading
    // gave the fill a second identity, a copy (the chaos run's "kept twice").
    if (this.sending.has(s.pump) && !again && !this.unkept.has(s.pump)) {
      this.p.log.info('fill not read again: its pump is being released', { pump: s.pump });
      return;
    }
    // The pump is held from here until the fill is kept: a release meanwhile would let the
    // next driver's litres into the totalizer that names it (review 26, A5).
    this.keeping.add(s.pump);
    let kept = false;
    try {
      // A restarted till reads the pump's status, not its filling: it asks for the filling.
      const shown = f ? s : await this.readShown(port, s);
      const g = shown?.filling;
      if (shown && g?.nozzle && g.price !== null)
        kept = await this.keepShown(port, shown, g, { nozzle: g.nozzle, price: g.price });
      else if (shown) this.p.log.warn('fill not kept: no nozzle or price', { pump: s.pump });
    } finally {
      this.keeping.delete(s.pump);
      if (kept) this.settled(s.pump);
      // the till stopping: the fill is kept at the next start
      else if (this.unsubscribe) this.unread(s.pump);
    }
  }

  /** The pump's state with the filling it reports when asked; null when it does not say. */
  private async readShown(port: ForecourtPort, s: PumpState): Promise<PumpState | null> {
    const read = await port.readFilling(s.pump);
    if (!read.ok) this.p.log.warn('fill not read', { pump: s.pump, error: read.message });
    return read.ok && read.value ? { ...s, filling: read.value } : null;
  }

  /**
   * Keeps the fill a pump shows, or finds it kept before (read again after a restart): true;
   * false when a reading failed (or the till stopped), the fill not kept.
   */
  private async keepShown(
    port: ForecourtPort,
    s: PumpState,
    f: Filling,
    { nozzle, price }: { nozzle: number; price: string },
  ): Promise<boolean> {
    const before = await this.keptBefore(port, s);
    if (before === 'unread') return false;
    if (before) {
      this.p.log.info('fill kept before', { pump: s.pump, fill: before.id, shown: nozzle });
      if (before.state !== 'unpaid') this.clearPumps([before]);
      return true;
    }
    const totals = await port.readTotals(s.pump, nozzle);
    // the till stopped while the pump answered: the fill is kept at the next start
    if (!this.unsubscribe) return false;
    if (!totals.ok) {
      this.p.log.warn('fill not kept: totals unread', { pump: s.pump, error: totals.message });
      return false;
    }
    const { store, clock, ids } = this.p;
    // The fill and the end of its prepay in one transaction: a kill between them would give
    // the pump's next fill this one's prepay.
    const kept = store.write(() => {
      const prepay = store.pumpFills.authorisationOf(s.pump);
      const fill = store.pumpFills.record({
        id: ids.newId(),
        pump: s.pump,
        nozzle,
        grade: this.gradeOf(s.pump, nozzle) ?? `GRADE-${nozzle}`,
        volume: f.volume,
        amount: f.amount,
        unitPrice: price,
        totalsAfter: totals.value.volume,
        authorisationId: prepay,
        finishedAt: clock.now(),
      });
      // a fill kept before (read again after a restart) ends only the prepay it was for
      if (fill.authorisationId === prepay) store.pumpFills.forget(s.pump);
      return fill;
    });
    this.p.log.info('fill kept', { pump: s.pump, fill: kept.id, volume: kept.volume });
    // sold before a kill took the till down between the sale and the pump's clearing
    if (kept.state !== 'unpaid') this.clearPumps([kept]);
    this.changed?.(s.pump);
    return true;
  }

  /**
   * The kept fill a pump still shows under another nozzle. A restarted master takes the first
   * nozzle it reads for the fill's, which is the next driver's when one was lifted while the
   * till was down; the totalizer of that nozzle would give the fill a second identity. While a
   * pump shows a finished fill none of its nozzles dispenses, so the pump's last kept fill with
   * the same figures whose nozzle's totalizer has not moved since is the fill on show.
   */
  private async keptBefore(port: ForecourtPort, s: PumpState): Promise<PumpFill | null | 'unread'> {
    const f = s.filling;
    const last = this.p.store.pumpFills.latest(s.pump);
    if (!f || !last || last.nozzle === f.nozzle || s.nozzle === null) return null;
    if (!sameFill(last, f)) return null;
    const totals = await port.readTotals(s.pump, last.nozzle);
    if (!totals.ok) {
      this.p.log.warn('fill not kept: totals unread', { pump: s.pump, error: totals.message });
      return 'unread';
    }
    return totals.value.volume === last.totalsAfter ? last : null;
  }

  private viewOf(pump: number): PumpView {
    const s = this.port!.pump(pump)!;
    return this.view(s, this.p.store.pumpFills.unpaid());
  }

  private view(s: PumpState, unpaid: readonly PumpFill[]): PumpView {
    return {
      ...s,
      authorisation_id: this.p.store.pumpFills.authorisationOf(s.pump),
      unpaid: unpaid.filter((f) => f.pump === s.pump).length,
      release_expires_at: iso(this.releases?.expiresAt(s.pump) ?? null),
    };
  }
}

/**
 * A prepay pays for one fill: refused while a pump is authorised for it, and once a fill was
 * drawn on it (a second pump, or its own again, would run fuel nobody paid for). A release
 * that ran out with no fill forgot the pump, so the prepay may be authorised again.
 */
function prepayInUse(fills: PumpFills, id: string): ErrorResponse | null {
  const on = fills.pumpHolding(id);
  if (on !== null)
    return refuse('prepay-in-use', `this prepay is already on pump ${on}`, 'transaction_id', {
      pump: on,
    });
  const drawn = fills.fillsOfPrepay(id)[0];
  if (drawn)
    return refuse(
      'prepay-fuelled',
      `this prepay's fuel was drawn at pump ${drawn.pump}: complete it`,
      'transaction_id',
      { pump: drawn.pump, fill_id: drawn.id },
    );
  return null;
}

const unknownPump = (pump: number): ErrorResponse =>
  refuse('unknown-pump', `this till has no pump ${pump}`, 'pump');

function fillView(f: PumpFill): FillView {
  return {
    id: f.id,
    pump: f.pump,
    nozzle: f.nozzle,
    grade: f.grade,
    volume: f.volume,
    amount: f.amount,
    unit_price: f.unitPrice,
    authorisation_id: f.authorisationId,
    state: f.state,
    transaction_id: f.transactionId,
    finished_at: iso(f.finishedAt)!,
  };
}
