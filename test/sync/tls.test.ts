// HTTPS to the central service (docs/sync.md, "HTTPS, pinning and proxies"): the sandbox
// serving HTTPS with a certificate from a CA made at test time, the client trusting that CA,
// refusing another, matching and refusing pins, reaching the service through a CONNECT proxy,
// and a TLS failure shown under its code and not retried at network pace.
import { execSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startCentral, type RunningCentral } from '../../src/central/index.js';
import { memoryIO } from '../../src/cli/io.js';
import { runSync } from '../../src/cli/sync.js';
import { CentralClient } from '../../src/sync/client.js';
import { proxyFor } from '../../src/sync/proxy.js';
import { spkiPin } from '../../src/sync/tls.js';
import { DEFAULT_TRANSPORT, type TransportSettings } from '../../src/sync/transport.js';
import { stubEngine } from '../central/stub-engine.js';
import { makeTestPki, startConnectProxy, type TestPki, type TestProxy } from '../support/tls.js';

let pki: TestPki;
let central: RunningCentral;
let proxy: TestProxy;
const clients: CentralClient[] = [];
beforeAll(async () => {
  pki = makeTestPki();
  central = await startCentral({
    engine: stubEngine,
    seed: 'none',
    tls: { cert: pki.cert, key: pki.key },
  });
  proxy = await startConnectProxy();
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  proxy.connects.length = 0;
});
afterAll(async () => {
  await central.close();
  await proxy.close();
  pki.remove();
});

function client(
  t: Partial<TransportSettings['tls']> = {},
  p: Partial<TransportSettings['proxy']> = {},
  env = {},
) {
  const c = new CentralClient({
    baseUrl: central.url,
    terminalId: central.terminal_id,
    apiKey: central.api_key,
    timeouts: { connect_ms: 2_000, headers_ms: 2_000, body_ms: 2_000 },
    readRetry: { attempts: 1 },
    appVersion: 'test',
    schemaVersion: 1,
    transport: {
      tls: { ...DEFAULT_TRANSPORT.tls, ...t },
      proxy: { ...DEFAULT_TRANSPORT.proxy, ...p },
      env,
    },
  });
  clients.push(c);
  return c;
}

const codeOf = (r: { ok: boolean; failure?: { code: string } }) => (r.ok ? 'ok' : r.failure!.code);

describe('HTTPS to the central service', () => {
  it('the sandbox serves HTTPS when given a certificate and key', () => {
    expect(central.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('is reached over HTTPS when the configured CA bundle signed its certificate', async () => {
    expect(codeOf(await client({ ca_file: pki.caFile }).changes(null, 10))).toBe('ok');
  });

  it('is refused as tls-unknown-ca with the system CAs only', async () => {
    expect(codeOf(await client().changes(null, 10))).toBe('tls-unknown-ca');
  });

  it('is refused as tls-unknown-ca when the configured bundle is another CA', async () => {
    const r = await client({ ca_file: pki.otherCaFile }).changes(null, 10);
    expect(codeOf(r)).toBe('tls-unknown-ca');
    expect(r.ok ? '' : r.failure.message).toMatch(/not signed by a trusted authority/);
  });

  it('is refused as tls-ca-file-unreadable when the bundle cannot be read', async () => {
    const r = await client({ ca_file: `${pki.dir}/missing.pem` }).changes(null, 10);
    expect(codeOf(r)).toBe('tls-ca-file-unreadable');
  });

  it("is reached when one of the pins is the server's key (a rotation lists two)", async () => {
    const pins = ['A'.repeat(43) + '=', spkiPin(pki.certDer)];
    expect(codeOf(await client({ ca_file: pki.caFile, pins }).changes(null, 10))).toBe('ok');
  });

  it("is refused as tls-pin-mismatch when no pin is the server's key", async () => {
    const r = await client({ ca_file: pki.caFile, pins: ['A'.repeat(43) + '='] }).changes(null, 10);
    expect(codeOf(r)).toBe('tls-pin-mismatch');
  });

  it('is refused as tls-hostname-mismatch when the certificate names another host', async () => {
    const other = makeTestPki('DNS:central.example');
    const wrong = await startCentral({ engine: stubEngine, seed: 'none', tls: other });
    try {
      const c = new CentralClient({
        baseUrl: wrong.url,
        terminalId: wrong.terminal_id,
        apiKey: wrong.api_key,
        timeouts: { connect_ms: 2_000, headers_ms: 2_000, body_ms: 2_000 },
        readRetry: { attempts: 1 },
        appVersion: 'test',
        schemaVersion: 1,
        transport: {
          ...DEFAULT_TRANSPORT,
          tls: { ...DEFAULT_TRANSPORT.tls, ca_file: other.caFile },
        },
      });
      clients.push(c);
      expect(codeOf(await c.changes(null, 10))).toBe('tls-hostname-mismatch');
    } finally {
      await wrong.close();
      other.remove();
    }
  });

  it('is refused as tls-expired, a named TLS error, when the server certificate has expired', async () => {
    const expired = makeTestPki(undefined, -1);
    const old = await startCentral({ engine: stubEngine, seed: 'none', tls: expired });
    try {
      const c = new CentralClient({
        baseUrl: old.url,
        terminalId: old.terminal_id,
        apiKey: old.api_key,
        timeouts: { connect_ms: 2_000, headers_ms: 2_000, body_ms: 2_000 },
        readRetry: { attempts: 1 },
        appVersion: 'test',
        schemaVersion: 1,
        transport: {
          ...DEFAULT_TRANSPORT,
          tls: { ...DEFAULT_TRANSPORT.tls, ca_file: expired.caFile },
        },
      });
      clients.push(c);
      const r = await c.changes(null, 10);
      expect(r).toMatchObject({
        ok: false,
        failure: {
          kind: 'network',
          code: 'tls-expired',
          message: expect.stringMatching(/expired/),
        },
      });
    } finally {
      await old.close();
      expired.remove();
    }
  });

  it('computes a pin as the documented openssl pipeline does', () => {
    const viaOpenssl = execSync(
      `openssl x509 -pubkey -noout -in server.pem | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64`,
      { cwd: pki.dir },
    )
      .toString()
      .trim();
    expect(spkiPin(pki.certDer)).toBe(viaOpenssl);
  });

  it('after a TLS failure, fails every call fast until the retry interval has passed', async () => {
    let now = 1_000_000;
    const c = new CentralClient({
      baseUrl: central.url,
      terminalId: central.terminal_id,
      apiKey: central.api_key,
      timeouts: { connect_ms: 2_000, headers_ms: 2_000, body_ms: 2_000 },
      readRetry: { attempts: 1 },
      appVersion: 'test',
      schemaVersion: 1,
      transport: {
        ...DEFAULT_TRANSPORT,
        tls: { ...DEFAULT_TRANSPORT.tls, failed_retry_ms: 60_000 },
        now: () => now,
      },
    });
    clients.push(c);
    let handshakes = 0;
    const count = () => void handshakes++;
    central.server.server.on('connection', count);
    try {
      expect(codeOf(await c.changes(null, 10))).toBe('tls-unknown-ca');
      const after = handshakes;
      expect(codeOf(await c.changes(null, 10))).toBe('tls-unknown-ca');
      expect(handshakes).toBe(after);
      now += 60_000;
      expect(codeOf(await c.changes(null, 10))).toBe('tls-unknown-ca');
      expect(handshakes).toBeGreaterThan(after);
    } finally {
      central.server.server.off('connection', count);
    }
  });
});

describe('a proxy to the central service', () => {
  it('tunnels HTTPS through the configured proxy with CONNECT', async () => {
    const c = client({ ca_file: pki.caFile }, { url: proxy.url });
    expect(codeOf(await c.changes(null, 10))).toBe('ok');
    expect(proxy.connects.length).toBeGreaterThan(0);
    expect(new Set(proxy.connects)).toEqual(new Set([new URL(central.url).host]));
  });

  it('keeps pinning through the proxy (the tunnel does not change the trust)', async () => {
    const c = client({ ca_file: pki.caFile, pins: ['A'.repeat(43) + '='] }, { url: proxy.url });
    expect(codeOf(await c.changes(null, 10))).toBe('tls-pin-mismatch');
    expect(proxy.connects).toHaveLength(1);
  });

  it('reaches loopback directly with HTTPS_PROXY from the environment', async () => {
    const c = client({ ca_file: pki.caFile }, {}, { HTTPS_PROXY: proxy.url });
    expect(codeOf(await c.changes(null, 10))).toBe('ok');
    expect(proxy.connects).toEqual([]);
  });
});

describe('which proxy (proxyFor)', () => {
  const none = { url: null, no_proxy: [] };
  it('takes HTTPS_PROXY (or https_proxy) for an https service', () => {
    expect(proxyFor('https://central.example', none, { HTTPS_PROXY: 'http://p:3128' })).toBe(
      'http://p:3128',
    );
    expect(proxyFor('https://central.example', none, { https_proxy: 'http://p:3128' })).toBe(
      'http://p:3128',
    );
  });
  it('honours NO_PROXY, suffixes and ports included', () => {
    const env = { HTTPS_PROXY: 'http://p:3128', NO_PROXY: '.example,other:8443' };
    expect(proxyFor('https://central.example', none, env)).toBeNull();
    expect(proxyFor('https://other:8443', none, env)).toBeNull();
    expect(proxyFor('https://other', none, env)).toBe('http://p:3128');
  });
  it('never sends 127.0.0.1, ::1 or localhost to a proxy from the environment', () => {
    const env = { HTTPS_PROXY: 'http://p:3128' };
    for (const u of ['https://127.0.0.1:9', 'https://[::1]:9', 'https://localhost'])
      expect(proxyFor(u, none, env)).toBeNull();
  });
  it('uses a configured proxy over the environment, for loopback too unless listed in no_proxy', () => {
    const conf = { url: 'http://conf:8080', no_proxy: [] };
    expect(proxyFor('https://127.0.0.1:9', conf, { HTTPS_PROXY: 'http://p:1' })).toBe(
      'http://conf:8080',
    );
    expect(proxyFor('https://127.0.0.1:9', { ...conf, no_proxy: ['127.0.0.1'] })).toBeNull();
  });
});

describe('a TLS failure in `sync status`', () => {
  async function syncIn(dir: string, ...args: string[]) {
    const io = Object.assign(memoryIO(), {
      readInput: (file: string) => Promise.resolve(readFileSync(file, 'utf8')),
    });
    const code = await runSync([...args, '--data', dir], io);
    return { code, out: io.out, err: io.err };
  }

  it('is shown as tls-failed with its code after a refused pull, and cleared by the next answer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lt-tls-status-'));
    const configure = (tls: object) =>
      writeFileSync(
        join(dir, 'config.json'),
        JSON.stringify({
          central: {
            url: central.url,
            terminal_id: central.terminal_id,
            api_key: central.api_key,
            tls,
          },
        }),
      );
    try {
      configure({ ca_file: pki.otherCaFile });
      const pull = await syncIn(dir, 'pull');
      expect(pull.code).toBe(1);
      expect(pull.err).toMatch(/tls-unknown-ca/);
      const status = await syncIn(dir, 'status');
      expect(status.out).toMatch(
        /^link: tls-failed: tls-unknown-ca: .*not signed by a trusted authority/m,
      );
      const json = JSON.parse((await syncIn(dir, 'status', '--json')).out) as {
        tlsFailed: { code: string } | null;
      };
      expect(json.tlsFailed?.code).toBe('tls-unknown-ca');
      configure({ ca_file: pki.caFile });
      expect((await syncIn(dir, 'pull')).code).toBe(0);
      expect((await syncIn(dir, 'status')).out).not.toMatch(/tls-failed/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
