// Packed BCD as DART sends every number: two digits a byte, most significant first. No decimal
// point is on the wire; values are integers (at most 10 digits, so exact in a JS number).
import { type Decoded, fail, ok } from '../bytes.js';

/** `value` in `width` bytes; refused when it is not a whole number that fits. */
export function encodeBcd(value: number, width: number, field: string): Decoded<Uint8Array> {
  if (!Number.isSafeInteger(value) || value < 0)
    return fail('malformed', `${field} ${value} is not a whole number of 0 or more`);
  const digits = String(value);
  if (digits.length > width * 2)
    return fail('malformed', `${field} ${value} has more than ${width * 2} digits`);
  const padded = digits.padStart(width * 2, '0');
  const out = new Uint8Array(width);
  for (let i = 0; i < width; i++) out[i] = (Number(padded[2 * i]) << 4) | Number(padded[2 * i + 1]);
  return ok(out);
}

/** The integer the bytes spell; null when a nibble is not a decimal digit. */
export function decodeBcd(bytes: Uint8Array): number | null {
  let value = 0;
  for (const b of bytes) {
    const hi = b >> 4;
    const lo = b & 0x0f;
    if (hi > 9 || lo > 9) return null;
    value = value * 100 + hi * 10 + lo;
  }
  return value;
}
