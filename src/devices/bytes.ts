// Byte helpers shared by every protocol: hex in and out, and the result shape of a decoder.

/** Why a frame did not parse; `devices decode` prints it and exits 1. */
export type DecodeReason =
  'bad-checksum' | 'bad-stuffing' | 'truncated' | 'malformed' | 'unsupported';

export interface DecodeFailure {
  ok: false;
  reason: DecodeReason;
  message: string;
}

export type Decoded<T> = { ok: true; value: T } | DecodeFailure;

export function fail(reason: DecodeReason, message: string): DecodeFailure {
  return { ok: false, reason, message };
}

export function ok<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** `10 02 80` style: upper-case pairs separated by spaces, as the specs print them. */
export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(' ');
}

/** A number as upper-case hex of at least `digits` digits: `hexNumber(0x6c)` is `6C`. */
export function hexNumber(n: number, digits = 2): string {
  return n.toString(16).toUpperCase().padStart(digits, '0');
}

/** Accepts `10 02 80`, `100280`, `10:02:80` or `0x10 0x02`; null when it is not whole bytes of hex. */
export function parseHex(text: string): Uint8Array | null {
  const clean = text.replace(/0x/gi, '').replace(/[\s:,-]/g, '');
  if (clean.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(clean)) return null;
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(i * 2, i * 2 + 2), 16);
  return out;
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function ascii(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0xff;
  return out;
}

/** Bytes as a latin-1 string: one char per byte, control bytes kept (GS stays 0x1D). */
export function latin1(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}
