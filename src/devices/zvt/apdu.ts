// ZVT APDU: CLASS INSTR LEN DATA. LEN is one byte, or FF followed by two bytes little-endian.
import { type Decoded, fail, ok } from '../bytes.js';

export interface Apdu {
  cls: number;
  ins: number;
  data: Uint8Array;
}

export function encodeApdu(apdu: Apdu): Uint8Array {
  const n = apdu.data.length;
  if (n > 0xffff) throw new RangeError('ZVT APDU data is at most 65535 bytes');
  const head = n < 0xff ? [apdu.cls, apdu.ins, n] : [apdu.cls, apdu.ins, 0xff, n & 0xff, n >> 8];
  const out = new Uint8Array(head.length + n);
  out.set(head, 0);
  out.set(apdu.data, head.length);
  return out;
}

/** Reads one APDU from the front of `buf`: the APDU and the bytes used, or null when more are needed. */
export function readApdu(buf: Uint8Array): { apdu: Apdu; used: number } | null {
  if (buf.length < 3) return null;
  let len = buf[2] ?? 0;
  let head = 3;
  if (len === 0xff) {
    if (buf.length < 5) return null;
    len = (buf[3] ?? 0) | ((buf[4] ?? 0) << 8);
    head = 5;
  }
  if (buf.length < head + len) return null;
  return {
    apdu: { cls: buf[0] ?? 0, ins: buf[1] ?? 0, data: buf.slice(head, head + len) },
    used: head + len,
  };
}

/** Exactly one APDU: its LEN must match the bytes given. */
export function parseApdu(buf: Uint8Array): Decoded<Apdu> {
  const r = readApdu(buf);
  if (r === null) return fail('truncated', `APDU shorter than its LEN says (${buf.length} bytes)`);
  if (r.used !== buf.length) {
    return fail('malformed', `LEN says ${r.used} bytes, ${buf.length} given`);
  }
  return ok(r.apdu);
}

const NAMES: Record<string, string> = {
  '0600': 'registration',
  '0601': 'authorisation',
  '0602': 'log-off',
  '060F': 'completion',
  '061E': 'abort (from terminal)',
  '0620': 'repeat-receipt',
  '0622': 'pre-authorisation',
  '0624': 'book-total',
  '0625': 'pre-authorisation-reversal',
  '0630': 'reversal',
  '0631': 'refund',
  '0650': 'end-of-day',
  '0670': 'diagnosis',
  '06B0': 'abort',
  '06C0': 'read-card',
  '06D1': 'print-line',
  '06D3': 'print-text-block',
  '06E0': 'display-text',
  '0501': 'status-enquiry',
  '040F': 'status-information',
  '04FF': 'intermediate-status',
  '8000': 'positive-acknowledgement',
};

export function apduName(cls: number, ins: number): string {
  const key = cls.toString(16).padStart(2, '0') + ins.toString(16).padStart(2, '0');
  const name = NAMES[key.toUpperCase()];
  if (name) return name;
  if (cls === 0x84) return 'negative-acknowledgement';
  return 'unknown';
}

/** A streaming reader of bare APDUs (ZVT over TCP): no framing, no CRC. */
export class ApduStream {
  private buf = new Uint8Array(0);

  get pending(): boolean {
    return this.buf.length > 0;
  }

  reset(): void {
    this.buf = new Uint8Array(0);
  }

  push(chunk: Uint8Array): Apdu[] {
    // Usually a read holds whole APDUs and nothing is pending: parse the chunk where it lies.
    let joined = chunk;
    if (this.buf.length > 0) {
      joined = new Uint8Array(this.buf.length + chunk.length);
      joined.set(this.buf, 0);
      joined.set(chunk, this.buf.length);
    }
    const out: Apdu[] = [];
    let at = 0;
    for (;;) {
      const r = readApdu(joined.subarray(at));
      if (r === null) break;
      out.push(r.apdu);
      at += r.used;
    }
    // A copy: the rest must not alias the caller's chunk, which it may reuse.
    this.buf = at === joined.length ? new Uint8Array(0) : joined.slice(at);
    return out;
  }
}
