// The data directory is the till's alone (docs/store.md, "File modes"): after a start and a
// sale, the directory and every directory in it are 0700 and every file the terminal wrote
// (databases with their WAL and SHM, backups, the sandbox's database, logs, the simulators'
// books, the lock, secrets.json) is 0600, also when the directory existed with wider modes.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/central/index.js';
import { startEmbeddedCentral } from '../../src/central/embedded.js';
import type { CommandName } from '../../src/contract/commands.js';
import { ConfigSchema } from '../../src/contract/config.js';
import { createCommandMap } from '../../src/terminal/command-map.js';
import { nullLogger } from '../../src/terminal/log.js';
import { createFileSecretStore, SECRETS_FILE } from '../../src/config/secret-store.js';
import { acquireDataDirLock } from '../../src/terminal/lock.js';
import { createTerminal, type Terminal } from '../../src/terminal/terminal.js';
import { uuidv7 } from '../../src/sync/ids.js';
import { item } from './helpers.js';

const posix = process.platform !== 'win32';
const roots: string[] = [];
let terminal: Terminal | null = null;
afterEach(async () => {
  await terminal?.close();
  terminal = null;
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});

/** Every path under `dir` with its mode, relative to `dir`. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      out[relative(dir, p)] = (statSync(p).mode & 0o777).toString(8);
      if (e.isDirectory()) walk(p);
    }
  };
  out['.'] = (statSync(dir).mode & 0o777).toString(8);
  walk(dir);
  return out;
}

describe.skipIf(!posix)('file modes in the data directory', () => {
  it('keeps the directory 0700 and every file 0600 after a start and a sale, even when it existed wider', async () => {
    const root = mkdtempSync(join(tmpdir(), 'lt-modes-'));
    roots.push(root);
    const dir = join(root, 'data');
    // An older version's directory: wide modes everywhere.
    mkdirSync(join(dir, 'logs'), { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'logs'), 0o755);
    writeFileSync(join(dir, 'logs', 'terminal.log.1'), '{}\n', { mode: 0o644 });
    writeFileSync(join(dir, 'config.json'), '{}\n', { mode: 0o644 });
    chmodSync(join(dir, 'config.json'), 0o644);
    // Not the terminal's: left as it is.
    writeFileSync(join(dir, 'notes.txt'), 'mine\n', { mode: 0o644 });
    chmodSync(join(dir, 'notes.txt'), 0o644);

    const lock = acquireDataDirLock(dir);
    expect(lock.ok).toBe(true);
    const config = ConfigSchema.parse({
      central: { retry: { base_ms: 1, max_ms: 20, drain_interval_ms: 60_000 } },
    });
    terminal = await createTerminal({
      dataDir: dir,
      config,
      secrets: createFileSecretStore(join(dir, SECRETS_FILE)),
      startSync: false,
      app: { name: 'lt', version: 'test' },
      embeddedCentral: startEmbeddedCentral,
    });
    expect((await terminal.sync.pull()).ok).toBe(true);
    const map = createCommandMap({ log: nullLogger });
    for (const [name, handler] of Object.entries(terminal.handlers))
      map.register(name as CommandName, handler as never);
    const ok = async (name: CommandName, input: unknown) => {
      const r = await map.dispatch(name, input, { via: 'internal', requestId: name });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    await ok('staff-sign-in', { auth_code: DEMO.authCodes.cashier });
    await ok('shift-open', {});
    await ok('sale-process', {
      transaction_id: uuidv7(Date.now()),
      check: {
        customer_id: DEMO.customers.anna,
        id: DEMO.cards.anna,
        id_type: 'card',
        check_items: [item('WTR-1', 1)],
      },
    });
    await terminal.store.backup();

    const { 'notes.txt': notes, ...seen } = modes(dir);
    expect(notes).toBe('644');
    for (const f of [
      'terminal.sqlite',
      'terminal.sqlite-wal',
      'terminal.sqlite-shm',
      'sandbox-central.sqlite',
      'secrets.json',
      'terminal.lock',
      'logs/terminal.log',
    ])
      expect(seen, f).toHaveProperty([f]);
    expect(Object.keys(seen).some((f) => f.startsWith('backups/daily-'))).toBe(true);
    expect(Object.keys(seen).some((f) => f.startsWith('backups/manual-'))).toBe(true);
    const wrong = Object.entries(seen).filter(([p, m]) => {
      const isDir = statSync(join(dir, p)).isDirectory();
      return m !== (isDir ? '700' : '600');
    });
    expect(wrong).toEqual([]);
    if (lock.ok) lock.lock.release();
  }, 60_000);
});
