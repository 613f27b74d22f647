import { readFileSync, statSync, mkdirSync, writeFileSync, symlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorResponse } from '../../src/contract/commands.js';
import { ConfigSchema } from '../../src/contract/config.js';
import type { Agent } from '../../src/agent/server.js';
import { AGENT_CSP } from '../../src/agent/static.js';
import { agentFor, bearer, postCommand, tempDir } from './helpers.js';

const running: Agent[] = [];
async function agent(...args: Parameters<typeof agentFor>): Promise<Agent> {
  const a = await agentFor(...args);
  running.push(a);
  return a;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((a) => a.close()));
});

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const s = connect({ host, port, timeout: 2_000 });
    s.once('timeout', () => {
      s.destroy();
      done(false);
    });
    s.once('connect', () => {
      s.destroy();
      done(true);
    });
    s.once('error', () => done(false));
  });
}

function rawGet(a: Agent, path: string, host = `127.0.0.1:${a.port}`): Promise<string> {
  return new Promise((done) => {
    const s = connect({ host: '127.0.0.1', port: a.port }, () => {
      s.write(
        `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${a.token}\r\nConnection: close\r\n\r\n`,
      );
    });
    let data = '';
    s.on('data', (d: Buffer) => (data += d.toString()));
    s.on('end', () => done(data));
  });
}

async function sessionCookieFor(a: Agent): Promise<string> {
  const res = await fetch(a.openUrl, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const cookie = res.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0]!;
}

describe('authentication', () => {
  it('refuses a call without the token with 401 in the error shape', async () => {
    const a = await agent();
    const res = await fetch(`${a.url}/api/status`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    const body: unknown = await res.json();
    expect(ErrorResponse.safeParse(body).success).toBe(true);
    expect(body).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('refuses a wrong token', async () => {
    const a = await agent();
    const res = await fetch(`${a.url}/api/status`, { headers: { Authorization: 'Bearer nope' } });
    expect(res.status).toBe(401);
  });

  it('answers the status with the token', async () => {
    const a = await agent();
    const res = await fetch(`${a.url}/api/status`, { headers: bearer(a) });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ready: false, staff: null, shift: null });
  });

  it('keeps the token in DIR/agent-token, mode 0600, across restarts', async () => {
    const dir = tempDir();
    const first = await agentFor({ dataDir: dir });
    await first.close();
    const second = await agent({ dataDir: dir });
    expect(second.token).toBe(first.token);
    expect(readFileSync(join(dir, 'agent-token'), 'utf8').trim()).toBe(first.token);
    if (process.platform !== 'win32')
      expect(statSync(join(dir, 'agent-token')).mode & 0o777).toBe(0o600);
  });

  it('trades the one-time code for an HttpOnly SameSite=Strict cookie that calls work with', async () => {
    const a = await agent();
    const res = await fetch(a.openUrl, { redirect: 'manual' });
    expect(res.headers.get('location')).toBe('/');
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).not.toContain(a.token);
    const cookie = setCookie.split(';')[0]!;
    const status = await fetch(`${a.url}/api/status`, { headers: { Cookie: cookie } });
    expect(status.status).toBe(200);
    const call = await postCommand(a, 'devices-state', '{}', { Cookie: cookie });
    expect(call.status).toBe(200);
  });

  it('accepts a one-time code only once', async () => {
    const a = await agent();
    await sessionCookieFor(a);
    const again = await fetch(a.openUrl, { redirect: 'manual' });
    expect(again.status).toBe(401);
    expect(await again.json()).toMatchObject({ error: { code: 'unauthorized', path: 'code' } });
  });

  it('refuses an expired one-time code', async () => {
    let now = 1_000;
    const a = await agent({ now: () => now, codeTtlMs: 10 });
    now += 11;
    const res = await fetch(a.openUrl, { redirect: 'manual' });
    expect(res.status).toBe(401);
  });

  it('mints a new code for the token holder, not for a session', async () => {
    const a = await agent();
    const cookie = await sessionCookieFor(a);
    const bySession = await fetch(`${a.url}/api/session-codes`, {
      method: 'POST',
      headers: { Cookie: cookie },
    });
    expect(bySession.status).toBe(401);
    const byToken = await fetch(`${a.url}/api/session-codes`, {
      method: 'POST',
      headers: bearer(a),
    });
    const { url } = (await byToken.json()) as { url: string };
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(303);
  });

  it('refuses a request from another origin even with a session', async () => {
    const a = await agent();
    const cookie = await sessionCookieFor(a);
    const r = await postCommand(a, 'status', '{}', {
      Cookie: cookie,
      Origin: 'http://evil.example',
    });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ error: { code: 'forbidden-origin', path: 'Origin' } });
  });
});

describe('commands over HTTP', () => {
  it('refuses a bad body with 400 naming the field', async () => {
    const a = await agent();
    const r = await postCommand(a, 'shift-open', JSON.stringify({ opening_cash: -5 }));
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error: { code: 'invalid-input', path: 'opening_cash' } });
  });

  it('refuses malformed JSON with 400', async () => {
    const a = await agent();
    const r = await postCommand(a, 'status', '{"a":');
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ error: { code: 'invalid-input', path: '(root)' } });
  });

  it('refuses a body that is not JSON with 415', async () => {
    const a = await agent();
    const res = await fetch(`${a.url}/api/commands/status`, {
      method: 'POST',
      headers: { ...bearer(a), 'Content-Type': 'text/plain' },
      body: '{}',
    });
    expect(res.status).toBe(415);
  });

  it('refuses a body over the limit with 413', async () => {
    const a = await agent({ bodyLimitBytes: 100 });
    const r = await postCommand(a, 'status', JSON.stringify({ pad: 'x'.repeat(200) }));
    expect(r.status).toBe(413);
    expect(r.json).toMatchObject({ error: { code: 'payload-too-large' } });
  });

  it('answers 404 unknown-command for a name outside the map', async () => {
    const a = await agent();
    const r = await postCommand(a, 'frobnicate', '{}');
    expect(r).toMatchObject({ status: 404, json: { error: { code: 'unknown-command' } } });
  });

  it('answers 501 not-implemented for a command the workflow has not wired', async () => {
    const a = await agent();
    const r = await postCommand(a, 'sync-now', '{}');
    expect(r).toMatchObject({ status: 501, json: { error: { code: 'not-implemented' } } });
  });

  it('calls an injected handler with the validated input', async () => {
    const a = await agent({
      handlers: {
        'attention-list': (input) => (input.include_resolved ? { items: [] } : { items: [] }),
      },
    });
    const r = await postCommand(a, 'attention-list', JSON.stringify({ include_resolved: true }));
    expect(r).toEqual({ status: 200, json: { items: [] } });
  });

  it('refuses GET on a command with 405', async () => {
    const a = await agent();
    const res = await fetch(`${a.url}/api/commands/status`, { headers: bearer(a) });
    expect(res.status).toBe(405);
  });

  it('delivers events as server-sent events', async () => {
    const a = await agent();
    const controller = new AbortController();
    const res = await fetch(`${a.url}/api/events`, {
      headers: bearer(a),
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = res.body!.getReader();
    await reader.read(); // ": connected"
    a.events.emit('device-state', {
      kind: 'printer',
      simulated: true,
      protocol: 'escpos',
      transport: 'serial',
      state: 'connected',
      since: null,
      error: null,
    });
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(text).toContain('event: device-state');
    expect(text).toContain('"state":"connected"');
    controller.abort();
  });
});

describe('the listening socket', () => {
  it('listens on 127.0.0.1 only', async () => {
    const a = await agent();
    expect(new URL(a.url).hostname).toBe('127.0.0.1');
    expect(await canConnect('127.0.0.1', a.port)).toBe(true);
    expect(await canConnect('127.0.0.2', a.port)).toBe(false);
    expect(await canConnect('::1', a.port)).toBe(false);
  });

  it('refuses a Host that is not its own (DNS rebinding)', async () => {
    const a = await agent();
    const res = await rawGet(a, '/api/status', `evil.example:${a.port}`);
    expect(res).toMatch(/^HTTP\/1\.1 403/);
  });
});

describe('the kiosk page', () => {
  it('serves a placeholder with a strict CSP when the renderer is not built', async () => {
    const a = await agent();
    const res = await fetch(`${a.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(AGENT_CSP);
    expect(await res.text()).toContain('not built yet');
  });

  it('serves the renderer build and falls back to index.html for routes', async () => {
    const root = tempDir('lt-renderer-');
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>app</title>');
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'assets', 'app.js'), 'console.log(1)');
    const a = await agent({ rendererDir: root });
    const js = await fetch(`${a.url}/assets/app.js`);
    expect(js.headers.get('content-type')).toMatch(/text\/javascript/);
    expect(await js.text()).toBe('console.log(1)');
    expect(await (await fetch(`${a.url}/sale/new`)).text()).toContain('<title>app</title>');
    expect((await fetch(`${a.url}/assets/missing.js`)).status).toBe(404);
  });

  it('never serves a file outside the renderer directory', async () => {
    const parent = tempDir('lt-renderer-');
    const root = join(parent, 'dist');
    mkdirSync(root);
    writeFileSync(join(root, 'index.html'), 'index');
    writeFileSync(join(parent, 'secret.txt'), 'secret');
    symlinkSync(join(parent, 'secret.txt'), join(root, 'link.txt'));
    const a = await agent({ rendererDir: root });
    // Sent raw: fetch would normalise the dots away before they reach the server.
    for (const path of ['/%2e%2e/secret.txt', '/..%2fsecret.txt', '/../secret.txt', '/link.txt']) {
      expect(await rawGet(a, path), path).toMatch(/^HTTP\/1\.1 404/);
    }
  });
});

describe('slow clients', () => {
  it('closes a connection whose headers never finish after the configured timeout, not 30 s later', async () => {
    const a = await agent({
      config: ConfigSchema.parse({ terminal: { agent: { headers_timeout_ms: 300 } } }),
    });
    const closedAfterMs = await new Promise<number>((done) => {
      const started = Date.now();
      const s = connect({ host: '127.0.0.1', port: a.port }, () => {
        s.write(`GET /api/status HTTP/1.1\r\nHost: 127.0.0.1:${a.port}\r\n`); // never ends
      });
      s.on('data', () => undefined);
      s.on('error', () => undefined);
      s.on('close', () => done(Date.now() - started));
    });
    // Node checked header timeouts every 30 s by default: a slow client lived about 39 s.
    expect(closedAfterMs).toBeLessThan(10_000);
  }, 30_000);
});
