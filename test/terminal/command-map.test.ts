import { describe, expect, it } from 'vitest';
import {
  commandNames,
  commands,
  eventNames,
  isErrorResponse,
  type CommandName,
} from '../../src/contract/commands.js';
import {
  createCommandMap,
  refuse,
  trustedOutputs,
  type CommandContext,
} from '../../src/terminal/command-map.js';
import { memoryLogger } from '../support/log.js';

const ctx: CommandContext = { via: 'internal', requestId: 'test' };

// interfaces.md, "The command map", in its order.
const specNames = [
  'status',
  'staff-sign-in',
  'staff-sign-out',
  'shift-open',
  'shift-close',
  'shift-report',
  'shifts-recent',
  'cash-movement',
  'drawer-open',
  'bonus-operation',
  'coupon-sell',
  'coupon-batches',
  'forecourt-state',
  'pump-release',
  'pump-authorise',
  'pump-stop',
  'pump-resume',
  'pump-drive-off',
  'simulator-pump',
  'customer-identify',
  'catalog-search',
  'check-calc',
  'sale-process',
  'sale-status',
  'sale-cancel',
  'sale-refund',
  'receipt-reprint',
  'sales-recent',
  'payment-recover',
  'attention-list',
  'attention-resolve',
  'sync-now',
  'devices-state',
  'tank-readings',
  'tank-delivery',
  'wetstock-report',
];

const TX = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';

function mapWith(log = memoryLogger()) {
  return { map: createCommandMap({ log }), log };
}

describe('the command map contract', () => {
  it('names exactly the commands of interfaces.md, in order', () => {
    expect(commandNames).toEqual(specNames);
  });

  it('gives every command an input and an output schema', () => {
    for (const name of commandNames) {
      expect(commands[name].input, name).toBeDefined();
      expect(commands[name].output, name).toBeDefined();
    }
  });

  it('refuses unknown fields in every input, naming them', () => {
    for (const name of commandNames) {
      const r = commands[name].input.safeParse({ surprise: 1 });
      expect(r.success, name).toBe(false);
    }
  });

  it('needs a client-made transaction_id for sale-process', () => {
    const r = commands['sale-process'].input.safeParse({ check: {} });
    expect(r.success).toBe(false);
    expect(
      commands['sale-process'].input.safeParse({ transaction_id: TX, check: {} }).success,
    ).toBe(true);
  });

  it('refuses a check whose transaction_id differs from the command one', () => {
    const other = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';
    const r = commands['sale-process'].input.safeParse({
      transaction_id: TX,
      check: { transaction_id: other },
    });
    expect(r.success).toBe(false);
  });

  it('answers sale-status as committed or unknown', () => {
    const out = commands['sale-status'].output;
    expect(out.safeParse({ transaction_id: TX, state: 'unknown' }).success).toBe(true);
    expect(out.safeParse({ transaction_id: TX, state: 'pending' }).success).toBe(false);
  });

  it('names the six events of on()', () => {
    expect(eventNames).toEqual([
      'status-changed',
      'device-state',
      'device-read',
      'customer-display',
      'sync-progress',
      'pump-state',
    ]);
  });
});

describe('registration', () => {
  it('throws on a second handler for one name', () => {
    const { map } = mapWith();
    map.register('status', () => refuse('x', 'x'));
    expect(() => map.register('status', () => refuse('x', 'x'))).toThrow(/already registered/);
  });

  it('throws on a name the contract does not know', () => {
    const { map } = mapWith();
    expect(() => map.register('frobnicate' as CommandName, () => refuse('x', 'x'))).toThrow(
      /unknown command/,
    );
  });
});

describe('dispatch', () => {
  it('refuses bad input with 400 invalid-input naming the field, before the handler runs', async () => {
    const { map } = mapWith();
    let called = false;
    map.register('sale-refund', () => {
      called = true;
      return refuse('x', 'x');
    });
    const r = await map.dispatch(
      'sale-refund',
      { transaction_id: TX, original_transaction_id: TX, lines: [{ index: 0, quantity: -1 }] },
      ctx,
    );
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ error: { code: 'invalid-input', path: 'lines[0].quantity' } });
    expect(called).toBe(false);
  });

  it('lists the first 20 problems of a bad request and counts the rest, so the answer stays small', async () => {
    const { map } = mapWith();
    map.register('sale-refund', () => refuse('x', 'x'));
    // As many lines as a refund may have, each with a wrong quantity: 500 problems.
    const lines = Array.from({ length: 500 }, (_, index) => ({ index, quantity: -1 }));
    const r = await map.dispatch(
      'sale-refund',
      { transaction_id: TX, original_transaction_id: TX, lines },
      ctx,
    );
    expect(r.status).toBe(400);
    const error = (r.body as { error: { path: string; details: Record<string, unknown> } }).error;
    expect(error.path).toBe('lines[0].quantity');
    const problems = error.details.problems as Array<{ path: string }>;
    expect(problems.map((p) => p.path)).toEqual(
      Array.from({ length: 20 }, (_, i) => `lines[${i}].quantity`),
    );
    expect(error.details.more_problems).toBe(480);
    expect(JSON.stringify(r.body).length).toBeLessThan(5_000);
  });

  it('lists every problem of a request with only a few, and counts none more', async () => {
    const { map } = mapWith();
    map.register('shift-open', () => refuse('x', 'x'));
    const r = await map.dispatch('shift-open', { opening_cash: -1, drawer: 2, till: 3 }, ctx);
    const details = (r.body as { error: { details: Record<string, unknown> } }).error.details;
    expect((details.problems as unknown[]).length).toBe(3);
    expect(details).not.toHaveProperty('more_problems');
  });

  it('names an unknown field in the path', async () => {
    const { map } = mapWith();
    map.register('shift-open', () => refuse('x', 'x'));
    const r = await map.dispatch('shift-open', { opening_cash: 10, drawer: 2 }, ctx);
    expect(r.body).toMatchObject({
      error: { code: 'invalid-input', path: 'drawer', message: 'drawer: unknown field' },
    });
  });

  it('passes the parsed input to the handler and answers 200 with the output', async () => {
    const { map } = mapWith();
    map.register('attention-list', (input) => {
      expect(input).toEqual({ include_resolved: true });
      return { items: [] };
    });
    const r = await map.dispatch('attention-list', { include_resolved: true }, ctx);
    expect(r).toEqual({ ok: true, status: 200, body: { items: [] } });
  });

  it('treats a missing input as an empty object', async () => {
    const { map } = mapWith();
    map.register('attention-list', () => ({ items: [] }));
    expect((await map.dispatch('attention-list', undefined, ctx)).status).toBe(200);
  });

  it('maps a business refusal to 422', async () => {
    const { map } = mapWith();
    map.register('shift-close', () => refuse('role-required', 'a manager closes shifts', 'staff'));
    const r = await map.dispatch('shift-close', {}, ctx);
    expect(r.status).toBe(422);
    expect(r.body).toEqual({
      error: { code: 'role-required', message: 'a manager closes shifts', path: 'staff' },
    });
  });

  it('maps an idempotency conflict to 409', async () => {
    const { map } = mapWith();
    map.register('sale-process', () =>
      refuse('idempotency-conflict', 'another body had this id', 'transaction_id'),
    );
    const r = await map.dispatch('sale-process', { transaction_id: TX, check: {} }, ctx);
    expect(r.status).toBe(409);
  });

  it('answers 500 internal when a handler throws, and logs it', async () => {
    const { map, log } = mapWith();
    map.register('sync-now', () => {
      throw new Error('boom');
    });
    const r = await map.dispatch('sync-now', {}, ctx);
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ error: { code: 'internal' } });
    expect(JSON.stringify(r.body)).not.toContain('boom');
    expect(log.records.some((l) => l.level === 'error' && JSON.stringify(l).includes('boom'))).toBe(
      true,
    );
  });

  it('answers 500 internal when an output breaks its schema', async () => {
    const { map, log } = mapWith();
    map.register('attention-list', () => ({ items: 'none' }) as never);
    const r = await map.dispatch('attention-list', {}, ctx);
    expect(r.status).toBe(500);
    expect(log.records.some((l) => l.msg === 'command output breaks its schema')).toBe(true);
  });

  it("answers a trusted command's output as its handler built it, unchecked", async () => {
    const log = memoryLogger();
    const map = createCommandMap({ log, trusted: new Set(['attention-list'] as const) });
    map.register('attention-list', () => ({ items: 'none' }) as never);
    const r = await map.dispatch('attention-list', {}, ctx);
    expect(r).toEqual({ ok: true, status: 200, body: { items: 'none' } });
  });

  it('trusts the check-calc output only outside LT_CHECK_OUTPUTS=all', () => {
    expect([...trustedOutputs({})]).toEqual(['check-calc']);
    expect([...trustedOutputs({ LT_CHECK_OUTPUTS: 'all' })]).toEqual([]);
  });

  it('checks every output in the tests (vitest.config.ts sets LT_CHECK_OUTPUTS=all)', () => {
    expect(trustedOutputs(process.env).size).toBe(0);
  });

  it('answers 404 unknown-command for a name outside the contract', async () => {
    const { map } = mapWith();
    const r = await map.dispatch('frobnicate', {}, ctx);
    expect(r).toMatchObject({ status: 404, body: { error: { code: 'unknown-command' } } });
  });

  it('answers 501 not-implemented for a contract name without a handler', async () => {
    const { map } = mapWith();
    const r = await map.dispatch('sync-now', {}, ctx);
    expect(r).toMatchObject({ status: 501, body: { error: { code: 'not-implemented' } } });
  });
});

describe('isErrorResponse', () => {
  it("takes sync-now's `error: null` for an answer, an error object for a refusal", () => {
    expect(isErrorResponse({ pushed: 0, error: null })).toBe(false);
    expect(
      isErrorResponse({ pushed: 0, error: { code: 'offline', message: 'm', path: '(root)' } }),
    ).toBe(false);
    expect(isErrorResponse(refuse('x', 'y'))).toBe(true);
    expect(isErrorResponse(null)).toBe(false);
  });
});
