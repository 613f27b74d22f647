// Staff and shifts: sign-in online and offline (cached hashes), the lockout after repeated
// wrong codes (kept across a restart), what each role may do, and the shift report's figures.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO, startCentral } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, tempDir, type Till } from './helpers.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function till(o: Parameters<typeof openTill>[0] = {}): Promise<Till> {
  const t = await openTill(o);
  cleanups.push(() => t.close());
  return t;
}

describe('staff sign-in', () => {
  it('locks sign-in after repeated wrong codes, even for the right code and after a restart', async () => {
    const dir = tempDir();
    const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
    cleanups.push(() => central.close());
    const first = await openTill({
      central,
      dir: join(dir, 'till'),
      signIn: { max_failures: 3, lockout_s: 300 },
    });
    await first.refused('staff-sign-in', { auth_code: '0000' }, 'auth-code-invalid');
    await first.refused('staff-sign-in', { auth_code: '0001' }, 'auth-code-invalid');
    const locked = await first.refused('staff-sign-in', { auth_code: '0002' }, 'sign-in-locked');
    expect(locked.error.details).toMatchObject({ retry_after_s: 300 });
    await first.refused('staff-sign-in', { auth_code: DEMO.authCodes.manager }, 'sign-in-locked');
    await first.close();

    const again = await till({
      central,
      dir: join(dir, 'till'),
      signIn: { max_failures: 3, lockout_s: 300 },
    });
    await again.refused('staff-sign-in', { auth_code: DEMO.authCodes.manager }, 'sign-in-locked');
  }, 30_000);

  it('counts parallel wrong codes one by one, so none is checked past the lockout', async () => {
    const t = await till({ signIn: { max_failures: 3, lockout_s: 300 } });
    const codes = Array.from({ length: 12 }, (_, i) => String(9000 + i));
    const answers = await Promise.all(
      codes.map((auth_code) => t.call('staff-sign-in', { auth_code })),
    );
    const codesOf = answers.map((a) => (a.body as { error: { code: string } }).error.code);
    expect(codesOf.filter((c) => c === 'auth-code-invalid')).toHaveLength(2);
    expect(codesOf.filter((c) => c === 'sign-in-locked')).toHaveLength(10);
    // The store counted exactly the codes it checked: the limit, and not one more.
    expect(
      t.terminal.store.signin.state(
        { maxFailures: 3, windowMs: 900_000, lockoutMs: 300_000 },
        Date.now(),
      ).failures,
    ).toBe(3);
  }, 60_000);

  it('counts parallel wrong codes one by one while the network is slow, failing and dropping', async () => {
    const t = await till({ signIn: { max_failures: 3, lockout_s: 300 } });
    // Each attempt meets another network: slow answers, 5xx (offline fallback), resets.
    t.central.server.setFaults({ latency_ms: 150, error_rate: 0.3, reset_rate: 0.3 });
    const codes = Array.from({ length: 12 }, (_, i) => String(7000 + i));
    const answers = await Promise.all([
      ...codes.map((auth_code) => t.call('staff-sign-in', { auth_code })),
      t.call('staff-sign-in', { auth_code: DEMO.authCodes.manager }),
    ]);
    t.central.server.setFaults({ latency_ms: 0, error_rate: 0, reset_rate: 0 });
    const codesOf = answers.map((a) => (a.body as { error?: { code: string } }).error?.code);
    expect(codesOf.filter((c) => c === 'auth-code-invalid')).toHaveLength(2);
    // The third wrong code locks; everything after it, the right code too, is refused unchecked.
    expect(codesOf.filter((c) => c === 'sign-in-locked')).toHaveLength(11);
    expect(
      t.terminal.store.signin.state(
        { maxFailures: 3, windowMs: 900_000, lockoutMs: 300_000 },
        Date.now(),
      ).failures,
    ).toBe(3);
  }, 60_000);

  it('signs in offline against the cached hashes', async () => {
    const t = await till();
    await t.central.close();
    const signed = await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
    expect(signed.staff).toMatchObject({
      id: DEMO.staff.manager,
      roles: ['cashier', 'senior-cashier', 'manager'],
    });
    await t.refused('staff-sign-in', { auth_code: '4444' }, 'auth-code-invalid');
  }, 30_000);
});

describe('a slow central service', () => {
  it('signs in and identifies from the cache once the online deadline passes', async () => {
    const t = await till();
    t.central.server.setFaults({ latency_ms: 5_000 });
    const started = Date.now();
    const signed = await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    expect(signed.staff.id).toBe(DEMO.staff.cashier);
    const who = await t.ok('customer-identify', { id: DEMO.cards.ben, id_type: 'card' });
    expect(who.source).toBe('cache');
    // Deadline 1 s (helpers.ts); the second call finds the link offline and asks nobody.
    expect(Date.now() - started).toBeLessThan(2_500);
    t.central.server.setFaults({ latency_ms: 0 });
  }, 30_000);
});

describe('roles', () => {
  it('refuses what a cashier may not do, naming the role', async () => {
    const t = await till();
    await t.refused(
      'customer-identify',
      { id: DEMO.cards.anna, id_type: 'card' },
      'staff-required',
    );
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await t.refused(
      'sale-process',
      { transaction_id: uuidv7(Date.now()), check: { check_items: [item('WTR-1', 1)] } },
      'shift-required',
    );
    await t.ok('shift-open', {});
    const id = uuidv7(Date.now());
    await t.ok('sale-process', { transaction_id: id, check: { check_items: [item('WTR-1', 1)] } });
    const refusal = await t.refused('sale-cancel', { transaction_id: id }, 'role-required');
    expect(refusal.error.details).toMatchObject({ required: 'senior-cashier' });
    await t.refused(
      'sale-refund',
      {
        transaction_id: uuidv7(Date.now()),
        original_transaction_id: id,
        lines: [{ index: 0, quantity: 1 }],
      },
      'role-required',
    );
    await t.refused(
      'check-calc',
      { check: { manual_rules: true, check_items: [item('WTR-1', 1)] } },
      'role-required',
    );
    await t.refused('shift-close', {}, 'role-required');
    const r = await t.call('attention-resolve', { id: uuidv7(Date.now()) });
    expect(r.status).toBe(422);
    await t.ok('staff-sign-out', {});
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.senior });
    await t.ok('sale-cancel', { transaction_id: id });
    await t.refused('shift-close', {}, 'role-required');
  }, 30_000);
});

describe('the shift report', () => {
  it('adds up sales, refunds, cancellations and payments by type, and the cash expected', async () => {
    const t = await till();
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
    const { shift } = await t.ok('shift-open', { opening_cash: 100 });
    const s1 = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: s1,
      check: { payment_type: 'cash', check_items: [item('WTR-1', 2)] },
    });
    await t.ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: { payment_type: 'bank-card', check_items: [item('OIL-1', 1)] },
    });
    const s3 = uuidv7(Date.now());
    await t.ok('sale-process', { transaction_id: s3, check: { check_items: [item('COF-1', 1)] } });
    await t.ok('sale-cancel', { transaction_id: s3 });
    await t.ok('sale-refund', {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: s1,
      lines: [{ index: 0, quantity: 1 }],
    });
    const bonus = uuidv7(Date.now());
    await t.ok('sale-process', {
      transaction_id: bonus,
      check: {
        customer_id: DEMO.customers.anna,
        id: DEMO.cards.anna,
        id_type: 'card',
        bonuses_redeemed_amount: 2,
        check_items: [item('SNK-1', 1)],
      },
    });

    const { report } = await t.ok('shift-report', {});
    expect(report.shift.id).toBe(shift.id);
    // 2.98 + 12.90 + 2.25 (coffee, 10% off) + 2.99 (sandwich 4.99 - 2 bonuses)
    expect(report.sales).toEqual({ count: 4, amount: 21.12 });
    expect(report.refunds).toEqual({ count: 1, amount: 1.49 });
    expect(report.cancellations).toEqual({ count: 1, amount: 2.25 });
    expect(report.offline_sales).toEqual({ count: 0, amount: 0 });
    const byType = Object.fromEntries(report.payments.map((p) => [p.type, p]));
    expect(byType.cash).toEqual({ type: 'cash', count: 5, amount: 4.48 });
    expect(byType['bank-card']).toEqual({ type: 'bank-card', count: 1, amount: 12.9 });
    expect(report.bonuses.redeemed).toBe(2);
    expect(report.bonuses.added).toBeGreaterThan(0);
    expect(report.expected_cash).toBe(104.48);

    const closed = await t.ok('shift-close', { counted_cash: 104.5 });
    expect(closed.report.sales).toEqual(report.sales);
    expect(closed.report.shift).toMatchObject({
      counted_cash: 104.5,
      closed_by: { id: DEMO.staff.manager },
    });
    expect((await t.ok('shift-report', { shift_id: shift.id })).report.payments).toEqual(
      closed.report.payments,
    );
    await t.refused(
      'sale-process',
      { transaction_id: uuidv7(Date.now()), check: { check_items: [item('WTR-1', 1)] } },
      'shift-required',
    );
    expect((await t.ok('shift-open', {})).shift.number).toBe(2);
  }, 30_000);
});
