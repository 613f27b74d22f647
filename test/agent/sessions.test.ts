// The browser session (docs/terminal.md, "The agent"): it ends at a staff sign-out, after the
// configured idle time without a person's command (the status poll does not count), and with
// every other session and code when the agent's token is rotated.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigSchema } from '../../src/contract/config.js';
import type { Agent, AgentOptions } from '../../src/agent/server.js';
import { newSecret, TOKEN_FILE } from '../../src/agent/token.js';
import { agentFor, postCommand, tempDir } from './helpers.js';

const running: Agent[] = [];
afterEach(async () => {
  for (const a of running.splice(0)) await a.close();
});

async function agent(overrides: Partial<AgentOptions> = {}): Promise<Agent> {
  const a = await agentFor(overrides);
  running.push(a);
  return a;
}

async function cookieFrom(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
}

const status = (a: Agent, headers: Record<string, string>) =>
  fetch(`${a.url}/api/status`, { headers }).then((r) => r.status);

describe('the browser session', () => {
  it('ends at a staff sign-out', async () => {
    const a = await agent({ handlers: { 'staff-sign-out': () => ({ signed_out: null }) } });
    const cookie = await cookieFrom(a.openUrl);
    const other = await cookieFrom(a.mintOpenUrl());
    expect(await status(a, { Cookie: cookie })).toBe(200);
    expect((await postCommand(a, 'staff-sign-out', '{}', { Cookie: cookie })).status).toBe(200);
    expect(await status(a, { Cookie: cookie })).toBe(401);
    // The till's browser sessions end with it; the token still works.
    expect(await status(a, { Cookie: other })).toBe(401);
    expect(await status(a, { Authorization: `Bearer ${a.token}` })).toBe(200);
  });

  it('ends after the configured idle time without a command, the status poll not counting', async () => {
    let now = 1_000_000;
    const a = await agent({
      now: () => now,
      config: ConfigSchema.parse({ terminal: { agent: { session_idle_ms: 1_000 } } }),
    });
    const cookie = await cookieFrom(a.openUrl);
    now += 900;
    expect((await postCommand(a, 'devices-state', '{}', { Cookie: cookie })).status).toBe(200);
    now += 900;
    expect(await status(a, { Cookie: cookie })).toBe(200);
    now += 200; // 1,100 ms after the last command
    expect(await status(a, { Cookie: cookie })).toBe(401);
    expect((await postCommand(a, 'devices-state', '{}', { Cookie: cookie })).status).toBe(401);
  });

  it('does not outlive a rotation of the agent token, nor do its codes', async () => {
    const dataDir = tempDir();
    const a = await agent({ dataDir });
    const old = a.token;
    const cookie = await cookieFrom(a.openUrl);
    const unused = a.mintOpenUrl();
    expect(await status(a, { Cookie: cookie })).toBe(200);
    const rotated = newSecret();
    writeFileSync(join(dataDir, TOKEN_FILE), `${rotated}\n`);
    expect(await status(a, { Cookie: cookie })).toBe(401);
    expect(await status(a, { Authorization: `Bearer ${old}` })).toBe(401);
    expect(await status(a, { Authorization: `Bearer ${rotated}` })).toBe(200);
    expect(a.token).toBe(rotated);
    expect((await fetch(unused, { redirect: 'manual' })).status).toBe(401);
  });
});
