// ESC/POS byte builders: initialise 1B 40, bold 1B 45 n, align 1B 61 n, size 1D 21 n, full cut
// 1D 56 00, QR through 1D 28 6B (model, module size, error correction, store, print), a
// CODE128 barcode through 1D 6B 49 (with its height 1D 68, module width 1D 77 and the
// human-readable text's position 1D 48), and the cash drawer's pulse 1B 70.
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

/**
 * The cash drawer's pulse, ESC p m t1 t2: pin 2 (m 0) or 5 (m 1), on for t1 x 2 ms and off for
 * t2 x 2 ms. 50 ms on, 500 ms off is what drawers commonly need.
 */
export function drawerPulse(pin: 2 | 5 = 2, onMs = 50, offMs = 500): Uint8Array {
  const t = (ms: number) => Math.min(255, Math.max(1, Math.round(ms / 2)));
  return Uint8Array.of(0x1b, 0x70, pin === 2 ? 0 : 1, t(onMs), t(offMs));
}

/** Symbols of GS k function B this encoder writes. */
export const CODE128 = 0x49;

/** The longest CODE128 data printed as a barcode; longer data goes in a QR (devices.md). */
export const BARCODE_MAX = 20;

/**
 * A CODE128 barcode of printable ASCII, code set B, `height` dots high, modules `width` dots
 * wide, its text printed below: GS h, GS w, GS H 2, GS k 73 n {B DATA.
 */
export function barcode(data: string, height = 80, width = 2): Uint8Array {
  const bytes = ascii(`{B${data}`);
  if (bytes.length > 255) throw new RangeError('barcode data too long');
  return concatBytes([
    Uint8Array.of(0x1d, 0x68, height),
    Uint8Array.of(0x1d, 0x77, width),
    Uint8Array.of(0x1d, 0x48, 0x02),
    Uint8Array.of(0x1d, 0x6b, CODE128, bytes.length),
    bytes,
  ]);
}
