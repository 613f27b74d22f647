// The printed receipt, read back from the bytes the printer was sent: a rich retail sale
// stood in offline (a loyalty customer earning and spending bonuses, discount rules, a coupon
// redeemed and one emitted, VAT, a card and cash with change), a fleet sale (the account, the
// vehicle, the odometer), a reprint marked COPY, and an unknown id refused by name.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { localDateTime } from '../../src/contract/local-time.js';
import type { PreviewRow, ReceiptPreview } from '../../src/contract/receipt.js';
import { previewOf } from '../../src/devices/escpos/decode.js';
import type { PrinterSimulator } from '../../src/devices/escpos/simulator.js';
import { add, dec, formatMoney, sub, toNumber } from '../../src/money/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { driver1Fleet, item, openTill, tempDir, type Till } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const printerOf = (t: Till) => t.terminal.devices?.simulators.printer as PrinterSimulator;

/** The receipts the simulated printer got, once it has `n` (it reads on its own turn). */
async function printed(t: Till, n: number) {
  for (let i = 0; i < 100 && printerOf(t).receipts.length < n; i++)
    await new Promise((r) => setTimeout(r, 10));
  expect(printerOf(t).receipts).toHaveLength(n);
  return printerOf(t).receipts;
}

const texts = (p: ReceiptPreview) => p.rows.flatMap((r) => (r.kind === 'text' ? [r.text] : []));

/** One signed-in till with an open shift; `central` given when the test stops it. */
async function till(o: { central?: RunningCentral; dir?: string } = {}): Promise<Till> {
  const t = await openTill({
    ...o,
    standin: { customer_day_limit: 100, terminal_total_limit: 1000 },
  });
  cleanups.push(() => t.close());
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
  await t.ok('shift-open', {});
  return t;
}

const m = (v: number) => formatMoney(dec(v), 2);

describe('the printed receipt', () => {
  it('of a rich sale stood in offline carries every item of the sale, read back from the printed bytes', async () => {
    const dir = tempDir();
    const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
    const t = await till({ central, dir: join(dir, 'till') });
    await t.ok('customer-identify', { id: DEMO.cards.anna, id_type: 'card' });
    // The central service is down: the sale stands in (a sync first spends the kept-alive
    // socket the closed service left, as in workflow-standin).
    await central.close();
    await t.ok('sync-now', {});
    const check = {
      customer_id: DEMO.customers.anna,
      id: DEMO.cards.anna,
      id_type: 'card',
      bonuses_redeemed_amount: 5,
      redeemed_coupons: [{ code: DEMO.coupons.coffee }],
      check_items: [
        item('FUEL-95', 25),
        item('COF-1', 1),
        item('SNK-1', 1, { taxes: [{ code: 'VAT19', title: 'VAT', type: 'vat', rate: 19 }] }),
      ],
    };
    const calc = await t.ok('check-calc', { check });
    const toPay = dec(calc.check.amount_to_pay ?? 0);
    const cashPart = sub(toPay, dec(20));
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: id,
      check: {
        ...check,
        payments: [
          { type: 'bank-card', amount: 20 },
          { type: 'cash', amount: toNumber(cashPart) },
        ],
      },
      cash_given: 50,
    });
    expect(sale.subtype).toBe('offline');
    const [paper] = await printed(t, 1);
    const preview = previewOf(paper!.commands, 42);
    // The screen's preview is the decoded bytes the printer got.
    expect(sale.receipt).toEqual(preview);
    const lines = texts(preview);
    const text = lines.join('\n');
    const has = (re: RegExp) => expect(text).toMatch(re);

    // Store and POS, terminal, the time in the POS's zone, the cashier.
    expect(lines).toEqual(
      expect.arrayContaining(['Demo Fuel GmbH', 'Demo Station Nord', 'Nordring 1, 10115 Berlin']),
    );
    has(new RegExp(`Terminal:\\s${DEMO.terminalId}`));
    const at = localDateTime(t.terminal.store.ledger.status(id)!.createdAt, 'Europe/Berlin');
    const hhmm = `${String(Math.floor(at.seconds / 3600)).padStart(2, '0')}:${String(Math.floor((at.seconds % 3600) / 60)).padStart(2, '0')}`;
    has(new RegExp(`Date: ${at.date} ${hhmm} Europe/Berlin`));
    has(/Cashier: Carla Cashier/);
    // Lines, with each rule's discount and bonuses by name; two rules on one line are named,
    // then the line's total (the engine does not split a line's figure by rule).
    has(/Super 95\n {2}25 l x 1\.789 +44\.73\n {2}- Gold card: 5 cents off per litre +-1\.25/);
    has(/Coffee\n {2}1 pc x 2\.50 +2\.50\n {2}- Free coffee coupon +-2\.50/);
    has(
      /Sandwich\n.*\n {2}\+ 2% back in bonuses\n {2}\+ Shop promo: 5% promotional bonuses for\n {2}30 days\n {2}Line bonuses +\+\d\.\d\d/,
    );
    has(/Discounts:\n {2}Gold card: 5 cents off per litre +-1\.25\n {2}Free coffee coupon +-2\.50/);
    has(new RegExp(`TOTAL +${m(calc.check.amount_to_pay ?? 0).replace('.', '\\.')}`));
    // Taxes by rate: VAT of the sandwich, included in its price.
    const vat = calc.check.calculated_taxes?.base?.[0]?.value ?? 0;
    has(new RegExp(`VAT 19% incl\\. +${m(vat).replace('.', '\\.')}`));
    // Bonuses spent, earned and the balance after the sale.
    has(/Bonuses spent +5\.00/);
    has(
      new RegExp(`Bonuses earned +${m(sale.check.bonuses_added_amount ?? 0).replace('.', '\\.')}`),
    );
    has(/Bonus balance +\d+\.\d\d/);
    // Coupons: the one redeemed, the one emitted with its code, expiry and barcode.
    has(new RegExp(`Coupons redeemed:\n {2}${DEMO.coupons.coffee}`));
    const code = sale.check.emitted_coupons?.[0]?.code ?? '';
    expect(code).not.toBe('');
    // The demo emits without an expiry (its sandbox sets none): the receipt prints one when the
    // coupon has it (test/devices/escpos.test.ts).
    has(new RegExp(`Your coupon: A free coffee\nCode ${code}`));
    expect(preview.rows).toContainEqual({
      kind: 'barcode',
      symbology: 'CODE128',
      data: code,
    } satisfies PreviewRow);
    // The card slip: masked PAN, the authorisation code and the unit's terminal id (ZVT 3B
    // and 29, as the simulated unit reports them), its receipt and trace numbers.
    has(
      /Card payment +20\.00\n {2}Card +535029\*{6}5177\n {2}Auth\. code +A\d{5}\n {2}Terminal ID +52500001\n {2}Receipt no\. +\d+\n {2}Trace no\. +\d+\n {2}Approved/,
    );
    // Cash given and the change, and the drawer opened for the cash.
    const change = sub(dec(50), cashPart);
    has(new RegExp(`Cash +${m(toNumber(cashPart)).replace('.', '\\.')}`));
    has(/Cash given +50\.00/);
    has(new RegExp(`Change +${m(toNumber(change)).replace('.', '\\.')}`));
    expect(preview.rows[0]).toEqual({ kind: 'drawer', pin: 2 });
    // The feedback text and QR of the business's customer_feedback_settings.
    has(/Tell us how we did: scan the code/);
    expect(preview.rows).toContainEqual({ kind: 'qr', data: 'https://fb.example/dn' });
    // Stood in: stored offline, will be sent.
    has(/\*\*\* OFFLINE \*\*\*/);
    has(/Stored offline, will be sent\./);
    expect(preview.rows.at(-1)).toEqual({ kind: 'cut' });
    // The amounts add up: what the customer paid is the total.
    expect(toNumber(add(dec(20), cashPart))).toBe(calc.check.amount_to_pay);
  }, 60_000);

  it('of a fleet sale names the account, the vehicle and the odometer', async () => {
    const t = await till();
    const sale = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: {
        ...driver1Fleet,
        check_items: [item('DIESEL', 40)],
        odometer: 120_600,
        special_account_pin: DEMO.pins.driver1,
      },
    });
    const text = texts(sale.receipt!).join('\n');
    expect(text).toMatch(
      /Fleet account +\d+\.\d\d\n {2}Fleet fuel account\n {2}Vehicle TRUCK-1 \(Truck B-FL 101\)\n {2}Odometer 120,600 km/,
    );
    // No cash: the drawer stays shut.
    expect(sale.receipt!.rows.some((r) => r.kind === 'drawer')).toBe(false);
  }, 30_000);
});

describe('receipt-reprint', () => {
  it('prints the same receipt again marked COPY, without opening the drawer', async () => {
    const t = await till();
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: id,
      check: { check_items: [item('COF-1', 2)] },
      cash_given: 10,
    });
    const copy = await t.ok('receipt-reprint', { transaction_id: id });
    expect(copy.receipt_printed).toBe(true);
    const [, second] = await printed(t, 2);
    expect(copy.receipt).toEqual(previewOf(second!.commands, 42));
    expect(copy.receipt.rows[0]).toEqual({
      kind: 'text',
      text: 'COPY',
      align: 'center',
      bold: true,
      large: true,
    });
    expect(second!.drawer).toBe(0);
    // Everything else is the sale's receipt as it printed.
    const body = (p: ReceiptPreview) =>
      p.rows.filter((r) => r.kind !== 'drawer' && !(r.kind === 'text' && r.text === 'COPY'));
    expect(body(copy.receipt)).toEqual(body(sale.receipt!));
  }, 30_000);

  it('says on the copy of a sale cancelled since that it was cancelled', async () => {
    const t = await openTill();
    cleanups.push(() => t.close());
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.senior });
    await t.ok('shift-open', {});
    const id = uuidv7(Date.now());
    await t.ok('sale-process', { transaction_id: id, check: { check_items: [item('COF-1', 1)] } });
    await t.ok('sale-cancel', { transaction_id: id });
    const copy = await t.ok('receipt-reprint', { transaction_id: id });
    expect(texts(copy.receipt)).toContain('This sale was cancelled.');
  }, 30_000);

  it('refuses an id no sale of this terminal has, naming transaction_id', async () => {
    const t = await till();
    const r = await t.call('receipt-reprint', { transaction_id: uuidv7(Date.now()) });
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ error: { code: 'not-found', path: 'transaction_id' } });
  }, 30_000);
});
