// The tank gauge driver: asks i201, verifies the checksum, retries a bounded number of times.
import { Inbox } from '../inbox.js';
import type { ByteLink } from '../link.js';
import { Mutex } from '../mutex.js';
import { decodeAnswer, encodeRequest, TlsStream } from './frame.js';
import { type Inventory, parseInventory } from './i201.js';

export interface TlsOptions {
  timeouts: { inter_byte_ms: number; message_ms: number };
  maxRetries?: number;
}

export class TlsGauge {
  private readonly link: ByteLink;
  private readonly options: Required<TlsOptions>;
  private readonly frames = new Inbox<Uint8Array>();
  private readonly stream = new TlsStream();
  private readonly mutex = new Mutex();
  private readonly off: () => void;
  private lastChunkAt = 0;
  /** Answers dropped for a bad checksum or layout. */
  rejected = 0;

  constructor(link: ByteLink, options: TlsOptions) {
    this.link = link;
    this.options = { maxRetries: 2, ...options };
    this.off = link.onData((chunk) => {
      const now = Date.now();
      if (this.stream.pending && now - this.lastChunkAt > this.options.timeouts.inter_byte_ms)
        this.stream.reset();
      this.lastChunkAt = now;
      for (const f of this.stream.push(chunk)) this.frames.push(f);
    });
  }

  close(): void {
    this.off();
  }

  /** In-tank inventory of one tank (`01`) or all (`00`). */
  inventory(tank = '00'): Promise<Inventory> {
    return this.mutex.run(async () => {
      let problem = 'no answer';
      for (let attempt = 0; attempt <= this.options.maxRetries; attempt++) {
        this.frames.clear();
        await this.link.write(encodeRequest('i201', tank));
        let frame: Uint8Array;
        try {
          frame = await this.frames.next(this.options.timeouts.message_ms, 'gauge answer');
        } catch (e) {
          problem = (e as Error).message;
          continue;
        }
        const answer = decodeAnswer(frame);
        if (!answer.ok) {
          this.rejected++;
          problem = answer.message;
          continue;
        }
        if (answer.value.kind === 'unsupported') throw new Error('the gauge does not support i201');
        const inv = parseInventory(answer.value.body);
        if (inv.ok) return inv.value;
        this.rejected++;
        problem = inv.message;
      }
      throw new Error(`tank gauge: ${problem} after ${this.options.maxRetries + 1} attempts`);
    });
  }
}
