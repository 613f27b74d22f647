// The customer display's way in (docs/terminal.md, "The customer display"): the URL that opens
// the till's session also gives the browser a display pass, which streams the customer
// display's events and nothing else, and outlives a staff sign-out (the screen facing the
// customer must not go dark at each change of cashier). A session's own event stream ends
// with the session: nothing a cookie opened outlives the sign-out.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEventHub, type EventHub } from '../../src/agent/events.js';
import type { Agent, AgentOptions } from '../../src/agent/server.js';
import { newSecret, TOKEN_FILE } from '../../src/agent/token.js';
import type { EventPayload } from '../../src/contract/commands.js';
import { agentFor, postCommand, tempDir } from './helpers.js';

const running: Agent[] = [];
afterEach(async () => {
  for (const a of running.splice(0)) await a.close();
});

async function agent(overrides: Partial<AgentOptions> = {}): Promise<Agent> {
  const a = await agentFor({
    handlers: { 'staff-sign-out': () => ({ signed_out: null }) },
    ...overrides,
  });
  running.push(a);
  return a;
}

/** The cookies `/session?code=` sets, by name ("name=value"). */
async function cookiesFrom(url: string): Promise<Record<string, string>> {
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const out: Record<string, string> = {};
  for (const c of res.headers.getSetCookie()) {
    const pair = c.split(';')[0]!;
    out[pair.slice(0, pair.indexOf('='))] = pair;
  }
  return out;
}

const shown: EventPayload<'customer-display'> = {
  state: 'open',
  amount_digits: 2,
  bonus_digits: 2,
  lines: [{ title: 'Coffee', quantity: 1, amount: 2.5, discount: 0 }],
  to_pay: 2.5,
  bonuses: { added: 0, redeemed: 0 },
  coupons: [],
};

const printerReady: EventPayload<'device-state'> = {
  kind: 'printer',
  simulated: true,
  protocol: 'escpos',
  transport: 'serial',
  state: 'connected',
  since: null,
  error: null,
};

/** An event stream read as text; `ended` resolves when the agent ends it. */
async function stream(a: Agent, cookie: string, query = '') {
  const controller = new AbortController();
  const res = await fetch(`${a.url}/api/events${query}`, {
    headers: { Cookie: cookie },
    signal: controller.signal,
  });
  let text = '';
  let ended = false;
  const done = (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of res.body) text += decoder.decode(chunk as Uint8Array);
    } catch {
      // aborted by the test
    }
    ended = true;
  })();
  return {
    status: res.status,
    text: () => text,
    ended: () => ended,
    done,
    close: () => controller.abort(),
  };
}

const until = async (what: () => boolean) => {
  for (let i = 0; i < 200 && !what(); i++) await new Promise((r) => setTimeout(r, 10));
  return what();
};

function withHub(): { hub: EventHub } {
  return { hub: createEventHub() };
}

describe('the customer display pass', () => {
  it('streams the customer display’s events and no other', async () => {
    const { hub } = withHub();
    const a = await agent({ events: hub });
    const { lt_display: display } = await cookiesFrom(a.openUrl);
    const s = await stream(a, display!);
    expect(s.status).toBe(200);
    hub.emit('device-state', printerReady);
    hub.emit('customer-display', shown);
    expect(await until(() => s.text().includes('Coffee'))).toBe(true);
    expect(s.text()).not.toContain('event: device-state');
    s.close();
  });

  it('opens nothing else: no status, no command', async () => {
    const a = await agent();
    const { lt_display: display } = await cookiesFrom(a.openUrl);
    const status = await fetch(`${a.url}/api/status`, { headers: { Cookie: display! } });
    expect(status.status).toBe(401);
    expect((await postCommand(a, 'devices-state', '{}', { Cookie: display! })).status).toBe(401);
  });

  it('keeps the display’s stream through a staff sign-out, while the session’s own stream ends', async () => {
    const { hub } = withHub();
    const a = await agent({ events: hub });
    const { lt_display: display, lt_session: session } = await cookiesFrom(a.openUrl);
    const shown1 = await stream(a, display!);
    const till = await stream(a, session!);
    expect((await postCommand(a, 'staff-sign-out', '{}', { Cookie: session! })).status).toBe(200);
    expect(await until(() => till.ended())).toBe(true);
    hub.emit('customer-display', shown);
    expect(await until(() => shown1.text().includes('Coffee'))).toBe(true);
    expect(shown1.ended()).toBe(false);
    // and a display reconnecting after the sign-out is let in again
    const again = await stream(a, display!);
    expect(again.status).toBe(200);
    again.close();
    shown1.close();
  });

  it('gives a display asking for its events alone a stream that outlives the sign-out, with both cookies sent', async () => {
    const { hub } = withHub();
    const a = await agent({ events: hub });
    const { lt_display: display, lt_session: session } = await cookiesFrom(a.openUrl);
    const both = `${session!}; ${display!}`;
    const s = await stream(a, both, '?only=customer-display');
    expect((await postCommand(a, 'staff-sign-out', '{}', { Cookie: session! })).status).toBe(200);
    hub.emit('device-state', printerReady);
    hub.emit('customer-display', shown);
    expect(await until(() => s.text().includes('Coffee'))).toBe(true);
    expect(s.text()).not.toContain('event: device-state');
    expect(s.ended()).toBe(false);
    s.close();
  });

  it('does not outlive a rotation of the agent token', async () => {
    const dataDir = tempDir();
    const a = await agent({ dataDir });
    const { lt_display: display } = await cookiesFrom(a.openUrl);
    writeFileSync(join(dataDir, TOKEN_FILE), `${newSecret()}\n`);
    const s = await stream(a, display!);
    expect(s.status).toBe(401);
  });
});
