// ZVT serial framing: DLE STX, the APDU with every DLE doubled, DLE ETX, CRC low, CRC high.
// The receiver answers ACK (06) or NAK (15, bad CRC) after each frame.
import { type Decoded, fail, hexNumber, ok } from '../bytes.js';
import { type Apdu, encodeApdu, parseApdu } from './apdu.js';
import { zvtFrameCrc } from './crc.js';

export const DLE = 0x10;
const STX = 0x02;
const ETX = 0x03;
export const ACK = 0x06;
export const NAK = 0x15;

/** Frames a raw APDU (already encoded) for the serial line. */
export function frameBytes(apdu: Uint8Array): Uint8Array {
  const out: number[] = [DLE, STX];
  for (const b of apdu) {
    out.push(b);
    if (b === DLE) out.push(DLE);
  }
  const crc = zvtFrameCrc(apdu);
  out.push(DLE, ETX, crc & 0xff, crc >> 8);
  return Uint8Array.from(out);
}

export function encodeFrame(apdu: Apdu): Uint8Array {
  return frameBytes(encodeApdu(apdu));
}

/** Decodes exactly one frame (for `devices decode zvt-serial`): stuffing, CRC and LEN checked. */
export function decodeFrame(bytes: Uint8Array): Decoded<{ apdu: Apdu; crc: number }> {
  if (bytes.length < 2) return fail('truncated', 'a frame starts with 10 02');
  if (bytes[0] !== DLE || bytes[1] !== STX) return fail('malformed', 'a frame starts with 10 02');
  const data: number[] = [];
  let i = 2;
  for (;;) {
    if (i >= bytes.length) return fail('truncated', 'frame ends before 10 03');
    const b = bytes[i] as number;
    if (b !== DLE) {
      data.push(b);
      i++;
      continue;
    }
    const next = bytes[i + 1];
    if (next === undefined) return fail('truncated', 'frame ends after a lone 10');
    if (next === DLE) {
      data.push(DLE);
      i += 2;
      continue;
    }
    if (next === ETX) {
      i += 2;
      break;
    }
    return fail(
      'bad-stuffing',
      `10 followed by ${next.toString(16).padStart(2, '0')} inside the frame`,
    );
  }
  if (bytes.length < i + 2) return fail('truncated', 'CRC missing after 10 03');
  if (bytes.length > i + 2) return fail('malformed', `${bytes.length - i - 2} bytes after the CRC`);
  const apduBytes = Uint8Array.from(data);
  const crc = (bytes[i] as number) | ((bytes[i + 1] as number) << 8);
  const want = zvtFrameCrc(apduBytes);
  if (crc !== want) {
    return fail('bad-checksum', `CRC ${hexNumber(crc, 4)} does not match ${hexNumber(want, 4)}`);
  }
  const apdu = parseApdu(apduBytes);
  if (!apdu.ok) return apdu;
  return ok({ apdu: apdu.value, crc });
}

export type FrameEvent =
  | { kind: 'ack' }
  | { kind: 'nak' }
  | { kind: 'frame'; apdu: Apdu }
  | {
      kind: 'error';
      reason: 'bad-checksum' | 'bad-stuffing' | 'malformed' | 'too-long';
      message: string;
    };

const MAX_FRAME = 70_000;

type State = 'idle' | 'idle-dle' | 'data' | 'data-dle' | 'crc1' | 'crc2';

/**
 * The serial line as a stream of events. Outside a frame, 06 and 15 are the link's ACK and
 * NAK; other bytes are noise and skipped. Never throws; a broken frame is one `error` event.
 */
export class FrameStream {
  private state: State = 'idle';
  private data: number[] = [];
  private crcLo = 0;
  /** Bytes skipped outside frames (line noise). */
  noise = 0;

  get pending(): boolean {
    return this.state !== 'idle';
  }

  reset(): void {
    this.state = 'idle';
    this.data = [];
  }

  push(chunk: Uint8Array): FrameEvent[] {
    const out: FrameEvent[] = [];
    for (const b of chunk) this.byte(b, out);
    return out;
  }

  private byte(b: number, out: FrameEvent[]): void {
    switch (this.state) {
      case 'idle':
        if (b === ACK) out.push({ kind: 'ack' });
        else if (b === NAK) out.push({ kind: 'nak' });
        else if (b === DLE) this.state = 'idle-dle';
        else this.noise++;
        return;
      case 'idle-dle':
        if (b === STX) {
          this.state = 'data';
          this.data = [];
        } else if (b !== DLE) {
          this.state = 'idle';
          this.noise += 2;
        }
        return;
      case 'data':
        if (b === DLE) this.state = 'data-dle';
        else if (this.data.length >= MAX_FRAME) {
          out.push({ kind: 'error', reason: 'too-long', message: 'frame longer than 70000 bytes' });
          this.reset();
        } else this.data.push(b);
        return;
      case 'data-dle':
        if (b === DLE) {
          this.data.push(DLE);
          this.state = 'data';
        } else if (b === ETX) this.state = 'crc1';
        else if (b === STX) {
          // A new frame began inside the old one: the old one was cut off.
          out.push({ kind: 'error', reason: 'bad-stuffing', message: 'frame restarted by 10 02' });
          this.data = [];
          this.state = 'data';
        } else {
          out.push({
            kind: 'error',
            reason: 'bad-stuffing',
            message: `10 ${b.toString(16)} inside a frame`,
          });
          this.reset();
        }
        return;
      case 'crc1':
        this.crcLo = b;
        this.state = 'crc2';
        return;
      case 'crc2': {
        const apdu = Uint8Array.from(this.data);
        const crc = this.crcLo | (b << 8);
        this.reset();
        if (crc !== zvtFrameCrc(apdu)) {
          out.push({ kind: 'error', reason: 'bad-checksum', message: 'CRC does not match' });
          return;
        }
        const parsed = parseApdu(apdu);
        if (!parsed.ok) out.push({ kind: 'error', reason: 'malformed', message: parsed.message });
        else out.push({ kind: 'frame', apdu: parsed.value });
        return;
      }
    }
  }
}
