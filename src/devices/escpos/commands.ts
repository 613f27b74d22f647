// ESC/POS byte builders: initialise 1B 40, bold 1B 45 n, align 1B 61 n, size 1D 21 n, full cut
// 1D 56 00, QR through 1D 28 6B (model, module size, error correction, store, print).
import { ascii, concatBytes } from '../bytes.js';

export const init = (): Uint8Array => Uint8Array.of(0x1b, 0x40);
export const bold = (on: boolean): Uint8Array => Uint8Array.of(0x1b, 0x45, on ? 1 : 0);
export const align = (a: 'left' | 'center' | 'right'): Uint8Array =>
  Uint8Array.of(0x1b, 0x61, a === 'left' ? 0 : a === 'center' ? 1 : 2);
/** Width and height multipliers 1..8 each. */
export const size = (w: number, h: number): Uint8Array =>
  Uint8Array.of(0x1d, 0x21, (((w - 1) & 7) << 4) | ((h - 1) & 7));
export const cut = (): Uint8Array => Uint8Array.of(0x1d, 0x56, 0x00);
export const feed = (): Uint8Array => Uint8Array.of(0x0a);
/** Real-time status request (DLE EOT 1): the printer answers one byte at once. */
export const statusRequest = (): Uint8Array => Uint8Array.of(0x10, 0x04, 0x01);

/**
 * Text in the printer's default code page: accents dropped, anything else beyond ASCII
 * printed as `?` (a receipt must never carry control bytes from data).
 */
export function text(s: string): Uint8Array {
  const plain = s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return ascii(plain.replace(/[^\x20-\x7e]/g, '?'));
}

export const line = (s: string): Uint8Array => concatBytes([text(s), feed()]);

export type QrCorrection = 'L' | 'M' | 'Q' | 'H';

function qrFn(fn: number, params: number[]): Uint8Array {
  const n = params.length + 2;
  return Uint8Array.from([0x1d, 0x28, 0x6b, n & 0xff, n >> 8, 0x31, fn, ...params]);
}

/** Model 2, module size, error correction, store the data, print it. */
export function qr(data: string, moduleSize = 3, correction: QrCorrection = 'L'): Uint8Array {
  const bytes = ascii(data);
  const store = bytes.length + 3;
  if (store > 0xffff) throw new RangeError('QR data too long');
  return concatBytes([
    qrFn(0x41, [0x32, 0x00]),
    qrFn(0x43, [moduleSize]),
    qrFn(0x45, [0x30 + 'LMQH'.indexOf(correction)]),
    Uint8Array.from([0x1d, 0x28, 0x6b, store & 0xff, store >> 8, 0x31, 0x50, 0x30, ...bytes]),
    qrFn(0x51, [0x30]),
  ]);
}
