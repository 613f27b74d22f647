// Card reader and scanner simulators: they send swipes and scans framed as the real readers do.
import { ascii, concatBytes } from '../bytes.js';
import type { LineFraming } from '../line-framer.js';
import type { ByteLink } from '../link.js';
import { FaultyWriter, type FaultSwitches, noFaults } from './faults.js';
import type { Simulator } from './host.js';

export class ReaderSimulator implements Simulator {
  readonly faults: FaultSwitches = noFaults();
  private readonly writer: FaultyWriter;
  readonly framing: LineFraming;

  constructor(framing: LineFraming) {
    this.framing = framing;
    // Line noise of a reader: bytes that are neither framing nor printable data.
    this.writer = new FaultyWriter(this.faults, Uint8Array.of(0x00, 0x11, 0x13, 0x7f, 0xff));
  }

  attach(link: ByteLink): () => void {
    this.writer.link = link;
    return () => {
      if (this.writer.link === link) this.writer.link = null;
    };
  }

  frame(data: string | Uint8Array): Uint8Array {
    const body = typeof data === 'string' ? ascii(data) : data;
    switch (this.framing) {
      case 'stx-etx':
        return concatBytes([Uint8Array.of(0x02), body, Uint8Array.of(0x0d, 0x03)]);
      case 'cr':
        return concatBytes([body, Uint8Array.of(0x0d)]);
      case 'lf':
        return concatBytes([body, Uint8Array.of(0x0a)]);
      case 'crlf':
        return concatBytes([body, Uint8Array.of(0x0d, 0x0a)]);
    }
  }

  /** Sends one swipe or scan (track text such as `%B...?;...?`, or a scan line). */
  async read(data: string | Uint8Array): Promise<void> {
    if (
      this.faults.garbage &&
      (this.framing === 'cr' || this.framing === 'lf' || this.framing === 'crlf')
    ) {
      // On a line reader, garbage is a junk line of its own; the next read must still work.
      await this.writer.write(this.frame(Uint8Array.of(0x00, 0x7f, 0xff)));
      const saved = this.faults.garbage;
      this.faults.garbage = false;
      await this.writer.write(this.frame(data));
      this.faults.garbage = saved;
      return;
    }
    await this.writer.write(this.frame(data));
  }
}
