import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/contract/config.js';
import { memoryLogger } from '../support/log.js';
import {
  createFileSecretStore,
  readJsonRecord,
  type SecretStore,
} from '../../src/config/secret-store.js';
import { resolveSecret } from '../../src/terminal/secrets.js';
import { memorySecretStore } from '../support/secrets.js';

const posix = process.platform !== 'win32';
const tempFile = () => join(mkdtempSync(join(tmpdir(), 'lt-sec-')), 'secrets.json');

describe('the file secret store', () => {
  it('keeps values in secrets.json with mode 0600', async () => {
    const file = tempFile();
    const store = createFileSecretStore(file);
    await store.set('central.api_key', 'k1');
    expect(await store.get('central.api_key')).toBe('k1');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ 'central.api_key': 'k1' });
    if (posix) expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('deletes a value and answers undefined for an absent one', async () => {
    const file = tempFile();
    const store = createFileSecretStore(file);
    await store.set('a', '1');
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
  });

  it('refuses a name outside its alphabet', async () => {
    const store = createFileSecretStore(join(tmpdir(), 'never.json'));
    await expect(store.set('../x', 'v')).rejects.toThrow(/secret name/);
  });

  it.runIf(posix)('replaces a file another tool left world-readable with a 0600 one', async () => {
    const file = tempFile();
    writeFileSync(file, '{"a":"1"}', { mode: 0o644 });
    await createFileSecretStore(file).set('b', '2');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readJsonRecord(file)).toEqual({ a: '1', b: '2' });
  });

  it.runIf(posix)('creates a missing data directory readable by its owner only', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'lt-sec-')), 'data');
    await createFileSecretStore(join(dir, 'secrets.json')).set('a', '1');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it.runIf(posix)('never reuses a temporary file a crash left behind', async () => {
    const file = tempFile();
    // A crash between write and rename leaves this; its mode must not reach the new file.
    writeFileSync(`${file}.${process.pid}.tmp`, '{"half":', { mode: 0o666 });
    await createFileSecretStore(file).set('a', '1');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readJsonRecord(file)).toEqual({ a: '1' });
  });

  it('writes through a rename, leaving no temporary file', async () => {
    const file = tempFile();
    const store = createFileSecretStore(file);
    await store.set('a', '1');
    await store.set('b', '2');
    await store.delete('a');
    expect(readdirSync(join(file, '..'))).toEqual(['secrets.json']);
  });

  it('does not quote a broken file in its error: the text around the fault is a secret', () => {
    const file = tempFile();
    writeFileSync(file, '{"central.api_key": "s3cr3t-value" oops}');
    expect(() => readJsonRecord(file)).toThrow(/is not valid JSON/);
    expect(() => readJsonRecord(file)).not.toThrow(/s3cr3t/);
  });
});

// ---- resolveSecret: the store first, else config.json; a clear value in config is moved in ----

const REAL_KEY = 'real-key-7f3a9c';
const OLD_KEY = 'old-key-1b2c3d';

function configWith(central: Record<string, unknown> = {}, payment?: Record<string, unknown>) {
  return ConfigSchema.parse({
    central,
    ...(payment ? { devices: { payment: { simulated: true, ...payment } } } : {}),
  });
}

function leaked(log: ReturnType<typeof memoryLogger>, ...values: string[]): string[] {
  const text = JSON.stringify(log.records);
  return values.filter((v) => text.includes(v));
}

describe('resolving a terminal secret', () => {
  it('takes the secret store value over the default of the configuration', async () => {
    const log = memoryLogger();
    const store = memorySecretStore({ 'central.api_key': REAL_KEY });
    expect(await resolveSecret('central.api_key', configWith(), store, log)).toBe(REAL_KEY);
    expect(log.records).toEqual([]);
  });

  it('falls back to the configuration when the store has none', async () => {
    const log = memoryLogger();
    const config = configWith();
    const value = await resolveSecret('central.api_key', config, memorySecretStore(), log);
    expect(value).toBe(config.central.api_key);
    expect(log.records).toEqual([]);
  });

  it('does not copy the public demo defaults into the store', async () => {
    const store = memorySecretStore();
    const config = configWith({}, {});
    await resolveSecret('central.api_key', config, store, memoryLogger());
    await resolveSecret('devices.payment.zvt_password', config, store, memoryLogger());
    expect(await store.get('central.api_key')).toBeUndefined();
    expect(await store.get('devices.payment.zvt_password')).toBeUndefined();
  });

  it('copies a key written in clear in config.json into the store and warns by name only', async () => {
    const log = memoryLogger();
    const store = memorySecretStore();
    const value = await resolveSecret(
      'central.api_key',
      configWith({ api_key: REAL_KEY }),
      store,
      log,
    );
    expect(value).toBe(REAL_KEY);
    expect(await store.get('central.api_key')).toBe(REAL_KEY);
    expect(log.records).toMatchObject([
      {
        level: 'warn',
        msg: expect.stringMatching(/copied into the secret store/),
        key: 'central.api_key',
      },
    ]);
    expect(leaked(log, REAL_KEY)).toEqual([]);
  });

  it('lets a clear value in config.json replace an older stored one (a rotated key)', async () => {
    const log = memoryLogger();
    const store = memorySecretStore({ 'central.api_key': OLD_KEY });
    const config = configWith({ api_key: REAL_KEY });
    expect(await resolveSecret('central.api_key', config, store, log)).toBe(REAL_KEY);
    expect(await store.get('central.api_key')).toBe(REAL_KEY);
    expect(log.records[0]).toMatchObject({ level: 'warn', replaced: true });
    expect(leaked(log, REAL_KEY, OLD_KEY)).toEqual([]);
  });

  it('keeps warning while config.json still holds a value the store already has', async () => {
    const log = memoryLogger();
    const store = memorySecretStore({ 'devices.payment.zvt_password': '482916' });
    const config = configWith({}, { zvt_password: '482916' });
    expect(await resolveSecret('devices.payment.zvt_password', config, store, log)).toBe('482916');
    expect(log.records).toMatchObject([
      {
        level: 'warn',
        msg: expect.stringMatching(/delete it there/),
        key: 'devices.payment.zvt_password',
      },
    ]);
    expect(leaked(log, '482916')).toEqual([]);
  });

  it('uses the clear value and says so when the store refuses it (no OS encryption)', async () => {
    const log = memoryLogger();
    const refusing: SecretStore = {
      ...memorySecretStore(),
      set: () => Promise.reject(new Error('OS encryption (safeStorage) is not available')),
    };
    const value = await resolveSecret(
      'central.api_key',
      configWith({ api_key: REAL_KEY }),
      refusing,
      log,
    );
    expect(value).toBe(REAL_KEY);
    expect(log.records).toMatchObject([
      { level: 'error', msg: expect.stringMatching(/stays in clear/), key: 'central.api_key' },
    ]);
    expect(leaked(log, REAL_KEY)).toEqual([]);
  });

  it('starts on the configuration when the store cannot be read (a locked keyring)', async () => {
    const log = memoryLogger();
    const unreadable: SecretStore = {
      ...memorySecretStore(),
      get: () => Promise.reject(new Error('decryption failed')),
    };
    const config = configWith();
    expect(await resolveSecret('central.api_key', config, unreadable, log)).toBe(
      config.central.api_key,
    );
    expect(log.records).toMatchObject([{ level: 'error', key: 'central.api_key' }]);
  });

  it('refuses a stored ZVT password that is not six digits, without logging it', async () => {
    const log = memoryLogger();
    const store = memorySecretStore({ 'devices.payment.zvt_password': '12ab' });
    const config = configWith({}, {});
    expect(await resolveSecret('devices.payment.zvt_password', config, store, log)).toBe('000000');
    expect(log.records).toMatchObject([{ level: 'error', reason: 'six digits' }]);
    expect(leaked(log, '12ab')).toEqual([]);
  });

  it('keeps a file store untouched when nothing is in clear', async () => {
    const file = tempFile();
    await resolveSecret(
      'central.api_key',
      configWith(),
      createFileSecretStore(file),
      memoryLogger(),
    );
    expect(existsSync(file)).toBe(false);
  });
});
