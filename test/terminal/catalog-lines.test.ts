// A check's lines and the POS catalogue (docs/terminal.md, "Goods"): the catalogue's figures,
// scanned labels, the POS's `check_item_enter_mode`, lines entered by hand with a reason, and
// whole pieces. A real till: SQLite in a temp directory, the sandbox central over HTTP.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral } from '../../src/central/index.js';
import type { ErrorResponse } from '../../src/contract/commands.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { setEnterMode } from '../support/catalogue.js';
import { item, openTill, tempDir, tillPerTest, type Till, type TillOptions } from './helpers.js';

const { signedIn } = tillPerTest();

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.reverse()) await c();
  cleanups = [];
});

/** A signed-in till whose demo POS sells in `mode` (set before the till's first pull). */
async function tillWithMode(mode: string, o: TillOptions = {}): Promise<Till> {
  const dir = tempDir('lt-catalog-');
  const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
  setEnterMode(central, mode);
  const t = await openTill({ ...o, dir, central });
  cleanups.push(async () => {
    await t.close();
    await central.close();
    rmSync(dir, { recursive: true, force: true });
  });
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
  await t.ok('shift-open', {});
  return t;
}

const calc = (t: Till, lines: unknown[]) => t.call('check-calc', { check: { check_items: lines } });

async function invalidAt(t: Till, lines: unknown[], path: string): Promise<ErrorResponse> {
  const r = await calc(t, lines);
  expect(r.status, JSON.stringify(r.body)).toBe(400);
  const body = r.body as ErrorResponse;
  expect(body.error).toMatchObject({ code: 'invalid-input', path });
  return body;
}
describe('a line and the catalogue', () => {
  it('takes its title, unit, category and price from the catalogue', async () => {
    const t = await signedIn();
    const r = await t.ok('check-calc', { check: { check_items: [item('WTR-1', 2)] } });
    expect(r.check.check_items![0]).toMatchObject({
      code: 'WTR-1',
      title: 'Water 0.5 l',
      unit: 'pc',
      category: 'shop',
      price: 1.49,
      amount: 2.98,
    });
  });

  it('sells a scanned weight label at its weight and the catalogue price per kg', async () => {
    const t = await signedIn();
    const { scanned } = await t.ok('catalog-search', { barcode: '2100042004566' });
    const r = await t.ok('check-calc', { check: { check_items: [scanned!.line] } });
    // 0.456 kg x 24.90 = 11.3544
    expect(r.check.check_items![0]).toMatchObject({ quantity: 0.456, price: 24.9, amount: 11.35 });
    expect(r.check.check_items![0]).not.toHaveProperty('barcode');
  });

  it('sells a scanned price label at the label price', async () => {
    const t = await signedIn();
    const { scanned } = await t.ok('catalog-search', { barcode: '2200043003459' });
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: id,
      check: { check_items: [scanned!.line], payment_type: 'cash' },
    });
    expect(sale.check.check_items![0]).toMatchObject({ code: 'CAKE-1', price: 3.45, amount: 3.45 });
    expect(sale.check.amount_to_pay).toBe(3.45);
  });

  it('refuses a quantity other than the weight label says, naming the quantity', async () => {
    const t = await signedIn();
    await invalidAt(
      t,
      [{ code: 'CHS-1', quantity: 1, barcode: '2100042004566' }],
      'check.check_items[0].quantity',
    );
  });

  it('refuses a barcode of another good than the line names, naming the code', async () => {
    const t = await signedIn();
    await invalidAt(
      t,
      [{ code: 'COF-1', quantity: 1, barcode: '4260000000011' }],
      'check.check_items[0].code',
    );
  });
});

describe('presets only', () => {
  it('refuses a code the catalogue does not list', async () => {
    const t = await tillWithMode('presets-only');
    const r = await calc(t, [item('NONSENSE-42', 1, { price: 9.99 })]);
    expect(r.body).toMatchObject({
      error: { code: 'item-not-preset', path: 'check.check_items[0].code' },
    });
  });

  it('refuses a price the caller typed on a catalogue good, naming the price', async () => {
    const t = await tillWithMode('presets-only');
    const body = await invalidAt(
      t,
      [item('WTR-1', 1, { price: 0.1 })],
      'check.check_items[0].price',
    );
    expect(body.error.message).toMatch(/costs 1\.49/);
  });

  it('refuses a title the caller typed on a catalogue good, naming it', async () => {
    const t = await tillWithMode('presets-only');
    await invalidAt(t, [item('WTR-1', 1, { title: 'Gold' })], 'check.check_items[0].title');
  });

  it('refuses a reason for a line by hand: nothing is entered by hand here', async () => {
    const t = await tillWithMode('presets-only');
    await invalidAt(
      t,
      [item('WTR-1', 1, { manual_reason: 'label torn off' })],
      'check.check_items[0].manual_reason',
    );
  });

  it('sells catalogue goods at catalogue figures, scanned labels included', async () => {
    const t = await tillWithMode('presets-only');
    const r = await t.ok('check-calc', {
      check: {
        check_items: [item('WTR-1', 1), { code: 'CAKE-1', quantity: 1, barcode: '2200043003459' }],
      },
    });
    expect(r.check.amount).toBe(4.94);
  });

  it('sells fuel by amount at the catalogue price: a prepay of 20.00 buys its litres', async () => {
    const t = await tillWithMode('presets-only');
    const r = await t.ok('check-calc', {
      check: {
        check_items: [
          {
            code: 'FUEL-95',
            quantity: 11.18,
            amount: 20,
            quantity_recalculate_type: 'recalculate-by-amount',
          },
        ],
      },
    });
    expect(r.check.check_items![0]).toMatchObject({ code: 'FUEL-95', price: 1.789, amount: 20 });
  });

  it('refuses a good priced by its label when the label was not scanned', async () => {
    const t = await tillWithMode('presets-only');
    await invalidAt(t, [item('CAKE-1', 1)], 'check.check_items[0].barcode');
  });
});

describe('a line entered by hand', () => {
  it('needs a reason for a good the catalogue does not list, naming the field', async () => {
    const t = await signedIn();
    const body = await invalidAt(
      t,
      [item('NONSENSE-42', 1, { price: 9.99 })],
      'check.check_items[0].manual_reason',
    );
    expect(body.error.message).toMatch(/NONSENSE-42 is not in the catalogue/);
  });

  it('needs a reason to sell a catalogue good at another price', async () => {
    const t = await signedIn();
    const body = await invalidAt(
      t,
      [item('WTR-1', 1, { price: 0.1 })],
      'check.check_items[0].manual_reason',
    );
    expect(body.error.message).toMatch(/costs 1\.49 in the catalogue/);
  });

  it('sells with its reason, which the recorded sale keeps', async () => {
    const t = await signedIn();
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: id,
      check: {
        check_items: [
          item('WTR-1', 1),
          item('BOX-7', 1, {
            price: 3,
            title: 'Gift box',
            manual_reason: 'new stock, not listed yet',
          }),
        ],
        payment_type: 'cash',
      },
    });
    expect(sale.check.amount_to_pay).toBe(4.49);
    const recorded = t.terminal.store.ledger.readCheck(id)!;
    expect(recorded.document.ok && recorded.document.value.external_additional_info).toEqual({
      manual_lines: [{ line: 1, code: 'BOX-7', reason: 'new stock, not listed yet' }],
    });
  });

  it('refuses a caller-made list of lines by hand: it is the terminal’s', async () => {
    const t = await signedIn();
    const r = await t.call('check-calc', {
      check: { check_items: [item('WTR-1', 1)], external_additional_info: { manual_lines: [] } },
    });
    expect(r.status).toBe(400);
    expect((r.body as ErrorResponse).error.path).toBe(
      'check.external_additional_info.manual_lines',
    );
  });

  it('needs the price of a good the catalogue does not list', async () => {
    const t = await signedIn();
    await invalidAt(
      t,
      [item('BOX-7', 1, { manual_reason: 'not listed yet' })],
      'check.check_items[0].price',
    );
  });

  it('is allowed at a manually-only POS with its reason, which has no quick keys', async () => {
    const t = await tillWithMode('manually-only');
    const lines = [item('BOX-7', 2, { price: 3, manual_reason: 'not listed yet' })];
    expect((await t.ok('check-calc', { check: { check_items: lines } })).check.amount).toBe(6);
    const search = await t.ok('catalog-search', { quick_keys: true });
    expect(search).toMatchObject({ check_item_enter_mode: 'manually-only', quick_keys: [] });
  });
});

describe('whole pieces', () => {
  it('refuses a fraction of a good the catalogue sells whole, naming the quantity', async () => {
    const t = await signedIn();
    const body = await invalidAt(t, [item('EGG-6', 1.5)], 'check.check_items[0].quantity');
    expect(body.error.message).toBe(
      'Eggs, box of 6 is sold in whole pieces: 1.5 is not a whole number',
    );
  });

  it('sells whole quantities of it', async () => {
    const t = await signedIn();
    const r = await t.ok('check-calc', { check: { check_items: [item('EGG-6', 2)] } });
    expect(r.check.check_items![0]).toMatchObject({ whole_number: 1, amount: 5.58 });
  });
});
