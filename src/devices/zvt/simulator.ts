// A ZVT payment terminal (PT side) speaking the same bytes as a real one, serial or TCP, with
// its own record of what it booked: tests reconcile the ECR's journal against it.
import { Inbox } from '../inbox.js';
import type { ByteLink } from '../link.js';
import { FaultyWriter, type FaultSwitches, noFaults, noiseWithout } from '../sim/faults.js';
import type { Simulator } from '../sim/host.js';
import {
  loadSimState,
  MAX_BOOKED,
  saveSimState,
  type ZvtSimTransaction,
  zvtSimStateSchema,
} from '../sim/state-file.js';
import { type Apdu, ApduStream, encodeApdu } from './apdu.js';
import {
  asciiField,
  bcdAmount,
  type BmpField,
  fieldValue,
  nibbleField,
  panField,
  parseBmps,
  toBcd,
} from './bmp.js';
import { ACK, DLE, FrameStream, frameBytes, NAK } from './frame.js';
import { ACK_APDU, apdu } from './messages.js';

/** One approved operation in the unit's books. */
export type SimTransaction = ZvtSimTransaction;

export interface ZvtSimOptions {
  transport: 'serial' | 'tcp';
  /** How long the PT waits for the ECR's 80 00 00 or link ACK before it gives up. */
  ackMs?: number;
  /** Receipt numbers start after this one. */
  firstReceipt?: number;
  /** Card data a read-card (06 C0) returns: track 2 without sentinels (`6280...=2512...`). */
  cardTrack2?: string | null;
  /** The masked PAN reported for payments. */
  panMasked?: string;
  /**
   * Where the unit keeps its counters and books, so they outlive the process (a real unit's
   * survive the ECR's crash); null: in memory only.
   */
  stateFile?: string | null;
}

export interface ZvtSimHooks {
  /** A command frame arrived, before the link ACK goes out. */
  onCommand?: (apdu: Apdu) => void | Promise<void>;
  /** A transaction was booked and its status information sent. */
  onBooked?: (tx: SimTransaction) => void | Promise<void>;
}

const RC_DECLINED = 0x05;
/** The simulated unit's terminal id (BMP 29), as it reports it on status enquiry too. */
const TERMINAL_ID = '52500001';
const RC_NOT_POSSIBLE = 0x83;

export class ZvtSimulator implements Simulator {
  readonly faults: FaultSwitches = noFaults();
  readonly ledger: SimTransaction[] = [];
  readonly displayed: string[][] = [];
  hooks: ZvtSimHooks = {};
  /** Amounts (cents) the simulated issuer declines. */
  declineAmounts = new Set<number>();
  /** A unit that cannot reverse (its host refuses): every reversal is aborted. */
  refuseReversals = false;
  readonly options: Required<ZvtSimOptions>;
  private readonly writer: FaultyWriter;
  private readonly inbox = new Inbox<Apdu>();
  private readonly linkAcks = new Inbox<'ack' | 'nak'>();
  private trace = 0;
  private receipt: number;
  private running = false;
  /** Frames received, for tests. */
  received: Apdu[] = [];

  constructor(options: ZvtSimOptions) {
    this.options = {
      ackMs: 500,
      firstReceipt: 0,
      cardTrack2: null,
      panMasked: '535029******5177',
      stateFile: null,
      ...options,
    };
    this.receipt = this.options.firstReceipt;
    const kept = this.options.stateFile
      ? loadSimState(this.options.stateFile, zvtSimStateSchema)
      : null;
    if (kept) {
      this.receipt = kept.receipt;
      this.trace = kept.trace;
      this.ledger.push(...kept.ledger);
    }
    this.writer = new FaultyWriter(this.faults, noiseWithout([ACK, NAK, DLE]));
  }

  /** True while the PT is inside an exchange (tests wait for it to give up on a dead ECR). */
  get busy(): boolean {
    return this.running;
  }

  /** Purchases and book totals still standing (not reversed): what the customer was charged. */
  charges(): SimTransaction[] {
    return this.ledger.filter(
      (t) => (t.kind === 'purchase' || t.kind === 'book-total') && !t.reversed,
    );
  }

  /** Every approved operation, as the unit's end-of-day report lists it (oldest first). */
  books(): SimTransaction[] {
    return this.ledger.map((t) => ({ ...t }));
  }

  /** Pre-authorisations neither completed (booked total) nor reversed: money still held. */
  openPreAuthorisations(): SimTransaction[] {
    const completed = new Set(
      this.ledger.filter((t) => t.kind === 'book-total').map((t) => t.refers_to),
    );
    return this.ledger.filter(
      (t) => t.kind === 'pre-auth' && !t.reversed && !completed.has(t.receipt_no),
    );
  }

  attach(link: ByteLink): () => void {
    this.writer.link = link;
    const frames = new FrameStream();
    const apdus = new ApduStream();
    const off = link.onData((chunk) => {
      if (this.faults.silence) return;
      if (this.options.transport === 'tcp') {
        for (const a of apdus.push(chunk)) this.deliver(a);
        return;
      }
      for (const ev of frames.push(chunk)) {
        if (ev.kind === 'ack' || ev.kind === 'nak') this.linkAcks.push(ev.kind);
        else if (ev.kind === 'error') {
          if (ev.reason === 'bad-checksum') void this.writer.write(Uint8Array.of(NAK));
        } else if (this.faults.nak > 0) {
          this.faults.nak--;
          void this.writer.write(Uint8Array.of(NAK));
        } else void this.acceptFrame(ev.apdu);
      }
    });
    return () => {
      off();
      if (this.writer.link === link) this.writer.link = null;
    };
  }

  private async acceptFrame(apdu: Apdu): Promise<void> {
    if (apdu.cls === 0x06 || apdu.cls === 0x05) await this.hooks.onCommand?.(apdu);
    await this.writer.write(Uint8Array.of(ACK));
    this.deliver(apdu);
  }

  private deliver(apdu: Apdu): void {
    this.received.push(apdu);
    this.inbox.push(apdu);
    if (!this.running) void this.loop();
  }

  private async loop(): Promise<void> {
    this.running = true;
    try {
      while (this.inbox.size > 0) {
        const a = await this.inbox.next(1);
        if (a.cls === 0x80) continue; // a late 80 00 00 from an exchange already given up
        await this.handle(a);
      }
    } catch {
      // Inbox drained.
    } finally {
      this.running = false;
    }
  }

  /** Sends one APDU; over serial it is framed and repeated on NAK (three times at most). */
  private async send(apdu: Apdu): Promise<boolean> {
    if (this.options.transport === 'tcp') {
      await this.writer.write(encodeApdu(apdu));
      return true;
    }
    const frame = frameBytes(encodeApdu(apdu));
    this.linkAcks.clear();
    for (let attempt = 0; attempt < 3; attempt++) {
      let out = frame;
      if (this.faults.corrupt > 0) {
        this.faults.corrupt--;
        out = Uint8Array.from(frame);
        out[out.length - 1] = (out[out.length - 1] ?? 0) ^ 0xff;
      }
      await this.writer.write(out);
      try {
        if ((await this.linkAcks.next(this.options.ackMs)) === 'ack') return true;
      } catch {
        // no ACK: send again
      }
    }
    return false;
  }

  /** Sends and waits for the ECR's 80 00 00; a new command instead ends this session. */
  private async sendAwait(apdu: Apdu): Promise<boolean> {
    if (!(await this.send(apdu))) return false;
    try {
      const a = await this.inbox.next(this.options.ackMs * 4);
      if (a.cls === 0x80) return true;
      // The ECR moved on (e.g. restarted): handle its command after this session.
      this.inbox.push(a);
      return false;
    } catch {
      return false;
    }
  }

  private ack(): Promise<boolean> {
    return this.send(ACK_APDU);
  }

  private async handle(a: Apdu): Promise<void> {
    const key = (a.cls << 8) | a.ins;
    const fields = parseBmps(a.data, [0x0501, 0x0620, 0x0630, 0x0631].includes(key) ? 3 : 0).fields;
    const num = (tag: number) => numberField(fields, tag);
    switch (key) {
      case 0x0600: // registration
        await this.ack();
        await this.sendAwait(apdu(0x06, 0x0f, Uint8Array.of(0x19, 0x00)));
        return;
      case 0x0501:
        return this.statusEnquiry();
      case 0x0601:
      case 0x0622:
      case 0x0631:
        await this.payment(
          key === 0x0601 ? 'purchase' : key === 0x0622 ? 'pre-auth' : 'refund',
          num(0x04) ?? 0,
          null,
        );
        return;
      case 0x0624:
        return this.bookTotal(num(0x87), num(0x04));
      case 0x0625:
      case 0x0630:
        return this.reverse(key === 0x0630 ? 'reversal' : 'pre-auth-reversal', num(0x87));
      case 0x0620:
        return this.repeatLast();
      case 0x06b0:
        await this.ack();
        return;
      case 0x06c0:
        return this.readCard();
      case 0x06e0:
        return this.display(fields);
      default:
        await this.send({ cls: 0x84, ins: 0x83, data: new Uint8Array(0) });
    }
  }

  /** 05 01: the terminal is ready. */
  private async statusEnquiry(): Promise<void> {
    await this.ack();
    if (
      await this.sendAwait(
        apdu(0x04, 0x0f, Uint8Array.of(0x27, 0x00), Uint8Array.of(0x29), toBcd(TERMINAL_ID, 4)),
      )
    ) {
      await this.sendAwait(apdu(0x06, 0x0f));
    }
  }

  /** 06 24: books the total of an open pre-authorisation (its amount when none is given). */
  private async bookTotal(receiptNo: number | null, cents: number | null): Promise<void> {
    const pre = this.ledger.findLast(
      (t) => t.kind === 'pre-auth' && t.receipt_no === receiptNo && !t.reversed,
    );
    if (!pre) return this.abortWith(0x64);
    await this.payment('book-total', cents ?? pre.amount_cents, pre.receipt_no);
  }

  /** 06 30 (reversal) or 06 25 (pre-auth reversal) of the transaction with that receipt. */
  private async reverse(
    kind: 'reversal' | 'pre-auth-reversal',
    receiptNo: number | null,
  ): Promise<void> {
    if (this.refuseReversals) return this.abortWith(RC_NOT_POSSIBLE);
    const target = this.ledger.findLast((t) => t.receipt_no === receiptNo && t.kind !== 'reversal');
    if (!target) return this.abortWith(0xb5);
    if (target.reversed) return this.abortWith(0xb4);
    await this.ack();
    target.reversed = true;
    const tx = this.book(kind, target.amount_cents, target.receipt_no);
    if (await this.sendAwait(this.statusInfo(tx, 0))) await this.sendAwait(apdu(0x06, 0x0f));
  }

  /** 06 20: repeats the last receipt. */
  private async repeatLast(): Promise<void> {
    const last = this.ledger[this.ledger.length - 1];
    if (!last) return this.abortWith(0x83);
    await this.ack();
    if (await this.sendAwait(this.statusInfo(last, 0))) await this.sendAwait(apdu(0x06, 0x0f));
  }

  /** 06 C0: reads a card, aborted (6C) when none is inserted. */
  private async readCard(): Promise<void> {
    await this.ack();
    const track = this.options.cardTrack2;
    if (!track) return void (await this.sendAwait(apdu(0x06, 0x1e, Uint8Array.of(0x6c))));
    // Track 2 in BCD nibbles, D as the separator (BMP 23).
    const field = nibbleField(0x23, track.replace(/=/g, 'D'));
    if (await this.sendAwait(apdu(0x04, 0x0f, Uint8Array.of(0x19, 0x00), field)))
      await this.sendAwait(apdu(0x06, 0x0f));
  }

  /** 06 E0: shows the text lines (BMP F1..F8). */
  private async display(fields: BmpField[]): Promise<void> {
    await this.ack();
    this.displayed.push(
      fields.filter((f) => f.tag >= 0xf1 && f.tag <= 0xf8).map((f) => String(fieldValue(f).value)),
    );
    await this.sendAwait(apdu(0x06, 0x0f));
  }

  private async abortWith(code: number): Promise<void> {
    await this.ack();
    await this.sendAwait(apdu(0x06, 0x1e, Uint8Array.of(code)));
  }

  private book(
    kind: SimTransaction['kind'],
    cents: number,
    refersTo: number | null,
  ): SimTransaction {
    this.receipt = (this.receipt % 9999) + 1;
    this.trace = (this.trace % 999999) + 1;
    const tx: SimTransaction = {
      receipt_no: this.receipt,
      trace_no: this.trace,
      kind,
      amount_cents: cents,
      reversed: false,
      refers_to: refersTo,
    };
    this.ledger.push(tx);
    if (this.ledger.length > MAX_BOOKED) this.ledger.splice(0, this.ledger.length - MAX_BOOKED);
    this.save();
    return tx;
  }

  /** Kept on every booking (a reversal marks its target in the same write), before any answer. */
  private save(): void {
    const file = this.options.stateFile;
    if (!file) return;
    saveSimState(file, {
      version: 1,
      receipt: this.receipt,
      trace: this.trace,
      ledger: this.ledger,
    });
  }

  private statusInfo(tx: SimTransaction, rc: number): Apdu {
    return apdu(
      0x04,
      0x0f,
      Uint8Array.of(0x27, rc),
      Uint8Array.of(0x04),
      bcdAmount(tx.amount_cents),
      Uint8Array.of(0x0b),
      toBcd(String(tx.trace_no), 3),
      Uint8Array.of(0x87),
      toBcd(String(tx.receipt_no), 2),
      Uint8Array.of(0x0c),
      toBcd('120000', 3),
      Uint8Array.of(0x0d),
      toBcd('0101', 2),
      panField(this.options.panMasked),
      Uint8Array.of(0x8a, 0x06),
      Uint8Array.of(0x29),
      toBcd(TERMINAL_ID, 4),
      // The authorisation code: `A` and the trace, NUL-padded to the field's 8 bytes.
      asciiField(0x3b, `A${String(tx.trace_no).padStart(5, '0')}`.padEnd(8, '\0')),
    );
  }

  private async payment(
    kind: SimTransaction['kind'],
    cents: number,
    refersTo: number | null,
  ): Promise<void> {
    await this.ack();
    if (!(await this.sendAwait(apdu(0x04, 0xff, Uint8Array.of(0x0e))))) return;
    if (this.declineAmounts.has(cents)) {
      const declined = apdu(
        0x04,
        0x0f,
        Uint8Array.of(0x27, RC_DECLINED),
        Uint8Array.of(0x04),
        bcdAmount(cents),
      );
      if (await this.sendAwait(declined))
        await this.sendAwait(apdu(0x06, 0x1e, Uint8Array.of(RC_DECLINED)));
      return;
    }
    // Booked the moment the outcome is reported: an ECR that dies now still got a charge.
    const tx = this.book(kind, cents, refersTo);
    const info = this.statusInfo(tx, 0);
    const sent = this.send(info);
    await this.hooks.onBooked?.(tx);
    if (!(await sent)) return;
    try {
      const a = await this.inbox.next(this.options.ackMs * 4);
      if (a.cls !== 0x80) {
        this.inbox.push(a);
        return;
      }
    } catch {
      return;
    }
    await this.sendAwait(apdu(0x06, 0x0f));
  }
}

/** A numeric BMP's value; null when absent or not a number. */
function numberField(fields: readonly BmpField[], tag: number): number | null {
  const f = fields.find((x) => x.tag === tag);
  const v = f ? fieldValue(f).value : null;
  return typeof v === 'number' ? v : null;
}
