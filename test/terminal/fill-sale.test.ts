// Selling a pump's fill (docs/forecourt.md, "Selling a fill"): the caller names the fill, the
// line is the pump's (grade, litres, the price the pump used, its amount), the fill is sold
// once, and the pump goes back to idle; a prepaid fill completes its prepay with what was
// dispensed, and the unused cash is given back.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCentral } from '../../src/central/index.js';
import { setEnterMode } from '../support/catalogue.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { FakeForecourt } from './fake-forecourt.js';
import { cashPrepay, forecourtTill, PRICES, unpaid, untilIdle } from './forecourt-till.js';
import { tempDir, tillPerTest, type Till } from './helpers.js';

const { open } = tillPerTest();

/** A postpay fill of `litres` on `pump`, kept by the till: its id. */
async function postpayFill(t: Till, port: FakeForecourt, pump: number, litres: string) {
  port.lift(pump);
  await t.ok('pump-release', { pump });
  port.fill(pump, litres);
  const s = await unpaid(t, 1);
  return s.unpaid[0]!.id;
}

const cashSale = (fills: string[], extra: Record<string, unknown> = {}) => ({
  transaction_id: uuidv7(Date.now()),
  check: { payment_type: 'cash', fills, ...extra },
});

/** A cash prepay of 20.00 of FUEL-95, its pump authorised and filled with `litres`. */
async function prepaidFill(t: Till, port: FakeForecourt, litres: string) {
  const prepay = uuidv7(Date.now());
  await t.ok('sale-process', {
    transaction_id: prepay,
    check: {
      transaction_type: 'preauthorization',
      payment_type: 'cash',
      check_items: [
        {
          code: 'FUEL-95',
          quantity: 11.18,
          amount: 20,
          quantity_recalculate_type: 'recalculate-by-amount',
        },
      ],
    },
    cash_given: 20,
  });
  port.lift(1);
  await t.ok('pump-authorise', { pump: 1, transaction_id: prepay });
  port.fill(1, litres);
  const fill = (await unpaid(t, 1)).unpaid[0]!.id;
  return { prepay, fill };
}

const completion = (prepay: string, fills: string[], extra: Record<string, unknown> = {}) => ({
  transaction_id: uuidv7(Date.now()),
  check: {
    transaction_type: 'completion',
    preliminary_transaction_id: prepay,
    ...(fills.length > 0 ? { fills } : {}),
    ...extra,
  },
});

describe('selling a pump’s fill', () => {
  it('sells a postpay fill as a line with the pump’s litres, price and amount', async () => {
    const { t, port } = await forecourtTill(open);
    const fill = await postpayFill(t, port, 1, '11.37');
    const sale = await t.ok('sale-process', cashSale([fill]));
    expect(sale.check.check_items).toEqual([
      expect.objectContaining({
        code: 'FUEL-95',
        title: 'Super 95',
        quantity: 11.37,
        price: 1.789,
        amount: 20.34,
      }),
    ]);
    expect(sale.check.amount_to_pay).toBe(20.34);
  }, 30_000);

  it('sells a fill beside shop goods, the fill’s line last', async () => {
    const { t, port } = await forecourtTill(open);
    const fill = await postpayFill(t, port, 2, '10');
    const sale = await t.ok(
      'sale-process',
      cashSale([fill], { check_items: [{ code: 'WTR-1', quantity: 2 }] }),
    );
    expect(sale.check.check_items?.map((l) => [l.code, l.amount])).toEqual([
      ['WTR-1', 2.98],
      ['FUEL-95', 17.89],
    ]);
  }, 30_000);

  it('sells a fill at the price the pump used, not the catalogue’s', async () => {
    // the pump still sells at 1.801 while the catalogue says 1.789
    const port = new FakeForecourt(2, ['1.801', '1.659']);
    const { t } = await forecourtTill(open, 2, undefined, port);
    const fill = await postpayFill(t, port, 1, '10');
    const sale = await t.ok('sale-process', cashSale([fill]));
    expect(sale.check.check_items?.[0]).toMatchObject({ price: 1.801, amount: 18.01 });
  }, 30_000);

  it('marks the fill sold with its sale and takes it off the pump', async () => {
    const { t, port } = await forecourtTill(open);
    const fill = await postpayFill(t, port, 1, '5');
    const input = cashSale([fill]);
    await t.ok('sale-process', input);
    const s = await t.ok('forecourt-state', {});
    expect(s.unpaid).toEqual([]);
    expect(s.pumps[0]).toMatchObject({ state: 'idle', unpaid: 0 });
    expect(t.terminal.store.pumpFills.get(fill)).toMatchObject({
      state: 'sold',
      transactionId: input.transaction_id,
    });
  }, 30_000);

  it('refuses a fill sold already, naming it and its sale', async () => {
    const { t, port } = await forecourtTill(open);
    const fill = await postpayFill(t, port, 1, '5');
    const first = cashSale([fill]);
    await t.ok('sale-process', first);
    const r = await t.call('sale-process', cashSale([fill]));
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      error: {
        code: 'fill-not-unpaid',
        path: 'check.fills[0]',
        details: { state: 'sold', transaction_id: first.transaction_id },
      },
    });
  }, 30_000);

  it('answers a sale of a fill sent again under its id without selling anything twice', async () => {
    const { t, port } = await forecourtTill(open);
    const fill = await postpayFill(t, port, 1, '5');
    const input = cashSale([fill]);
    const once = await t.ok('sale-process', input);
    const again = await t.ok('sale-process', input);
    expect(again.check.amount_to_pay).toBe(once.check.amount_to_pay);
  }, 30_000);

  it('sells a fill once when two sales name it at the same moment', async () => {
    const { t, port } = await forecourtTill(open);
    const fill = await postpayFill(t, port, 1, '5');
    const both = await Promise.all([
      t.call('sale-process', cashSale([fill])),
      t.call('sale-process', cashSale([fill])),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    const refused = both.find((r) => r.status === 422)!.body;
    expect(refused).toMatchObject({ error: { path: 'check.fills[0]' } });
  }, 30_000);

  it('refuses a sale whose fill another sale took meanwhile, and gives its card back', async () => {
    const { t, port } = await forecourtTill(open);
    const fill = await postpayFill(t, port, 1, '5');
    // another sale marks the fill sold between this sale's check and its record
    const fills = t.terminal.store.pumpFills;
    const resolve = fills.resolve;
    fills.resolve = (id, to) => {
      fills.resolve = resolve;
      resolve(id, { ...to, transactionId: 'the other sale' });
      return false;
    };
    const input = { ...cashSale([fill]), check: { payment_type: 'bank-card', fills: [fill] } };
    const r = await t.call('sale-process', input);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      error: {
        code: 'fill-not-unpaid',
        message: 'this fill of pump 1 was sold already',
        path: 'check.fills[0]',
      },
    });
    const status = await t.ok('sale-status', { transaction_id: input.transaction_id });
    expect(status).toMatchObject({ state: 'unknown' });
    expect(
      (status as { payments?: Array<{ operation: string }> }).payments?.map((p) => p.operation),
    ).toEqual(['purchase', 'cancel']);
  }, 30_000);

  it('clears at start a pump still showing a fill that was sold before a kill', async () => {
    const dir = tempDir();
    const port = new FakeForecourt(2, PRICES);
    const first = await forecourtTill(open, 2, dir, port);
    const fill = await postpayFill(first.t, port, 1, '5');
    port.clearing = false; // the kill comes before the pump is cleared
    await first.t.ok('sale-process', cashSale([fill]));
    await first.t.close();
    port.clearing = true;
    expect(port.pump(1)!.state).toBe('finished');
    const again = await forecourtTill(open, 2, dir, port);
    await untilIdle(port, 1);
    expect(port.pump(1)!.state).toBe('idle');
    expect((await again.t.ok('forecourt-state', {})).unpaid).toEqual([]);
  }, 30_000);

  it('refuses a fill no pump finished', async () => {
    const { t } = await forecourtTill(open);
    const r = await t.call('sale-process', cashSale([uuidv7(Date.now())]));
    expect(r.body).toMatchObject({ error: { code: 'fill-not-found', path: 'check.fills[0]' } });
  }, 30_000);

  it('refuses a prepaid fill on a sale: its prepay is completed instead', async () => {
    const { t, port } = await forecourtTill(open);
    const { prepay, fill } = await prepaidFill(t, port, '5');
    const r = await t.call('sale-process', cashSale([fill]));
    expect(r.body).toMatchObject({
      error: {
        code: 'fill-prepaid',
        path: 'check.fills[0]',
        details: { authorisation_id: prepay },
      },
    });
  }, 30_000);

  it('shows a fill’s line in check-calc and leaves the fill unpaid', async () => {
    const { t, port } = await forecourtTill(open);
    const fill = await postpayFill(t, port, 1, '11.37');
    const calc = await t.ok('check-calc', { check: { fills: [fill] } });
    expect(calc.check.check_items?.[0]).toMatchObject({ quantity: 11.37, amount: 20.34 });
    expect((await t.ok('forecourt-state', {})).unpaid).toHaveLength(1);
  }, 30_000);
});

describe('completing a prepay from its fill', () => {
  it('books the litres and amount the pump dispensed, with no change left of 20.00', async () => {
    const { t, port } = await forecourtTill(open);
    // the pump stops at the prepaid amount: 11.18 l at 1.789 is 20.00
    const { prepay, fill } = await prepaidFill(t, port, '30');
    const input = completion(prepay, [fill]);
    const sale = await t.ok('sale-process', input);
    expect(sale.check.check_items?.[0]).toMatchObject({ code: 'FUEL-95', amount: 20 });
    expect(sale.check.amount_to_pay).toBe(20);
    expect(sale.warnings.find((w) => w.code === 'change-due')).toBeUndefined();
    expect(t.terminal.store.pumpFills.get(fill)).toMatchObject({
      state: 'sold',
      transactionId: input.transaction_id,
    });
  }, 30_000);

  it('completes a prepay by amount whose pump ran more litres than its line holds', async () => {
    // 20.00 at 1.789 is 11.179 l on the prepay's line; the pump, counting 0.01 l, stops at
    // 11.18 l for 20.00: the amount was authorised, the litres are the pump's
    const { t, port } = await forecourtTill(open);
    const prepay = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: prepay,
      check: {
        transaction_type: 'preauthorization',
        payment_type: 'cash',
        check_items: [
          {
            code: 'FUEL-95',
            quantity: 11.179,
            amount: 20,
            quantity_recalculate_type: 'recalculate-by-amount',
          },
        ],
      },
      cash_given: 20,
    });
    port.lift(1);
    await t.ok('pump-authorise', { pump: 1, transaction_id: prepay });
    port.fill(1, '30');
    const fill = (await unpaid(t, 1)).unpaid[0]!;
    expect(fill).toMatchObject({ volume: '11.18', amount: '20.00' });
    const sale = await t.ok('sale-process', completion(prepay, [fill.id]));
    expect(sale.check.amount_to_pay).toBe(20);
  }, 30_000);

  it('gives back the unused cash of a prepay the pump did not use up', async () => {
    const { t, port } = await forecourtTill(open);
    const { prepay, fill } = await prepaidFill(t, port, '5');
    const sale = await t.ok('sale-process', completion(prepay, [fill]));
    // 5 l x 1.789 = 8.95; 20.00 - 8.95 = 11.05 back
    expect(sale.check.amount_to_pay).toBe(8.95);
    expect(sale.warnings).toContainEqual(
      expect.objectContaining({ code: 'change-due', message: expect.stringContaining('11.05') }),
    );
  }, 30_000);

  it('refuses to complete a prepay whose pump is still released for it', async () => {
    const { t, port } = await forecourtTill(open);
    const prepay = await cashPrepay(t);
    port.lift(1);
    await t.ok('pump-authorise', { pump: 1, transaction_id: prepay });
    const early = {
      transaction_id: uuidv7(Date.now()),
      check: {
        transaction_type: 'completion',
        preliminary_transaction_id: prepay,
        check_items: [{ code: 'FUEL-95', quantity: 11.18, processed_quantity: 0 }],
      },
    };
    const r = await t.call('sale-process', early);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      error: {
        code: 'prepay-pump-open',
        message: 'pump 1 is still released for this prepay: stop it or wait for its fill',
        path: 'check.preliminary_transaction_id',
      },
    });
    // nothing half-written: the driver's fill then completes the prepay, with its change
    const { store } = t.terminal;
    expect(store.commandResults.has('fuel-completion', prepay)).toBe(false);
    expect(store.ledger.status(early.transaction_id)).toBeNull();
    expect(store.shifts.cashTenderOf(early.transaction_id)).toBeNull();
    port.fill(1, '5');
    const fill = (await unpaid(t, 1)).unpaid[0]!.id;
    const sale = await t.ok('sale-process', completion(prepay, [fill]));
    expect(sale.warnings).toContainEqual(
      expect.objectContaining({ code: 'change-due', message: expect.stringContaining('11.05') }),
    );
  }, 30_000);

  it('refuses dispensed figures sent for a prepay whose pump made a fill, naming check.check_items[0].processed_amount', async () => {
    const { t, port } = await forecourtTill(open);
    const { prepay, fill } = await prepaidFill(t, port, '10'); // 17.89 dispensed
    const r = await t.call(
      'sale-process',
      completion(prepay, [], {
        check_items: [{ code: 'FUEL-95', quantity: 11.18, processed_amount: 1.79 }],
      }),
    );
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      error: {
        code: 'dispensed-by-pump',
        message: "what pump 1 dispensed is the pump's: name its fill in check.fills",
        path: 'check.check_items[0].processed_amount',
      },
    });
    expect(t.terminal.store.pumpFills.get(fill)).toMatchObject({ state: 'unpaid' });
  }, 30_000);

  it('refuses a completion that does not name the fill its pump drew', async () => {
    const { t, port } = await forecourtTill(open);
    const { prepay, fill } = await prepaidFill(t, port, '10');
    const r = await t.call(
      'sale-process',
      completion(prepay, [], { check_items: [{ code: 'FUEL-95', quantity: 1 }] }),
    );
    expect(r.body).toMatchObject({
      error: {
        code: 'prepay-fill-required',
        message: "pump 1 drew this prepay's fuel: name its fill in check.fills",
        path: 'check.fills',
        details: { fill_id: fill },
      },
    });
  }, 30_000);

  it('completes an unused expired prepay with nothing dispensed, no figures sent', async () => {
    const quick = { forecourt: { release_after_ms: 100 } };
    const { t, port } = await forecourtTill(open, 2, undefined, undefined, quick);
    const prepay = await cashPrepay(t);
    await t.ok('pump-authorise', { pump: 1, transaction_id: prepay });
    await untilIdle(port, 1);
    const sale = await t.ok('sale-process', completion(prepay, []));
    // the prepay's line, booked by the terminal at what the pump dispensed: nothing
    expect(sale.check.check_items).toEqual([
      expect.objectContaining({ code: 'FUEL-95', processed_quantity: 0, amount: 0 }),
    ]);
    expect(sale.check.amount_to_pay).toBe(0);
    expect(sale.warnings).toContainEqual(
      expect.objectContaining({
        code: 'change-due',
        message: 'give back 20 of the 20 prepaid in cash',
      }),
    );
  }, 30_000);

  it('refuses figures sent for an expired prepay: its pump dispensed nothing', async () => {
    const quick = { forecourt: { release_after_ms: 100 } };
    const { t, port } = await forecourtTill(open, 2, undefined, undefined, quick);
    const prepay = await cashPrepay(t);
    await t.ok('pump-authorise', { pump: 1, transaction_id: prepay });
    await untilIdle(port, 1);
    const r = await t.call(
      'sale-process',
      completion(prepay, [], {
        check_items: [{ code: 'FUEL-95', quantity: 11.18, processed_quantity: 5 }],
      }),
    );
    expect(r.body).toMatchObject({
      error: {
        code: 'dispensed-by-pump',
        message: 'pump 1 dispensed nothing for this prepay (its release ran out): send no figures',
        path: 'check.check_items[0].processed_quantity',
      },
    });
  }, 30_000);

  it('shows a prepay’s completion from its fill in check-calc with the pump’s amount', async () => {
    const { t, port } = await forecourtTill(open);
    const { prepay, fill } = await prepaidFill(t, port, '5');
    const calc = await t.ok('check-calc', { check: completion(prepay, [fill]).check });
    // 5 l x 1.789 = 8.95 of the 20.00 prepaid
    expect(calc.check.check_items?.[0]).toMatchObject({ code: 'FUEL-95', amount: 8.95 });
    expect(calc.check.amount_to_pay).toBe(8.95);
    expect(t.terminal.store.pumpFills.get(fill)).toMatchObject({ state: 'unpaid' });
  }, 30_000);

  it('refuses another prepay’s fill', async () => {
    const { t, port } = await forecourtTill(open);
    const { fill } = await prepaidFill(t, port, '5');
    const other = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: other,
      check: {
        transaction_type: 'preauthorization',
        payment_type: 'cash',
        check_items: [{ code: 'DIESEL', quantity: 10 }],
      },
      cash_given: 20,
    });
    const r = await t.call('sale-process', completion(other, [fill]));
    expect(r.body).toMatchObject({
      error: { code: 'fill-not-this-prepay', path: 'check.fills[0]' },
    });
  }, 30_000);

  it('refuses lines sent beside the fill: the fill is the completion’s line', async () => {
    const { t, port } = await forecourtTill(open);
    const { prepay, fill } = await prepaidFill(t, port, '5');
    const r = await t.call(
      'sale-process',
      completion(prepay, [fill], {
        check_items: [{ code: 'FUEL-95', quantity: 11.18, processed_quantity: 1 }],
      }),
    );
    expect(r.body).toMatchObject({ error: { code: 'invalid-input', path: 'check.check_items' } });
  }, 30_000);
});

describe('a drive-off', () => {
  it('records an unpaid fill as a drive-off for the owner and frees the pump', async () => {
    const { t, port } = await forecourtTill(open);
    const fill = await postpayFill(t, port, 3, '5');
    const out = await t.ok('pump-drive-off', { fill_id: fill, comment: 'white van, no plate' });
    expect(out.fill).toMatchObject({ id: fill, state: 'drive-off', amount: '8.95' });
    const s = await t.ok('forecourt-state', {});
    expect(s.unpaid).toEqual([]);
    expect(s.pumps[2]).toMatchObject({ state: 'idle' });
    const { items } = await t.ok('attention-list', {});
    expect(items).toContainEqual(
      expect.objectContaining({
        kind: 'drive-off',
        message: 'drive-off at pump 3: 5.00 l of FUEL-95, 8.95 unpaid',
      }),
    );
  }, 30_000);

  it('counts the shift’s drive-offs in its report', async () => {
    const { t, port } = await forecourtTill(open);
    await t.ok('pump-drive-off', { fill_id: await postpayFill(t, port, 3, '5') });
    const { report } = await t.ok('shift-report', {});
    expect(report.drive_offs).toEqual({ count: 1, litres: 5, amount: 8.95 });
  }, 30_000);

  it('refuses a drive-off of a fill that was sold', async () => {
    const { t, port } = await forecourtTill(open);
    const fill = await postpayFill(t, port, 1, '5');
    const sale = cashSale([fill]);
    await t.ok('sale-process', sale);
    const r = await t.call('pump-drive-off', { fill_id: fill });
    expect(r.body).toMatchObject({
      error: {
        code: 'fill-not-unpaid',
        message: 'this fill of pump 1 was sold already', // as a sale of it says
        path: 'fill_id',
        details: { state: 'sold', transaction_id: sale.transaction_id },
      },
    });
  }, 30_000);

  it('refuses a drive-off of a prepaid fill', async () => {
    const { t, port } = await forecourtTill(open);
    const { prepay, fill } = await prepaidFill(t, port, '5');
    const r = await t.call('pump-drive-off', { fill_id: fill });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      error: {
        code: 'fill-prepaid',
        message: 'this fill was prepaid: complete its prepay',
        path: 'fill_id',
        details: { authorisation_id: prepay },
      },
    });
    expect(t.terminal.store.pumpFills.get(fill)).toMatchObject({ state: 'unpaid' });
    const { report } = await t.ok('shift-report', {});
    expect(report.drive_offs).toBeUndefined();
  }, 30_000);

  it('refuses a sale of a fill recorded as a drive-off', async () => {
    const { t, port } = await forecourtTill(open);
    const fill = await postpayFill(t, port, 1, '5');
    await t.ok('pump-drive-off', { fill_id: fill });
    const r = await t.call('sale-process', cashSale([fill]));
    expect(r.body).toMatchObject({
      error: {
        code: 'fill-not-unpaid',
        message: 'this fill of pump 1 was recorded as a drive-off already',
        details: { state: 'drive-off' },
      },
    });
    const again = await t.call('pump-drive-off', { fill_id: fill });
    expect(again.body).toMatchObject({
      error: { message: 'this fill of pump 1 was recorded as a drive-off already' },
    });
  }, 30_000);
});

describe('a fuel prepay at a till that sells catalogue figures only (presets-only)', () => {
  it('prepays by amount and completes from the fill at the catalogue’s price', async () => {
    const dir = tempDir('lt-presets-fuel-');
    const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
    setEnterMode(central, 'presets-only');
    try {
      const { t, port } = await forecourtTill((o) => open({ ...o, central }), 4, dir);
      const { prepay, fill } = await prepaidFill(t, port, '5');
      const sale = await t.ok('sale-process', completion(prepay, [fill]));
      // 5 l x 1.789 = 8.95 of the 20.00 prepaid, the rest given back
      expect(sale.check.amount_to_pay).toBe(8.95);
      await t.close();
    } finally {
      await central.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
