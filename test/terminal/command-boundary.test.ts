// The command boundary (docs/terminal.md, "What the caller sets"): every command takes only
// what its caller decides. Each field the system owns, at every depth of every command's
// input, is refused with 400 `invalid-input` naming it, in words a cashier understands, before
// any handler runs. The cases are generated from the command map's own schemas, so a field
// added later is covered the day it is added.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  commandNames,
  commands,
  type CommandName,
  type ErrorResponse,
} from '../../src/contract/commands.js';
import { createCommandMap, refuse } from '../../src/terminal/command-map.js';
import { memoryLogger } from '../support/log.js';

const U = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const U2 = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';

/** A check with every container the request allows, so every nested field is reached. */
const fullCheck = {
  check_items: [{ code: 'A', quantity: 1 }],
  check_services: [{ code: 'S' }],
  tanks: [{ code: '1', physical_dip_amount: 1 }],
  manual_rules: true,
  implemented_rules: [{ id: U }],
  redeemed_coupons: [{ code: 'C' }],
  payments: [{ type: 'cash', amount: 1 }],
  pos: { id: U },
  corporate_vehicle: { vehicle_id: 'V' },
  external_additional_info: {},
};

/** A valid input of every command. */
const valid: { [N in CommandName]: Record<string, unknown> } = {
  status: {},
  'staff-sign-in': { auth_code: '1111' },
  'staff-sign-out': {},
  'shift-open': { opening_cash: 10 },
  'shift-close': { counted_cash: 10 },
  'shift-report': {},
  'shifts-recent': { limit: 5 },
  'cash-movement': { kind: 'paid-in', amount: 5, reason: 'change from the bank' },
  'drawer-open': { reason: 'change for a customer' },
  'bonus-operation': {
    transaction_id: U,
    customer_id: U2,
    kind: 'add',
    amount: 5,
    comment: 'goodwill',
  },
  'coupon-sell': { transaction_id: U, customer_id: U2, batch_id: U },
  'coupon-batches': {},
  'forecourt-state': {},
  'pump-release': { pump: 1 },
  'pump-authorise': { pump: 1, transaction_id: U },
  'pump-stop': {},
  'pump-resume': { pump: 1 },
  'pump-drive-off': { fill_id: U },
  'simulator-pump': { pump: 1, action: 'dispense', litres: 2.5 },
  'customer-identify': { id: '+491700000001', id_type: 'phone' },
  'catalog-search': { query: 'water', quick_keys: true },
  'check-calc': { check: fullCheck },
  'sale-process': { transaction_id: U, check: fullCheck },
  'sale-status': { transaction_id: U },
  'sale-cancel': { transaction_id: U },
  'sale-refund': {
    transaction_id: U2,
    original_transaction_id: U,
    lines: [{ index: 0, quantity: 1 }],
  },
  'receipt-reprint': { transaction_id: U },
  'sales-recent': { customer: 'anna', limit: 5 },
  'payment-recover': {},
  'attention-list': {},
  'attention-resolve': { id: U },
  'sync-now': {},
  'devices-state': {},
  'tank-readings': { dip: { tank: 3, volume: 1200, water: 1 } },
  'tank-delivery': { tank: 1, note_quantity: 5000, volume_before: 1000, volume_after: 5990 },
  'wetstock-report': { day: '2026-11-27', print: false },
};

/** What a caller would send in a few fields the found holes used; any value is refused. */
const tried: Record<string, unknown> = {
  transaction_subtype: 'offline',
  special_account_required_values_verify: false,
  business_staff: { id: U2, name: 'Somebody Else' },
  transaction_cancelled: 1,
  staff: { id: U2 },
  roles: ['manager'],
};

interface Case {
  path: (string | number)[];
  message: string;
}

function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable) s = s.unwrap() as z.ZodType;
  return s;
}

/** A refused field (contract/check-request.ts refusedField): an optional never, described so. */
const isRefusedField = (s: z.ZodType): boolean =>
  s instanceof z.ZodOptional &&
  s.unwrap() instanceof z.ZodNever &&
  (s.description ?? '').startsWith('Refused: ');

/** Every refused field of `schema` reachable in `value`, with the reason it is refused. */
function refusedIn(schema: z.ZodType, value: unknown, path: (string | number)[] = []): Case[] {
  const s = unwrap(schema);
  if (s instanceof z.ZodArray && Array.isArray(value) && value.length > 0)
    return refusedIn(s.element as z.ZodType, value[0], [...path, 0]);
  if (!(s instanceof z.ZodObject) || typeof value !== 'object' || value === null) return [];
  const out: Case[] = [];
  for (const [key, field] of Object.entries(s.shape as Record<string, z.ZodType>)) {
    if (isRefusedField(field)) {
      const described = field.description ?? '';
      out.push({ path: [...path, key], message: described.replace(/^Refused: (.*)\.$/, '$1') });
    } else {
      const inner = (value as Record<string, unknown>)[key];
      if (inner !== undefined) out.push(...refusedIn(field, inner, [...path, key]));
    }
  }
  return out;
}

/** `input` with `value` set at `path` (the containers exist in `input`). */
function withField(input: unknown, path: (string | number)[], value: unknown): unknown {
  const copy = structuredClone(input) as Record<string | number, unknown>;
  let at = copy;
  for (const part of path.slice(0, -1)) at = at[part] as Record<string | number, unknown>;
  at[path.at(-1)!] = value;
  return copy;
}

const formatted = (path: (string | number)[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');

/** A map whose every handler answers `reached`: a refusal at the boundary never gets there. */
function boundary() {
  const map = createCommandMap({ log: memoryLogger() });
  for (const name of commandNames) map.register(name, () => refuse('reached', 'the handler ran'));
  return (name: CommandName, input: unknown) =>
    map.dispatch(name, input, { via: 'internal', requestId: 'boundary' });
}

describe('the command boundary', () => {
  const call = boundary();

  for (const name of commandNames) {
    const cases = refusedIn(commands[name].input as z.ZodType, valid[name]);

    describe(name, () => {
      it('lets its caller\u2019s fields through to the handler', async () => {
        const r = await call(name, valid[name]);
        expect((r.body as ErrorResponse).error.code, JSON.stringify(r.body)).toBe('reached');
      });

      it('refuses who acts (the signed-in staff member) and what the terminal answers', () => {
        expect(cases.length).toBeGreaterThan(0);
      });

      for (const c of cases) {
        const field = formatted(c.path);
        it(`refuses ${field}: ${c.message}`, async () => {
          const key = c.path.at(-1) as string;
          const r = await call(name, withField(valid[name], c.path, tried[key] ?? 0));
          expect(r.status).toBe(400);
          const error = (r.body as ErrorResponse).error;
          expect(error.code).toBe('invalid-input');
          expect(error.path).toBe(field);
          expect(error.message).toBe(`${field}: ${c.message}`);
          expect(c.message).toMatch(/not by the caller|through sale-|named by payment_id/);
        });
      }
    });
  }
});

describe('a prepay’s pump', () => {
  const call = boundary();

  it('refuses the nozzles of a prepay’s pump by name, saying the grade decides', async () => {
    const r = await call('pump-authorise', { pump: 1, transaction_id: U, nozzles: [1] });
    expect(r.status).toBe(400);
    expect((r.body as ErrorResponse).error).toMatchObject({
      code: 'invalid-input',
      path: 'nozzles',
      message: expect.stringContaining('the prepaid grade decides the nozzles'),
    });
  });
});

describe('the check a caller sends', () => {
  const call = boundary();
  const sale = (check: Record<string, unknown>) =>
    call('sale-process', { transaction_id: U, check });

  it('may not be a refund: a refund goes through sale-refund', async () => {
    const r = await sale({ ...fullCheck, transaction_type: 'refund' });
    expect(r.status).toBe(400);
    expect((r.body as ErrorResponse).error).toMatchObject({
      code: 'invalid-input',
      path: 'check.transaction_type',
      message:
        'check.transaction_type: a refund goes through sale-refund, naming the sale it refunds',
    });
  });

  it.each(['bonuses-add', 'bonuses-write-off', 'refill'])('may not be a %s', async (type) => {
    const r = await sale({ ...fullCheck, transaction_type: type });
    expect(r.status).toBe(400);
    expect((r.body as ErrorResponse).error.path).toBe('check.transaction_type');
  });

  it.each(['sale', 'preauthorization'])('may be a %s', async (type) => {
    const r = await sale({ ...fullCheck, transaction_type: type });
    expect((r.body as ErrorResponse).error.code).toBe('reached');
  });

  it('names a pump authorisation only as a completion', async () => {
    const linked = { ...fullCheck, preliminary_transaction_id: U2 };
    const r = await sale(linked);
    expect(r.status).toBe(400);
    expect((r.body as ErrorResponse).error.path).toBe('check.preliminary_transaction_id');
    const completion = await sale({ ...linked, transaction_type: 'completion' });
    expect((completion.body as ErrorResponse).error.code).toBe('reached');
  });

  it('does not name a card payment: its id is the card operation the terminal runs', async () => {
    const whole = await sale({
      ...fullCheck,
      payments: [],
      payment_type: 'bank-card',
      payment_id: U2,
    });
    expect((whole.body as ErrorResponse).error.path).toBe('check.payment_id');
    const split = await sale({
      ...fullCheck,
      payments: [
        { type: 'cash', amount: 1 },
        { type: 'bank-card', amount: 1, payment_id: U2 },
      ],
    });
    expect((split.body as ErrorResponse).error.path).toBe('check.payments[1].payment_id');
  });

  it('lists rules only to pick them by hand', async () => {
    const r = await sale({ ...fullCheck, manual_rules: false });
    expect(r.status).toBe(400);
    expect((r.body as ErrorResponse).error.path).toBe('check.implemented_rules');
  });

  it('keeps an integrator\u2019s own data, but not the lots the terminal records in it', async () => {
    const own = await sale({ ...fullCheck, external_additional_info: { order: 'A-17' } });
    expect((own.body as ErrorResponse).error.code).toBe('reached');
    const r = await sale({ ...fullCheck, external_additional_info: { bonuses_spent: [] } });
    expect(r.status).toBe(400);
    expect((r.body as ErrorResponse).error.path).toBe(
      'check.external_additional_info.bonuses_spent',
    );
  });

  it('refuses a field the contract does not know as unknown', async () => {
    const r = await sale({ ...fullCheck, surprise: 1 });
    expect(r.status).toBe(400);
    expect((r.body as ErrorResponse).error).toMatchObject({
      path: 'check.surprise',
      message: 'check.surprise: unknown field',
    });
  });
});
