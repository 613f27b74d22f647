// The ZVT link layer over one byte link. Serial: frames with DLE stuffing and CRC, each answered
// ACK/NAK; a NAKed frame is sent again a bounded number of times, and so is an unanswered one
// unless it moves money (the PT may have acted on it). TCP: bare APDUs, no link retries.
import { toHex } from '../bytes.js';
import { Inbox } from '../inbox.js';
import { type ByteLink, LinkError } from '../link.js';
import { type Apdu, ApduStream, encodeApdu } from './apdu.js';
import { ACK, encodeFrame, FrameStream, NAK } from './frame.js';
import { movesMoney } from './messages.js';

export interface ZvtChannelOptions {
  transport: 'serial' | 'tcp';
  /** A partial frame older than this is dropped (0.2 s in public implementations). */
  interByteMs: number;
  /** Wait for the link ACK after a frame (5 s). */
  ackMs: number;
  /** Repeats of one frame after a NAK (or no ACK, for frames that move no money). */
  maxRetries: number;
  /** Called with each frame sent and received, for a trace log. */
  trace?: (dir: 'tx' | 'rx', bytes: string) => void;
}

class ZvtError extends Error {
  readonly code: 'no-ack' | 'nak' | 'timeout' | 'protocol';
  constructor(code: ZvtError['code'], message: string) {
    super(message);
    this.code = code;
  }
}

export class ZvtChannel {
  readonly apdus = new Inbox<Apdu>();
  private readonly linkAcks = new Inbox<'ack' | 'nak'>();
  private readonly frames = new FrameStream();
  private readonly stream = new ApduStream();
  private readonly link: ByteLink;
  private readonly options: ZvtChannelOptions;
  private lastChunkAt = 0;
  private readonly offData: () => void;
  /** Frames received with a bad CRC (answered NAK). */
  badFrames = 0;
  /** Good frames received, so a send can tell whether the PT spoke after it. */
  private framesIn = 0;

  constructor(link: ByteLink, options: ZvtChannelOptions) {
    this.link = link;
    this.options = options;
    this.offData = link.onData((chunk) => this.onChunk(chunk));
  }

  close(): void {
    this.offData();
    this.apdus.failAll(new LinkError('not-open', 'channel closed'));
    this.linkAcks.failAll(new LinkError('not-open', 'channel closed'));
  }

  /** Drops answers left over from an earlier exchange (or a crashed process). */
  flush(): void {
    this.apdus.clear();
    this.linkAcks.clear();
  }

  async send(apdu: Apdu): Promise<void> {
    if (this.options.transport === 'tcp') {
      const bytes = encodeApdu(apdu);
      this.options.trace?.('tx', toHex(bytes));
      await this.link.write(bytes);
      return;
    }
    const frame = encodeFrame(apdu);
    const money = movesMoney(apdu);
    this.linkAcks.clear();
    let lastProblem = 'no ACK';
    for (let attempt = 0; attempt <= this.options.maxRetries; attempt++) {
      this.options.trace?.('tx', toHex(frame));
      const heardBefore = this.framesIn;
      await this.link.write(frame);
      try {
        const answer = await this.linkAcks.next(this.options.ackMs, 'ACK');
        if (answer === 'ack') return;
        // A NAK means the PT discarded the frame: sending it again is always safe.
        lastProblem = 'NAK';
      } catch (e) {
        if (!(e instanceof LinkError) || e.code !== 'timeout') throw e;
        lastProblem = `no ACK within ${this.options.ackMs} ms`;
        if (money) {
          // The ACK may be lost, not the command: a PT that has spoken since got it. Otherwise
          // the outcome is unknown and recovery asks the PT; a repeat could charge twice.
          if (this.framesIn > heardBefore) return;
          throw new ZvtError(
            'no-ack',
            `payment command not acknowledged (${lastProblem}); not repeated`,
          );
        }
      }
    }
    throw new ZvtError(
      lastProblem === 'NAK' ? 'nak' : 'no-ack',
      `frame not acknowledged after ${this.options.maxRetries + 1} sends (${lastProblem})`,
    );
  }

  receive(timeoutMs: number): Promise<Apdu> {
    return this.apdus.next(timeoutMs, 'ZVT message');
  }

  private onChunk(chunk: Uint8Array): void {
    const now = Date.now();
    const gap = now - this.lastChunkAt;
    this.lastChunkAt = now;
    if (this.options.transport === 'tcp') {
      for (const a of this.stream.push(chunk)) {
        this.options.trace?.('rx', toHex(encodeApdu(a)));
        this.apdus.push(a);
      }
      return;
    }
    // A frame interrupted longer than the inter-byte time is dead: start afresh.
    if (this.frames.pending && gap > this.options.interByteMs) this.frames.reset();
    for (const ev of this.frames.push(chunk)) {
      if (ev.kind === 'ack' || ev.kind === 'nak') this.linkAcks.push(ev.kind);
      else if (ev.kind === 'frame') {
        this.framesIn++;
        this.options.trace?.('rx', toHex(encodeApdu(ev.apdu)));
        void this.link.write(Uint8Array.of(ACK)).catch(() => undefined);
        this.apdus.push(ev.apdu);
      } else {
        this.badFrames++;
        if (ev.reason === 'bad-checksum')
          void this.link.write(Uint8Array.of(NAK)).catch(() => undefined);
      }
    }
  }
}
