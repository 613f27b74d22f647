// After a session with auth codes (right and wrong), a PIN (online and stood in offline), the
// central API key and the agent's token, none of them is in clear anywhere in the data
// directory: not in the logs, not in the database (WAL included), not in an outbox payload.
// The API key (put in with `secrets set`) and the ZVT password (written in config.json, moved
// in at start) are only in DIR/secrets.json, mode 0600: the one file whose job is to hold them.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Agent } from '../../src/agent/server.js';
import { DEMO, startCentral } from '../../src/central/index.js';
import { hashApiKey } from '../../src/central/service.js';
import { memoryIO } from '../../src/cli/io.js';
import { runAgent } from '../../src/cli/agent.js';
import { main } from '../../src/cli/main.js';
import { readJsonRecord } from '../../src/config/secret-store.js';
import { hashSecret } from '../../src/secret-hash/index.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { driver1Fleet, tempDir } from './helpers.js';

const AUTH_CODE = 'Zq7-auth-9481';
const WRONG_CODE = 'Wr0ng-code-5521';
const PIN = 'pin-7h3x-5150';
const LIVE_KEY = 'live-api-key-3q9w-7e1r';
const ZVT_PASSWORD = '735194';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

// The tests read answers loosely: the contract's schemas check them on the server side.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

function post(agent: Agent, name: string, body: unknown) {
  return fetch(`${agent.url}/api/commands/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${agent.token}` },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, json: (await r.json()) as Json }));
}

describe('secrets in the data directory', () => {
  it('keeps no auth code, PIN, API key, ZVT password or token in clear after a session', async () => {
    const root = tempDir('lt-secrets-');
    const dir = join(root, 'data');
    const centralDb = join(root, 'central.sqlite');
    let central = await startCentral({ db: centralDb, faultSeed: 1 });
    const authHash = hashSecret(AUTH_CODE);
    const pinHash = hashSecret(PIN);
    const port = Number(new URL(central.url).port);
    // Only the live key signs the terminal in: the session proves it came from the store.
    central.store.putTerminal({
      ...central.store.terminal(DEMO.terminalId)!,
      api_key_hash: hashApiKey(LIVE_KEY),
    });
    central.store.upsert('staff', DEMO.staff.manager, {
      ...(central.store.getRecord('staff', DEMO.staff.manager) as object),
      auth_code_hash: authHash,
    });
    central.store.upsert('corporate_access', DEMO.accesses.driver1, {
      ...(central.store.getRecord('corporate_access', DEMO.accesses.driver1) as object),
      pin_hash: pinHash,
    });
    const config = {
      central: {
        url: central.url,
        timeouts: { online_deadline_ms: 1_000, connect_ms: 500 },
        retry: { base_ms: 1, max_ms: 20 },
      },
      devices: {
        card_reader: { simulated: true },
        scanner: { simulated: true },
        payment: { simulated: true, zvt_password: ZVT_PASSWORD },
        printer: { simulated: true },
        tank_gauge: { simulated: true },
      },
    };
    const configFiles = { [join(dir, 'config.json')]: JSON.stringify(config) };
    expect(
      await main(
        ['secrets', 'set', 'central.api_key', '--data', dir],
        memoryIO(configFiles, `${LIVE_KEY}\n`),
      ),
    ).toBe(0);
    const io = memoryIO(configFiles);
    const stop = new AbortController();
    let used: Promise<void> = Promise.resolve();
    let token = '';
    try {
      const code = await runAgent(['--port', '0', '--data', dir], io, {
        signal: stop.signal,
        rendererDir: null,
        onStarted: (agent) => {
          token = agent.token;
          used = (async () => {
            for (let i = 0; i < 100; i++) {
              if ((await post(agent, 'status', {})).json.sync?.last_pull_at) break;
              await new Promise((r) => setTimeout(r, 50));
            }
            expect((await post(agent, 'staff-sign-in', { auth_code: WRONG_CODE })).status).toBe(
              422,
            );
            expect((await post(agent, 'staff-sign-in', { auth_code: AUTH_CODE })).status).toBe(200);
            expect((await post(agent, 'shift-open', {})).status).toBe(200);
            const check = {
              ...driver1Fleet,
              special_account_pin: PIN,
              check_items: [{ code: 'DIESEL', quantity: 10 }],
            };
            const online = await post(agent, 'sale-process', {
              transaction_id: uuidv7(Date.now()),
              check: { ...check, odometer: 120_700 },
            });
            expect(online.json.subtype).toBe('online');
            await central.close();
            // Stood in: the PIN is checked against the cached hash (answered either way; see
            // the corporate test for the sync layer's part), then an earning sale offline.
            await post(agent, 'sale-process', {
              transaction_id: uuidv7(Date.now()),
              check: { ...check, odometer: 120_800 },
            });
            const offline = await post(agent, 'sale-process', {
              transaction_id: uuidv7(Date.now()),
              check: {
                customer_id: DEMO.customers.anna,
                id: DEMO.cards.anna,
                id_type: 'card',
                check_items: [{ code: 'WTR-1', quantity: 1 }],
              },
            });
            expect(offline.status, JSON.stringify(offline.json)).toBe(200);
            expect(offline.json.subtype).toBe('offline');
            expect((await post(agent, 'staff-sign-out', {})).status).toBe(200);
            expect((await post(agent, 'staff-sign-in', { auth_code: AUTH_CODE })).status).toBe(200);
            central = await startCentral({ db: centralDb, port, faultSeed: 1 });
            // The background loop may deliver the queued sale first; either way it goes.
            let depth = -1;
            for (let i = 0; i < 100 && depth !== 0; i++) {
              depth = (await post(agent, 'sync-now', {})).json.sync.outbox_depth as number;
              if (depth !== 0) await new Promise((r) => setTimeout(r, 50));
            }
            expect(depth).toBe(0);
          })().finally(() => stop.abort());
        },
      });
      await used;
      expect(code).toBe(0);

      const secretsFile = join(dir, 'secrets.json');
      expect(readJsonRecord(secretsFile)).toEqual({
        'central.api_key': LIVE_KEY,
        'devices.payment.zvt_password': ZVT_PASSWORD,
        'terminal.hash_key': expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      if (process.platform !== 'win32') expect(statSync(secretsFile).mode & 0o777).toBe(0o600);

      // The central's hashes are kept keyed with the terminal's secret, never as sent.
      const hashes = [authHash, pinHash].map((h) => h.split('$')[5]!);
      const secrets = [AUTH_CODE, WRONG_CODE, PIN, LIVE_KEY, DEMO.apiKey, token, ...hashes];
      // Six digits may occur inside a longer number (a timestamp); alone they are the password.
      const zvtPassword = new RegExp(`(?<!\\d)${ZVT_PASSWORD}(?!\\d)`);
      const scanned = files(dir).filter((f) => f !== secretsFile && !f.endsWith('agent-token'));
      expect(scanned.some((f) => f.endsWith('terminal.sqlite'))).toBe(true);
      expect(scanned.some((f) => f.includes('logs'))).toBe(true);
      for (const f of scanned) {
        const text = readFileSync(f).toString('latin1');
        for (const s of secrets) expect(text.includes(s), `${s} in ${f}`).toBe(false);
        expect(zvtPassword.test(text), `the ZVT password in ${f}`).toBe(false);
        expect(/"special_account_pin"\s*:\s*"/.test(text), `a PIN field in ${f}`).toBe(false);
      }
    } finally {
      await central.close().catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
