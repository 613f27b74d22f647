// Wayne DART line level: control frames `ADR CTRL SF` and data blocks
// `ADR CTRL {TRANS LNG DATA}... CRC-lo CRC-hi ETX SF`. Between ADR and ETX every 0xFA is sent as
// DLE FA; nothing else is escaped, so a lone 0x10 is a literal byte. A frame ends at the first
// unescaped SF. Pure: bytes in, frames or error values out; the serial line is the driver's.
import { type Decoded, fail, hexNumber, ok } from '../bytes.js';
import { crc16Arc, crcBytes } from './crc.js';

export const ETX = 0x03;
export const SF = 0xfa;
export const DLE = 0x10;
/** The line buffer limit, control characters included (counted on the wire, stuffed). */
export const MAX_FRAME = 256;
export const FIRST_ADDRESS = 0x50;
export const LAST_ADDRESS = 0x6f;

export type FrameType = 'poll' | 'iap' | 'data' | 'nak' | 'eot' | 'ack' | 'ackpoll';
export type ControlType = Exclude<FrameType, 'data'>;

/** `tx` is the block sequence number (0..F) of the sequenced types; 0 for POLL and IAP. */
export type DartFrame =
  | { type: ControlType; address: number; tx: number }
  | { type: 'data'; address: number; tx: number; data: Uint8Array };

// High nibble of CTRL; POLL (0x20) and IAP (0x40) are single values, the others carry TX#.
const BASE: Record<FrameType, number> = {
  poll: 0x20,
  data: 0x30,
  iap: 0x40,
  nak: 0x50,
  eot: 0x70,
  ack: 0xc0,
  ackpoll: 0xe0,
};
const SEQUENCED = new Map<number, FrameType>([
  [0x3, 'data'],
  [0x5, 'nak'],
  [0x7, 'eot'],
  [0xc, 'ack'],
  [0xe, 'ackpoll'],
]);

export function controlByte(type: FrameType, tx = 0): number {
  return type === 'poll' || type === 'iap' ? BASE[type] : BASE[type] | (tx & 0x0f);
}

/** The type and TX# of a CTRL byte; null when it is none of the line's control bytes. */
export function parseControl(b: number): { type: FrameType; tx: number } | null {
  if (b === BASE.poll) return { type: 'poll', tx: 0 };
  if (b === BASE.iap) return { type: 'iap', tx: 0 };
  const type = SEQUENCED.get(b >> 4);
  return type ? { type, tx: b & 0x0f } : null;
}

export function isAddress(b: number | undefined): boolean {
  return b !== undefined && b >= FIRST_ADDRESS && b <= LAST_ADDRESS;
}

/** Logical pump n (1..32) is address 0x4F + n: pump 1 is 0x50. */
export function pumpAddress(n: number): number {
  return FIRST_ADDRESS - 1 + n;
}

/** The TX# after `tx`: +1, and after F comes 1 (0 is used only after a protocol restart). */
export function nextTx(tx: number): number {
  return tx >= 0x0f ? 1 : tx + 1;
}

/**
 * A DATA block carrying the TX# of the last accepted one is a retransmission: ACK it again,
 * do not apply it again. Any other TX# is accepted (real pumps were seen wrapping F to 0 as well
 * as to 1).
 */
export function isRetransmission(lastAccepted: number | null, tx: number): boolean {
  return lastAccepted !== null && lastAccepted === tx;
}

/** The frame on the wire; refused (not thrown) when a field is out of range or it is too long. */
export function encodeFrame(frame: DartFrame): Decoded<Uint8Array> {
  if (!isAddress(frame.address))
    return fail('malformed', `address ${hexNumber(frame.address)} is outside 50..6F`);
  if (!Number.isInteger(frame.tx) || frame.tx < 0 || frame.tx > 0x0f)
    return fail('malformed', `TX# ${frame.tx} is outside 0..F`);
  const ctrl = controlByte(frame.type, frame.tx);
  if (frame.type !== 'data') return ok(Uint8Array.of(frame.address, ctrl, SF));
  const crc = crc16Arc([frame.address, ctrl, ...frame.data]);
  const out = [frame.address, ctrl];
  for (const b of [...frame.data, ...crcBytes(crc)]) {
    if (b === SF) out.push(DLE);
    out.push(b);
  }
  out.push(ETX, SF);
  if (out.length > MAX_FRAME)
    return fail('malformed', `a block of ${out.length} bytes is over the ${MAX_FRAME}-byte limit`);
  return ok(Uint8Array.from(out));
}

/** `10 FA` -> `FA`; any other 0x10 is literal. */
function unstuff(wire: ArrayLike<number>, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) {
    const b = wire[i] as number;
    if (b === DLE && wire[i + 1] === SF && i + 1 < to) continue;
    out.push(b);
  }
  return out;
}

/** One frame's wire bytes from `start` up to (not including) its final SF. */
function parseWire(wire: ArrayLike<number>, start = 0): Decoded<DartFrame> {
  const n = wire.length - start;
  if (n < 2) return fail('truncated', 'a frame has an address and a control byte before FA');
  const address = wire[start] as number;
  if (!isAddress(address)) return fail('malformed', `${hexNumber(address)} is not an address`);
  const control = parseControl(wire[start + 1] as number);
  if (!control)
    return fail('malformed', `${hexNumber(wire[start + 1] as number)} is not a control byte`);
  const { type, tx } = control;
  if (type !== 'data') {
    if (n !== 2) return fail('malformed', `a ${type} frame is three bytes, ADR CTRL FA`);
    return ok({ type, address, tx });
  }
  if (wire[wire.length - 1] !== ETX)
    return fail('bad-stuffing', 'an unescaped FA inside the block (no ETX before it)');
  if (n + 1 > MAX_FRAME)
    return fail('malformed', `a block of ${n + 1} bytes is over the ${MAX_FRAME}-byte limit`);
  const body = unstuff(wire, start + 2, wire.length - 1);
  if (body.length < 2) return fail('truncated', 'the block ends before its two CRC bytes');
  const data = Uint8Array.from(body.slice(0, -2));
  const got = (body[body.length - 2] as number) | ((body[body.length - 1] as number) << 8);
  const want = crc16Arc([address, wire[start + 1] as number, ...data]);
  if (got !== want)
    return fail('bad-checksum', `CRC ${hexNumber(got, 4)} does not match ${hexNumber(want, 4)}`);
  return ok({ type, address, tx, data });
}

/** Decodes exactly one frame (for `devices decode dart`): stuffing, ETX, SF and CRC checked. */
export function decodeFrame(bytes: Uint8Array): Decoded<DartFrame> {
  let dle = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b === SF && !dle) {
      if (i === bytes.length - 1) return parseWire(bytes.subarray(0, i));
      const head = parseWire(bytes.subarray(0, i));
      if (!head.ok) return head;
      return fail('malformed', `${bytes.length - i - 1} bytes after the stop flag FA`);
    }
    dle = b === DLE;
  }
  if (dle) return fail('bad-stuffing', 'the frame ends with DLE: an escape cut off');
  return fail('truncated', 'a frame ends with FA');
}

export type StreamErrorReason =
  'bad-checksum' | 'bad-stuffing' | 'truncated' | 'malformed' | 'too-long';

/** `address`/`tx` name the block when known, so that the driver can NAK it. */
export type DartEvent =
  | { kind: 'frame'; frame: DartFrame }
  | { kind: 'error'; reason: StreamErrorReason; message: string; address?: number; tx?: number };

/** The start of a data block at `i`: an address, then a DATA control byte. */
function dataStartAt(buf: readonly number[], i: number): boolean {
  return isAddress(buf[i]) && parseControl(buf[i + 1] ?? -1)?.type === 'data';
}

function errorAt(
  buf: readonly number[],
  i: number,
  reason: StreamErrorReason,
  message: string,
): DartEvent {
  const tx = parseControl(buf[i + 1] ?? -1)?.tx;
  return { kind: 'error', reason, message, address: buf[i], ...(tx === undefined ? {} : { tx }) };
}

/**
 * Frames from bytes as a serial line delivers them, in any chunks. Bytes that cannot start a
 * frame are skipped (counted in `noise`); a frame ends at an unescaped FA, where garbage before
 * it is dropped and the block found by its CRC. Never throws: a broken block is one `error`.
 * After a block over 256 bytes it waits for the next FA.
 */
export class DartStream {
  private buf: number[] = [];
  private dle = false;
  private skipping = false;
  /** Bytes skipped outside frames (line noise). */
  noise = 0;

  get pending(): boolean {
    return this.buf.length > 0 || this.skipping;
  }

  reset(): void {
    this.buf = [];
    this.dle = false;
    this.skipping = false;
  }

  push(chunk: Uint8Array): DartEvent[] {
    const out: DartEvent[] = [];
    for (const b of chunk) this.byte(b, out);
    return out;
  }

  /** The line went quiet (the driver's inter-byte timeout): a partial frame is reported. */
  end(): DartEvent[] {
    const buf = this.buf;
    const dle = this.dle;
    this.reset();
    if (buf.length === 0) return [];
    if (dle) return [errorAt(buf, 0, 'bad-stuffing', 'the block ends with DLE: an escape cut off')];
    return [errorAt(buf, 0, 'truncated', `a frame from ${hexNumber(buf[0] as number)} cut off`)];
  }

  private byte(b: number, out: DartEvent[]): void {
    const end = b === SF && !this.dle;
    this.dle = b === DLE;
    if (this.skipping) {
      if (end) this.skipping = false;
      return;
    }
    if (end) {
      this.terminate(out);
      return;
    }
    this.buf.push(b);
    this.trim();
    if (this.buf.length >= MAX_FRAME) {
      out.push(errorAt(this.buf, 0, 'too-long', `a block over ${MAX_FRAME} bytes`));
      this.buf = [];
      this.skipping = true;
    }
  }

  /** Drops leading bytes that cannot begin a frame (an address, then a control byte). */
  private trim(): void {
    const buf = this.buf;
    while (
      buf.length > 0 &&
      !(isAddress(buf[0]) && (buf.length < 2 || parseControl(buf[1] as number) !== null))
    ) {
      buf.shift();
      this.noise++;
    }
  }

  private terminate(out: DartEvent[]): void {
    const buf = this.buf;
    this.buf = [];
    const n = buf.length;
    if (n === 0) {
      this.noise++;
      return;
    }
    const last = parseControl(buf[n - 1] as number);
    if (n >= 2 && isAddress(buf[n - 2]) && last && last.type !== 'data') {
      if (n > 2 && dataStartAt(buf, 0))
        out.push(errorAt(buf, 0, 'truncated', 'a data block cut off by the next frame'));
      else this.noise += n - 2;
      out.push({
        kind: 'frame',
        frame: { type: last.type, address: buf[n - 2] as number, tx: last.tx },
      });
      return;
    }
    if (buf[n - 1] === ETX) {
      this.dataBlock(buf, out);
      return;
    }
    if (dataStartAt(buf, 0))
      out.push(errorAt(buf, 0, 'bad-stuffing', 'an unescaped FA inside the block'));
    else this.noise += n;
  }

  /** Buffer ending in ETX: the first start whose CRC holds is the block; garbage before it. */
  private dataBlock(buf: readonly number[], out: DartEvent[]): void {
    let firstFailure: DartEvent | null = null;
    for (let i = 0; i + 1 < buf.length; i++) {
      if (!dataStartAt(buf, i)) continue;
      const r = parseWire(buf, i);
      if (r.ok) {
        this.noise += i;
        out.push({ kind: 'frame', frame: r.value });
        return;
      }
      firstFailure ??= errorAt(
        buf,
        i,
        r.reason === 'unsupported' ? 'malformed' : r.reason,
        r.message,
      );
    }
    if (firstFailure) out.push(firstFailure);
    else this.noise += buf.length;
  }
}
