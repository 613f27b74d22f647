// Framing of line-oriented readers (card readers, scanners): a setting, never a guess.
// `stx-etx` frames STX ... ETX (MagTek style; a CR before ETX is dropped), `cr`, `lf` and
// `crlf` end a frame at the terminator. Bytes are kept as they are (GS 0x1D survives).

export type LineFraming = 'stx-etx' | 'cr' | 'lf' | 'crlf';

const STX = 0x02;
const ETX = 0x03;
const CR = 0x0d;
const LF = 0x0a;

/** A frame longer than this is noise: it is dropped and the framer starts over. */
const MAX_LINE = 1024;

export class LineFramer {
  readonly framing: LineFraming;
  private buf: number[] = [];
  private inFrame = false;
  private lastWasCr = false;
  /** Frames dropped for length; garbage outside STX/ETX is simply skipped. */
  dropped = 0;

  constructor(framing: LineFraming) {
    this.framing = framing;
  }

  /** True while part of a frame is buffered (the driver drops it after an inter-byte gap). */
  get pending(): boolean {
    return this.buf.length > 0 || this.inFrame;
  }

  reset(): void {
    this.buf = [];
    this.inFrame = false;
  }

  push(chunk: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const b of chunk) {
      const frame = this.byte(b);
      if (frame) out.push(frame);
    }
    return out;
  }

  private byte(b: number): Uint8Array | null {
    if (this.framing === 'stx-etx') {
      if (b === STX) {
        this.buf = [];
        this.inFrame = true;
        return null;
      }
      if (!this.inFrame) return null;
      if (b === ETX) {
        this.inFrame = false;
        const data = this.buf;
        this.buf = [];
        while (data.length > 0 && (data[data.length - 1] === CR || data[data.length - 1] === LF))
          data.pop();
        return Uint8Array.from(data);
      }
      return this.append(b);
    }
    const wasCr = this.lastWasCr;
    this.lastWasCr = b === CR;
    if (this.framing === 'cr' || this.framing === 'lf') {
      // A reader set to CR LF behind a `cr` setting: the LF after a CR is not data.
      if (this.framing === 'cr' && b === LF && wasCr) return null;
      if (b === (this.framing === 'cr' ? CR : LF)) return this.take();
      return this.append(b);
    }
    // crlf: the frame ends at CR LF; a lone CR is kept as data.
    if (b === LF && wasCr) {
      this.buf.pop();
      return this.take();
    }
    return this.append(b);
  }

  private append(b: number): null {
    if (this.buf.length >= MAX_LINE) {
      this.dropped++;
      this.buf = [];
      this.inFrame = false;
      return null;
    }
    this.buf.push(b);
    return null;
  }

  private take(): Uint8Array | null {
    const data = this.buf;
    this.buf = [];
    return data.length === 0 ? null : Uint8Array.from(data);
  }
}
