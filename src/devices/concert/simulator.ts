// An Ingenico Concert E+ terminal: same bytes as the real one, fault switches, its own record.
import { Inbox, sleep } from '../inbox.js';
import type { ByteLink } from '../link.js';
import { FaultyWriter, type FaultSwitches, noFaults, noiseWithout } from '../sim/faults.js';
import type { Simulator } from '../sim/host.js';
import {
  type ConcertSimTransaction,
  concertSimStateSchema,
  loadSimState,
  MAX_BOOKED,
  saveSimState,
} from '../sim/state-file.js';
import {
  ACK,
  ConcertStream,
  decodeMessage,
  encodeAnswer,
  encodeMessage,
  ENQ,
  EOT,
  NAK,
  parseRequest,
  STX,
} from './frame.js';

export type { ConcertSimTransaction };

export class ConcertSimulator implements Simulator {
  readonly faults: FaultSwitches = noFaults();
  readonly ledger: ConcertSimTransaction[] = [];
  declineAmounts = new Set<number>();
  ackMs: number;
  private readonly writer: FaultyWriter;
  private readonly acks = new Inbox<number>();
  private request: string | null = null;
  private readonly stateFile: string | null;

  /** `stateFile`: where the unit keeps its journal so it outlives the process (null: memory). */
  constructor(ackMs = 300, stateFile: string | null = null) {
    this.ackMs = ackMs;
    this.stateFile = stateFile;
    const kept = stateFile ? loadSimState(stateFile, concertSimStateSchema) : null;
    if (kept) this.ledger.push(...kept.ledger);
    this.writer = new FaultyWriter(this.faults, noiseWithout([STX, 0x03, EOT, ENQ, ACK, NAK]));
  }

  attach(link: ByteLink): () => void {
    this.writer.link = link;
    const stream = new ConcertStream();
    const off = link.onData((chunk) => {
      if (this.faults.silence) return;
      for (const ev of stream.push(chunk)) {
        if (ev.kind === 'control') {
          if (ev.byte === ENQ) void this.writer.write(Uint8Array.of(ACK));
          else if (ev.byte === EOT && this.request !== null) {
            const req = this.request;
            this.request = null;
            void this.answer(req);
          } else this.acks.push(ev.byte);
          continue;
        }
        const msg = decodeMessage(ev.bytes);
        if (!msg.ok || this.faults.nak > 0) {
          if (msg.ok) this.faults.nak--;
          void this.writer.write(Uint8Array.of(NAK));
          continue;
        }
        this.request = msg.value;
        void this.writer.write(Uint8Array.of(ACK));
      }
    });
    return () => {
      off();
      if (this.writer.link === link) this.writer.link = null;
    };
  }

  private async answer(text: string): Promise<void> {
    const req = parseRequest(text);
    if (!req.ok) return;
    const r = req.value;
    const accepted = !this.declineAmounts.has(r.amount_cents);
    this.ledger.push({
      pos: r.pos,
      type: r.type,
      amount_cents: r.amount_cents,
      private_data: r.private_data.trim(),
      accepted,
    });
    if (this.ledger.length > MAX_BOOKED) this.ledger.splice(0, this.ledger.length - MAX_BOOKED);
    if (this.stateFile) saveSimState(this.stateFile, { version: 1, ledger: this.ledger });
    await sleep(10);
    const body = encodeAnswer({
      pos: r.pos,
      status: accepted ? '0' : '7',
      amount_cents: r.amount_cents,
      mode: r.mode,
      rep: accepted ? 'CB 535029******5177 AUTO 123456' : 'REFUSE',
      currency: r.currency,
      private_data: r.private_data,
    });
    this.acks.clear();
    for (let i = 0; i < 3; i++) {
      await this.writer.write(Uint8Array.of(ENQ));
      if (await this.wait(ACK)) break;
      if (i === 2) return;
    }
    let frame = encodeMessage(body);
    for (let i = 0; i < 3; i++) {
      if (this.faults.corrupt > 0) {
        this.faults.corrupt--;
        frame = Uint8Array.from(frame);
        frame[frame.length - 1] = (frame[frame.length - 1] ?? 0) ^ 0x5a;
      } else frame = encodeMessage(body);
      await this.writer.write(frame);
      if (await this.wait(ACK)) break;
    }
    await this.writer.write(Uint8Array.of(EOT));
  }

  private async wait(byte: number): Promise<boolean> {
    try {
      return (await this.acks.next(this.ackMs)) === byte;
    } catch {
      return false;
    }
  }
}
