// `cash-movement` (docs/terminal.md, "Cash movements"): cash paid into or out of the drawer
// outside a sale, with a reason, kept in the store, listed in the shift report and counted in
// the cash the shift expects. Paying out is a senior cashier's.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { tillPerTest, type Till } from './helpers.js';

const { open } = tillPerTest();

/** A till with a shift opened on 100.00 by the staff member of `code`. */
async function till(code: string = DEMO.authCodes.cashier): Promise<Till> {
  const t = await open();
  await t.ok('staff-sign-in', { auth_code: code });
  await t.ok('shift-open', { opening_cash: 100 });
  return t;
}

describe('cash-movement', () => {
  it('counts a paid-in and a paid-out in the cash the shift expects and lists them in its report', async () => {
    const t = await till(DEMO.authCodes.senior);
    await t.ok('cash-movement', { kind: 'paid-in', amount: 20.1, reason: 'change from the bank' });
    await t.ok('cash-movement', { kind: 'paid-out', amount: 0.2, reason: 'window cleaner' });
    const { report } = await t.ok('shift-report', {});
    expect(report.expected_cash).toBe(119.9);
    expect(report.cash_movements).toMatchObject([
      { kind: 'paid-in', amount: 20.1, reason: 'change from the bank' },
      { kind: 'paid-out', amount: 0.2, reason: 'window cleaner' },
    ]);
  }, 30_000);

  it('counts the movements in the expected cash of the shift-close report', async () => {
    const t = await till(DEMO.authCodes.manager);
    await t.ok('cash-movement', { kind: 'paid-out', amount: 30, reason: 'bank deposit' });
    const { report } = await t.ok('shift-close', { counted_cash: 70 });
    expect(report.expected_cash).toBe(70);
  }, 30_000);

  it('answers the movement with the terminal’s staff, shift and time', async () => {
    const t = await till();
    const shift = (await t.ok('status', {})).shift;
    const { movement } = await t.ok('cash-movement', {
      kind: 'paid-in',
      amount: 5,
      reason: 'float top-up',
    });
    expect(movement).toMatchObject({ shift_id: shift?.id, kind: 'paid-in', amount: 5 });
    expect(movement.staff.id).toBeTruthy();
    expect(Date.parse(movement.recorded_at)).not.toBeNaN();
  }, 30_000);

  it('refuses an empty reason naming reason, and records nothing', async () => {
    const t = await till();
    const r = await t.refused(
      'cash-movement',
      { kind: 'paid-in', amount: 5, reason: '   ' },
      'invalid-input',
    );
    expect(r.error.path).toBe('reason');
    expect((await t.ok('shift-report', {})).report.cash_movements).toBeUndefined();
  }, 30_000);

  it('refuses the shift, staff and time when the caller sends them', async () => {
    const t = await till();
    for (const field of ['shift_id', 'staff', 'recorded_at']) {
      const r = await t.refused(
        'cash-movement',
        { kind: 'paid-in', amount: 5, reason: 'x', [field]: 'mine' },
        'invalid-input',
      );
      expect(r.error.path).toBe(field);
    }
  }, 30_000);

  it('lets a cashier pay in but not pay out', async () => {
    const t = await till();
    await t.ok('cash-movement', { kind: 'paid-in', amount: 5, reason: 'float top-up' });
    await t.refused(
      'cash-movement',
      { kind: 'paid-out', amount: 5, reason: 'window cleaner' },
      'role-required',
    );
  }, 30_000);

  it('keeps the movement in the store, its amount as exact decimal text', async () => {
    const t = await till();
    await t.ok('cash-movement', { kind: 'paid-in', amount: 5, reason: 'float top-up' });
    const stored = t.terminal.store.cashMovements.of((await t.ok('status', {})).shift!.id);
    expect(stored).toMatchObject([{ kind: 'paid-in', amount: '5.00', reason: 'float top-up' }]);
  }, 30_000);
});

describe('cash-movement with an idempotency_key', () => {
  const key = '0190a5e2-7c1d-7f00-8000-00000000c450';

  it('records a retry with the same key and body once and answers it the same', async () => {
    const t = await till();
    const body = { kind: 'paid-in', amount: 5, reason: 'float top-up', idempotency_key: key };
    const first = await t.ok('cash-movement', body);
    const again = await t.ok('cash-movement', body);
    expect(again).toEqual(first);
    const stored = t.terminal.store.cashMovements.of(first.movement.shift_id);
    expect(stored).toHaveLength(1);
  }, 30_000);

  it('refuses the same key with another body as idempotency-conflict and records nothing more', async () => {
    const t = await till();
    const body = { kind: 'paid-in', amount: 5, reason: 'float top-up', idempotency_key: key };
    const first = await t.ok('cash-movement', body);
    const r = await t.refused('cash-movement', { ...body, amount: 6 }, 'idempotency-conflict');
    expect(r.error.path).toBe('idempotency_key');
    expect(t.terminal.store.cashMovements.of(first.movement.shift_id)).toHaveLength(1);
  }, 30_000);

  it('records two movements under two keys', async () => {
    const t = await till();
    const body = { kind: 'paid-in', amount: 5, reason: 'float top-up' };
    const a = await t.ok('cash-movement', { ...body, idempotency_key: key });
    await t.ok('cash-movement', { ...body, idempotency_key: key.replace(/0$/, '1') });
    expect(t.terminal.store.cashMovements.of(a.movement.shift_id)).toHaveLength(2);
  }, 30_000);
});
