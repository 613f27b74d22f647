// Money that must add up at the till (issue 12): what the screen says can be spent is what a
// payment is checked against, bonuses "all available" pay what the screen showed, cash given
// is checked and its change recorded and printed, a fleet payment names a vehicle of the
// fleet, a coupon is its owner's unless its batch may be shared, one discount figure
// everywhere, prepaid cash in the drawer, and piece-counted goods sold in whole pieces.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import type { PrinterSimulator } from '../../src/devices/escpos/simulator.js';
import { add, dec, sub, toNumber } from '../../src/money/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { driver1Fleet, item, openTill, tempDir, type Till } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function cashierTill(o: Parameters<typeof openTill>[0] = {}): Promise<Till> {
  const t = await openTill(o);
  cleanups.push(() => t.close());
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
  await t.ok('shift-open', { opening_cash: 100 });
  return t;
}

/** Driver 1 paying from the fleet account through the driver's access, for the truck. */
const fleetPayment = {
  ...driver1Fleet,
  special_account_pin: DEMO.pins.driver1,
};

const minus = (from: number, ...spent: number[]) =>
  toNumber(sub(dec(from), spent.map(dec).reduce(add, dec(0))));

describe('what a fleet driver can spend', () => {
  it("shows the least of every limit: the driver's day limit, not the account's balance", async () => {
    const t = await cashierTill();
    const who = await t.ok('customer-identify', { id: DEMO.cards.driver1, id_type: 'card' });
    // The fleet account has 5,000 + 1,000 credit and a 500 day limit; driver 1 may spend 150 a day.
    expect(who.customer.special_accounts).toEqual([
      expect.objectContaining({ id: DEMO.accesses.driver1, available: 150 }),
    ]);
  }, 30_000);

  it('counts each sale once, online, in stand-in and after the sync', async () => {
    const dir = tempDir();
    const db = join(dir, 'central.sqlite');
    let central: RunningCentral = await startCentral({ db, faultSeed: 1 });
    const port = Number(new URL(central.url).port);
    const t = await cashierTill({ central, dir: join(dir, 'till') });
    cleanups.push(() => central.close());
    const available = async () =>
      (await t.ok('customer-identify', { id: DEMO.cards.driver1, id_type: 'card' })).customer
        .special_accounts[0]!.available;
    let odometer = 120_600;
    const fill = async (litres: number) =>
      (
        await t.ok('sale-process', {
          transaction_id: uuidv7(Date.now()),
          check: {
            ...fleetPayment,
            odometer: (odometer += 100),
            check_items: [item('DIESEL', litres)],
          },
        })
      ).check.amount_to_pay ?? 0;
    const first = await fill(40);
    expect(await available()).toBe(minus(150, first));
    await central.close();
    const second = await fill(10);
    expect(await available()).toBe(minus(150, first, second));
    central = await startCentral({ db, port, faultSeed: 1 });
    expect((await t.ok('sync-now', {})).pushed).toBe(1);
    expect(await available()).toBe(minus(150, first, second));
    expect((await t.terminal.sync.pull()).ok).toBe(true);
    expect(await available()).toBe(minus(150, first, second));
  }, 60_000);
});

describe('a fleet payment', () => {
  it('refuses a vehicle id the fleet does not have, naming the field', async () => {
    const t = await cashierTill();
    const check = { ...fleetPayment, odometer: 120_600, check_items: [item('DIESEL', 1)] };
    const refused = await t.refused(
      'sale-process',
      { transaction_id: uuidv7(Date.now()), check: { ...check, vehicle_id: 'NOPE-9' } },
      'vehicle-not-found',
    );
    expect(refused.error.path).toBe('check.vehicle_id');
    await t.refused(
      'check-calc',
      { check: { ...check, vehicle_id: 'NOPE-9' } },
      'vehicle-not-found',
    );
    await t.ok('sale-process', { transaction_id: uuidv7(Date.now()), check });
  }, 30_000);
});

describe('a personal coupon', () => {
  const annaWithBensGift = {
    customer_id: DEMO.customers.anna,
    id: DEMO.cards.anna,
    id_type: 'card',
    redeemed_coupons: [{ code: DEMO.coupons.gift }],
    check_items: [item('WTR-1', 1)],
    payment_type: 'cash',
  };
  const serverStatus = (t: Till) =>
    (t.central.store.findBy('coupon', 'code', DEMO.coupons.gift)[0] as { status: string }).status;

  it("is not redeemed on another customer's check, online or in stand-in", async () => {
    const t = await cashierTill();
    const online = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: annaWithBensGift,
    });
    expect(online.check.redeemed_coupons?.[0]).toMatchObject({
      valid: false,
      error: 'other-customer',
    });
    expect(online.warnings).toContainEqual(expect.objectContaining({ code: 'coupon-invalid' }));
    const giftId = (
      t.central.store.findBy('coupon', 'code', DEMO.coupons.gift)[0] as { id: string }
    ).id;
    expect(online.check.bonuses_added?.map((b) => b.object_id)).not.toContain(giftId);
    expect(serverStatus(t)).toBe('open');
    await t.central.close();
    const offline = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: annaWithBensGift,
    });
    expect(offline.subtype).toBe('offline');
    expect(offline.check.redeemed_coupons?.[0]).toMatchObject({ error: 'other-customer' });
  }, 30_000);

  it('is redeemed by another customer when its batch allows sharing', async () => {
    const central = await startCentral({ db: join(tempDir(), 'central.sqlite'), faultSeed: 1 });
    cleanups.push(() => central.close());
    const [gift] = central.store.findBy('coupon', 'code', DEMO.coupons.gift) as Array<
      { id: string; batch: Record<string, unknown> } & Record<string, unknown>
    >;
    central.store.upsert('coupon', gift!.id, {
      ...gift,
      batch: { ...gift!.batch, share_allowed: 1 },
    });
    const t = await cashierTill({ central });
    const sale = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: annaWithBensGift,
    });
    expect(sale.check.redeemed_coupons?.[0]).toMatchObject({ valid: true, status: 'redeemed' });
    expect(serverStatus(t)).toBe('redeemed');
  }, 30_000);
});

describe('goods counted in pieces', () => {
  it('refuses a fraction of a piece, naming the line quantity', async () => {
    const t = await cashierTill();
    // The demo's sandwich is a preset in pieces (unit pc).
    const preset = await t.refused(
      'sale-process',
      { transaction_id: uuidv7(Date.now()), check: { check_items: [item('SNK-1', 1.5)] } },
      'invalid-input',
    );
    expect(preset.error.path).toBe('check.check_items[0].quantity');
    expect(preset.error.message).toContain('whole pieces');
    const typed = await t.refused(
      'check-calc',
      {
        check: {
          check_items: [
            item('WTR-1', 1),
            item('X-1', 2.5, { price: 2, whole_number: 1, manual_reason: 'not listed yet' }),
          ],
        },
      },
      'invalid-input',
    );
    expect(typed.error.path).toBe('check.check_items[1].quantity');
    await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: { check_items: [item('SNK-1', 2), item('DIESEL', 1.5)] },
    });
  }, 30_000);
});

describe('a fuel prepay', () => {
  it('shows one discount figure in the rules, on the line and in the totals', async () => {
    const t = await cashierTill();
    const prepay = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: {
        customer_id: DEMO.customers.anna,
        id: DEMO.cards.anna,
        id_type: 'card',
        payment_type: 'cash',
        transaction_type: 'preauthorization',
        check_items: [
          {
            code: 'FUEL-95',
            quantity: 27.93,
            amount: 50,
            quantity_recalculate_type: 'recalculate-by-amount',
          },
        ],
      },
    });
    const line = prepay.check.check_items?.[0];
    const gold = prepay.check.implemented_rules?.find((r) => r.title?.startsWith('Gold card'));
    // 50 EUR prepaid: the line's list amount minus the 50 paid is its discount (engine.md 12).
    expect(line?.discount_amount).toBe(minus(line?.amount ?? 0, 50));
    expect(gold?.implementation_data?.amount).toBe(line?.discount_amount);
    expect(prepay.check.discount_amount).toBe(line?.discount_amount);
    expect(prepay.check.amount_to_pay).toBe(50);
  }, 30_000);
});

describe("the shift's expected cash", () => {
  it('holds a cash fuel prepay from the moment it is taken, and the change given back', async () => {
    const t = await cashierTill(); // opened with 100 in the drawer
    const auth = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: auth,
      check: {
        payment_type: 'cash',
        transaction_type: 'preauthorization',
        check_items: [
          {
            code: 'FUEL-95',
            quantity: 27.93,
            amount: 50,
            quantity_recalculate_type: 'recalculate-by-amount',
          },
        ],
      },
    });
    expect((await t.ok('shift-report', {})).report.expected_cash).toBe(150);
    const sale = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: {
        payment_type: 'cash',
        transaction_type: 'completion',
        preliminary_transaction_id: auth,
        check_items: [{ code: 'FUEL-95', quantity: 20, processed_quantity: 20 }],
      },
    });
    // 20 l x 1.789 = 35.78 sold (the price as given, engine.md 17.1); 14.22 of the 50 went
    // back as change.
    expect(sale.check.amount_to_pay).toBe(35.78);
    expect((await t.ok('shift-report', {})).report.expected_cash).toBe(135.78);
  }, 30_000);
});

describe('cash handed over', () => {
  const water = { check_items: [item('WTR-1', 1)], payment_type: 'cash' };

  it('refuses less cash than the amount to pay, naming the field, and records nothing', async () => {
    const t = await cashierTill();
    const id = uuidv7(Date.now());
    const short = await t.refused(
      'sale-process',
      { transaction_id: id, check: water, cash_given: 1 },
      'cash-short',
    );
    expect(short.error.path).toBe('cash_given');
    expect(short.error.details).toEqual({ cash_due: 1.49, cash_given: 1 });
    expect(await t.ok('sale-status', { transaction_id: id })).toMatchObject({ state: 'unknown' });
  }, 30_000);

  it('answers, keeps and prints the cash given and the change', async () => {
    const t = await cashierTill();
    const id = uuidv7(Date.now());
    const sale = await t.ok('sale-process', { transaction_id: id, check: water, cash_given: 5 });
    expect(sale.cash).toEqual({ given: 5, change: 3.51 });
    expect(t.terminal.store.shifts.cashTenderOf(id)).toEqual({ given: '5', change: '3.51' });
    const printer = t.terminal.devices?.simulators.printer as PrinterSimulator;
    for (let i = 0; i < 50 && printer.receipts.length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    const receipt = printer.receipts.at(-1)!.lines.join('\n');
    expect(receipt).toMatch(/Cash given\s+5\.00/);
    expect(receipt).toMatch(/Change\s+3\.51/);
    // The same request again answers the same, change included.
    expect(
      (await t.ok('sale-process', { transaction_id: id, check: water, cash_given: 5 })).cash,
    ).toEqual({
      given: 5,
      change: 3.51,
    });
  }, 30_000);

  it('is refused for a sale paid from an account, which takes no cash', async () => {
    const t = await cashierTill();
    await t.refused(
      'sale-process',
      {
        transaction_id: uuidv7(Date.now()),
        check: {
          customer_id: DEMO.customers.anna,
          id: DEMO.cards.anna,
          id_type: 'card',
          check_items: [item('WTR-1', 1)],
          payment_type: 'special-account',
          payment_id: DEMO.accounts.annaWallet,
        },
        cash_given: 5,
      },
      'cash-not-due',
    );
  }, 30_000);

  it("answers a cash fuel prepay's change at its completion", async () => {
    const t = await cashierTill();
    const auth = uuidv7(Date.now());
    const prepay = await t.ok('sale-process', {
      transaction_id: auth,
      check: {
        payment_type: 'cash',
        transaction_type: 'preauthorization',
        check_items: [item('DIESEL', 10)],
      },
      cash_given: 20,
    });
    expect(prepay.cash).toEqual({ given: 20, change: 3.41 }); // 10 l x 1.659 = 16.59 taken
    const sale = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: {
        payment_type: 'cash',
        transaction_type: 'completion',
        preliminary_transaction_id: auth,
        check_items: [{ code: 'DIESEL', quantity: 10, processed_quantity: 8 }],
      },
    });
    expect(sale.cash).toEqual({ given: 16.59, change: 3.32 }); // 8 l x 1.659 = 13.27
  }, 30_000);
});
