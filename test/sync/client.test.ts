// The client against the sandbox: token renewal, read retries honouring Retry-After, writes
// sent once, timeouts and validation of every answer.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCentral, type RunningCentral } from '../../src/central/index.js';
import { CentralClient, backoffMs, parseRetryAfter } from '../../src/sync/client.js';
import { stubEngine } from '../central/stub-engine.js';

let central: RunningCentral;
const clients: CentralClient[] = [];
beforeEach(async () => {
  central = await startCentral({ engine: stubEngine, seed: 'none' });
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await central.close();
});

function client(
  url = central.url,
  extra: Partial<ConstructorParameters<typeof CentralClient>[0]> = {},
) {
  const c = new CentralClient({
    baseUrl: url,
    terminalId: central.terminal_id,
    apiKey: central.api_key,
    timeouts: { connect_ms: 500, headers_ms: 1_000, body_ms: 1_000 },
    readRetry: { attempts: 3, base_ms: 10, max_ms: 100 },
    appVersion: 'test',
    schemaVersion: 1,
    ...extra,
  });
  clients.push(c);
  return c;
}

describe('central client', () => {
  it('signs in on first use and again after a 401', async () => {
    const c = client();
    expect((await c.changes(null, 10)).ok).toBe(true);
    central.store.revokeTokens();
    expect((await c.changes(null, 10)).ok).toBe(true);
  });

  it('retries a read with backoff, waiting at least Retry-After', async () => {
    const waits: number[] = [];
    const c = client(central.url, { sleep: async (ms) => void waits.push(ms) });
    await c.signIn();
    central.server.setFaults({ rate_429: 1, retry_after_s: 2 });
    const r = await c.changes(null, 10);
    expect(r.ok).toBe(false);
    expect(waits).toHaveLength(2);
    expect(waits.every((w) => w >= 2_000)).toBe(true);
  });

  it('sends a write once, with its Idempotency-Key, and leaves the retry to the caller', async () => {
    const waits: number[] = [];
    const c = client(central.url, { sleep: async (ms) => void waits.push(ms) });
    await c.signIn();
    central.server.setFaults({ error_rate: 1 });
    const id = '019a2222-0000-7000-8000-000000000001';
    const r = await c.write(
      'processCheck',
      { transaction_id: id, check_items: [{ code: 'A', quantity: 1, price: 1 }] },
      id,
    );
    expect(r.ok ? null : r.failure).toMatchObject({ kind: 'http', status: 503, retryable: true });
    expect(waits).toEqual([]);
  });

  it('gives up on a slow answer after the headers timeout', async () => {
    const c = client(central.url, {
      timeouts: { connect_ms: 500, headers_ms: 200, body_ms: 200 },
      readRetry: { attempts: 1 },
    });
    central.server.setFaults({ latency_ms: 1_500 });
    const r = await c.signIn();
    expect(r.ok ? null : r.failure.kind).toBe('timeout');
  });

  it('refuses an answer that breaks its schema', async () => {
    const bad = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"no_token":true}');
    });
    await new Promise<void>((r) => bad.listen(0, '127.0.0.1', r));
    try {
      const c = client(`http://127.0.0.1:${(bad.address() as AddressInfo).port}`);
      const r = await c.signIn();
      expect(r.ok ? null : r.failure).toMatchObject({ kind: 'invalid-response', retryable: false });
    } finally {
      bad.closeAllConnections();
      await new Promise((r) => bad.close(r));
    }
  });

  it('reads Retry-After as seconds or a date, and never backs off below it', () => {
    expect(parseRetryAfter('3', 0)).toBe(3_000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter(undefined, 0)).toBeNull();
    expect(backoffMs(0, 100, 1_000, () => 0, 5_000)).toBe(5_000);
    expect(backoffMs(10, 100, 1_000, () => 1)).toBe(1_000);
  });
});
