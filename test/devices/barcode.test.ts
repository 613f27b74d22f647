// Goods barcodes (docs/devices.md, "Goods barcodes"): check digits, our in-store labels, GS1
// element strings and composite symbols, and the scanner telling goods from loyalty cards.
import { describe, expect, it } from 'vitest';
import { catalogKey, parseGoodsBarcode, type GoodsBarcode } from '../../src/devices/barcode.js';
import { Recognizer } from '../../src/devices/recognition.js';
import { parseScan } from '../../src/devices/scanner.js';

const GS = '\u001d';

const parsed = (text: string): GoodsBarcode => {
  const r = parseGoodsBarcode(text);
  if (!r.ok) throw new Error(r.message);
  return r.value;
};

describe('product barcodes and their check digits', () => {
  it('takes an EAN-13 whose check digit holds, keyed as a GTIN-14', () => {
    expect(parsed('4260000000011')).toMatchObject({
      kind: 'gtin',
      text: '4260000000011',
      key: '04260000000011',
    });
  });

  it('refuses an EAN-13 whose check digit does not match, in words a cashier understands', () => {
    expect(parseGoodsBarcode('4260000000012')).toMatchObject({
      ok: false,
      reason: 'bad-checksum',
      message: expect.stringMatching(/check digit does not match/),
    });
  });

  it('checks the check digit of an EAN-8', () => {
    expect(parsed('96385074')).toMatchObject({ kind: 'gtin', key: '00000096385074' });
    expect(parseGoodsBarcode('96385075')).toMatchObject({ ok: false, reason: 'bad-checksum' });
  });

  it('checks the check digit of a UPC-A, which finds the good its EAN-13 form names', () => {
    expect(parsed('036000291452').key).toBe(catalogKey('0036000291452'));
    expect(parseGoodsBarcode('036000291453')).toMatchObject({ ok: false, reason: 'bad-checksum' });
  });

  it('reads a UPC-A sent with ]E0 as 12 digits, as some scanners do', () => {
    expect(parseScan(']E0036000291452')).toMatchObject({
      ok: true,
      value: { symbology: 'ean-13' },
    });
    expect(parseScan(']E0036000291453')).toMatchObject({ ok: false, reason: 'bad-checksum' });
  });
});

describe('in-store labels: 2, the type, a 5-digit item, a 5-digit value, the check digit', () => {
  it('reads type 1 as the weight in grams, keyed by its first seven digits', () => {
    expect(parsed('2100042004566')).toMatchObject({
      kind: 'in-store-weight',
      key: '2100042',
      weight: 0.456,
      price: null,
    });
  });

  it('reads type 2 as the price in cents', () => {
    expect(parsed('2200043003459')).toMatchObject({
      kind: 'in-store-price',
      key: '2200043',
      price: 3.45,
      weight: null,
    });
  });

  it('verifies the check digit of an in-store label', () => {
    expect(parseGoodsBarcode('2100042004567')).toMatchObject({ ok: false, reason: 'bad-checksum' });
  });

  it('leaves the other 2x prefixes to the store as plain product codes', () => {
    expect(parsed('2012345678903')).toMatchObject({ kind: 'gtin', weight: null, price: null });
  });
});

describe('GS1 element strings and composite symbols', () => {
  it('reads the GTIN, the net weight (310n) and the price (392n) of a GS1-128', () => {
    expect(parsed(`]C10109501101530003310300045639220345`)).toMatchObject({
      kind: 'gs1',
      key: '09501101530003',
      weight: 0.456,
      price: 3.45,
      text: '(01)09501101530003(3103)000456(3922)0345',
    });
  });

  it('reads the bracketed form a person types', () => {
    expect(parsed('(01)09501101530003(30)2')).toMatchObject({ key: '09501101530003', count: 2 });
  });

  it('reads an EAN-13 composite sent with | between the linear code and its 2D part', () => {
    expect(parsed(']E04260000000011|10ABC123')).toMatchObject({
      kind: 'gs1',
      key: '04260000000011',
      text: '(01)04260000000011(10)ABC123',
    });
  });

  it('reads an EAN-13 composite sent with the 2D part’s own ]e0 identifier', () => {
    expect(parsed(']E04260000000011]e017261231')).toMatchObject({
      key: '04260000000011',
      text: '(01)04260000000011(17)261231',
    });
  });

  it('reads a composite sent whole as ]e0, its 2D part after FNC1 (GS)', () => {
    expect(parsed(`]e00109501101530003${GS}10LOT7${GS}3103000456`)).toMatchObject({
      key: '09501101530003',
      weight: 0.456,
    });
  });

  it('refuses a composite whose linear code fails its check digit', () => {
    expect(parseGoodsBarcode(']E04260000000012|10ABC')).toMatchObject({
      ok: false,
      reason: 'bad-checksum',
    });
  });

  it('parses a composite scan instead of refusing it', () => {
    const scan = parseScan(']E04260000000011|10ABC123');
    expect(scan).toMatchObject({
      ok: true,
      value: {
        symbology: 'ean-13',
        gs1: [
          { ai: '01', value: '04260000000011' },
          { ai: '10', value: 'ABC123' },
        ],
      },
    });
    expect(parseScan(`]e00109501101530003${GS}10LOT7`)).toMatchObject({
      ok: true,
      value: { symbology: 'gs1-composite' },
    });
  });
});

describe('goods and loyalty cards at the scanner', () => {
  const listed = new Set([catalogKey('4260000000011'), catalogKey('036000291452')]);
  const rec = new Recognizer({}, (b) => b.key !== null && listed.has(b.key));
  const recognise = (line: string) => {
    const s = parseScan(line);
    if (!s.ok) throw new Error(s.message);
    return rec.recogniseScan(s.value);
  };

  it('takes a product barcode the catalogue lists for a good, not a loyalty card', () => {
    expect(recognise(']E04260000000011')).toEqual({
      kind: 'goods',
      barcode: '4260000000011',
      source: 'scanner',
    });
    // The same digits without the catalogue would be looked up as a card.
    expect(new Recognizer().recogniseScan(parseScanOk(']E04260000000011'))).toMatchObject({
      kind: 'identifier',
      id_type: 'card',
    });
  });

  it('takes a listed product barcode sent without an AIM identifier for a good', () => {
    expect(recognise('036000291452')).toMatchObject({ kind: 'goods', barcode: '036000291452' });
  });

  it('takes an in-store label for a good by its rule, without the catalogue', () => {
    expect(recognise('2100042004566')).toMatchObject({ kind: 'goods', barcode: '2100042004566' });
  });

  it('reports an in-store label with a wrong check digit as a misread, never as a card', () => {
    expect(recognise('2100042004567')).toMatchObject({
      kind: 'unrecognised',
      reason: expect.stringMatching(/check digit/),
    });
  });

  it('takes any GS1 symbol with a GTIN for a good, composites included', () => {
    expect(recognise(`]C10109501101530003310300045639220345`)).toMatchObject({
      kind: 'goods',
      barcode: '(01)09501101530003(3103)000456(3922)0345',
    });
    expect(recognise(']E04260000000028|10ABC')).toMatchObject({ kind: 'goods' });
  });

  it('still takes a loyalty card for a card, and a GS1 card number (8004) for its id', () => {
    expect(recognise('7001000000001')).toMatchObject({ kind: 'identifier', id: '7001000000001' });
    expect(recognise(`]C18004LOYAL-42`)).toMatchObject({
      kind: 'identifier',
      id: 'LOYAL-42',
      id_type: 'external-id',
    });
  });
});

function parseScanOk(line: string) {
  const s = parseScan(line);
  if (!s.ok) throw new Error(s.message);
  return s.value;
}
