// The node:http plumbing the local agent and the sandbox central share: JSON answers, bodies
// read under a size limit, the bearer token, listening on 127.0.0.1. Kept small on purpose:
// both servers need the raw request and socket (the sandbox cuts connections and drops
// answers to play faults), which a framework would hide, so a router would buy little.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export const LOCAL_HOST = '127.0.0.1';

/** A JSON answer, never cached; nothing when the connection is already gone. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/**
 * Answers from this size go gzipped to a caller that accepts it: a check against hundreds of
 * rules is over 100 KB of JSON, which gzip at level 1 makes a tenth in about half a
 * millisecond, and the write, the browser's read and its parse shrink with it (bench ui).
 */
export const GZIP_FROM = 16_384;

/** Whether an Accept-Encoding takes gzip (and not with q=0). */
export function acceptsGzip(accept: string | string[] | undefined): boolean {
  const text = Array.isArray(accept) ? accept.join(',') : (accept ?? '');
  return text
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .some((part) => /^(gzip|\*)(\s*;\s*q=(?!0(\.0*)?$)[\d.]+)?$/.test(part));
}

/** `sendJson`, gzipped when the body is large and the caller (`accept`) takes gzip. */
export function sendJsonTo(
  accept: string | string[] | undefined,
  res: ServerResponse,
  status: number,
  body: unknown,
): void {
  if (res.destroyed) return;
  const text = JSON.stringify(body);
  if (text.length < GZIP_FROM || !acceptsGzip(accept)) {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      'cache-control': 'no-store',
    });
    res.end(text);
    return;
  }
  const bytes = gzipSync(text, { level: 1 });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-encoding': 'gzip',
    'content-length': String(bytes.length),
    'cache-control': 'no-store',
    vary: 'accept-encoding',
  });
  res.end(bytes);
}

/** The whole body, or `too-large` once it (or its declared length) passes `limit` bytes. */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  if (Number(req.headers['content-length'] ?? 0) > limit) return 'too-large';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The token of `Authorization: Bearer TOKEN`, or null. */
export function bearerToken(req: IncomingMessage): string | null {
  const h = req.headers.authorization;
  const m = typeof h === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(h) : null;
  return m?.[1] ?? null;
}

/** Parsed JSON text, or the parser's reason (the caller answers it in its own shape). */
export function parseJsonText(
  text: string,
): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    return { ok: false, message: `malformed JSON: ${(e as Error).message}` };
  }
}

/** Listens on 127.0.0.1; resolves with the port (the one chosen when asked for 0). */
export async function listenLocal(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, LOCAL_HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}
