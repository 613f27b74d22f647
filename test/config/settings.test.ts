// src/config/settings.ts: the configuration, the data directory and the secret store, found
// one way for the agent, the Electron app and every CLI command. The rule: flags, then the
// configuration file, then the defaults (docs/terminal.md, "Configuration").
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJsonRecord, type SecretSeal } from '../../src/config/secret-store.js';
import { defaultDataDir, resolveSettings } from '../../src/config/settings.js';

const tempDir = () => mkdtempSync(join(tmpdir(), 'lt-config-'));

function write(file: string, json: unknown): string {
  writeFileSync(file, JSON.stringify(json));
  return file;
}

async function settings(...args: Parameters<typeof resolveSettings>) {
  const r = await resolveSettings(...args);
  if (!r.ok) throw new Error(r.message);
  return r.settings;
}

describe('the data directory', () => {
  it('is ~/.loyalty-terminal by default, with the embedded default configuration', async () => {
    const home = tempDir();
    const s = await settings({}, { home });
    expect(s.dataDir).toBe(join(home, '.loyalty-terminal'));
    expect(defaultDataDir(home)).toBe(s.dataDir);
    expect(s.configFile).toBeNull();
    expect(s.config.central.url).toBeNull();
  });

  it('is --data DIR, whose config.json is read', async () => {
    const dir = tempDir();
    write(join(dir, 'config.json'), { terminal: { coupon_prefix: 'ST7-' } });
    const s = await settings({ data: dir }, { home: tempDir() });
    expect(s.dataDir).toBe(dir);
    expect(s.configFile).toBe(join(dir, 'config.json'));
    expect(s.config.terminal.coupon_prefix).toBe('ST7-');
  });

  it("is the configuration's terminal.data_dir when it names one, which moves everything", async () => {
    const dir = tempDir();
    const moved = join(tempDir(), 'moved');
    write(join(dir, 'config.json'), { terminal: { data_dir: moved } });
    const s = await settings({ data: dir });
    expect(s.dataDir).toBe(moved);
    expect(s.secretsFile).toBe(join(moved, 'secrets.json'));
  });
});

describe('the configuration file', () => {
  it('is --config FILE over DIR/config.json (a flag before the file it would find)', async () => {
    const dir = tempDir();
    write(join(dir, 'config.json'), { terminal: { coupon_prefix: 'DIR-' } });
    const file = write(join(tempDir(), 'other.json'), { terminal: { coupon_prefix: 'FLAG-' } });
    const s = await settings({ data: dir, config: file });
    expect(s.configFile).toBe(file);
    expect(s.config.terminal.coupon_prefix).toBe('FLAG-');
    expect(s.dataDir).toBe(dir);
  });

  it('fills what it leaves out with the defaults', async () => {
    const dir = tempDir();
    write(join(dir, 'config.json'), { central: { url: 'https://central.example' } });
    const s = await settings({ data: dir });
    expect(s.config.central.url).toBe('https://central.example');
    expect(s.config.central.timeouts.connect_ms).toBeGreaterThan(0);
  });

  it('must exist when --config names it', async () => {
    const missing = join(tempDir(), 'nope.json');
    const r = await resolveSettings({ data: tempDir(), config: missing });
    expect(r).toMatchObject({ ok: false });
    expect(!r.ok && r.message).toMatch(new RegExp(`^cannot read ${missing}: `));
  });

  it('is refused with every bad key named, after the file', async () => {
    const dir = tempDir();
    const file = write(join(dir, 'config.json'), {
      central: { timeouts: { connect_ms: -1 } },
      terminal: { bogus: 1 },
    });
    const r = await resolveSettings({ data: dir });
    expect(r.ok).toBe(false);
    const lines = (!r.ok && r.message.split('\n')) || [];
    expect(lines).toHaveLength(2);
    expect(lines.some((l) => l.startsWith(`${file}: central.timeouts.connect_ms: `))).toBe(true);
    expect(lines.some((l) => l.startsWith(`${file}: terminal.bogus`))).toBe(true);
  });

  it('is refused when it is not JSON, naming the file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'config.json'), '{ "central": ');
    const r = await resolveSettings({ data: dir });
    expect(!r.ok && r.message).toMatch(/config\.json: malformed JSON: /);
  });

  it('is read through the port it is given (the CLI reads - as standard input)', async () => {
    const read = async (file: string) => {
      if (file === '-') return JSON.stringify({ terminal: { coupon_prefix: 'IN-' } });
      throw Object.assign(new Error('no'), { code: 'ENOENT' });
    };
    const s = await settings({ data: tempDir(), config: '-' }, { readText: read });
    expect(s.config.terminal.coupon_prefix).toBe('IN-');
  });
});

describe('the secret store', () => {
  it("is the agent's DIR/secrets.json, in clear", async () => {
    const dir = tempDir();
    const s = await settings({ data: dir });
    await s.secrets.set('central.api_key', 'k-1');
    expect(s.secretsFile).toBe(join(dir, 'secrets.json'));
    expect(readJsonRecord(s.secretsFile)).toEqual({ 'central.api_key': 'k-1' });
  });

  it("is DIR/secrets.safe.json, sealed, when a seal is given (the Electron app's)", async () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const seal: SecretSeal = {
      seal: (v) => Buffer.from(v).toString('base64'),
      unseal: (v) => Buffer.from(v, 'base64').toString(),
    };
    const s = await settings({ data: dir }, { seal });
    await s.secrets.set('central.api_key', 'k-1');
    expect(s.secretsFile).toBe(join(dir, 'secrets.safe.json'));
    expect(readJsonRecord(s.secretsFile)).toEqual({ 'central.api_key': 'ay0x' });
    expect(await s.secrets.get('central.api_key')).toBe('k-1');
  });
});
