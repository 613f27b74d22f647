// The holes an outside review found at the command boundary, each closed at the till (sandbox
// central over HTTP, a real SQLite file): a caller's subtype or verify flag cannot skip a
// fleet PIN, a refund cannot be booked through sale-process, and the seller recorded and sent
// is the staff member signed in. Also: a cashier reaches no senior-cashier or manager effect
// through any command of the map (roles.ts, COMMAND_NEEDS).
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { commandNames, type CommandName } from '../../src/contract/commands.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { COMMAND_NEEDS } from '../../src/terminal/roles.js';
import { driver1Fleet, item, type Till, tillPerTest } from './helpers.js';

const { signedIn } = tillPerTest();

/** Driver 1 paying from the fleet account through the driver's access (PIN required). */
const fleetPayment = {
  ...driver1Fleet,
  odometer: 120_600,
  check_items: [item('DIESEL', 40)],
};

async function fleetBalance(t: Till): Promise<number | undefined> {
  const res = await fetch(`${t.central.url}/sandbox/balances`, {
    headers: { Authorization: `Bearer ${DEMO.apiKey}` },
  });
  const body = (await res.json()) as { accounts: Array<{ account_id: string; balance: number }> };
  return body.accounts.find((a) => a.account_id === DEMO.accounts.fleet)?.balance;
}

async function centralTransactions(t: Till) {
  const res = await fetch(`${t.central.url}/sandbox/transactions`, {
    headers: { Authorization: `Bearer ${DEMO.apiKey}` },
  });
  return ((await res.json()) as { transactions: Array<{ transaction_id: string }> }).transactions;
}

describe('the command boundary at the till', () => {
  it('does not let a caller skip the fleet PIN with an offline subtype or a verify flag', async () => {
    const t = await signedIn();
    const before = await fleetBalance(t);
    const skip = {
      transaction_subtype: 'offline',
      special_account_required_values_verify: false,
    };
    const id = uuidv7(Date.now());
    const refused = await t.refused(
      'sale-process',
      { transaction_id: id, check: { ...fleetPayment, ...skip } },
      'invalid-input',
    );
    const problems = (refused.error.details as { problems: Array<{ path: string }> }).problems;
    expect(problems.map((p) => p.path).sort()).toEqual([
      'check.special_account_required_values_verify',
      'check.transaction_subtype',
    ]);
    // Without them the PIN is asked for, as it always is.
    await t.refused('sale-process', { transaction_id: id, check: fleetPayment }, 'pin-required');
    expect(await t.ok('sale-status', { transaction_id: id })).toMatchObject({ state: 'unknown' });
    expect(await fleetBalance(t)).toBe(before);
    expect(t.terminal.store.outbox.byTransaction(id)).toBeNull();
  }, 30_000);

  it('does not let a caller skip the fleet PIN by completing a cash pump authorisation', async () => {
    const t = await signedIn();
    const before = await fleetBalance(t);
    const auth = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: auth,
      check: {
        transaction_type: 'preauthorization',
        payment_type: 'cash',
        check_items: [item('DIESEL', 10)],
      },
    });
    const completion = (fields: Record<string, unknown>) => ({
      transaction_id: uuidv7(Date.now()),
      check: {
        ...fleetPayment,
        ...fields,
        transaction_type: 'completion',
        preliminary_transaction_id: auth,
        check_items: [{ code: 'DIESEL', quantity: 10, processed_quantity: 10 }],
      },
    });
    const refused = await t.refused(
      'sale-process',
      completion({ special_account_required_values_verify: false }),
      'invalid-input',
    );
    expect(refused.error.path).toBe('check.special_account_required_values_verify');
    // The cash authorisation verified nothing, and its completion stays cash.
    const other = await t.refused('sale-process', completion({}), 'completion-differs');
    expect(other.error.path).toBe('check.payment_type');
    expect(await fleetBalance(t)).toBe(before);
  }, 30_000);

  it('does not book a refund through sale-process, whatever the role', async () => {
    const t = await signedIn(DEMO.authCodes.manager);
    const sale = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: sale,
      check: { payment_type: 'cash', check_items: [item('OIL-1', 1)] },
    });
    const refund = uuidv7(Date.now());
    const refused = await t.refused(
      'sale-process',
      {
        transaction_id: refund,
        check: {
          transaction_type: 'refund',
          preliminary_transaction_id: sale,
          payment_type: 'cash',
          check_items: [item('OIL-1', 1)],
        },
      },
      'invalid-input',
    );
    expect(refused.error).toMatchObject({
      path: 'check.transaction_type',
      message:
        'check.transaction_type: a refund goes through sale-refund, naming the sale it refunds',
    });
    expect(await t.ok('sale-status', { transaction_id: refund })).toMatchObject({
      state: 'unknown',
    });
    expect(t.terminal.store.outbox.byTransaction(refund)).toBeNull();
    await t.ok('sync-now', {});
    const sent = await centralTransactions(t);
    expect(sent.map((x) => x.transaction_id)).toContain(sale);
    expect(sent.map((x) => x.transaction_id)).not.toContain(refund);
  }, 30_000);

  it('records and sends the signed-in staff member as the seller, never the caller\u2019s', async () => {
    const t = await signedIn();
    const check = { payment_type: 'cash', check_items: [item('OIL-1', 1)] };
    const someoneElse = { id: DEMO.staff.manager, name: 'Mia Manager' };
    const refused = await t.refused(
      'sale-process',
      { transaction_id: uuidv7(Date.now()), check: { ...check, business_staff: someoneElse } },
      'invalid-input',
    );
    expect(refused.error.path).toBe('check.business_staff');

    const id = uuidv7(Date.now());
    const carla = { id: DEMO.staff.cashier, name: 'Carla Cashier' };
    const sale = await t.ok('sale-process', { transaction_id: id, check });
    expect(sale.check.business_staff).toEqual(carla);
    const stored = await t.ok('sale-status', { transaction_id: id });
    expect(stored).toMatchObject({ state: 'committed', check: { business_staff: carla } });
    const body = (t.terminal.store.outbox.byTransaction(id)?.payload as { body: unknown }).body;
    expect(body).toMatchObject({ business_staff: carla });
    const calc = await t.ok('check-calc', { check });
    expect(calc.check.business_staff).toEqual(carla);
  }, 30_000);
});

describe('the POS of a check', () => {
  it('is one this till knows: another POS is refused, naming it', async () => {
    const t = await signedIn();
    const refused = await t.refused(
      'check-calc',
      {
        check: {
          pos: { id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b' },
          check_items: [item('OIL-1', 1)],
        },
      },
      'unknown-pos',
    );
    expect(refused.error.path).toBe('check.pos.id');
  }, 30_000);
});

/** A valid input of each command whose effect a cashier does not have (COMMAND_NEEDS). */
const ANY = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const manualPick = {
  manual_rules: true,
  implemented_rules: [{ id: ANY }],
  payment_type: 'cash',
  check_items: [item('OIL-1', 1)],
};
const aboveCashier: Partial<Record<CommandName, Record<string, unknown>>> = {
  'shift-close': { counted_cash: 0 },
  'sale-cancel': { transaction_id: ANY },
  'sale-refund': {
    transaction_id: uuidv7(Date.now()),
    original_transaction_id: ANY,
    lines: [{ index: 0, quantity: 1 }],
  },
  'attention-resolve': { id: ANY },
  'cash-movement': { kind: 'paid-out', amount: 5, reason: 'window cleaner' },
  'bonus-operation': {
    transaction_id: uuidv7(Date.now()),
    customer_id: ANY,
    kind: 'add',
    amount: 5,
    comment: 'goodwill',
  },
  'check-calc': { check: manualPick },
  'sale-process': { transaction_id: uuidv7(Date.now()), check: manualPick },
  'wetstock-report': {},
};

describe('a cashier', () => {
  const guarded = commandNames.filter((name) => {
    const needs = COMMAND_NEEDS[name];
    return needs !== null && (needs.role !== 'cashier' || needs.raisedBy !== undefined);
  });

  it('has an input to try for every command whose effect needs more than a cashier', () => {
    expect(Object.keys(aboveCashier).sort()).toEqual([...guarded].sort());
  });

  it('reaches no senior-cashier or manager effect through any command', async () => {
    const t = await signedIn();
    for (const name of guarded) {
      const r = await t.call(name, aboveCashier[name]);
      expect(r.status, name).toBe(422);
      expect(r.body, name).toMatchObject({ error: { code: 'role-required' } });
    }
    // The shift is still open and nothing was recorded.
    expect((await t.ok('status', {})).shift).not.toBeNull();
    expect(
      t.terminal.store.outbox.byTransaction(aboveCashier['sale-process']!.transaction_id as string),
    ).toBeNull();
  }, 30_000);
});

describe('a pump completion', () => {
  /** A cash authorisation of 10 l diesel; its completion sells `fields` for 9.8 l dispensed. */
  async function cashAuthorised(t: Till) {
    const auth = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: auth,
      check: {
        transaction_type: 'preauthorization',
        payment_type: 'cash',
        check_items: [item('DIESEL', 10)],
      },
    });
    return (
      fields: Record<string, unknown>,
      id = uuidv7(Date.now()),
      line: Record<string, unknown> = {},
    ) => ({
      transaction_id: id,
      check: {
        ...fields,
        transaction_type: 'completion',
        preliminary_transaction_id: auth,
        check_items: [{ code: 'DIESEL', quantity: 10, processed_quantity: 9.8, ...line }],
      },
    });
  }

  it('keeps the payment type of its authorisation: cash authorised is not completed from the fleet account', async () => {
    const t = await signedIn();
    const before = await fleetBalance(t);
    const completion = await cashAuthorised(t);
    const id = uuidv7(Date.now());
    const fleet = { ...fleetPayment, special_account_pin: DEMO.pins.driver1 };
    const r = await t.call('sale-process', completion(fleet, id));
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect((r.body as { error: unknown }).error).toMatchObject({
      code: 'completion-differs',
      path: 'check.payment_type',
    });
    expect(await t.ok('sale-status', { transaction_id: id })).toMatchObject({ state: 'unknown' });
    expect(await fleetBalance(t)).toBe(before);
    // Completed as it was authorised, in cash: the change is due in cash.
    const sale = await t.ok('sale-process', completion({ payment_type: 'cash' }));
    expect(sale.check.payment_type ?? 'cash').toBe('cash');
    expect(sale.warnings).toContainEqual(expect.objectContaining({ code: 'change-due' }));
  }, 30_000);

  it('keeps the customer of its authorisation: another customer is refused, naming the field', async () => {
    const t = await signedIn();
    const auth = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: auth,
      check: {
        transaction_type: 'preauthorization',
        payment_type: 'cash',
        id: DEMO.cards.anna,
        id_type: 'card',
        check_items: [item('DIESEL', 10)],
      },
    });
    const completion = (fields: Record<string, unknown>) => ({
      transaction_id: uuidv7(Date.now()),
      check: {
        ...fields,
        transaction_type: 'completion',
        preliminary_transaction_id: auth,
        check_items: [{ code: 'DIESEL', quantity: 10, processed_quantity: 9.8 }],
      },
    });
    const byId = await t.refused(
      'sale-process',
      completion({ customer_id: DEMO.customers.ben }),
      'completion-differs',
    );
    expect(byId.error.path).toBe('check.customer_id');
    const byCard = await t.refused(
      'sale-process',
      completion({ id: DEMO.cards.ben, id_type: 'card' }),
      'completion-differs',
    );
    expect(byCard.error.path).toBe('check.id');
    // Naming nobody, it is still Anna's sale.
    const sale = await t.ok('sale-process', completion({}));
    expect(sale.check.customer_id).toBe(DEMO.customers.anna);
  }, 30_000);

  it('keeps the account of its authorisation: another driver\u2019s access is refused', async () => {
    const t = await signedIn();
    const before = await fleetBalance(t);
    const auth = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: auth,
      check: {
        ...fleetPayment,
        special_account_pin: DEMO.pins.driver1,
        transaction_type: 'preauthorization',
        check_items: [item('DIESEL', 10)],
      },
    });
    const refused = await t.refused(
      'sale-process',
      {
        transaction_id: uuidv7(Date.now()),
        check: {
          ...fleetPayment,
          payment_id: DEMO.accesses.driver2,
          transaction_type: 'completion',
          preliminary_transaction_id: auth,
          check_items: [{ code: 'DIESEL', quantity: 10, processed_quantity: 9.8 }],
        },
      },
      'completion-differs',
    );
    expect(refused.error.path).toBe('check.payment_id');
    expect(await fleetBalance(t)).toBe(before);
  }, 30_000);

  it('keeps the goods and price of its authorisation: no cheaper fuel, no bigger change', async () => {
    const t = await signedIn();
    const completion = await cashAuthorised(t);
    const cash = { payment_type: 'cash' };
    // 9.8 l at 0.01 would leave 16.49 of the 16.59 prepaid to "give back" from the drawer.
    const cheap = completion(cash, uuidv7(Date.now()), { price: 0.01 });
    const refused = await t.refused('sale-process', cheap, 'completion-differs');
    expect(refused.error.path).toBe('check.check_items[0].price');
    const other = await t.refused(
      'sale-process',
      completion(cash, uuidv7(Date.now()), { code: 'FUEL-98' }),
      'completion-differs',
    );
    expect(other.error.path).toBe('check.check_items[0].code');
    expect(await t.ok('sale-status', { transaction_id: cheap.transaction_id })).toMatchObject({
      state: 'unknown',
    });
    // At the authorised price (said again, or left out): 9.8 x 1.659 = 16.2582 -> 16.26 (the
    // price as given, engine.md 17.1), 0.33 back.
    const sale = await t.ok('sale-process', completion(cash, uuidv7(Date.now()), { price: 1.659 }));
    expect(sale.check.amount_to_pay).toBe(16.26);
  }, 30_000);

  /** Anna's cash authorisation of 10 l diesel, spending `bonuses` (none: 0). */
  async function annaAuthorised(t: Till, bonuses?: number) {
    const auth = uuidv7(Date.now());
    const anna = {
      payment_type: 'cash',
      customer_id: DEMO.customers.anna,
      id: DEMO.cards.anna,
      id_type: 'card',
    };
    const authorised = await t.ok('sale-process', {
      transaction_id: auth,
      check: {
        ...anna,
        transaction_type: 'preauthorization',
        ...(bonuses ? { bonuses_redeemed_amount: bonuses } : {}),
        check_items: [item('DIESEL', 10)],
      },
    });
    const complete = (litres: number, fields: Record<string, unknown> = {}) => ({
      transaction_id: uuidv7(Date.now()),
      check: {
        ...anna,
        ...fields,
        transaction_type: 'completion',
        preliminary_transaction_id: auth,
        check_items: [{ code: 'DIESEL', quantity: 10, processed_quantity: litres }],
      },
    });
    return { authorised, complete };
  }

  it('spends no more bonuses than its authorisation: they would come back as cash change', async () => {
    const t = await signedIn();
    const { complete } = await annaAuthorised(t);
    const refused = await t.refused(
      'sale-process',
      complete(10, { bonuses_redeemed_amount: 8 }),
      'completion-differs',
    );
    expect(refused.error).toMatchObject({
      path: 'check.bonuses_redeemed_amount',
      details: { authorised: 0 },
    });
  }, 30_000);

  it('keeps the bonus spend of its authorisation when the completion leaves it out', async () => {
    const t = await signedIn();
    const { authorised, complete } = await annaAuthorised(t, 10);
    const granted = authorised.check.bonuses_redeemed_amount!;
    expect(granted).toBeGreaterThan(0);
    // All 10 l dispensed: the prepaid cash is the whole amount to pay, nothing more is due.
    const sale = await t.ok('sale-process', complete(10));
    expect(sale.check.bonuses_redeemed_amount).toBe(granted);
    expect(sale.check.amount_to_pay).toBe(authorised.check.amount_to_pay);
  }, 30_000);

  it('spends what it can when fewer litres lower the bonus ceiling below the authorised spend', async () => {
    const t = await signedIn();
    const { authorised, complete } = await annaAuthorised(t, 10);
    const sale = await t.ok('sale-process', complete(4));
    expect(sale.check.bonuses_redeemed_amount).toBeGreaterThan(0);
    expect(sale.check.bonuses_redeemed_amount).toBeLessThan(
      authorised.check.bonuses_redeemed_amount!,
    );
    expect(sale.warnings).toContainEqual(expect.objectContaining({ code: 'change-due' }));
  }, 30_000);

  it('records no card part the card never paid: a cash authorisation is not completed as a split', async () => {
    const t = await signedIn();
    const completion = await cashAuthorised(t);
    const id = uuidv7(Date.now());
    // 9.8 l of diesel at 1.66 is 16.27: "paid" 10 in cash and 6.27 by a card never charged.
    const split = {
      payments: [
        { type: 'cash', amount: 10 },
        { type: 'bank-card', amount: 6.27 },
      ],
    };
    const refused = await t.refused('sale-process', completion(split, id), 'completion-differs');
    expect(refused.error.path).toBe('check.payments[1].type');
    expect(await t.ok('sale-status', { transaction_id: id })).toMatchObject({ state: 'unknown' });
  }, 30_000);
});

describe('a cancel or refund', () => {
  const carla = { id: DEMO.staff.cashier, name: 'Carla Cashier' };
  const oil = { payment_type: 'cash', check_items: [item('OIL-1', 2)] };

  /** Carla sells; then the senior cashier takes over the till (same shift). */
  async function soldThenSenior(): Promise<{ t: Till; sale: string; senior: unknown }> {
    const t = await signedIn();
    const sale = uuidv7(Date.now());
    const sold = await t.ok('sale-process', { transaction_id: sale, check: oil });
    expect(sold.check.business_staff).toEqual(carla);
    await t.ok('staff-sign-out', {});
    const signed = await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.senior });
    return { t, sale, senior: { id: signed.staff.id, name: signed.staff.name } };
  }

  async function sentToCentral(t: Till) {
    await t.ok('sync-now', {});
    return (await centralTransactions(t)) as Array<Record<string, unknown>>;
  }

  it('names the senior cashier who refunded as business_staff, not the seller', async () => {
    const { t, sale, senior } = await soldThenSenior();
    const id = uuidv7(Date.now());
    const refund = await t.ok('sale-refund', {
      transaction_id: id,
      original_transaction_id: sale,
      lines: [{ index: 0, quantity: 1 }],
    });
    expect(refund.check.business_staff).toEqual(senior);
    const stored = await t.ok('sale-status', { transaction_id: id });
    expect(stored).toMatchObject({ state: 'committed', check: { business_staff: senior } });
    const body = (t.terminal.store.outbox.byTransaction(id)?.payload as { body: unknown }).body;
    expect(body).toMatchObject({ business_staff: senior });
    const central = (await sentToCentral(t)).find((x) => x.transaction_id === id);
    expect(central).toMatchObject({ operation: 'refund_check', check: { business_staff: senior } });
  }, 30_000);

  it('names the senior cashier who cancelled as business_staff, not the seller', async () => {
    const { t, sale, senior } = await soldThenSenior();
    const cancel = await t.ok('sale-cancel', { transaction_id: sale });
    expect(cancel.check.business_staff).toEqual(senior);
    const queued = t.terminal.store.outbox.unsent().find((r) => r.operation === 'cancel_check');
    expect((queued?.payload as { body: unknown }).body).toMatchObject({
      transaction_id: sale,
      business_staff: senior,
    });
    const central = (await sentToCentral(t)).find(
      (x) => x.operation === 'cancel_check' && x.cancels === sale,
    );
    expect(central).toMatchObject({ business_staff: senior });
    // The sale itself keeps its seller.
    expect(await t.ok('sale-status', { transaction_id: sale })).toMatchObject({
      cancelled: true,
      check: { business_staff: carla },
    });
  }, 30_000);

  it('counts a refund on the shift it was made in, not the sale\u2019s', async () => {
    const { t, sale, senior } = await soldThenSenior();
    await t.ok('staff-sign-out', {});
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
    const first = (await t.ok('status', {})).shift!.id;
    await t.ok('shift-close', { counted_cash: 25.8 });
    await t.ok('staff-sign-out', {});
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.senior });
    await t.ok('shift-open', {});
    const refund = await t.ok('sale-refund', {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: sale,
      lines: [{ index: 0, quantity: 1 }],
    });
    expect(refund.check.business_staff).toEqual(senior);
    const now = (await t.ok('shift-report', {})).report;
    expect(now.refunds).toMatchObject({ count: 1, amount: refund.check.amount_to_pay });
    expect(now.sales.count).toBe(0);
    const then = (await t.ok('shift-report', { shift_id: first })).report;
    expect(then.refunds.count).toBe(0);
    expect(then.sales.count).toBe(1);
  }, 30_000);
});

describe('a figure or flag the caller sends', () => {
  /** Sells `check` and expects a 400 naming `path`; nothing recorded, charged or queued. */
  async function refusedSale(t: Till, check: Record<string, unknown>, path: string) {
    const id = uuidv7(Date.now());
    const refused = await t.refused(
      'sale-process',
      { transaction_id: id, check: { payment_type: 'cash', ...check } },
      'invalid-input',
    );
    expect(refused.error.path).toBe(path);
    expect(await t.ok('sale-status', { transaction_id: id })).toMatchObject({ state: 'unknown' });
    expect(t.terminal.store.outbox.byTransaction(id)).toBeNull();
    expect(t.terminal.services.cards.forTransaction(id)).toEqual([]);
  }

  it('sells a line at price x quantity: a line amount that says otherwise is refused', async () => {
    const t = await signedIn();
    // 2 x 12.90 (the preset's price, or typed) sold for 0.01.
    const cheap = { code: 'OIL-1', quantity: 2, amount: 0.01 };
    await refusedSale(t, { check_items: [cheap] }, 'check.check_items[0].amount');
    await refusedSale(
      t,
      { check_items: [{ ...cheap, price: 12.9 }] },
      'check.check_items[0].amount',
    );
    // An amount that is price x quantity is only said again.
    const sale = await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: { payment_type: 'cash', check_items: [{ ...cheap, amount: 25.8 }] },
    });
    expect(sale.check.amount_to_pay).toBe(25.8);
  }, 30_000);

  it('takes what the pump dispensed only in a completion', async () => {
    const t = await signedIn();
    const line = { code: 'OIL-1', quantity: 1, processed_quantity: 2, processed_amount: 0.01 };
    await refusedSale(t, { check_items: [line] }, 'check.check_items[0].processed_quantity');
  }, 30_000);

  it('takes no negative payment part: no cash out of the drawer against a card overcharged', async () => {
    const t = await signedIn();
    const payments = [
      { type: 'cash', amount: -5 },
      { type: 'bank-card', amount: 17.9 },
    ];
    await refusedSale(t, { check_items: [item('OIL-1', 1)], payments }, 'check.payments[0].amount');
  }, 30_000);

  it('charges no negative shipping: it would be a discount nobody granted', async () => {
    const t = await signedIn();
    await refusedSale(
      t,
      { check_items: [item('OIL-1', 1)], shipping_amount: -5 },
      'check.shipping_amount',
    );
  }, 30_000);

  it('charges no negative service: a service outside the catalogue cannot lower the check', async () => {
    const t = await signedIn();
    const sale = { check_items: [item('OIL-1', 1)] };
    await refusedSale(
      t,
      { ...sale, check_services: [{ code: 'FOO', amount: -5 }] },
      'check.check_services[0].amount',
    );
    await refusedSale(
      t,
      { ...sale, check_services: [{ code: 'FOO', value: 1, cost: -5 }] },
      'check.check_services[0].cost',
    );
  }, 30_000);

  it('leaves the clock_suspect flag and refund_lines of the free-form info to the terminal', async () => {
    const t = await signedIn();
    const sale = { check_items: [item('OIL-1', 1)] };
    await refusedSale(
      t,
      { ...sale, external_additional_info: { clock_suspect: true } },
      'check.external_additional_info.clock_suspect',
    );
    await refusedSale(
      t,
      { ...sale, external_additional_info: { refund_lines: [{ index: 0, quantity: 1 }] } },
      'check.external_additional_info.refund_lines',
    );
  }, 30_000);
});
