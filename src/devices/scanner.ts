// Barcode and QR scanner lines: an optional AIM symbology identifier `]cm`, then the data.
// GS1 symbologies are split into AIs; EAN check digits are verified. Control bytes are kept.
// A GS1 composite symbol (a linear code and its 2D part) arrives as one line: `]e0` and its
// element string, or the linear code's own identifier, its data, a separator (`|`, GS or
// `]e0`) and the 2D part's element string (docs/devices.md, "Goods barcodes").
import { parseComposite } from './barcode.js';
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
  | 'gs1-composite'
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
  ']e0': 'gs1-composite',
  ']A0': 'code-39',
  ']L0': 'pdf417',
};

const GS1_SYMBOLOGIES: ReadonlySet<Symbology> = new Set([
  'gs1-128',
  'gs1-qr',
  'gs1-datamatrix',
  'gs1-composite',
]);
const GS = '\u001d';

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
    const composite = parseComposite(data);
    if (composite) {
      if (!composite.ok) return composite;
      return ok({ aim, symbology, data, gs1: composite.value.elements });
    }
    // ]E0 carries EAN-13 and UPC-A (13 digits with a leading 0, or the 12 of UPC-A).
    const lengths = symbology === 'ean-13' ? [12, 13] : [8];
    if (!/^\d+$/.test(data) || !lengths.includes(data.length)) {
      return fail('malformed', `${symbology} is ${lengths.join(' or ')} digits`);
    }
    if (!gtinCheckValid(data))
      return fail('bad-checksum', `${symbology} check digit does not match`);
  }
  let gs1: Gs1Element[] | null = null;
  if (GS1_SYMBOLOGIES.has(symbology)) {
    const parsed = gs1Of(data, symbology);
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

/**
 * The elements of a GS1 symbol. A composite's `|` is a separator like GS; a composite sent as
 * `]e0` with the linear EAN/UPC digits first reads as that GTIN (AI 01) and its 2D part.
 */
function gs1Of(data: string, symbology: Symbology): Decoded<Gs1Element[]> {
  const parsed = parseGs1(data.replaceAll('|', GS));
  if (parsed.ok || symbology !== 'gs1-composite') return parsed;
  const composite = parseComposite(data);
  if (!composite) return parsed;
  return composite.ok ? ok(composite.value.elements ?? []) : composite;
}
