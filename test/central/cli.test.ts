// `loyalty-terminal central`: prints one JSON line with its URL and the demo credentials.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { runCentral } from '../../src/cli/central.js';
import { memoryIO } from '../../src/cli/io.js';
import { makeTestPki } from '../support/tls.js';

describe('central command', () => {
  it('listens on 127.0.0.1, prints url, terminal_id and api_key, and stops when told', async () => {
    const io = memoryIO();
    let stop!: () => void;
    const until = new Promise<void>((r) => (stop = r));
    const running = runCentral(['--port', '0', '--seed', 'demo'], io, until);
    for (let i = 0; i < 200 && !io.out.includes('\n'); i++)
      await new Promise((r) => setTimeout(r, 10));
    const line = JSON.parse(io.out.trim()) as { url: string; terminal_id: string; api_key: string };
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${line.url}/v1/terminal/sign_in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ terminal_id: line.terminal_id, api_key: line.api_key }),
    });
    expect(res.status).toBe(200);
    stop();
    expect(await running).toBe(0);
  });

  it('refuses an unknown flag with exit 2', async () => {
    const io = memoryIO();
    expect(await runCentral(['--bogus'], io, Promise.resolve())).toBe(2);
    expect(io.err).toContain('usage');
  });

  it('serves HTTPS with --tls-cert and --tls-key, and prints an https url', async () => {
    const pki = makeTestPki();
    const io = memoryIO();
    let stop!: () => void;
    const until = new Promise<void>((r) => (stop = r));
    const cert = join(pki.dir, 'server.pem');
    const key = join(pki.dir, 'server.key');
    const running = runCentral(['--port', '0', '--tls-cert', cert, '--tls-key', key], io, until);
    const agent = new Agent({ connect: { ca: readFileSync(pki.caFile, 'utf8') } });
    try {
      for (let i = 0; i < 200 && !io.out.includes('\n'); i++)
        await new Promise((r) => setTimeout(r, 10));
      const line = JSON.parse(io.out.trim()) as {
        url: string;
        terminal_id: string;
        api_key: string;
      };
      expect(line.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const res = await request(`${line.url}/v1/terminal/sign_in`, {
        dispatcher: agent,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ terminal_id: line.terminal_id, api_key: line.api_key }),
      });
      await res.body.dump();
      expect(res.statusCode).toBe(200);
    } finally {
      stop();
      await running;
      await agent.close();
      pki.remove();
    }
  });

  it('refuses --tls-cert without --tls-key', async () => {
    const io = memoryIO();
    expect(await runCentral(['--port', '0', '--tls-cert', 'x.pem'], io, Promise.resolve())).toBe(1);
    expect(io.err).toContain('--tls-cert and --tls-key go together');
  });
});
