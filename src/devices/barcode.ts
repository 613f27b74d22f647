// Goods barcodes: what a scanned (or typed) code says about a good (docs/devices.md, "Goods
// barcodes"). EAN-8, EAN-13, UPC-A and GTIN-14 with their check digit; our in-store EAN-13
// labels, which carry a weight or a price; GS1 element strings (GS1-128, DataBar, GS1 QR and
// DataMatrix) with their weight, price and count; GS1 composite symbols (a linear code and
// its 2D part, joined by `|`, GS or `]e0`); anything else a store prints is a plain code.
// Pure: the scanner's recognition and the terminal's catalogue search share it.
import { fromMinor, toNumber } from '../money/index.js';
import { type Decoded, fail, ok } from './bytes.js';
import { type Gs1Element, gtinCheckValid, parseGs1 } from './gs1.js';

const GS = '\u001d';

/**
 * Our in-store label (EAN-13, prefix 2): `2`, the type, a 5-digit item number, a 5-digit value,
 * the check digit. Type 1: the value is the weight in grams; type 2: the price in cents. Other
 * prefixes 20, 23..29 are left to the store (loyalty cards, coupons): plain codes.
 */
export const IN_STORE = { weight: '21', price: '22' } as const;

export type GoodsBarcodeKind = 'gtin' | 'in-store-weight' | 'in-store-price' | 'gs1' | 'code';

export interface GoodsBarcode {
  kind: GoodsBarcodeKind;
  /** The code as a line carries it: the digits, GS1 in brackets `(01)...(3103)...`, or the code. */
  text: string;
  /**
   * What finds the good in the catalogue (`catalogKey` of its barcodes): a GTIN as 14 digits,
   * an in-store label's first seven digits, a plain code as it is; null for a GS1 symbol
   * without a GTIN (AI 01), which names no good.
   */
  key: string | null;
  /** The net weight in kg a label or AI (310n) gives, else null. */
  weight: number | null;
  /** The price a label or AI (392n) gives for the package, else null. */
  price: number | null;
  /** The count of items (AI 30), else null. */
  count: number | null;
  /** The GS1 elements (a composite's linear GTIN as AI 01 first), else null. */
  elements: Gs1Element[] | null;
}

const GTIN_LENGTHS = new Set([8, 12, 13, 14]);

/** The catalogue's key of a barcode it lists: GTINs as 14 digits, anything else as written. */
export function catalogKey(barcode: string): string {
  return /^\d+$/.test(barcode) && GTIN_LENGTHS.has(barcode.length)
    ? barcode.padStart(14, '0')
    : barcode;
}

const blank = { weight: null, price: null, count: null, elements: null } as const;

/** EAN-8, UPC-A, EAN-13 or GTIN-14 digits, check digit verified; in-store labels decoded. */
export function parseGtin(digits: string): Decoded<GoodsBarcode> {
  if (!/^\d+$/.test(digits) || !GTIN_LENGTHS.has(digits.length))
    return fail('malformed', 'a product barcode has 8, 12, 13 or 14 digits');
  if (!gtinCheckValid(digits))
    return fail('bad-checksum', 'the check digit does not match: scan or type it again');
  const prefix = digits.slice(0, 2);
  if (digits.length === 13 && (prefix === IN_STORE.weight || prefix === IN_STORE.price)) {
    const value = Number(digits.slice(7, 12));
    const weighed = prefix === IN_STORE.weight;
    return ok({
      ...blank,
      kind: weighed ? 'in-store-weight' : 'in-store-price',
      text: digits,
      key: digits.slice(0, 7),
      weight: weighed ? toNumber(fromMinor(value, 3)) : null,
      price: weighed ? null : toNumber(fromMinor(value, 2)),
    });
  }
  return ok({ ...blank, kind: 'gtin', text: digits, key: catalogKey(digits) });
}

/** `(01)09501101530003(3103)000456`: the bracketed form people read and type. */
function bracketed(elements: readonly Gs1Element[]): string {
  return elements.map((e) => `(${e.ai})${e.value}`).join('');
}

/** A decimal AI's value: its digits with the AI's last digit as the number of decimals. */
function decimalAi(el: Gs1Element): number {
  return toNumber(fromMinor(BigInt(el.value), Number(el.ai.slice(3))));
}

/** What GS1 elements say of a good: its GTIN, weight (310n), price (392n), count (30). */
export function fromElements(elements: Gs1Element[]): Decoded<GoodsBarcode> {
  for (const el of elements)
    if (['01', '02'].includes(el.ai) && !gtinCheckValid(el.value))
      return fail('bad-checksum', `the check digit of (${el.ai}) does not match: scan it again`);
  const find = (test: (ai: string) => boolean) => elements.find((e) => test(e.ai));
  const gtin = find((ai) => ai === '01');
  const weight = find((ai) => /^310\d$/.test(ai));
  const price = find((ai) => /^392\d$/.test(ai));
  const count = find((ai) => ai === '30');
  return ok({
    kind: 'gs1',
    text: bracketed(elements),
    key: gtin ? gtin.value : null,
    weight: weight ? decimalAi(weight) : null,
    price: price ? decimalAi(price) : null,
    count: count ? Number(count.value) : null,
    elements,
  });
}

/** A GS1 element string; `|` (a composite's separator as scanners send it) counts as GS. */
export function parseElementString(data: string): Decoded<GoodsBarcode> {
  const parsed = parseGs1(data.replaceAll('|', GS));
  return parsed.ok ? fromElements(parsed.value) : parsed;
}

/** The bracketed form typed by a person: `(01)...(10)...`. */
function parseBracketed(text: string): Decoded<GoodsBarcode> {
  const parts = [...text.matchAll(/\((\d{2,4})\)([^()]*)/g)];
  if (parts.map((m) => m[0]).join('') !== text || parts.length === 0)
    return fail('malformed', 'write GS1 as (AI)value pairs, e.g. (01)09501101530003');
  return parseElementString(parts.map((m) => `${m[1]}${m[2]}${GS}`).join(''));
}

/**
 * A composite: the linear EAN/UPC digits, a separator (`|`, GS or the 2D part's `]e0`), then
 * the 2D part's element string. The linear code becomes AI 01 (as a GTIN-14).
 */
export function parseComposite(text: string): Decoded<GoodsBarcode> | null {
  // eslint-disable-next-line no-control-regex -- GS separates a composite's parts
  const m = /^(\d{8}|\d{12,13})(?:\||\u001d|\]e0)(.+)$/su.exec(text);
  if (!m) return null;
  const linear = parseGtin(m[1]!);
  if (!linear.ok) return linear;
  const rest = parseGs1(m[2]!.replaceAll('|', GS));
  if (!rest.ok) return rest;
  return fromElements([{ ai: '01', value: m[1]!.padStart(14, '0') }, ...rest.value]);
}

/** AIM identifiers of the GS1 symbologies, whose data is an element string. */
const GS1_AIM = new Set([']C1', ']e0', ']Q3', ']d2']);
/** AIM identifiers of EAN/UPC (`]E0` EAN-13 and UPC-A, `]E4` EAN-8). */
const EAN_AIM = new Set([']E0', ']E4']);

/**
 * A code as a scanner sends it (with or without its AIM identifier) or as a person types it:
 * what it says of a good. A code of digits of a product barcode's length must pass its check
 * digit; a GS1 element string must parse. Anything else printable is a plain code.
 */
export function parseGoodsBarcode(input: string): Decoded<GoodsBarcode> {
  const text = input.trim();
  if (text.length === 0) return fail('truncated', 'no barcode');
  const aim = /^\][A-Za-z]\d/.test(text) ? text.slice(0, 3) : null;
  const data = aim ? text.slice(3) : text;
  if (data.length === 0) return fail('truncated', 'no data after the AIM identifier');
  const composite = parseComposite(data);
  if (aim && GS1_AIM.has(aim)) {
    const elements = parseElementString(data);
    return elements.ok ? elements : (composite ?? elements);
  }
  if (composite) return composite;
  if (aim && EAN_AIM.has(aim)) return parseGtin(data);
  if (data.startsWith('(')) return parseBracketed(data);
  if (data.startsWith(GS)) return parseElementString(data);
  if (/^\d+$/.test(data) && GTIN_LENGTHS.has(data.length)) return parseGtin(data);
  // eslint-disable-next-line no-control-regex -- what a plain code may not hold
  if (/[\u0000-\u001f\u007f]/.test(data)) return fail('malformed', 'control characters in a code');
  return ok({ ...blank, kind: 'code', text: data, key: data });
}
