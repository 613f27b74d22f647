// The sandbox's HTTP surface on node:http, 127.0.0.1 only: routing from the operation table
// of src/contract/central-api.ts, bearer auth, validation of every body and query, the idempotency store
// for writes, the fault switches, and the /sandbox controls.
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { z } from 'zod';
import { listedProblems } from '../contract/problems.js';
import { canonicalJson } from '../contract/wire.js';
import {
  HEADERS,
  NOT_ATTEMPTED,
  operations,
  type CancelCheck,
  type Operation,
  type WriteBatch,
} from '../contract/central-api.js';
import {
  bearerToken,
  listenLocal,
  LOCAL_HOST,
  parseJsonText,
  readBody,
  sendJson,
} from '../http/index.js';
import { HttpError } from './errors.js';
import { decideFault, FaultSettings, NO_FAULTS, type FaultDecision } from './faults.js';
import type { CentralService, Session } from './service.js';
import type { CentralStore } from './store/central-store.js';

const MAX_BODY = 4 * 1024 * 1024;

interface ServerOptions {
  store: CentralStore;
  service: CentralService;
  clock: { now(): number };
  random: () => number;
  /** PEM certificate (chain) and key: serve HTTPS instead of HTTP. */
  tls?: { cert: string; key: string };
}

type Json = Record<string, unknown>;

/**
 * What an Idempotency-Key holds a check to: the transaction, not how it was delivered. A till
 * whose online attempt may have landed queues the same transaction in stand-in (sync.md), and
 * that copy differs only in delivery: `transaction_subtype: offline`, no PIN but
 * `special_account_required_values_verify: false` (interfaces.md, Secrets), and the
 * `clock_suspect` flag. It is a repeat, answered with the first answer, not a conflict.
 */
function idempotencyFingerprint(body: unknown): string {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return canonicalJson(body);
  const {
    transaction_subtype: _subtype,
    special_account_pin: _pin,
    special_account_required_values_verify: _verify,
    ...rest
  } = body as Json;
  const info = rest.external_additional_info;
  if (info && typeof info === 'object' && !Array.isArray(info)) {
    const { clock_suspect: _suspect, ...others } = info as Json;
    if (Object.keys(others).length > 0) rest.external_additional_info = others;
    else delete rest.external_additional_info;
  }
  return canonicalJson(rest);
}

/** Bodies smaller than this go plain: compressing them saves less than the header costs. */
const COMPRESS_FROM = 1_024;

/** The coding to answer with: brotli when accepted, else gzip, else none (q=0 refuses). */
export function chooseEncoding(accept: string | string[] | undefined): 'br' | 'gzip' | null {
  const offered = new Set(
    (Array.isArray(accept) ? accept.join(',') : (accept ?? ''))
      .split(',')
      .map((part) => part.trim().toLowerCase())
      .filter((part) => !/;\s*q=0(\.0*)?$/.test(part))
      .map((part) => part.split(';')[0]!.trim()),
  );
  if (offered.has('br')) return 'br';
  if (offered.has('gzip')) return 'gzip';
  return null;
}

/** A JSON body compressed for the wire; brotli at quality 5 (speed over the last few %). */
function compressed(text: string, coding: 'br' | 'gzip'): Buffer {
  return coding === 'br'
    ? brotliCompressSync(text, {
        params: {
          [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(text),
        },
      })
    : gzipSync(text, { level: 6 });
}

function validate<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  // As the terminal's answer: the first problems listed, the rest counted (never a megabyte).
  const { problems, more } = listedProblems(r.error);
  const [first] = problems;
  throw new HttpError(
    400,
    'invalid-input',
    `${where}: ${first?.message ?? 'invalid'}`,
    first?.path ?? null,
    more > 0 ? { problems, more_problems: more } : { problems },
  );
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new HttpError(400, 'invalid-input', parsed.message);
  return parsed.value;
}

export function createCentralServer(o: ServerOptions) {
  const { store, service, clock } = o;
  let faults: FaultSettings = NO_FAULTS;
  const routes = new Map<string, Operation>(
    Object.values(operations).map((op) => [`${op.method} ${op.path}`, op]),
  );
  const writesByName = new Map<string, Operation>(
    Object.values(operations)
      .filter((op) => op.write)
      .map((op) => [op.name, op]),
  );

  function send(
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ): void {
    sendJson(res, status, body, { date: new Date(clock.now()).toUTCString(), ...headers });
  }

  /** A change-feed page (deltas or snapshot), compressed when the client accepts it. */
  function sendPage(req: IncomingMessage, res: ServerResponse, status: number, body: unknown) {
    const coding = chooseEncoding(req.headers['accept-encoding']);
    const text = JSON.stringify(body);
    if (res.destroyed) return;
    if (coding === null || Buffer.byteLength(text) < COMPRESS_FROM) {
      send(res, status, body);
      return;
    }
    const bytes = compressed(text, coding);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-encoding': coding,
      'content-length': String(bytes.length),
      'cache-control': 'no-store',
      vary: 'accept-encoding',
      date: new Date(clock.now()).toUTCString(),
    });
    res.end(bytes);
  }

  function sendError(res: ServerResponse, err: unknown): void {
    if (err instanceof HttpError) {
      send(res, err.status, err.body(), err.headers);
      return;
    }
    send(res, 500, {
      error: { code: 'internal', message: (err as Error).message ?? 'internal error', path: null },
    });
  }

  /** Runs a write once per key: the same key and body get the first answer; another body 409. */
  function idempotent(
    op: Operation,
    key: string,
    session: Session,
    request: unknown,
    run: () => unknown,
  ): { status: number; body: unknown } {
    const hash = createHash('sha256').update(idempotencyFingerprint(request)).digest('hex');
    return store.tx(() => {
      const seen = store.idempotency(key);
      if (seen) {
        if (seen.body_hash !== hash || seen.operation !== op.name) {
          throw new HttpError(
            409,
            'idempotency-conflict',
            'this Idempotency-Key was used with a different request',
            null,
          );
        }
        return { status: seen.status, body: JSON.parse(seen.response) as unknown };
      }
      let status = 200;
      let body: unknown;
      try {
        body = run();
      } catch (err) {
        // A business refusal is an answer: kept under the key like a success.
        if (!(err instanceof HttpError) || err.status !== 422) throw err;
        status = 422;
        body = err.body();
      }
      store.putIdempotency({
        key,
        terminal_id: session.terminal.id,
        operation: op.name,
        body_hash: hash,
        status,
        response: JSON.stringify(body),
        created: new Date(clock.now()).toISOString(),
      });
      return { status, body };
    });
  }

  function handleOperation(
    op: Operation,
    req: IncomingMessage,
    url: URL,
    bodyText: string,
    fault: FaultDecision,
  ): { status: number; body: unknown } {
    const session = op.auth === 'token' ? service.authenticate(bearerToken(req)) : null;
    if (op.method === 'GET') {
      const query = validate(op.query!, Object.fromEntries(url.searchParams), 'query');
      switch (op.name) {
        case operations.changes.name:
          return {
            status: 200,
            body: service.changes(query as { cursor?: string; limit?: number }),
          };
        case operations.lookup.name:
          return { status: 200, body: service.lookup(query as { id: string; id_type: string }) };
        default:
          throw new HttpError(404, 'not-found', 'no such operation');
      }
    }
    const raw = parseJson(bodyText);
    const body = validate(op.serverRequest!, raw, 'body') as Json;
    if (!op.write) {
      switch (op.name) {
        case operations.signIn.name:
          return {
            status: 200,
            body: service.signIn(body as { terminal_id: string; api_key: string }),
          };
        case operations.staffSignIn.name:
          return {
            status: 200,
            body: service.staffSignIn(session!, body as { auth_code: string }),
          };
        case operations.calcCheck.name:
          return { status: 200, body: service.calcCheck(session!, body) };
        case operations.writeBatch.name: {
          const batch = body as WriteBatch;
          const cut = fault.kind === 'commit-then-drop' ? Math.ceil(batch.items.length / 2) : null;
          return { status: 200, body: writeBatch(session!, batch, cut) };
        }
        default:
          throw new HttpError(404, 'not-found', 'no such operation');
      }
    }
    const key = req.headers[HEADERS.idempotencyKey];
    return applyWrite(op, key, session!, raw, body);
  }

  /** One write under its key: the key's rules, then the operation, once (idempotent). */
  function applyWrite(
    op: Operation,
    key: unknown,
    s: Session,
    raw: unknown,
    body: Json,
  ): { status: number; body: unknown } {
    if (typeof key !== 'string' || key.length < 8 || key.length > 100) {
      throw new HttpError(
        400,
        'idempotency-key-required',
        'a write needs an Idempotency-Key header',
        null,
      );
    }
    if (
      (op.name === operations.processCheck.name ||
        op.name === operations.refundCheck.name ||
        op.name === operations.couponsSell.name) &&
      body.transaction_id !== key
    ) {
      throw new HttpError(
        400,
        'invalid-input',
        `the Idempotency-Key of ${op.name} is its transaction_id`,
        'transaction_id',
      );
    }
    return idempotent(op, key, s, raw, () => {
      switch (op.name) {
        case operations.processCheck.name:
          return service.processCheck(s, body);
        case operations.cancelCheck.name:
          return service.cancelCheck(s, body as CancelCheck, key);
        case operations.refundCheck.name:
          return service.refundCheck(s, body as never, key);
        case operations.bonusesAdd.name:
          return service.bonusesOperation(s, body as never, key, 'add');
        case operations.bonusesWriteOff.name:
          return service.bonusesOperation(s, body as never, key, 'write-off');
        case operations.bankCardPayments.name:
          return service.bankCardPayment(s, body as never, key);
        case operations.couponsSell.name:
          return service.couponSell(s, body as never, key);
        default:
          throw new HttpError(404, 'not-found', 'no such operation');
      }
    });
  }

  /** One item of a batch, answered as its own request would be; a 5xx stops the batch. */
  function batchItem(s: Session, item: WriteBatch['items'][number]) {
    const op = writesByName.get(item.operation)!;
    try {
      const body = validate(op.serverRequest!, item.body, 'body') as Json;
      return applyWrite(op, item.idempotency_key, s, item.body, body);
    } catch (err) {
      if (err instanceof HttpError && err.status < 500)
        return { status: err.status, body: err.body() };
      const e = err instanceof HttpError ? err : null;
      return {
        status: e?.status ?? 500,
        body: e?.body() ?? {
          error: {
            code: 'internal',
            message: (err as Error).message ?? 'internal error',
            path: null,
          },
        },
      };
    }
  }

  /**
   * A batch (docs/sync.md, "Drain over a slow link"): items in order, each in its own
   * transaction under its own key, so a cut batch leaves a prefix applied and a repeat is
   * answered item by item from the idempotency table. The server stops at an item it fails on
   * (5xx): the items after it are answered 424 not-attempted, so none overtakes it. `cutAfter`
   * (commit-then-drop) applies that many items and no more; the answer is then dropped.
   */
  function writeBatch(s: Session, batch: WriteBatch, cutAfter: number | null) {
    const results: { idempotency_key: string; status: number; body: unknown }[] = [];
    let stopped = false;
    for (const [i, item] of batch.items.entries()) {
      if (cutAfter !== null && i >= cutAfter) break;
      const r = stopped
        ? {
            status: NOT_ATTEMPTED,
            body: {
              error: {
                code: 'not-attempted',
                message: 'not applied: an earlier item of the batch failed',
                path: null,
              },
            },
          }
        : batchItem(s, item);
      if (r.status >= 500) stopped = true;
      results.push({ idempotency_key: item.idempotency_key, ...r });
    }
    return { results };
  }

  function handleSandbox(
    req: IncomingMessage,
    url: URL,
    bodyText: string,
  ): { status: number; body: unknown } {
    const terminal = service.authenticateApiKey(bearerToken(req));
    const route = `${req.method} ${url.pathname}`;
    switch (route) {
      case 'PUT /sandbox/faults':
        faults = validate(FaultSettings, parseJson(bodyText), 'body');
        return { status: 200, body: faults };
      case 'GET /sandbox/faults':
        return { status: 200, body: faults };
      case 'GET /sandbox/transactions':
        return { status: 200, body: service.transactions() };
      case 'GET /sandbox/balances':
        return { status: 200, body: service.balances(terminal) };
      default:
        throw new HttpError(404, 'not-found', `no sandbox control ${route}`);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = await readBody(req, MAX_BODY).catch(() => null);
    if (body === null) return; // the connection broke while the body came in
    if (body === 'too-large') {
      // The connection is cut, the rest of a too-large body never read.
      req.destroy();
      return;
    }
    const bodyText = body.toString('utf8');
    if (url.pathname.startsWith('/sandbox/')) {
      try {
        const r = handleSandbox(req, url, bodyText);
        send(res, r.status, r.body);
      } catch (err) {
        sendError(res, err);
      }
      return;
    }
    const found = routes.get(`${req.method} ${url.pathname}`);
    // Playing a central that predates the batch operation: unknown, as any unknown path.
    const op = found === operations.writeBatch && faults.no_batch ? undefined : found;
    if (!op) {
      send(res, 404, {
        error: {
          code: 'not-found',
          message: `no operation ${req.method} ${url.pathname}`,
          path: null,
        },
      });
      return;
    }
    const fault: FaultDecision = decideFault(faults, o.random);
    if (faults.latency_ms > 0) await new Promise((r) => setTimeout(r, faults.latency_ms));
    switch (fault.kind) {
      case 'reset':
        req.socket.destroy();
        return;
      case 'error':
        send(res, 503, {
          error: { code: 'unavailable', message: 'sandbox fault: error', path: null },
        });
        return;
      case 'rate-limit':
        send(
          res,
          429,
          {
            error: {
              code: 'rate-limited',
              message: 'sandbox fault: too many requests',
              path: null,
            },
          },
          {
            'retry-after': String(fault.retryAfterS),
          },
        );
        return;
      default:
    }
    try {
      const r = handleOperation(op, req, url, bodyText, fault);
      if (fault.kind === 'commit-then-drop') {
        // The work is committed; the answer never arrives.
        req.socket.destroy();
        return;
      }
      if (op === operations.changes) sendPage(req, res, r.status, r.body);
      else send(res, r.status, r.body);
    } catch (err) {
      sendError(res, err);
    }
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    handle(req, res).catch((err: unknown) => sendError(res, err));
  };
  // An https.Server is an http.Server's API over TLS (listen, close, keep-alive).
  const server: Server = o.tls
    ? (createTlsServer(o.tls, onRequest) as unknown as Server)
    : createServer(onRequest);
  const scheme = o.tls ? 'https' : 'http';
  server.keepAliveTimeout = 5_000;

  return {
    server,
    setFaults(next: Partial<FaultSettings>): FaultSettings {
      faults = FaultSettings.parse({ ...faults, ...next });
      return faults;
    },
    faults: () => faults,
    async listen(port: number): Promise<string> {
      return `${scheme}://${LOCAL_HOST}:${await listenLocal(server, port)}`;
    },
    async close(): Promise<void> {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type CentralServer = ReturnType<typeof createCentralServer>;
