import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSafeStorageSecretStore } from '../../main/secrets.js';
import { memoryLogger } from '../../src/terminal/log.js';
import { fakeSafeStorage } from '../mocks/electron.js';
import { tempDir } from '../agent/helpers.js';

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
