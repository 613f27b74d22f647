// `loyalty-terminal sync status|pull|push` (src/cli/sync.ts) against the real sandbox on
// 127.0.0.1: a data directory with its config.json naming the sandbox, as an operator has.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoryIO, type CliIO } from '../../src/cli/io.js';
import { runSync } from '../../src/cli/sync.js';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { hashApiKey } from '../../src/central/service.js';
import { createFileSecretStore, SECRETS_FILE } from '../../src/config/secret-store.js';
import { openTerminalStore, recordCashSale } from './world.js';
import { systemSyncClock } from '../../src/sync/clock.js';

let central: RunningCentral;
let dir: string;
beforeEach(async () => {
  central = await startCentral();
  dir = mkdtempSync(join(tmpdir(), 'lt-cli-sync-'));
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      central: {
        url: central.url,
        terminal_id: central.terminal_id,
        api_key: central.api_key,
        retry: { base_ms: 1, max_ms: 20 },
      },
    }),
  );
});
afterEach(async () => {
  await central.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Output captured, files read from the disk (config.json), as an operator's shell has. */
function diskIO(): CliIO & { out: string; err: string } {
  return Object.assign(memoryIO(), {
    readInput: (file: string) => Promise.resolve(readFileSync(file, 'utf8')),
  });
}

async function syncIn(data: string, ...args: string[]) {
  const io = diskIO();
  const code = await runSync([...args, '--data', data], io);
  return { code, out: io.out, err: io.err };
}

const sync = (...args: string[]) => syncIn(dir, ...args);

/** Sales recorded by the till while the CLI is not running (the store closed again). */
async function recordSales(n: number, data = dir): Promise<string[]> {
  const store = await openTerminalStore(data, systemSyncClock);
  try {
    return Array.from({ length: n }, (_, i) => recordCashSale(store, 1 + i));
  } finally {
    store.close();
  }
}

describe('sync command', () => {
  it('pulls the first snapshot, then status shows the cursor and an empty outbox', async () => {
    const pull = await sync('pull');
    expect(pull.code).toBe(0);
    expect(pull.out).toMatch(
      /^pulled \d+ pages: \d+ records applied, 0 quarantined \(full snapshot\)\n$/,
    );

    const status = await sync('status', '--json');
    expect(status.code).toBe(0);
    const s = JSON.parse(status.out) as Record<string, unknown>;
    expect(s).toMatchObject({
      outbox: { queued: 0, sending: 0, rejected: 0 },
      oldestUnsent: null,
      snapshotInProgress: false,
      quarantined: 0,
      attention: [],
    });
    expect(s.cursor).toMatch(/^d\./);
    expect(s.cacheAgeMs).toEqual(expect.any(Number));
  });

  it('shows the queued sales and the oldest unsent one, and push delivers them', async () => {
    const ids = await recordSales(3);
    const status = await sync('status');
    expect(status.code).toBe(0);
    expect(status.out).toContain(`central: ${central.url}`);
    expect(status.out).toContain('outbox: 3 queued, 0 sending, 0 need attention');
    expect(status.out).toMatch(
      new RegExp(`oldest unsent: process_check ${ids[0]}, recorded .+, 0 attempts`),
    );

    const push = await sync('push');
    expect(push.code).toBe(0);
    expect(push.out).toBe(
      'sent 3: 3 done, 0 rejected, 0 to retry; 0 still queued, 0 need attention\n',
    );
    expect(
      central.store
        .transactions()
        .map((t) => t.transaction_id)
        .sort(),
    ).toEqual([...ids].sort());

    const after = JSON.parse((await sync('status', '--json')).out) as Record<string, unknown>;
    expect(after).toMatchObject({ outbox: { queued: 0 }, oldestUnsent: null });
  });

  it('exits 1 from a push the server keeps failing, leaving the sale queued with its attempt', async () => {
    const [id] = await recordSales(1);
    central.server.setFaults({ error_rate: 1 });
    const push = await sync('push', '--json');
    expect(push.code).toBe(1);
    expect(JSON.parse(push.out)).toMatchObject({
      sent: 1,
      done: 0,
      retried: 1,
      outbox: { queued: 1 },
    });
    const s = JSON.parse((await sync('status', '--json')).out) as {
      oldestUnsent: { transactionId: string; attempts: number; ageMs: number };
    };
    expect(s.oldestUnsent).toMatchObject({ transactionId: id, attempts: 1 });
    expect(s.oldestUnsent.ageMs).toBeGreaterThanOrEqual(0);
  });

  it('lists a refused write on the attention list', async () => {
    await sync('pull');
    const store = await openTerminalStore(dir, systemSyncClock);
    const id = recordCashSale(store, 5);
    store.close();
    // The server already holds another body under this transaction id: a permanent refusal.
    central.store.insertTransaction({
      transaction_id: id,
      terminal_id: central.terminal_id,
      operation: 'void',
      customer_id: null,
      subtype: 'online',
      body: '{}',
      created: new Date().toISOString(),
    });
    expect((await sync('push')).out).toContain('1 rejected');
    const status = await sync('status');
    expect(status.out).toContain('outbox: 0 queued, 0 sending, 1 need attention');
    expect(status.out).toContain(`attention: process_check ${id}:`);
  });

  it('refuses an unknown subcommand or flag with exit 2 and the usage', async () => {
    for (const args of [['sideways'], ['status', '--bogus'], []]) {
      const io = memoryIO();
      expect(await runSync(args, io)).toBe(2);
      expect(io.err).toContain('usage: loyalty-terminal sync');
    }
  });

  it('reports a config that does not parse with exit 2', async () => {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ central: { url: 'ftp://x' } }));
    const r = await sync('status');
    expect(r.code).toBe(2);
    expect(r.err).toContain('central.url');
  });

  // Issue 12: push and pull ignored `terminal.data_dir` and the secret store.
  it('pushes from the data directory the configuration names, not --data', async () => {
    const moved = join(dir, 'moved');
    mkdirSync(moved);
    const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')) as object;
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ ...config, terminal: { data_dir: moved } }),
    );
    const ids = await recordSales(2, moved);
    const push = await sync('push');
    expect(push.out).toBe(
      'sent 2: 2 done, 0 rejected, 0 to retry; 0 still queued, 0 need attention\n',
    );
    expect(
      central.store
        .transactions()
        .map((t) => t.transaction_id)
        .sort(),
    ).toEqual(ids.sort());
  });

  it('signs in with the central API key from the secret store, as the agent does', async () => {
    const key = 'real-key-0c5e41d9';
    central.store.putTerminal({
      ...central.store.terminal(DEMO.terminalId)!,
      api_key_hash: hashApiKey(key),
    });
    // config.json names the service but holds no key: the secret store has it.
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({ central: { url: central.url, retry: { base_ms: 1, max_ms: 20 } } }),
    );
    await createFileSecretStore(join(dir, SECRETS_FILE)).set('central.api_key', key);
    expect((await sync('pull')).code).toBe(0);
    const ids = await recordSales(1);
    expect((await sync('push')).out).toContain('sent 1: 1 done');
    expect(central.store.transactions().map((t) => t.transaction_id)).toEqual(ids);
  });
});
