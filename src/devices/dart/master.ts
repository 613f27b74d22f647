// The Wayne DART master: polls each configured pump address in turn over one serial line
// (9600 baud 8O1), ACKs the pumps' data blocks, sends commands as numbered data blocks and turns
// what the pumps say into the forecourt port's states and events. One exchange at a time on the
// line (a mutex); commands slot in between polls. docs/forecourt.md, "The DART master".
import { EventEmitter } from 'node:events';
import { type Dec, eq, toFixed } from '../../money/index.js';
import { Inbox, sleep } from '../inbox.js';
import type { ByteLink } from '../link.js';
import { Mutex } from '../mutex.js';
import {
  sameFill,
  type Authorisation,
  type FillFigures,
  type Filling,
  type ForecourtEvent,
  type ForecourtPort,
  type PortResult,
  type PumpState,
  type PumpStateName,
  type Totals,
} from '../forecourt/port.js';
import {
  type DartEvent,
  type DartFrame,
  encodeFrame,
  isRetransmission,
  nextTx,
  pumpAddress,
} from './frame.js';
import {
  type ControllerTransaction,
  type DartDecimals,
  DEFAULT_DECIMALS,
  decodePumpTransactions,
  encodeControllerTransactions,
  fillingValues,
  type PumpStatus,
  type PumpTransaction,
  toWire,
  unitPrice,
  type UnknownTransaction,
} from './transactions.js';
import { DartStream } from './frame.js';

export interface DartPumpConfig {
  pump: number;
  decimals?: DartDecimals;
}

export interface DartMasterOptions {
  pumps: (number | DartPumpConfig)[];
  timeouts: { response_ms: number; inter_byte_ms: number };
  /** Polls in a row without an answer before a pump is offline (docs G4: 3). */
  offlineAfter?: number;
  /** Resends of a NAKed or unanswered block with the same TX# before TX# 0 (docs G3: 3). */
  maxResends?: number;
  /** Pause after each full poll cycle, so an idle line does not spin the CPU. */
  cycleGapMs?: number;
  /** Polls to wait for a requested answer (totals, filling). */
  answerPolls?: number;
  now?: () => Date;
}

type Tx = PumpTransaction | UnknownTransaction;

interface PumpBook {
  pump: number;
  address: number;
  decimals: DartDecimals;
  /** Our next TX# to this pump. */
  tx: number;
  /** TX# of the pump's last block we accepted. */
  lastRx: number | null;
  misses: number;
  /** The pump's status; null until it reports one, and while it is offline (not trusted). */
  status: PumpStatus | null;
  /**
   * The last status the pump reported, kept while it is silent: the block that brings it back
   * is judged on it (`fillFrom`), since a fill running when the line went quiet can only have
   * ended on its own nozzle, whatever nozzle the next driver lifted meanwhile.
   */
  heard: PumpStatus | null;
  code: number | null;
  nozzleOut: boolean;
  nozzle: number | null;
  price: Dec | null;
  /**
   * The nozzle and price of the fill on show: a nozzle lifted while the pump still shows its
   * finished fill (the next driver) is not the nozzle that fill came from.
   */
  fillNozzle: number | null;
  fillPrice: Dec | null;
  volume: Dec | null;
  amount: Dec | null;
  stopped: boolean;
  /** Ask RETURN STATUS at the next chance (start, back from offline). */
  needStatus: boolean;
  state: PumpState;
}

/**
 * Why a pump may not be authorised now that it was drained, or null when it may: idle or
 * calling (nothing on show, nothing running), or showing the very fill (finished or stopped,
 * same figures and nozzle) it showed when the till checked it. Anything else came up since the
 * till looked (a fill running, on show or newly read, a release, a suspended fill), and an
 * AUTHORIZE would end it: the simulator zeroes a running fill, and a fill it shows finished
 * would be read only after it, as the next driver's.
 */
function movedSince(checked: PumpState | null, now: PumpState): string | null {
  if (now.state === 'idle' || now.state === 'calling') return null;
  const same =
    checked !== null &&
    checked.state === now.state &&
    (now.state === 'finished' || now.state === 'stopped') &&
    sameFill(checked.filling, now.filling) &&
    checked.filling?.nozzle === now.filling?.nozzle &&
    checked.filling?.price === now.filling?.price;
  if (same) return null;
  const was = checked ? `${checked.state}${figures(checked)}` : 'unknown';
  return `pump ${now.pump} is ${now.state}${figures(now)} now (it was ${was}): nothing was sent`;
}

const figures = (s: PumpState): string =>
  s.filling ? ` with ${s.filling.volume} l, ${s.filling.amount}` : '';

/** The fill on show is over (an AUTHORIZE, ours or one the pump reports): none on show now. */
function endFillOnShow(book: PumpBook): void {
  book.volume = book.amount = null;
  book.fillNozzle = book.fillPrice = null;
}

/** A status that shows a fill ended (not yet taken off the pump). */
const finished = (s: PumpStatus | null): boolean =>
  s === 'filling-completed' || s === 'max-reached';

type Answer = { kind: 'frame'; frame: DartFrame } | { kind: 'bad'; tx?: number } | null;

export class DartMaster implements ForecourtPort {
  private readonly link: ByteLink;
  private readonly o: Required<Omit<DartMasterOptions, 'pumps'>>;
  private readonly books = new Map<number, PumpBook>();
  private readonly inbox = new Inbox<DartEvent>();
  private readonly stream = new DartStream();
  private readonly mutex = new Mutex();
  private readonly events = new EventEmitter();
  private readonly off: () => void;
  private byteTimer: NodeJS.Timeout | null = null;
  private running = false;
  private loop: Promise<void> | null = null;
  /** Full poll cycles done, and the last one's duration (for the bench). */
  cycles = 0;
  lastCycleMs = 0;
  /** Pump blocks refused (bad CRC, cut off) and NAKed. */
  rejected = 0;

  constructor(link: ByteLink, options: DartMasterOptions) {
    this.link = link;
    this.o = {
      offlineAfter: 3,
      maxResends: 3,
      cycleGapMs: 20,
      answerPolls: 5,
      now: () => new Date(),
      ...options,
    };
    this.events.setMaxListeners(0);
    for (const p of options.pumps) {
      const cfg = typeof p === 'number' ? { pump: p } : p;
      this.books.set(cfg.pump, this.newBook(cfg));
    }
    this.off = link.onData((chunk) => this.received(chunk));
  }

  private newBook(cfg: DartPumpConfig): PumpBook {
    return {
      pump: cfg.pump,
      address: pumpAddress(cfg.pump),
      decimals: cfg.decimals ?? DEFAULT_DECIMALS,
      tx: 0,
      lastRx: null,
      misses: 0,
      status: null,
      heard: null,
      code: null,
      nozzleOut: false,
      nozzle: null,
      price: null,
      fillNozzle: null,
      fillPrice: null,
      volume: null,
      amount: null,
      stopped: false,
      needStatus: true,
      state: {
        pump: cfg.pump,
        state: 'offline',
        nozzle: null,
        filling: null,
        detail: 'not polled yet',
        changed_at: this.o.now().toISOString(),
      },
    };
  }

  /** Bytes from the line; a pause longer than the inter-byte timeout ends a partial frame. */
  private received(chunk: Uint8Array): void {
    for (const e of this.stream.push(chunk)) this.inbox.push(e);
    if (this.byteTimer) clearTimeout(this.byteTimer);
    this.byteTimer = null;
    if (!this.stream.pending) return;
    this.byteTimer = setTimeout(() => {
      this.byteTimer = null;
      for (const e of this.stream.end()) this.inbox.push(e);
    }, this.o.timeouts.inter_byte_ms);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async close(): Promise<void> {
    this.running = false;
    await this.loop;
    this.off();
    if (this.byteTimer) clearTimeout(this.byteTimer);
    this.inbox.failAll(new Error('closed'));
  }

  private async run(): Promise<void> {
    while (this.running) {
      const started = Date.now();
      for (const book of this.books.values()) {
        if (!this.running) break;
        await this.mutex.run(() => this.service(book));
      }
      this.cycles++;
      this.lastCycleMs = Date.now() - started;
      if (this.o.cycleGapMs > 0) await sleep(this.o.cycleGapMs);
    }
  }

  /** One turn of one pump: a status request when one is due, else a poll. */
  private async service(book: PumpBook): Promise<void> {
    try {
      if (book.needStatus && book.misses === 0) {
        // Due until the pump took it: a request the line refused (still opening) or the pump
        // never acknowledged is asked again, or the pump stays offline with its status unknown.
        const r = await this.sendBlock(book, [{ type: 'CD1', command: 'return-status' }]);
        if (r.ok) {
          book.needStatus = false;
          return;
        }
      }
      await this.poll(book);
    } catch {
      // The line is down (write failed): that poll is a miss, the link reopens on its own.
      this.missed(book);
    }
  }

  // ---- line exchanges (call under the mutex) ----

  private async write(frame: DartFrame): Promise<void> {
    const bytes = encodeFrame(frame);
    if (!bytes.ok) throw new Error(bytes.message);
    this.inbox.clear();
    await this.link.write(bytes.value);
  }

  /** The next frame or broken block from `address` within the response timeout. */
  private async answer(address: number): Promise<Answer> {
    const until = Date.now() + this.o.timeouts.response_ms;
    for (;;) {
      const left = until - Date.now();
      if (left <= 0) return null;
      let e: DartEvent;
      try {
        e = await this.inbox.next(left, 'pump answer');
      } catch {
        return null;
      }
      if (e.kind === 'frame' && e.frame.address === address) return e;
      if (e.kind === 'error' && e.address === address) {
        this.rejected++;
        return { kind: 'bad', ...(e.tx === undefined ? {} : { tx: e.tx }) };
      }
    }
  }

  /** POLL; ACKs and applies a data block. Returns the transactions of a new block. */
  private async poll(book: PumpBook): Promise<Tx[]> {
    return (await this.pollOnce(book)).txs;
  }

  /** POLL, and whether the pump had nothing to send (it answered, and not with a block). */
  private async pollOnce(book: PumpBook): Promise<{ txs: Tx[]; quiet: boolean }> {
    await this.write({ type: 'poll', address: book.address, tx: 0 });
    const a = await this.answer(book.address);
    if (!a) {
      this.missed(book);
      return { txs: [], quiet: false };
    }
    this.answered(book);
    if (a.kind === 'bad') {
      // A broken block is NAKed; the pump sends it again at the next poll.
      if (a.tx !== undefined) await this.write({ type: 'nak', address: book.address, tx: a.tx });
      return { txs: [], quiet: false };
    }
    return { txs: await this.pumpFrame(book, a.frame), quiet: a.frame.type !== 'data' };
  }

  /**
   * Polls the pump until it has nothing more to send (at most `answerPolls` times, and not
   * past a poll it left unanswered). True when it ended quiet: everything the pump said was
   * said before the command that follows. False when the pump left a poll unanswered or still
   * had a block to send (NAKed each time, or news at every poll): a block from before the
   * command may still come after it, and the command must not be sent.
   */
  private async drain(book: PumpBook): Promise<boolean> {
    for (let i = 0; i < this.o.answerPolls; i++) {
      const r = await this.pollOnce(book);
      if (r.quiet) return true;
      if (book.misses > 0) return false;
    }
    return false;
  }

  private async pumpFrame(book: PumpBook, frame: DartFrame): Promise<Tx[]> {
    if (frame.type !== 'data') return [];
    const list = decodePumpTransactions(frame.data);
    if (!list.ok) {
      this.rejected++;
      await this.write({ type: 'nak', address: book.address, tx: frame.tx });
      return [];
    }
    await this.write({ type: 'ack', address: book.address, tx: frame.tx });
    if (isRetransmission(book.lastRx, frame.tx)) return [];
    book.lastRx = frame.tx;
    // Judged on the last status heard, not on one wiped by silence (`missed`).
    const before = { status: book.heard, volume: book.volume, amount: book.amount };
    for (const t of list.value) this.apply(book, t);
    if (list.value.some((t) => t.type === 'DC3' || t.type === 'DC2')) this.fillFrom(book, before);
    this.publish(book);
    return list.value;
  }

  /**
   * One command block: resent with the same TX# on NAK or silence up to `maxResends` times, then
   * once with TX# 0 (a protocol restart, docs G3).
   */
  private async sendBlock(book: PumpBook, list: ControllerTransaction[]): Promise<PortResult> {
    const data = encodeControllerTransactions(list);
    if (!data.ok) return { ok: false, code: 'invalid', message: data.message };
    const tries = [...Array<number>(this.o.maxResends + 1).fill(book.tx), 0];
    for (const tx of tries) {
      await this.write({ type: 'data', address: book.address, tx, data: data.value });
      const a = await this.answer(book.address);
      if (!a) {
        this.missed(book);
        continue;
      }
      this.answered(book);
      if (a.kind === 'frame' && a.frame.type === 'ack' && a.frame.tx === tx) {
        book.tx = nextTx(tx);
        return { ok: true, value: undefined };
      }
      // Some heads answer a command with their data block at once: that is its acknowledgement.
      if (a.kind === 'frame' && a.frame.type === 'data') {
        await this.pumpFrame(book, a.frame);
        book.tx = nextTx(tx);
        return { ok: true, value: undefined };
      }
    }
    const offline = book.state.state === 'offline';
    return {
      ok: false,
      code: offline ? 'offline' : 'not-acknowledged',
      message: `pump ${book.pump} did not acknowledge ${list.map((t) => t.type).join(', ')}`,
    };
  }

  private missed(book: PumpBook): void {
    book.misses++;
    if (book.misses >= this.o.offlineAfter) book.needStatus = true;
    if (book.misses >= this.o.offlineAfter && book.state.state !== 'offline') {
      // Its state is read again when it answers; `heard` keeps what it last said, the status
      // of the fill the block that brings it back speaks of (`fillFrom`).
      book.status = null;
      this.publish(book, `no answer to ${book.misses} polls`);
    }
  }

  private answered(book: PumpBook): void {
    // Back from silence: its state is read again rather than trusted from before.
    if (book.misses >= this.o.offlineAfter) book.needStatus = true;
    book.misses = 0;
  }

  // ---- what the pump said ----

  private apply(book: PumpBook, t: Tx): void {
    switch (t.type) {
      case 'DC1':
        if (t.status === 'reset' || t.status === 'authorised') {
          if (book.status !== t.status) book.stopped = false;
          // authorised: the fill on show is over (as after our AUTHORIZE), the next is a new one
          if (t.status === 'authorised') endFillOnShow(book);
        }
        book.status = t.status;
        book.heard = t.status;
        book.code = t.code;
        break;
      case 'DC2': {
        const v = fillingValues(t, book.decimals);
        book.volume = v.volume;
        book.amount = v.amount;
        break;
      }
      case 'DC3':
        book.price = unitPrice(t.price, book.decimals);
        book.nozzleOut = t.nozzleOut;
        book.nozzle = t.nozzle === 0 ? null : t.nozzle;
        break;
      default:
        break;
    }
  }

  /**
   * The nozzle and price of the fill on show, after a block that read the pump's nozzle or
   * figures; `before` is the pump's last heard status and figures before the block (a status
   * kept through silence, `heard`). The fill keeps the nozzle it has:
   * - when the pump was fuelling or suspended before the block: a running fill can only end on
   *   its own nozzle, whatever nozzle the block reads (the next driver's, lifted after the hang-up
   *   while the line was quiet: review 27, H1);
   * - when the pump showed it finished before the block and still shows the same figures (or
   *   figures first read now): a nozzle lifted then is the next driver's.
   * Anything else is the nozzle read: a fill from idle, calling or authorised, running or ended
   * in this block, whole or in part between two polls (DC1 goes from idle or authorised straight
   * to finished; reading DC1 first, the old rule took the nozzle of the pump's last fill for it),
   * or finished figures that are not the ones on show (a new fill).
   * `fillNozzle` null (a restart, or an AUTHORIZE ended the fill on show): the nozzle read.
   */
  private fillFrom(
    book: PumpBook,
    before: { status: PumpStatus | null; volume: Dec | null; amount: Dec | null },
  ): void {
    const sameFigures = (a: Dec | null, b: Dec | null) => a === null || (b !== null && eq(a, b));
    const running = before.status === 'filling' || before.status === 'suspended';
    const onShow =
      finished(before.status) &&
      this.showsFinished(book) &&
      sameFigures(before.volume, book.volume) &&
      sameFigures(before.amount, book.amount);
    if (book.fillNozzle !== null && (running || onShow)) return;
    book.fillNozzle = book.nozzle;
    book.fillPrice = book.price;
  }

  private showsFinished(book: PumpBook): boolean {
    return finished(book.status);
  }

  private stateName(book: PumpBook): PumpStateName {
    if (book.misses >= this.o.offlineAfter || book.status === null) return 'offline';
    switch (book.status) {
      case 'reset':
        return book.nozzleOut ? 'calling' : 'idle';
      case 'authorised':
        return book.stopped ? 'stopped' : 'authorised';
      case 'filling':
        return 'fuelling';
      case 'filling-completed':
      case 'max-reached':
        return book.stopped ? 'stopped' : 'finished';
      case 'suspended':
        return 'suspended';
      default:
        return 'out-of-order';
    }
  }

  private filling(book: PumpBook): Filling | null {
    if (book.volume === null || book.amount === null) return null;
    return {
      volume: toFixed(book.volume),
      amount: toFixed(book.amount),
      price: book.fillPrice === null ? null : toFixed(book.fillPrice),
      nozzle: book.fillNozzle,
    };
  }

  /** Recomputes the pump's state and emits an event when anything a cashier sees changed. */
  private publish(book: PumpBook, detail?: string): void {
    const next = {
      pump: book.pump,
      state: this.stateName(book),
      nozzle: book.nozzleOut ? book.nozzle : null,
      filling: this.filling(book),
      detail: detail ?? (book.code === null ? null : `DC1 ${book.code}`),
    };
    const prev = book.state;
    const same =
      prev.state === next.state &&
      prev.nozzle === next.nozzle &&
      JSON.stringify(prev.filling) === JSON.stringify(next.filling);
    if (same) return;
    book.state = { ...next, changed_at: this.o.now().toISOString() };
    const e: ForecourtEvent = { kind: 'pump', previous: prev.state, pump: book.state };
    this.events.emit('event', e);
  }

  // ---- the port ----

  pumps(): PumpState[] {
    return [...this.books.values()].map((b) => b.state);
  }

  pump(n: number): PumpState | null {
    return this.books.get(n)?.state ?? null;
  }

  onEvent(fn: (e: ForecourtEvent) => void): () => void {
    this.events.on('event', fn);
    return () => this.events.off('event', fn);
  }

  private book(n: number): PumpBook | PortResult<never> {
    const book = this.books.get(n);
    if (!book) return { ok: false, code: 'unknown-pump', message: `there is no pump ${n}` };
    if (book.state.state === 'offline')
      return { ok: false, code: 'offline', message: `pump ${n} does not answer` };
    return book;
  }

  /** Runs `fn` on a pump that answers, alone on the line; a line closing under it is refused. */
  private exclusive(n: number, fn: (book: PumpBook) => Promise<PortResult>): Promise<PortResult> {
    const book = this.book(n);
    if ('ok' in book) return Promise.resolve(book);
    return this.mutex.run(async () => {
      try {
        return await fn(book);
      } catch (e) {
        // the line closed under the command (the till stopping): a refusal, never a throw
        const message = e instanceof Error ? e.message : String(e);
        return { ok: false, code: 'not-acknowledged', message };
      }
    });
  }

  /** Blocks in order, one transaction each (docs G13); stops at the first refused. */
  private command(n: number, blocks: ControllerTransaction[][]): Promise<PortResult> {
    return this.exclusive(n, async (book) => {
      for (const b of blocks) {
        const r = await this.sendBlock(book, b);
        if (!r.ok) return r;
      }
      return { ok: true, value: undefined };
    });
  }

  authorise(a: Authorisation): Promise<PortResult> {
    const book = this.books.get(a.pump);
    const decimals = book?.decimals ?? DEFAULT_DECIMALS;
    const blocks: ControllerTransaction[][] = [];
    if (a.nozzles) blocks.push([{ type: 'CD2', nozzles: a.nozzles }]);
    if (a.preset) {
      const p = a.preset;
      const raw =
        p.kind === 'volume'
          ? toWire(p.volume, decimals.volume, 'preset volume')
          : toWire(p.amount, decimals.amount, 'preset amount');
      if (!raw.ok) return Promise.resolve({ ok: false, code: 'invalid', message: raw.message });
      blocks.push([
        p.kind === 'volume'
          ? { type: 'CD3', volume: raw.value }
          : { type: 'CD4', amount: raw.value },
      ]);
    }
    blocks.push([{ type: 'CD1', command: 'authorize' }]);
    // What the till saw when it decided to release (it checks, then calls, in one turn).
    const checked = book?.state ?? null;
    return this.exclusive(a.pump, async (b) => {
      // First the pump says what it has to say: a block it sent before the AUTHORIZE and we
      // did not take (NAKed, cut) would come again after it and read as the new release's:
      // the fill on show, finished again, its totalizer read once the next driver had started.
      // A drain that did not end quiet leaves that possible: nothing is sent, the cashier
      // tries again (review 27, M1).
      if (!(await this.drain(b)))
        return {
          ok: false,
          code: 'not-drained',
          message: `pump ${a.pump} had not said all it had to say before its release: nothing was sent, try again`,
        };
      const moved = movedSince(checked, b.state);
      if (moved) return { ok: false, code: 'wrong-state', message: moved };
      for (const block of blocks) {
        const r = await this.sendBlock(b, block);
        if (!r.ok) return r;
      }
      // The AUTHORIZE was taken: the fill on show is over. What the pump reads next is the new
      // one's, even a whole fill ended before the next poll (the pump still "finished").
      endFillOnShow(b);
      return { ok: true, value: undefined };
    });
  }

  async stop(pump: number): Promise<PortResult> {
    const book = this.books.get(pump);
    // a fill already finished was not stopped: "stop all" must not show it as stopped
    const finished = book ? this.showsFinished(book) : false;
    const r = await this.command(pump, [[{ type: 'CD1', command: 'stop' }]]);
    if (r.ok && book && !finished) book.stopped = true;
    return r;
  }

  /**
   * RESET of a release nobody used. The pump is polled first, until it has nothing more to say:
   * a driver who started since the last poll would lose the fill to a RESET.
   */
  endRelease(pump: number): Promise<PortResult> {
    return this.exclusive(pump, async (book) => {
      // not drained: a driver may have started unseen; tried again at the next sweep
      if (!(await this.drain(book)))
        return {
          ok: false,
          code: 'not-drained',
          message: `pump ${pump} had not said all it had to say: its release was not ended`,
        };
      const now = this.stateName(book);
      if (now !== 'authorised')
        return { ok: false, code: 'wrong-state', message: `pump ${pump} is ${now} now` };
      return this.sendBlock(book, [{ type: 'CD1', command: 'reset' }]);
    });
  }

  suspend(pump: number): Promise<PortResult> {
    return this.command(pump, [[{ type: 'CD1', command: 'suspend' }]]);
  }

  awaitsPrices(pump: number): boolean {
    // a pump gone offline has no status (`missed`)
    return this.books.get(pump)?.status === 'not-programmed';
  }

  /**
   * RESUME goes on with a suspended fill only: DART has no stopped status, a STOP ends the fill
   * ("filling completed"), and a RESUME of it was acknowledged and did nothing.
   */
  resume(pump: number): Promise<PortResult> {
    const book = this.books.get(pump);
    if (book && book.status !== null && book.status !== 'suspended')
      return Promise.resolve({
        ok: false,
        code: 'not-resumable',
        message: `pump ${pump} has no suspended fill to go on with: a stopped fill is over`,
      });
    return this.command(pump, [[{ type: 'CD1', command: 'resume' }]]);
  }

  /**
   * RESET: the finished fill was sold, the pump goes back to idle (or calling). Given the
   * fill's figures, only if, alone on the line, the pump still shows that fill finished: after
   * an AUTHORIZE the pump's state reads "finished" with the old figures until the next poll,
   * and a RESET then would cancel the next driver's release (review 27, M2).
   */
  clearFill(pump: number, fill?: FillFigures): Promise<PortResult> {
    return this.exclusive(pump, async (book) => {
      if (fill && !(this.showsFinished(book) && sameFill(this.filling(book), fill)))
        return {
          ok: false,
          code: 'wrong-state',
          message: `pump ${pump} no longer shows the fill of ${fill.volume} l, ${fill.amount}: not cleared`,
        };
      return this.sendBlock(book, [{ type: 'CD1', command: 'reset' }]);
    });
  }

  setPrices(pump: number, prices: Dec[]): Promise<PortResult> {
    const decimals = this.books.get(pump)?.decimals ?? DEFAULT_DECIMALS;
    const raws: number[] = [];
    for (const [i, p] of prices.entries()) {
      const r = toWire(p, decimals.price, `price of grade ${i + 1}`);
      if (!r.ok) return Promise.resolve({ ok: false, code: 'invalid', message: r.message });
      raws.push(r.value);
    }
    return this.command(pump, [[{ type: 'CD5', prices: raws }]]);
  }

  /** Sends `request`, then polls until the pump's answer matching `want` arrives. */
  private ask<T>(
    n: number,
    request: ControllerTransaction,
    want: (t: Tx) => T | null,
  ): Promise<PortResult<T>> {
    const book = this.book(n);
    if ('ok' in book) return Promise.resolve(book);
    return this.mutex.run(async (): Promise<PortResult<T>> => {
      const sent = await this.sendBlock(book, [request]);
      if (!sent.ok) return sent;
      for (let i = 0; i < this.o.answerPolls; i++) {
        for (const t of await this.poll(book)) {
          const v = want(t);
          if (v !== null) return { ok: true, value: v };
        }
      }
      return {
        ok: false,
        code: 'not-acknowledged',
        message: `pump ${n} did not answer ${request.type}`,
      };
    });
  }

  readTotals(pump: number, nozzle: number): Promise<PortResult<Totals>> {
    const decimals = this.books.get(pump)?.decimals ?? DEFAULT_DECIMALS;
    return this.ask(pump, { type: 'CD101', counter: nozzle }, (t) =>
      t.type === 'DC101' && t.counter === nozzle
        ? {
            pump,
            nozzle,
            volume: toFixed(fillingValues({ volume: t.total, amount: 0 }, decimals).volume),
            amount: null,
          }
        : null,
    );
  }

  readFilling(pump: number): Promise<PortResult<Filling | null>> {
    const book = this.books.get(pump);
    return this.ask(pump, { type: 'CD1', command: 'return-filling-information' }, (t) =>
      t.type === 'DC2' && book ? this.filling(book) : null,
    );
  }
}
