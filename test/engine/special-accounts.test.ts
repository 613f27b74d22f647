import { describe, expect, it } from 'vitest';
import { checkOf, customer, errorOf, fixture, item } from './helpers.js';

const account = (over: Record<string, unknown> = {}) => ({
  id: 'sa1',
  currency: 'EUR',
  balance: 100,
  credit_type: 'none' as const,
  extended: 1 as const,
  ...over,
});

const pay = (over: Parameters<typeof fixture>[0] = {}, check: Record<string, unknown> = {}) =>
  fixture({
    special_accounts: [account()],
    ...over,
    check: {
      payment_type: 'special-account',
      payment_id: 'sa1',
      check_items: [item('A', 1, 10)],
      ...check,
    },
  });

describe('paying from a special account', () => {
  it('debits amount_to_pay', () => {
    expect(checkOf(pay())).toMatchObject({
      special_accounts_charges: [
        {
          special_account_id: 'sa1',
          amount: 10,
          currency: 'EUR',
          decimal_digits: 2,
          direction: 'debit',
        },
      ],
      special_account: { id: 'sa1', currency: 'EUR' },
      special_account_pin_required: false,
    });
  });

  it('needs an identified customer', () => {
    expect(errorOf(pay({ customer: null }))).toMatchObject({ code: 'customer-required' });
  });

  it('names a missing account', () => {
    expect(errorOf(pay({ special_accounts: [] }))).toMatchObject({
      code: 'account-not-found',
      path: 'check.payment_id',
    });
  });

  it('refuses an inactive account before its window', () => {
    const a = account({ active: 0, limits: { available_until: '2020-01-01T00:00:00Z' } });
    expect(errorOf(pay({ special_accounts: [a] }))).toMatchObject({ code: 'account-inactive' });
  });

  it('refuses outside the availability window', () => {
    const a = account({ limits: { available_from: '2026-11-22T11:00:00Z' } });
    expect(errorOf(pay({ special_accounts: [a] }))).toMatchObject({
      code: 'account-outside-window',
    });
  });

  it('refuses an account in another currency', () => {
    expect(errorOf(pay({ special_accounts: [account({ currency: 'USD' })] }))).toMatchObject({
      code: 'currency-mismatch',
    });
  });

  it('names goods the account may not pay for', () => {
    const a = account({ goods_items: ['B'] });
    expect(errorOf(pay({ special_accounts: [a] }))).toMatchObject({
      code: 'goods-not-payable',
      details: { codes: ['A'] },
    });
  });

  it('reports a missing PIN only by flag in calc', () => {
    const check = checkOf(pay({ special_accounts: [account({ security_code: 1 })] }));
    expect(check.special_account_pin_required).toBe(true);
  });

  it('refuses a missing PIN in process', () => {
    const input = {
      ...pay({ special_accounts: [account({ security_code: 1 })] }),
      mode: 'process' as const,
    };
    expect(errorOf(input)).toMatchObject({ code: 'pin-required' });
  });

  it('refuses a PIN the caller did not verify', () => {
    const input = pay(
      { special_accounts: [account({ security_code: 1, pin_verified: false })] },
      { special_account_pin: '1234' },
    );
    expect(errorOf(input)).toMatchObject({ code: 'pin-invalid' });
  });

  it('refuses an odometer below the last reading in the same unit', () => {
    const input = pay(
      {
        special_accounts: [account({ odometer: 'required' })],
        vehicles: [{ vehicle_id: 'V1', last_odometer: { value: 500, unit: 'km' } }],
      },
      { vehicle_id: 'V1', odometer: 499, odometer_unit: 'km' },
    );
    expect(errorOf(input)).toMatchObject({ code: 'odometer-decreased' });
  });

  it('refuses an odometer with three decimals', () => {
    const input = pay(
      { special_accounts: [account({ odometer: 'optional' })] },
      { odometer: 10.125 },
    );
    expect(errorOf(input)).toMatchObject({ code: 'odometer-invalid' });
  });

  it('names the limit exceeded and what it leaves', () => {
    const a = account({ limits: { day_limit: 50 }, used: { day: 35 } });
    expect(
      errorOf(pay({ special_accounts: [a], pending: { accounts: { sa1: 6 } } })),
    ).toMatchObject({
      code: 'limit-exceeded',
      details: { limit: 'day', available: 9 },
    });
  });

  it('treats a limit of 0 as unlimited', () => {
    const a = account({ limits: { day_limit: 0 }, used: { day: 1000 } });
    expect(checkOf(pay({ special_accounts: [a] })).special_accounts_charges).toHaveLength(1);
  });

  it('lets a limited credit cover what the balance lacks', () => {
    const a = account({ balance: 5, credit_type: 'limited', credit_limit: 5 });
    expect(checkOf(pay({ special_accounts: [a] })).special_accounts_charges).toMatchObject([
      { amount: 10 },
    ]);
    const short = account({ balance: 5, credit_type: 'limited', credit_limit: 4.99 });
    expect(errorOf(pay({ special_accounts: [short] }))).toMatchObject({
      code: 'insufficient-funds',
      details: { available: 9.99 },
    });
  });

  it('checks a corporate access and both its limit groups', () => {
    const access = {
      id: 'acc1',
      corporate_customer_special_account: { id: 'csa1', special_account: account({ id: 'csa1' }) },
      limits: { account_day_limit: 100, user_day_limit: 20 },
      used: { user: { day: 15 } },
    };
    const input = fixture({
      customer: customer(),
      corporate_accesses: [access],
      check: {
        corporate_customer_id: 'cc1',
        payment_type: 'corporate-special-account',
        payment_id: 'acc1',
        check_items: [item('A', 1, 10)],
      },
    });
    expect(errorOf(input)).toMatchObject({
      code: 'limit-exceeded',
      details: { limit: 'user-day', available: 5 },
    });
  });

  it("counts the fleet account's holds against its limits and the access's against the driver's", () => {
    const access = {
      id: 'acc1',
      corporate_customer_special_account: { id: 'csa1', special_account: account({ id: 'csa1' }) },
      limits: { account_day_limit: 100, user_day_limit: 50 },
    };
    const input = (pending: Record<string, number>) =>
      fixture({
        customer: customer(),
        corporate_accesses: [access],
        pending: { accounts: pending },
        check: {
          corporate_customer_id: 'cc1',
          payment_type: 'corporate-special-account',
          payment_id: 'acc1',
          check_items: [item('A', 1, 10)],
        },
      });
    // Other drivers of the fleet spent 90 here; this driver 5 of them.
    expect(errorOf(input({ csa1: 95, acc1: 5 }))).toMatchObject({
      code: 'limit-exceeded',
      details: { limit: 'day', available: 5 },
    });
    expect(errorOf(input({ csa1: 45, acc1: 45 }))).toMatchObject({
      code: 'limit-exceeded',
      details: { limit: 'user-day', available: 5 },
    });
    // The balance is the fleet's: its holds count against the funds.
    expect(errorOf(input({ csa1: 95 }))).toMatchObject({ code: 'limit-exceeded' });
    expect(checkOf(input({ acc1: 5 })).special_accounts_charges?.[0]).toMatchObject({
      special_account_id: 'csa1',
      amount: 10,
    });
  });

  it('treats a suspended corporate user as an inactive account', () => {
    const input = fixture({
      corporate_accesses: [
        {
          id: 'acc1',
          corporate_customer_special_account: {
            id: 'csa1',
            corporate_customer: { suspended: 0, corporate_user: { status: 0 } },
            special_account: account({ id: 'csa1' }),
          },
        },
      ],
      check: {
        corporate_customer_id: 'cc1',
        payment_type: 'corporate-special-account',
        payment_id: 'acc1',
        check_items: [item('A', 1, 10)],
      },
    });
    expect(errorOf(input)).toMatchObject({ code: 'account-inactive' });
  });

  it('reports a required vehicle id only by flag in calc', () => {
    const input = fixture({
      corporate_accesses: [
        {
          id: 'acc1',
          vehicle_id: 'required',
          corporate_customer_special_account: {
            id: 'csa1',
            special_account: account({ id: 'csa1' }),
          },
        },
      ],
      check: {
        corporate_customer_id: 'cc1',
        payment_type: 'corporate-special-account',
        payment_id: 'acc1',
        check_items: [item('A', 1, 10)],
      },
    });
    expect(checkOf(input)).toMatchObject({
      special_account_vehicle_id_required: 'required',
      special_accounts_charges: [{ special_account_id: 'csa1', direction: 'debit' }],
    });
  });
});
