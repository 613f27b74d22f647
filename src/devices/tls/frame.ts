// Veeder-Root TLS-3xx serial/TCP interface, computer format. Request: SOH i201 TT. Answer:
// SOH i201TT YYMMDDHHmm {tank records} && CCCC ETX, CCCC = 0x10000 - (16-bit sum of SOH..&&).
// An unsupported command answers SOH 9999FF1B ETX.
import { ascii, type Decoded, fail, latin1, ok } from '../bytes.js';

export const SOH = 0x01;
export const ETX = 0x03;

export function tlsChecksum(bytes: Uint8Array): string {
  let sum = 0;
  for (const b of bytes) sum = (sum + b) & 0xffff;
  return ((0x10000 - sum) & 0xffff).toString(16).toUpperCase().padStart(4, '0');
}

export function encodeRequest(fn: string, tank = '00'): Uint8Array {
  return Uint8Array.from([SOH, ...ascii(fn + tank)]);
}

/** Frames an answer body (`i20100...`) with `&&`, checksum and ETX. */
export function encodeAnswer(body: string): Uint8Array {
  const head = Uint8Array.from([SOH, ...ascii(body + '&&')]);
  return Uint8Array.from([...head, ...ascii(tlsChecksum(head)), ETX]);
}

export const UNSUPPORTED = Uint8Array.from([SOH, ...ascii('9999FF1B'), ETX]);

export type TlsAnswer = { kind: 'data'; body: string } | { kind: 'unsupported' };

export function decodeAnswer(bytes: Uint8Array): Decoded<TlsAnswer> {
  if (bytes.length === 0 || bytes[0] !== SOH)
    return fail(bytes.length === 0 ? 'truncated' : 'malformed', 'an answer starts with SOH (01)');
  if (bytes[bytes.length - 1] !== ETX) return fail('truncated', 'an answer ends with ETX (03)');
  const text = latin1(bytes.subarray(1, bytes.length - 1));
  if (text === '9999FF1B') return ok({ kind: 'unsupported' });
  const amp = text.lastIndexOf('&&');
  if (amp < 0) return fail('malformed', 'no && before the checksum');
  const cs = text.slice(amp + 2);
  if (!/^[0-9A-F]{4}$/.test(cs))
    return fail(
      cs.length < 4 ? 'truncated' : 'malformed',
      'the checksum is four upper-case hex digits',
    );
  const want = tlsChecksum(bytes.subarray(0, 1 + amp + 2));
  if (cs !== want) return fail('bad-checksum', `checksum ${cs} does not match ${want}`);
  return ok({ kind: 'data', body: text.slice(0, amp) });
}

/** SOH..ETX frames from a stream; noise outside is skipped. */
export class TlsStream {
  private buf: number[] | null = null;
  noise = 0;

  get pending(): boolean {
    return this.buf !== null;
  }

  reset(): void {
    this.buf = null;
  }

  push(chunk: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    for (const b of chunk) {
      if (b === SOH) {
        this.buf = [b];
        continue;
      }
      if (this.buf === null) {
        this.noise++;
        continue;
      }
      this.buf.push(b);
      if (b === ETX) {
        out.push(Uint8Array.from(this.buf));
        this.buf = null;
      } else if (this.buf.length > 16_384) this.buf = null;
    }
    return out;
  }
}
