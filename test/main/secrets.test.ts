import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSafeStorageSecretStore, electronSecretStore } from '../../main/secrets.js';
import { DEMO, startCentral, type RunningCentral } from '../../src/central/index.js';
import { hashApiKey } from '../../src/central/service.js';
import { memoryLogger } from '../support/log.js';
import { fakeSafeStorage } from '../mocks/electron.js';
import { tempDir } from '../agent/helpers.js';
import { openTill } from '../terminal/helpers.js';

describe('secrets behind safeStorage', () => {
  it('stores sealed values only, and reads them back', async () => {
    const file = join(tempDir('lt-safe-'), 'secrets.safe.json');
    const store = createSafeStorageSecretStore(file, fakeSafeStorage(), memoryLogger());
    await store.set('central.api_key', 'clear-value');
    expect(readFileSync(file, 'utf8')).not.toContain('clear-value');
    expect(await store.get('central.api_key')).toBe('clear-value');
  });

  it('refuses to store when the OS cannot encrypt', async () => {
    const file = join(tempDir('lt-safe-'), 'secrets.safe.json');
    const store = createSafeStorageSecretStore(file, fakeSafeStorage(false), memoryLogger());
    await expect(store.set('central.api_key', 'v')).rejects.toThrow(/not available/);
  });
});

// main.ts hands createTerminal electronSecretStore(dataDir, safeStorage, log): the Electron
// app's only way in for a secret is config.json, moved into the sealed file at start.
describe("the Electron app's secrets at start", () => {
  const KEY = 'live-key-0e5d2c91';

  /** A sandbox that signs the demo terminal in with KEY only. */
  async function centralFor(dir: string): Promise<RunningCentral> {
    const central = await startCentral({ db: join(dir, 'central.sqlite'), faultSeed: 1 });
    const terminal = central.store.terminal(DEMO.terminalId)!;
    central.store.putTerminal({ ...terminal, api_key_hash: hashApiKey(KEY) });
    return central;
  }

  it('seals a key written in clear in config.json into DIR/secrets.safe.json', async () => {
    const dir = tempDir('lt-safe-');
    const secrets = electronSecretStore(dir, fakeSafeStorage(), memoryLogger());
    const central = await centralFor(dir);
    // openTill pulls once and expects it to succeed: KEY reached the sync client.
    const till = await openTill({ dir, central, central_config: { api_key: KEY }, secrets });
    try {
      const file = join(dir, 'secrets.safe.json');
      expect(readFileSync(file, 'utf8')).not.toContain(KEY);
      expect(await secrets.get('central.api_key')).toBe(KEY);
      expect(existsSync(join(dir, 'secrets.json'))).toBe(false);
    } finally {
      await till.close();
      await central.close();
    }
  });

  it('still starts on the clear value when the OS cannot encrypt, and says so', async () => {
    const dir = tempDir('lt-safe-');
    const secrets = electronSecretStore(dir, fakeSafeStorage(false), memoryLogger());
    const central = await centralFor(dir);
    const till = await openTill({ dir, central, central_config: { api_key: KEY }, secrets });
    try {
      expect(existsSync(join(dir, 'secrets.safe.json'))).toBe(false);
      const log = readFileSync(join(dir, 'logs', 'terminal.log'), 'utf8');
      expect(log).toMatch(/stays in clear there.*"key":"central.api_key"/);
      expect(log).not.toContain(KEY);
    } finally {
      await till.close();
      await central.close();
    }
  });
});
