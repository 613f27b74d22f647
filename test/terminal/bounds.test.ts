// Bounds and malformed input (docs/contract.md, "Bounds"): what the outside review sent is
// refused with 400 `invalid-input` naming the field, nothing is written, and no bad value at
// the boundary ever gives a 500.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandNames, type CommandName, type ErrorResponse } from '../../src/contract/commands.js';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item, openTill, type Till } from './helpers.js';

let t: Till;
beforeAll(async () => {
  t = await openTill();
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
  await t.ok('shift-open', { opening_cash: 50 });
}, 60_000);
afterAll(async () => {
  await t.close();
});

/** Sells `check` and expects 400 naming `path`; proves no sale was recorded. */
async function refusedSale(check: Record<string, unknown>, path: string): Promise<ErrorResponse> {
  const id = uuidv7(Date.now());
  const r = await t.call('sale-process', { transaction_id: id, check });
  expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(400);
  const body = r.body as ErrorResponse;
  expect(body.error.code).toBe('invalid-input');
  expect(body.error.path).toBe(path);
  expect(t.terminal.store.ledger.status(id)).toBeNull();
  return body;
}

const water = (extra: Record<string, unknown> = {}) => item('WTR-1', 1, { price: 1.49, ...extra });

describe('the findings of the review are refused, naming the field', () => {
  it('refuses a price of 1e308', async () => {
    await refusedSale({ check_items: [water({ price: 1e308 })] }, 'check.check_items[0].price');
  });

  it('refuses a quantity of 1e308', async () => {
    await refusedSale({ check_items: [item('WTR-1', 1e308)] }, 'check.check_items[0].quantity');
  });

  it('refuses a line whose price x quantity is more than a till sells', async () => {
    const body = await refusedSale(
      { check_items: [item('WTR-1', 1000, { price: 2e6 })] },
      'check.check_items[0].price',
    );
    expect(body.error.message).toContain('1,000,000,000');
  });

  it('refuses lines that together come to more than a till sells', async () => {
    const lines = Array.from({ length: 3 }, () => item('WTR-1', 1, { amount: 4e8 }));
    await refusedSale({ check_items: lines }, 'check.check_items');
  });

  it('refuses 20,000 lines', async () => {
    const lines = Array.from({ length: 20_000 }, () => water());
    await refusedSale({ check_items: lines }, 'check.check_items');
  });

  it('refuses a 900 KB code', async () => {
    await refusedSale(
      { check_items: [item('X'.repeat(900_000), 1, { price: 1 })] },
      'check.check_items[0].code',
    );
  });

  it('refuses an empty code', async () => {
    await refusedSale({ check_items: [item('', 1, { price: 1 })] }, 'check.check_items[0].code');
  });

  it('refuses NUL and control characters in a code', async () => {
    await refusedSale(
      { check_items: [item('WTR\u0000-1', 1, { price: 1 })] },
      'check.check_items[0].code',
    );
    await refusedSale(
      { check_items: [item('WTR\u001b[2J', 1, { price: 1 })] },
      'check.check_items[0].code',
    );
  });

  it('refuses control characters in a title and a comment', async () => {
    await refusedSale(
      { check_items: [water({ title: 'Water\u0007' })] },
      'check.check_items[0].title',
    );
    await refusedSale({ check_items: [water()], comment: 'ok\u0000' }, 'check.comment');
  });

  it('refuses an external_additional_info nested 5,000 levels deep', async () => {
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 5_000; i++) deep = { a: deep };
    await refusedSale(
      { check_items: [water()], external_additional_info: deep },
      'check.external_additional_info',
    );
  });

  it('refuses a price with more decimal digits than any field has', async () => {
    await refusedSale(
      { check_items: [water({ price: 1.123456789 })] },
      'check.check_items[0].price',
    );
  });

  it('accepts a price with more digits than its field (used exactly, engine.md 17.2)', async () => {
    const calc = await t.ok('check-calc', {
      // Another price than the catalogue's is a line by hand: it needs its reason.
      check: { check_items: [item('WTR-1', 3, { price: 1.759, manual_reason: 'priced by hand' })] },
    });
    expect(calc.check.check_items?.[0]?.amount).toBe(5.28); // 5.277 rounded once
  });

  it('refuses opening and counted cash of 1e308, naming the field', async () => {
    const closed = await t.call('shift-close', { counted_cash: 1e308 });
    expect(closed.status).toBe(400);
    expect((closed.body as ErrorResponse).error.path).toBe('counted_cash');
    expect(t.terminal.store.shifts.current()).not.toBeNull();
    const opened = await t.call('shift-open', { opening_cash: 1e308 });
    expect(opened.status).toBe(400);
    expect((opened.body as ErrorResponse).error.path).toBe('opening_cash');
  });

  it('refuses a refund quantity of 1e308 and a comment with control characters', async () => {
    const r = await t.call('sale-refund', {
      transaction_id: uuidv7(Date.now()),
      original_transaction_id: uuidv7(Date.now()),
      lines: [{ index: 0, quantity: 1e308 }],
    });
    expect((r.body as ErrorResponse).error.path).toBe('lines[0].quantity');
    const c = await t.call('sale-cancel', {
      transaction_id: uuidv7(Date.now()),
      comment: 'bad\u0000',
    });
    expect((c.body as ErrorResponse).error.path).toBe('comment');
  });
});

describe('more digits than the field', () => {
  it('rounds opening and counted cash to the amount digits when read (engine.md 17.2)', async () => {
    const closed = await t.ok('shift-close', { counted_cash: 49.995 });
    expect(closed.report.shift.counted_cash).toBe(50);
    const opened = await t.ok('shift-open', { opening_cash: 100.005 });
    expect(opened.shift.opening_cash).toBe(100.01);
  });
});

describe('random bad values at the boundary', () => {
  const bad = fc.oneof(
    fc.constantFrom(1e308, -1e308, 1e9 + 1, -1e16, 1e-9, 0.1234567891, Number.MAX_VALUE),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => Math.abs(n) > 1e9),
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.constant(null),
    fc.array(fc.integer(), { maxLength: 3 }),
  );
  const field = fc.constantFrom('price', 'quantity', 'amount', 'code', 'title', 'discount_amount');

  it('never give a 500 (check-calc and sale-process)', async () => {
    await fc.assert(
      fc.asyncProperty(field, bad, fc.boolean(), async (key, value, sell) => {
        const check = { check_items: [water({ [key]: value })], payment_type: 'cash' };
        const r = sell
          ? await t.call('sale-process', { transaction_id: uuidv7(Date.now()), check })
          : await t.call('check-calc', { check });
        expect(r.status, JSON.stringify(r.body).slice(0, 300)).not.toBe(500);
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('never give a 500 for cash counted at open and close', async () => {
    await fc.assert(
      fc.asyncProperty(bad, async (value) => {
        const r = await t.call('shift-close', { counted_cash: value });
        expect(r.status).toBe(400);
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});

describe('random input to every command', () => {
  it('never gives a 500, whatever JSON a caller sends', async () => {
    const own = await openTill();
    try {
      await own.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
      await own.ok('shift-open', {});
      // Leaves of every kind, the review's bad values among them.
      const leaf = fc.oneof(
        fc.constantFrom(1e308, -1e308, 1e-300, 0, -1, '', '\u0000', 'X'.repeat(2000), null),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.string({ unit: 'binary', maxLength: 10 }),
        fc.uuid(),
      );
      const value = fc.letrec((tie) => ({
        v: fc.oneof(
          { depthSize: 'small' },
          leaf,
          fc.array(tie('v'), { maxLength: 3 }),
          fc.dictionary(
            fc.constantFrom(
              'check',
              'check_items',
              'code',
              'price',
              'quantity',
              'amount',
              'transaction_id',
              'lines',
              'id',
              'comment',
            ),
            tie('v'),
            { maxKeys: 4 },
          ),
        ),
      })).v;
      const names = commandNamesWithout(['staff-sign-out', 'sync-now']);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...names), value, async (name, input) => {
          const r = await own.call(name, input);
          expect(r.status, `${name} ${JSON.stringify(r.body).slice(0, 200)}`).not.toBe(500);
        }),
        { numRuns: 300 },
      );
    } finally {
      await own.close();
    }
  }, 180_000);
});

function commandNamesWithout(skip: readonly string[]): CommandName[] {
  return commandNames.filter((n) => !skip.includes(n));
}
