// Barcode and QR scanner lines: an optional AIM symbology identifier `]cm`, then the data.
// GS1 symbologies are split into AIs; EAN check digits are verified. Control bytes are kept.
import { type Decoded, fail, latin1, ok } from './bytes.js';
import { type Gs1Element, gtinCheckValid, parseGs1 } from './gs1.js';

export type Symbology =
  | 'ean-13'
  | 'ean-8'
  | 'gs1-128'
  | 'code-128'
  | 'qr'
  | 'gs1-qr'
  | 'datamatrix'
  | 'gs1-datamatrix'
  | 'code-39'
  | 'pdf417'
  | 'unknown';

export interface Scan {
  /** The AIM identifier as sent (`]E0`), or null when the scanner sends none. */
  aim: string | null;
  symbology: Symbology;
  /** The data after the AIM identifier, byte for byte (GS kept). */
  data: string;
  gs1: Gs1Element[] | null;
}

const AIM: Record<string, Symbology> = {
  ']E0': 'ean-13',
  ']E4': 'ean-8',
  ']C0': 'code-128',
  ']C1': 'gs1-128',
  ']Q1': 'qr',
  ']Q3': 'gs1-qr',
  ']d1': 'datamatrix',
  ']d2': 'gs1-datamatrix',
  ']A0': 'code-39',
  ']L0': 'pdf417',
};

const GS1_SYMBOLOGIES: ReadonlySet<Symbology> = new Set(['gs1-128', 'gs1-qr', 'gs1-datamatrix']);

export function parseScan(line: Uint8Array | string): Decoded<Scan> {
  const text = typeof line === 'string' ? line : latin1(line);
  if (text.length === 0) return fail('truncated', 'empty scan');
  let aim: string | null = null;
  let symbology: Symbology = 'unknown';
  let data = text;
  if (text.startsWith(']')) {
    if (text.length < 3) return fail('truncated', 'AIM identifier needs three characters');
    aim = text.slice(0, 3);
    symbology = AIM[aim] ?? 'unknown';
    data = text.slice(3);
  }
  if (data.length === 0) return fail('truncated', 'no data after the AIM identifier');
  if (symbology === 'ean-13' || symbology === 'ean-8') {
    // ]E0 also carries UPC-A (12 digits as 13 with a leading 0) and add-ons; we accept 13 or 8.
    const len = symbology === 'ean-13' ? 13 : 8;
    if (!/^\d+$/.test(data) || data.length !== len) {
      return fail('malformed', `${symbology} is ${len} digits`);
    }
    if (!gtinCheckValid(data))
      return fail('bad-checksum', `${symbology} check digit does not match`);
  }
  let gs1: Gs1Element[] | null = null;
  if (GS1_SYMBOLOGIES.has(symbology)) {
    const parsed = parseGs1(data);
    if (!parsed.ok) return parsed;
    gs1 = parsed.value;
    for (const el of gs1) {
      if (['00', '01', '02', '03'].includes(el.ai) && !gtinCheckValid(el.value)) {
        return fail('bad-checksum', `AI (${el.ai}) check digit does not match`);
      }
    }
  }
  return ok({ aim, symbology, data, gs1 });
}
