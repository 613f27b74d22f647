// A retail sale end to end: sign in, open a shift, identify Anna by her card, calculate with
// the gold-card fuel discount and coffee discount, spend bonuses and earn some, process (online
// first: it spends), and find it committed and done with the central service.
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import type { PrinterSimulator } from '../../src/devices/escpos/simulator.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, type Till } from './helpers.js';

let till: Till | null = null;
afterEach(async () => {
  await till?.close();
  till = null;
});

describe('a retail sale', () => {
  it('applies the discount, spends and earns bonuses, and is committed online', async () => {
    till = await openTill();
    const t = till;
    const signed = await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    expect(signed.staff.roles).toEqual(['cashier']);
    await t.ok('shift-open', { opening_cash: 100 });
    const who = await t.ok('customer-identify', { id: DEMO.cards.anna, id_type: 'card' });
    expect(who.customer.id).toBe(DEMO.customers.anna);
    expect(who.customer.bonuses.available).toBeGreaterThan(100);

    const check = {
      customer_id: DEMO.customers.anna,
      id: DEMO.cards.anna,
      id_type: 'card',
      bonuses_redeemed_amount: 5,
      check_items: [item('FUEL-95', 10), item('COF-1', 1)],
    };
    const calc = await t.ok('check-calc', { check });
    // Fuel 10 x 1.789 (the price as given, engine.md 17.1) = 17.89, gold card 0.05 x 10 = 0.50
    // off; coffee 2.50, 10% = 0.25 off; 5 bonuses at rate 1 = 5.00.
    expect(calc.check.amount).toBe(20.39);
    expect(calc.check.discount_amount).toBe(0.75);
    expect(calc.check.bonuses_redeemed_amount).toBe(5);
    expect(calc.check.amount_to_pay).toBe(14.64);
    expect(calc.check.bonuses_added_amount).toBeGreaterThan(0);

    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', {
      transaction_id: id,
      check: { ...check, payment_type: 'cash' },
    });
    expect(sale.subtype).toBe('online');
    expect(sale.check.amount_to_pay).toBe(14.64);
    expect(sale.sync.state).toBe('done');
    expect(sale.receipt_printed).toBe(true);
    const printer = t.terminal.devices?.simulators.printer as PrinterSimulator;
    // The simulated printer takes the bytes on its own turn of the event loop.
    for (let i = 0; i < 50 && printer.receipts.length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    const receipt = printer.receipts.at(-1)!.lines.join('\n');
    expect(receipt).toContain('Super 95');
    expect(receipt).toMatch(/TOTAL\s+14\.64/);
    expect(receipt).toContain(`Transaction ${id}`);
    expect(receipt).toContain('Bonuses');
    expect(receipt).not.toContain('OFFLINE');

    const status = await t.ok('sale-status', { transaction_id: id });
    expect(status).toMatchObject({
      state: 'committed',
      subtype: 'online',
      cancelled: false,
      sync: { state: 'done' },
    });
    const again = await t.ok('sale-process', {
      transaction_id: id,
      check: { ...check, payment_type: 'cash' },
    });
    expect(again.check).toEqual(sale.check);
    await t.refused(
      'sale-process',
      { transaction_id: id, check: { ...check, bonuses_redeemed_amount: 1 } },
      'idempotency-conflict',
    );
    expect(await t.ok('sale-status', { transaction_id: uuidv7(Date.now()) })).toMatchObject({
      state: 'unknown',
    });
  }, 30_000);
});
