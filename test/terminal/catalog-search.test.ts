// `catalog-search` over the POS catalogue in the cache (docs/terminal.md, "Goods"): goods by
// code, barcode or words, scanned codes as the lines they make, the quick keys; and the
// scanner telling goods from loyalty cards. A real till: SQLite in a temp directory, the
// sandbox central over HTTP.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import type { ErrorResponse } from '../../src/contract/commands.js';
import type { Recognition } from '../../src/devices/recognition.js';
import type { ReaderSimulator } from '../../src/devices/sim/reader-simulator.js';
import { tillPerTest, type Till } from './helpers.js';

const { signedIn } = tillPerTest();

describe('catalog-search', () => {
  it('finds a good by its code, in any case, with its catalogue figures', async () => {
    const t = await signedIn();
    const r = await t.ok('catalog-search', { query: 'wtr-1' });
    expect(r).toMatchObject({ match: 'code', pos_id: DEMO.posId, more: false });
    expect(r.goods).toEqual([
      {
        code: 'WTR-1',
        title: 'Water 0.5 l',
        category: 'shop',
        unit: 'pc',
        price: 1.49,
        whole_number: 1,
        barcodes: ['4260000000011'],
      },
    ]);
  });

  it('finds a good the POS record gained after the catalogue was first read', async () => {
    const t = await signedIn();
    expect((await t.ok('catalog-search', { query: 'NEW-1' })).goods).toEqual([]);
    const cache = t.terminal.store.cache;
    const pos = cache.get('pos', DEMO.posId)!;
    const catalog = [...(pos.catalog as unknown[]), { code: 'NEW-1', title: 'New', price: 2 }];
    cache.put('pos', { ...pos, catalog }, Date.now());
    expect((await t.ok('catalog-search', { query: 'NEW-1' })).goods).toMatchObject([
      { code: 'NEW-1', price: 2 },
    ]);
  });

  it('finds a good by its barcode and answers the line it makes', async () => {
    const t = await signedIn();
    const r = await t.ok('catalog-search', { query: '036000291452' });
    expect(r.match).toBe('barcode');
    expect(r.goods.map((g) => g.code)).toEqual(['OIL-1']);
    expect(r.scanned).toEqual({
      barcode: '036000291452',
      kind: 'gtin',
      quantity: 1,
      price: 12.9,
      line: { code: 'OIL-1', quantity: 1, barcode: '036000291452' },
    });
  });

  it('finds goods by every word of their titles, case and accents ignored', async () => {
    const t = await signedIn();
    expect((await t.ok('catalog-search', { query: 'BERGKASE  weight' })).goods).toMatchObject([
      { code: 'CHS-1', title: 'Bergkäse by weight' },
    ]);
    const both = await t.ok('catalog-search', { query: 'water oil' });
    expect(both).toMatchObject({ match: 'words', goods: [] });
  });

  it('narrows to a category and a limit, and says when more goods matched', async () => {
    const t = await signedIn();
    const r = await t.ok('catalog-search', { category: 'Shop', limit: 2 });
    expect(r.match).toBe('all');
    expect(r.goods.map((g) => g.code)).toEqual(['SNK-1', 'WTR-1']);
    expect(r.more).toBe(true);
  });

  it('answers the line of an in-store weight label: its weight at the catalogue price', async () => {
    const t = await signedIn();
    const r = await t.ok('catalog-search', { barcode: '2100042004566' });
    expect(r.scanned).toEqual({
      barcode: '2100042004566',
      kind: 'in-store-weight',
      quantity: 0.456,
      price: 24.9,
      line: { code: 'CHS-1', quantity: 0.456, barcode: '2100042004566' },
    });
  });

  it('answers the line of an in-store price label: one package at the label price', async () => {
    const t = await signedIn();
    const r = await t.ok('catalog-search', { barcode: ']E02200043003459' });
    expect(r.scanned).toMatchObject({ kind: 'in-store-price', quantity: 1, price: 3.45 });
    expect(r.goods.map((g) => g.code)).toEqual(['CAKE-1']);
  });

  it('reads a GS1 composite scan as its good', async () => {
    const t = await signedIn();
    const r = await t.ok('catalog-search', { barcode: ']E04260000000011|10LOT42\u001d17271231' });
    expect(r.goods.map((g) => g.code)).toEqual(['WTR-1']);
    expect(r.scanned?.line).toEqual({
      code: 'WTR-1',
      quantity: 1,
      barcode: '(01)04260000000011(10)LOT42(17)271231',
    });
  });

  it('refuses a barcode whose check digit does not match, naming the field', async () => {
    const t = await signedIn();
    const r = await t.call('catalog-search', { barcode: '4260000000012' });
    expect(r.status).toBe(400);
    expect((r.body as ErrorResponse).error).toMatchObject({
      code: 'invalid-input',
      path: 'barcode',
      message: expect.stringMatching(/check digit does not match/),
    });
  });

  it('answers no good for a valid barcode the catalogue does not list', async () => {
    const t = await signedIn();
    const r = await t.ok('catalog-search', { barcode: '4006381333931' });
    expect(r).toMatchObject({ match: 'barcode', goods: [] });
    expect(r.scanned).toBeUndefined();
  });

  it('answers the quick keys by category when none are configured', async () => {
    const t = await signedIn();
    const r = await t.ok('catalog-search', { quick_keys: true, limit: 1 });
    const pages = r.quick_keys!.map((p) => [p.category, p.goods.map((g) => g.code)]);
    expect(pages).toEqual([
      ['fuel', ['FUEL-95', 'FUEL-98', 'DIESEL']],
      ['coffee', ['COF-1', 'COF-2']],
      ['shop', ['SNK-1', 'WTR-1', 'OIL-1', 'EGG-6', 'CHS-1', 'WASH-5']],
      ['bakery', ['CAKE-1']],
    ]);
  });

  it('answers the configured quick keys, leaving out codes the catalogue does not list', async () => {
    const t = await signedIn(DEMO.authCodes.cashier, {
      terminal_config: {
        quick_keys: [{ category: 'Café', codes: ['COF-2', 'GONE-1', 'COF-1'] }],
      },
    });
    const r = await t.ok('catalog-search', { quick_keys: true });
    expect(r.quick_keys).toEqual([
      {
        category: 'Café',
        goods: [
          expect.objectContaining({ code: 'COF-2' }),
          expect.objectContaining({ code: 'COF-1' }),
        ],
        missing: ['GONE-1'],
      },
    ]);
  });
});

describe('the scanner at the till', () => {
  async function scan(t: Till, line: string): Promise<Recognition> {
    const reads: Recognition[] = [];
    const off = t.terminal.onRead((r) => reads.push(r));
    const sim = t.terminal.devices!.simulators.scanner as ReaderSimulator;
    await sim.read(line);
    for (let i = 0; i < 100 && reads.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    off();
    return reads[0]!;
  }

  it('takes a product barcode of the catalogue for a good, not a loyalty card', async () => {
    const t = await signedIn();
    // Valid EAN-13 digits no goods rule claims: only the catalogue tells it is a good's.
    expect(await scan(t, ']E04260000000042')).toEqual({
      kind: 'goods',
      barcode: '4260000000042',
      source: 'scanner',
    });
    expect(await scan(t, DEMO.cards.anna)).toMatchObject({ kind: 'identifier', id_type: 'card' });
  });
});
