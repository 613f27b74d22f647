// `loyalty-terminal secrets`: values in on standard input only, names out only, DIR/secrets.json
// at mode 0600, usage errors exit 2 with nothing stored.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { readJsonRecord } from '../../src/config/secret-store.js';

const KEY = 'live-key-9c41e2';
const dirs: string[] = [];
function dataDir(): string {
  dirs.push(mkdtempSync(join(tmpdir(), 'lt-cli-sec-')));
  return dirs.at(-1)!;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('loyalty-terminal secrets', () => {
  it('stores a value read from standard input in DIR/secrets.json, mode 0600', async () => {
    const dir = dataDir();
    const io = memoryIO({}, `${KEY}\n`);
    expect(await main(['secrets', 'set', 'central.api_key', '--data', dir], io)).toBe(0);
    const file = join(dir, 'secrets.json');
    // The line end the shell added is not part of the key.
    expect(readJsonRecord(file)).toEqual({ 'central.api_key': KEY });
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(io.out + io.err).not.toContain(KEY);
  });

  it('lists names and files, never values', async () => {
    const dir = dataDir();
    await main(['secrets', 'set', 'central.api_key', '--data', dir], memoryIO({}, KEY));
    await main(
      ['secrets', 'set', 'devices.payment.zvt_password', '--data', dir],
      memoryIO({}, '482916'),
    );
    const io = memoryIO();
    expect(await main(['secrets', 'list', '--data', dir], io)).toBe(0);
    const file = join(dir, 'secrets.json');
    expect(io.out).toBe(`central.api_key\t${file}\ndevices.payment.zvt_password\t${file}\n`);
  });

  it("lists the Electron app's sealed secrets by name too", async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'secrets.safe.json'), '{"central.api_key":"c2VhbGVk"}');
    const io = memoryIO();
    expect(await main(['secrets', 'list', '--data', dir], io)).toBe(0);
    expect(io.out).toBe(`central.api_key\t${join(dir, 'secrets.safe.json')}\n`);
  });

  it('deletes a secret', async () => {
    const dir = dataDir();
    await main(['secrets', 'set', 'central.api_key', '--data', dir], memoryIO({}, KEY));
    const io = memoryIO();
    expect(await main(['secrets', 'delete', 'central.api_key', '--data', dir], io)).toBe(0);
    expect(readJsonRecord(join(dir, 'secrets.json'))).toEqual({});
  });

  it('refuses a name the terminal does not use with exit 2', async () => {
    const dir = dataDir();
    const io = memoryIO({}, KEY);
    expect(await main(['secrets', 'set', 'central.apikey', '--data', dir], io)).toBe(2);
    expect(io.err).toContain('unknown secret name "central.apikey"');
    expect(io.err).toContain('central.api_key, devices.payment.zvt_password');
  });

  it('refuses a ZVT password that is not six digits, storing nothing, quoting nothing', async () => {
    const dir = dataDir();
    const io = memoryIO({}, '12ab\n');
    expect(await main(['secrets', 'set', 'devices.payment.zvt_password', '--data', dir], io)).toBe(
      2,
    );
    expect(io.err).toContain('devices.payment.zvt_password: six digits');
    expect(io.err).not.toContain('12ab');
    expect(readJsonRecord(join(dir, 'secrets.json'))).toEqual({});
  });

  it('refuses an empty standard input with exit 2', async () => {
    const dir = dataDir();
    const io = memoryIO({}, '\n');
    expect(await main(['secrets', 'set', 'central.api_key', '--data', dir], io)).toBe(2);
    expect(io.err).toContain('no value for central.api_key on standard input');
  });

  it('answers a missing subcommand or NAME with its usage and exit 2', async () => {
    for (const args of [
      ['secrets'],
      ['secrets', 'set'],
      ['secrets', 'list', 'x'],
      ['secrets', 'get', 'a'],
    ]) {
      const io = memoryIO();
      expect(await main([...args, '--data', dataDir()], io), args.join(' ')).toBe(2);
      expect(io.err).toContain('usage: loyalty-terminal secrets set NAME');
    }
  });

  it('prints its usage with --help and exits 0', async () => {
    const io = memoryIO();
    expect(await main(['secrets', '--help'], io)).toBe(0);
    expect(io.out).toContain('usage: loyalty-terminal secrets set NAME');
  });

  it('warns when config.json still holds the secret in clear, which would replace it', async () => {
    const dir = dataDir();
    const config = {
      [join(dir, 'config.json')]: JSON.stringify({ central: { api_key: 'old-1' } }),
    };
    const io = memoryIO(config, KEY);
    expect(await main(['secrets', 'set', 'central.api_key', '--data', dir], io)).toBe(0);
    expect(io.err).toMatch(/configuration still holds central.api_key in clear/);
    expect(io.err).not.toContain('old-1');
  });

  it('stores in the data directory config.json names, as the agent would read it', async () => {
    const dir = dataDir();
    const moved = join(dir, 'elsewhere');
    const config = {
      [join(dir, 'config.json')]: JSON.stringify({ terminal: { data_dir: moved } }),
    };
    expect(
      await main(['secrets', 'set', 'central.api_key', '--data', dir], memoryIO(config, KEY)),
    ).toBe(0);
    expect(readJsonRecord(join(moved, 'secrets.json'))).toEqual({ 'central.api_key': KEY });
  });

  it('tells that the Electron app does not read what it stores', async () => {
    const dir = dataDir();
    writeFileSync(join(dir, 'secrets.safe.json'), '{}');
    const io = memoryIO({}, KEY);
    expect(await main(['secrets', 'set', 'central.api_key', '--data', dir], io)).toBe(0);
    expect(io.err).toMatch(/Electron app reads .*secrets\.safe\.json/);
    expect(readFileSync(join(dir, 'secrets.safe.json'), 'utf8')).toBe('{}');
  });
});
