import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileSecretStore } from '../../src/terminal/secrets.js';

describe('the file secret store', () => {
  it('keeps values in secrets.json with mode 0600', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lt-sec-')), 'secrets.json');
    const store = createFileSecretStore(file);
    await store.set('central.api_key', 'k1');
    expect(await store.get('central.api_key')).toBe('k1');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ 'central.api_key': 'k1' });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('deletes a value and answers undefined for an absent one', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'lt-sec-')), 'secrets.json');
    const store = createFileSecretStore(file);
    await store.set('a', '1');
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
  });

  it('refuses a name outside its alphabet', async () => {
    const store = createFileSecretStore(join(tmpdir(), 'never.json'));
    await expect(store.set('../x', 'v')).rejects.toThrow(/secret name/);
  });
});
