// The agent's HTTP API running the real workflow with no configuration at all: the embedded
// sandbox central in-process with the demo business, simulated devices. A newcomer can sell at
// once: sign in, open a shift, identify, calculate, sell for cash, ask its status.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import type { Agent } from '../../src/agent/server.js';
import { memoryIO } from '../../src/cli/io.js';
import { runAgent } from '../../src/cli/agent.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { tempDir } from './helpers.js';

async function withAgent(dir: string, use: (agent: Agent) => Promise<void>) {
  const io = memoryIO();
  const stop = new AbortController();
  let used: Promise<void> = Promise.resolve();
  const code = await runAgent(['--port', '0', '--data', dir], io, {
    signal: stop.signal,
    rendererDir: null,
    onStarted: (agent) => {
      used = use(agent).finally(() => stop.abort());
    },
  });
  await used;
  return { code, io };
}

// The tests read answers loosely: the contract's schemas check them on the server side.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

function post(agent: Agent, name: string, body: unknown, auth = true) {
  return fetch(`${agent.url}/api/commands/${name}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(auth ? { Authorization: `Bearer ${agent.token}` } : {}),
    },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, json: (await r.json()) as Json }));
}

describe('the agent API over the embedded default', () => {
  it('sells for cash with no configuration, refuses a bad body naming the field and a call without the token', async () => {
    const dir = tempDir('lt-agent-wf-');
    try {
      const { code } = await withAgent(dir, async (agent) => {
        expect((await post(agent, 'status', {}, false)).status).toBe(401);
        const noToken = await post(
          agent,
          'staff-sign-in',
          { auth_code: DEMO.authCodes.cashier },
          false,
        );
        expect(noToken).toMatchObject({ status: 401, json: { error: { code: 'unauthorized' } } });

        const bad = await post(agent, 'shift-open', { opening_cash: -5 });
        expect(bad.status).toBe(400);
        expect(bad.json.error).toMatchObject({ code: 'invalid-input', path: 'opening_cash' });
        const unknown = await post(agent, 'check-calc', {
          check: { check_items: [{ code: 'X', quantity: 1 }] },
          extra: 1,
        });
        expect(unknown.status).toBe(400);
        expect(unknown.json.error.path).toBe('extra');

        // Before signing in, selling is refused as a business rule (422).
        expect((await post(agent, 'shift-open', {})).json.error.code).toBe('staff-required');

        // The sandbox's first pull runs in the background; sign-in works online at once.
        const signed = await post(agent, 'staff-sign-in', { auth_code: DEMO.authCodes.senior });
        expect(signed.status).toBe(200);
        expect(signed.json.staff.roles).toEqual(['cashier', 'senior-cashier']);
        expect((await post(agent, 'shift-open', { opening_cash: 50 })).status).toBe(200);

        // Wait for the first pull, then identify from the cache or online.
        for (let i = 0; i < 100; i++) {
          const st = await post(agent, 'status', {});
          if (st.json.sync?.last_pull_at) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        const who = await post(agent, 'customer-identify', { id: DEMO.cards.ben, id_type: 'card' });
        expect(who.status).toBe(200);
        expect(who.json.customer.id).toBe(DEMO.customers.ben);

        const check = {
          customer_id: DEMO.customers.ben,
          id: DEMO.cards.ben,
          id_type: 'card',
          payment_type: 'cash',
          check_items: [{ code: 'WTR-1', quantity: 2 }],
        };
        const calc = await post(agent, 'check-calc', { check });
        expect(calc.status).toBe(200);
        expect(calc.json.check.amount).toBe(2.98);

        const id = uuidv7(Date.now());
        const sale = await post(agent, 'sale-process', { transaction_id: id, check });
        expect(sale.status).toBe(200);
        expect(sale.json.transaction_id).toBe(id);
        expect(sale.json.receipt_printed).toBe(true);
        const status = await post(agent, 'sale-status', { transaction_id: id });
        expect(status.json).toMatchObject({ state: 'committed', cancelled: false });

        const devices = await post(agent, 'devices-state', {});
        expect(devices.json.devices.map((d: { kind: string }) => d.kind).sort()).toEqual(
          ['card_reader', 'payment', 'printer', 'pumps', 'scanner', 'tank_gauge'].sort(),
        );
        const st = await post(agent, 'status', {});
        expect(st.json).toMatchObject({
          ready: true,
          staff: { id: DEMO.staff.senior },
          shift: { number: 1 },
        });
      });
      expect(code).toBe(0);
      // Every event the workflow sent passed its schema, and nothing failed unseen.
      const log = readFileSync(join(dir, 'logs', 'agent.log'), 'utf8');
      const bad = log.split('\n').filter((l) => /"level":"(error|warn)"/.test(l));
      expect(bad).toEqual([]);
      expect(log).toContain('"msg":"sale processed"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers catalog-search over HTTP: goods by words, a scanned barcode as its line', async () => {
    const dir = tempDir('lt-agent-catalog-');
    try {
      const { code } = await withAgent(dir, async (agent) => {
        await post(agent, 'staff-sign-in', { auth_code: DEMO.authCodes.cashier });
        for (let i = 0; i < 100; i++) {
          const st = await post(agent, 'status', {});
          if (st.json.sync?.last_pull_at) break;
          await new Promise((r) => setTimeout(r, 50));
        }
        const words = await post(agent, 'catalog-search', { query: 'water' });
        expect(words.status).toBe(200);
        expect(words.json.goods.map((g: Json) => g.code)).toEqual(['WTR-1']);
        const scanned = await post(agent, 'catalog-search', { barcode: ']E02100042004566' });
        expect(scanned.json.scanned.line).toEqual({
          code: 'CHS-1',
          quantity: 0.456,
          barcode: '2100042004566',
        });
      });
      expect(code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
