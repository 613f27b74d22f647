// ZVT data fields ("BMPs"): a tag byte, then a fixed length, an LL/LLL length in Fx digits, or a
// BER length for the TLV container (06). BCD helpers for amounts, currency, receipt numbers.
import { ascii, hexNumber, latin1, toHex } from '../bytes.js';

type Len = number | 'LL' | 'LLL' | 'TLV';

const SPEC: Record<number, [string, Len]> = {
  0x01: ['timeout', 1],
  0x02: ['max-status-infos', 1],
  0x03: ['service-byte', 1],
  0x04: ['amount', 6],
  0x05: ['pump-number', 1],
  0x06: ['tlv', 'TLV'],
  0x0b: ['trace-number', 3],
  0x0c: ['time', 3],
  0x0d: ['date', 2],
  0x0e: ['expiry-date', 2],
  0x17: ['card-sequence-number', 2],
  0x19: ['payment-type', 1],
  0x22: ['card-number', 'LL'],
  0x23: ['track-2', 'LL'],
  0x24: ['track-3', 'LLL'],
  0x27: ['result-code', 1],
  0x29: ['terminal-id', 4],
  0x2a: ['vu-number', 15],
  0x2d: ['track-1', 'LL'],
  0x2e: ['sync-chip-data', 'LLL'],
  0x37: ['original-trace', 3],
  0x3a: ['cvv', 2],
  0x3b: ['aid', 8],
  0x3c: ['additional-data', 'LLL'],
  0x3d: ['password', 3],
  0x49: ['currency', 2],
  0x4c: ['blocked-goods-groups', 'LL'],
  0x60: ['single-amounts', 'LLL'],
  0x87: ['receipt-number', 2],
  0x88: ['turnover-number', 3],
  0x8a: ['card-type', 1],
  0x8b: ['card-name', 'LL'],
  0x8c: ['card-type-id', 1],
  0x9a: ['geldkarte-data', 'LLL'],
  0xa0: ['result-code-as', 1],
  0xa7: ['chip-data', 'LL'],
  0xaf: ['emv-print-data', 'LLL'],
  0xba: ['aid-parameter', 5],
  0xd0: ['algorithm-key', 1],
  0xd1: ['offset', 'LL'],
  0xd2: ['direction', 1],
  0xd3: ['key-position', 1],
  0xe0: ['min-length', 1],
  0xe9: ['max-length', 1],
  0xea: ['echo-input', 1],
  0xf0: ['display-duration', 1],
  0xf1: ['text-line-1', 'LL'],
  0xf2: ['text-line-2', 'LL'],
  0xf3: ['text-line-3', 'LL'],
  0xf4: ['text-line-4', 'LL'],
  0xf5: ['text-line-5', 'LL'],
  0xf6: ['text-line-6', 'LL'],
  0xf7: ['text-line-7', 'LL'],
  0xf8: ['text-line-8', 'LL'],
  0xf9: ['beep-tones', 1],
};

export interface BmpField {
  tag: number;
  name: string;
  raw: Uint8Array;
}

export interface BmpList {
  fields: BmpField[];
  /** Bytes from an unknown tag on (or after a cut-off field), undecoded. */
  rest: Uint8Array;
  error: string | null;
}

/** Walks the data block of an APDU; unknown tags stop the walk without failing it. */
export function parseBmps(data: Uint8Array, start = 0): BmpList {
  const fields: BmpField[] = [];
  let i = start;
  while (i < data.length) {
    const tag = data[i] as number;
    const spec = SPEC[tag];
    if (!spec) return { fields, rest: data.slice(i), error: null };
    const [name, len] = spec;
    let at = i + 1;
    let n: number;
    if (typeof len === 'number') n = len;
    else if (len === 'TLV') {
      const ber = readBerLength(data, at);
      if (ber === null) return { fields, rest: data.slice(i), error: `BMP 06 length cut off` };
      n = ber.length;
      at = ber.next;
    } else {
      const digits = len === 'LL' ? 2 : 3;
      if (at + digits > data.length)
        return { fields, rest: data.slice(i), error: `${name}: length cut off` };
      n = 0;
      for (let k = 0; k < digits; k++) {
        const d = data[at + k] as number;
        if ((d & 0xf0) !== 0xf0 || (d & 0x0f) > 9) {
          return {
            fields,
            rest: data.slice(i),
            error: `${name}: length digit ${d.toString(16)} is not Fx`,
          };
        }
        n = n * 10 + (d & 0x0f);
      }
      at += digits;
    }
    if (at + n > data.length) return { fields, rest: data.slice(i), error: `${name}: cut off` };
    fields.push({ tag, name, raw: data.slice(at, at + n) });
    i = at + n;
  }
  return { fields, rest: new Uint8Array(0), error: null };
}

function readBerLength(data: Uint8Array, at: number): { length: number; next: number } | null {
  const first = data[at];
  if (first === undefined) return null;
  if (first < 0x80) return { length: first, next: at + 1 };
  const count = first & 0x7f;
  if (count < 1 || count > 2 || at + 1 + count > data.length) return null;
  let n = 0;
  for (let k = 0; k < count; k++) n = (n << 8) | (data[at + 1 + k] as number);
  return { length: n, next: at + 1 + count };
}

/** Digits to packed BCD of `bytes` bytes, left-padded with zeros. */
export function toBcd(digits: string, bytes: number): Uint8Array {
  const s = digits.padStart(bytes * 2, '0');
  if (!/^\d+$/.test(s) || s.length !== bytes * 2)
    throw new RangeError(`"${digits}" does not fit ${bytes} BCD bytes`);
  const out = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) out[i] = (Number(s[i * 2]) << 4) | Number(s[i * 2 + 1]);
  return out;
}

/** Packed BCD to digits; a nibble above 9 (the PT masks digits as E, pads with F) becomes its hex letter. */
export function fromBcd(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes)
    s += (b >> 4).toString(16).toUpperCase() + (b & 0x0f).toString(16).toUpperCase();
  return s;
}

export function bcdAmount(cents: number): Uint8Array {
  if (!Number.isSafeInteger(cents) || cents < 0 || cents > 999_999_999_999) {
    throw new RangeError('ZVT amounts are 0 to 999999999999 cents');
  }
  return toBcd(String(cents), 6);
}

/** An ISO 4217 numeric code (978) as two BCD bytes (09 78). */
export function bcdCurrency(code: number): Uint8Array {
  return toBcd(String(code), 2);
}

export interface FieldValue {
  tag: string;
  name: string;
  value: string | number;
}

/** Human-readable value of one field, for decode output and status information. */
export function fieldValue(f: BmpField): FieldValue {
  const tag = hexNumber(f.tag);
  let value: string | number;
  switch (f.tag) {
    case 0x04:
    case 0x0b:
    case 0x37:
    case 0x87:
    case 0x88:
    case 0x49:
    case 0x29:
      value = /^\d+$/.test(fromBcd(f.raw)) ? Number(fromBcd(f.raw)) : fromBcd(f.raw);
      break;
    case 0x0c:
    case 0x0d:
    case 0x0e:
    case 0x17:
    case 0x3d:
      value = fromBcd(f.raw);
      break;
    case 0x22:
      // PAN in BCD, masked digits as E, padded with F: shown masked, never in clear.
      value = fromBcd(f.raw).replace(/F+$/, '').replace(/E/g, '*');
      break;
    case 0x01:
    case 0x02:
    case 0x03:
    case 0x05:
    case 0x19:
    case 0x27:
    case 0x8a:
    case 0x8c:
    case 0xa0:
    case 0xf0:
    case 0xf9:
      value = f.raw[0] ?? 0;
      break;
    case 0x2a:
    case 0x3b:
    case 0x8b:
    case 0x3c:
    case 0xf1:
    case 0xf2:
    case 0xf3:
    case 0xf4:
    case 0xf5:
    case 0xf6:
    case 0xf7:
    case 0xf8:
      value = latin1(f.raw).replace(/\0+$/, '');
      break;
    default:
      value = toHex(f.raw);
  }
  return { tag, name: f.name, value };
}

export function asciiField(tag: number, text: string): Uint8Array {
  const body = ascii(text);
  const spec = SPEC[tag];
  if (spec?.[1] === 'LL' || spec?.[1] === 'LLL') {
    return Uint8Array.from([tag, ...lengthDigits(body.length, spec[1] === 'LL' ? 2 : 3), ...body]);
  }
  return Uint8Array.from([tag, ...body]);
}

/** An LL/LLL length: its decimal digits as F0..F9 bytes. */
function lengthDigits(n: number, digits: number): number[] {
  return Array.from(String(n).padStart(digits, '0'), (c) => 0xf0 | Number(c));
}

/** An LL-var field of BCD nibbles (hex digits), an odd count padded with F. */
export function nibbleField(tag: number, nibbles: string): Uint8Array {
  const padded = nibbles.length % 2 ? nibbles + 'F' : nibbles;
  const bytes = Uint8Array.from(padded.match(/../g) ?? [], (h) => parseInt(h, 16));
  return Uint8Array.from([tag, ...lengthDigits(bytes.length, 2), ...bytes]);
}

/** A PAN for BMP 22: digits with masked ones as E, odd length padded with F, LL-var. */
export function panField(masked: string): Uint8Array {
  return nibbleField(0x22, masked.replace(/\*/g, 'E'));
}
