// Card readers on a line: a magnetic-stripe reader or a barcode/QR scanner. Each complete read
// becomes one event: a customer identifier, a masked bank card, or an unrecognised read. The
// path from the last byte to the event is synchronous (the < 5 ms budget of bench/devices).
import { EventEmitter } from 'node:events';
import { latin1 } from './bytes.js';
import { LineFramer, type LineFraming } from './line-framer.js';
import type { ByteLink } from './link.js';
import { parseSwipe } from './msr.js';
import { type Recognition, Recognizer } from './recognition.js';
import { parseScan } from './scanner.js';

export interface CardReaderOptions {
  kind: 'msr' | 'scanner';
  framing: LineFraming;
  /** A partial read older than this is dropped as noise. */
  interByteMs: number;
  recognizer?: Recognizer;
}

export class CardReader {
  private readonly events = new EventEmitter();
  private readonly framer: LineFramer;
  private readonly recognizer: Recognizer;
  private readonly kind: 'msr' | 'scanner';
  private readonly interByteMs: number;
  private readonly off: () => void;
  private lastChunkAt = 0;

  constructor(link: ByteLink, options: CardReaderOptions) {
    this.kind = options.kind;
    this.framer = new LineFramer(options.framing);
    this.recognizer = options.recognizer ?? new Recognizer();
    this.interByteMs = options.interByteMs;
    this.off = link.onData((chunk) => this.onChunk(chunk));
  }

  onRead(fn: (r: Recognition) => void): () => void {
    this.events.on('read', fn);
    return () => this.events.off('read', fn);
  }

  close(): void {
    this.off();
  }

  /** One framed read to its recognition; also what `devices decode` uses. */
  recognise(frame: Uint8Array): Recognition {
    if (this.kind === 'msr') return this.recognizer.recogniseSwipe(parseSwipe(latin1(frame)));
    const scan = parseScan(frame);
    if (!scan.ok) return { kind: 'unrecognised', source: 'scanner', reason: scan.message };
    return this.recognizer.recogniseScan(scan.value);
  }

  private onChunk(chunk: Uint8Array): void {
    const now = Date.now();
    if (this.framer.pending && now - this.lastChunkAt > this.interByteMs) this.framer.reset();
    this.lastChunkAt = now;
    for (const frame of this.framer.push(chunk)) this.events.emit('read', this.recognise(frame));
  }
}
