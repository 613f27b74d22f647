// `bonus-operation` (docs/terminal.md, "Loyalty at the till"): a manager adds bonuses to or
// writes them off the identified customer's balance with a comment; the contract's
// BonusesOperationObject goes to the central service exactly once under the client-made
// transaction_id; a write-off beyond the balance is refused in plain words.
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { tillPerTest, type Till } from './helpers.js';

const { open } = tillPerTest();
const ANNA = DEMO.customers.anna; // 120.5 regular bonuses in the seed

async function manager(): Promise<Till> {
  const t = await open();
  await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.manager });
  await t.ok('customer-identify', { id: DEMO.cards.anna, id_type: 'card' });
  return t;
}

const op = (over: Record<string, unknown> = {}) => ({
  transaction_id: uuidv7(Date.now()),
  customer_id: ANNA,
  kind: 'add',
  amount: 10,
  comment: 'goodwill for a broken pump',
  ...over,
});

async function sandboxRegular(t: Till, id = ANNA): Promise<number> {
  const res = await fetch(`${t.central.url}/sandbox/balances`, {
    headers: { Authorization: `Bearer ${DEMO.apiKey}` },
  });
  const body = (await res.json()) as { customers: Array<{ customer_id: string; regular: number }> };
  return body.customers.find((c) => c.customer_id === id)!.regular;
}

async function centralOps(t: Till, id: string): Promise<number> {
  const res = await fetch(`${t.central.url}/sandbox/transactions`, {
    headers: { Authorization: `Bearer ${DEMO.apiKey}` },
  });
  const body = (await res.json()) as { transactions: Array<{ transaction_id: string }> };
  return body.transactions.filter((x) => x.transaction_id === id).length;
}

async function tillRegular(t: Till): Promise<number> {
  const who = await t.ok('customer-identify', { id: DEMO.cards.anna, id_type: 'card' });
  return who.customer.bonuses.regular;
}

describe('bonus-operation', () => {
  it('is a manager’s: a senior cashier is refused and nothing is sent', async () => {
    const t = await open();
    await t.ok('staff-sign-in', { auth_code: DEMO.authCodes.senior });
    const input = op();
    await t.refused('bonus-operation', input, 'role-required');
    expect(await centralOps(t, input.transaction_id)).toBe(0);
  }, 30_000);

  it.each(['terminal_id', 'users', 'balance', 'loyalty_id', 'expire', 'skip_message'])(
    'refuses the system-owned field %s with 400 naming it',
    async (field) => {
      const t = await manager();
      const r = await t.call('bonus-operation', op({ [field]: 'x' }));
      expect(r.status).toBe(400);
      expect((r.body as { error: { path: string } }).error.path).toBe(field);
    },
    30_000,
  );

  it('adds bonuses: the answer, the sandbox and the till show the same new balance', async () => {
    const t = await manager();
    const out = await t.ok('bonus-operation', op({ amount: 10 }));
    expect(out).toMatchObject({ kind: 'add', amount: 10, sync: 'done', subtype: 'online' });
    expect(out.balance).toBe(130.5);
    expect(await sandboxRegular(t)).toBe(130.5);
    expect(await tillRegular(t)).toBe(130.5);
  }, 30_000);

  it('writes bonuses off: the answer, the sandbox and the till show the same new balance', async () => {
    const t = await manager();
    const out = await t.ok('bonus-operation', op({ kind: 'write-off', amount: 20.5 }));
    expect(out.balance).toBe(100);
    expect(await sandboxRegular(t)).toBe(100);
    expect(await tillRegular(t)).toBe(100);
  }, 30_000);

  it('refuses a write-off beyond the balance in plain words, and moves nothing', async () => {
    const t = await manager();
    const input = op({ kind: 'write-off', amount: 500 });
    const r = await t.refused('bonus-operation', input, 'bonuses-insufficient');
    expect(r.error.path).toBe('amount');
    expect(r.error.message).toBe('the customer has 120.5 bonuses: 500 cannot be written off');
    expect(await centralOps(t, input.transaction_id)).toBe(0);
    expect(await sandboxRegular(t)).toBe(120.5);
  }, 30_000);

  it('moves the bonuses once when the same transaction_id is sent again', async () => {
    const t = await manager();
    const input = op({ amount: 7 });
    const first = await t.ok('bonus-operation', input);
    const again = await t.ok('bonus-operation', input);
    expect(again).toEqual(first);
    expect(await centralOps(t, input.transaction_id)).toBe(1);
    expect(await sandboxRegular(t)).toBe(127.5);
  }, 30_000);

  it('refuses the same transaction_id with another body as a conflict', async () => {
    const t = await manager();
    const input = op({ amount: 7 });
    await t.ok('bonus-operation', input);
    await t.refused('bonus-operation', { ...input, amount: 8 }, 'idempotency-conflict');
    expect(await sandboxRegular(t)).toBe(127.5);
  }, 30_000);

  it('moves the bonuses once when the central service’s answer is lost: queued, then delivered under the same key', async () => {
    const t = await manager();
    t.central.server.setFaults({ commit_then_drop_rate: 1 });
    const input = op({ amount: 5 });
    const out = await t.ok('bonus-operation', input);
    t.central.server.setFaults({ commit_then_drop_rate: 0 });
    expect(out).toMatchObject({ sync: 'queued', subtype: 'offline' });
    const synced = await t.ok('sync-now', {});
    expect(synced.pushed).toBe(1);
    expect(await centralOps(t, input.transaction_id)).toBe(1);
    expect(await sandboxRegular(t)).toBe(125.5);
    expect(await tillRegular(t)).toBe(125.5);
  }, 30_000);

  it('stands in while the central service is down: a write-off is queued and held against the till’s balance at once', async () => {
    const t = await manager();
    t.central.server.setFaults({ error_rate: 1 });
    const input = op({ kind: 'write-off', amount: 20.5 });
    const out = await t.ok('bonus-operation', input);
    expect(out).toMatchObject({ sync: 'queued', subtype: 'offline', balance: 100 });
    // The till cannot write off what it already held, even offline.
    await t.refused(
      'bonus-operation',
      op({ kind: 'write-off', amount: 100.5 }),
      'bonuses-insufficient',
    );
    t.central.server.setFaults({ error_rate: 0 });
    await t.ok('sync-now', {});
    expect(await centralOps(t, input.transaction_id)).toBe(1);
    expect(await sandboxRegular(t)).toBe(100);
  }, 30_000);

  it('counts an add queued while the central service is down only once it is confirmed', async () => {
    const t = await manager();
    t.central.server.setFaults({ error_rate: 1 });
    const out = await t.ok('bonus-operation', op({ amount: 10 }));
    expect(out).toMatchObject({ sync: 'queued', balance: 120.5 });
    t.central.server.setFaults({ error_rate: 0 });
    await t.ok('sync-now', {});
    expect(await sandboxRegular(t)).toBe(130.5);
    expect(await tillRegular(t)).toBe(130.5);
  }, 30_000);
});
