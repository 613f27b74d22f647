// The agent's large answers (a check against hundreds of rules is over 100 KB of JSON) go
// gzipped to a caller that takes gzip; small ones, and any to a caller that does not, go plain.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsGzip, GZIP_FROM, sendJsonTo } from '../../src/http/index.js';

const big = {
  rules: Array.from({ length: 2_000 }, (_, i) => ({ id: `rule-${i}`, applied: false })),
};
let server: Server;
let port = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = req.url === '/big' ? big : { ok: true };
    sendJsonTo(req.headers['accept-encoding'], res, 200, body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** The raw answer: its headers and bytes as sent (no client decoding). */
function get(
  path: string,
  accept?: string,
): Promise<{ headers: Record<string, unknown>; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = accept === undefined ? {} : { 'accept-encoding': accept };
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ headers: res.headers, bytes: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('answers and gzip', () => {
  it('gzips a large answer for a caller that takes gzip, and it reads back the same', async () => {
    expect(JSON.stringify(big).length).toBeGreaterThan(GZIP_FROM);
    const { headers, bytes } = await get('/big', 'gzip, deflate, br, zstd');
    expect(headers['content-encoding']).toBe('gzip');
    expect(Number(headers['content-length'])).toBe(bytes.length);
    expect(JSON.parse(gunzipSync(bytes).toString('utf8'))).toEqual(big);
  });

  it('sends a large answer plain to a caller that does not take gzip', async () => {
    const { headers, bytes } = await get('/big');
    expect(headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(bytes.toString('utf8'))).toEqual(big);
  });

  it('sends a small answer plain', async () => {
    const { headers, bytes } = await get('/small', 'gzip');
    expect(headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ ok: true });
  });

  it('reads gzip out of Accept-Encoding, refused with q=0', () => {
    expect(acceptsGzip('gzip, deflate, br')).toBe(true);
    expect(acceptsGzip('br;q=1.0, gzip;q=0.5')).toBe(true);
    expect(acceptsGzip('*')).toBe(true);
    expect(acceptsGzip('gzip;q=0')).toBe(false);
    expect(acceptsGzip('br, identity')).toBe(false);
    expect(acceptsGzip(undefined)).toBe(false);
  });
});
