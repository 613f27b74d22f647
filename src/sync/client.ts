// The HTTP client of the central /v1 service over undici: a keep-alive pool with connect,
// header and body timeouts; the terminal token renewed on 401; every answer validated
// against the operation's inbound schema. Reads are retried here with exponential backoff
// and jitter, honouring Retry-After. Writes are sent once per call, always with their
// Idempotency-Key: only the outbox retries them (sync.md: "a POST is never retried blindly").
import { Buffer } from 'node:buffer';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { errors as undiciErrors, type Dispatcher } from 'undici';
import { z } from 'zod';
import { problemsOf } from '../contract/problems.js';
import {
  ApiErrorBody,
  ChangesPageInbound,
  HEADERS,
  operations,
  type Operation,
  type OperationName,
} from '../contract/central-api.js';
import { LazyArray, parseWithLazyArray } from './lazy-json.js';
import { classifyTls, type TlsGate } from './tls.js';
import { DEFAULT_TRANSPORT, openTransport, type TransportSettings } from './transport.js';

export interface ClientTimeouts {
  connect_ms: number;
  headers_ms: number;
  body_ms: number;
}

export interface ReadRetry {
  /** Attempts in all, the first included. */
  attempts: number;
  base_ms: number;
  max_ms: number;
}

export interface ClientOptions {
  baseUrl: string;
  terminalId: string;
  apiKey: string;
  timeouts: ClientTimeouts;
  readRetry?: Partial<ReadRetry>;
  appVersion: string;
  schemaVersion: number;
  /** Sockets kept open to the service. */
  connections?: number;
  /** CA bundle, pins and proxy (src/sync/transport.ts); default: system CAs, no proxy. */
  transport?: TransportSettings;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  /** Every answer that came back (any status): the connectivity state and the skew check listen. */
  onResponse?: (info: { status: number; date: string | null }) => void;
  /** Every request that got no answer (network error, timeout). */
  onNoResponse?: (failure: Failure) => void;
}

/** Why a call did not give a valid answer; `retryable` says whether the same call may succeed later. */
export type Failure =
  | { kind: 'network'; code: string; message: string; retryable: true }
  | { kind: 'timeout'; code: string; message: string; retryable: true }
  | {
      kind: 'http';
      status: number;
      code: string;
      message: string;
      path: string | null;
      details?: unknown;
      retryAfterMs: number | null;
      retryable: boolean;
    }
  | {
      kind: 'invalid-response';
      status: number;
      code: 'invalid-response';
      message: string;
      retryable: false;
    };

export type Result<T> = { ok: true; status: number; value: T } | { ok: false; failure: Failure };

export interface CallOptions {
  /** Abort the call after this many milliseconds (online-first spending's deadline). */
  deadlineMs?: number;
  signal?: AbortSignal;
}

/** The write operations (those the outbox sends). */
export type WriteName =
  | 'processCheck'
  | 'cancelCheck'
  | 'refundCheck'
  | 'bonusesAdd'
  | 'bonusesWriteOff'
  | 'couponsSell'
  | 'bankCardPayments';

/** One write of a batch. */
export interface BatchWrite {
  name: WriteName;
  body: unknown;
  idempotencyKey: string;
}

type Inbound<N extends OperationName> = z.output<(typeof operations)[N]['inbound']>;

/** How an answer's bytes become a value, and the schema that value must pass. */
interface Decoding {
  parse: (body: Buffer) => unknown;
  inbound: z.ZodType;
}

const parseJson = (text: string): unknown => {
  try {
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
};

/** A page of the change feed whose records are parsed one at a time as they are iterated. */
export const ChangesPageLazy = ChangesPageInbound.extend({
  changes: z.custom<LazyArray>((v) => v instanceof LazyArray, { error: 'expected an array' }),
});
export type ChangesPageLazy = z.output<typeof ChangesPageLazy>;

const lazyChanges: Decoding = {
  parse: (body) => (body.length === 0 ? null : parseWithLazyArray(body, 'changes')),
  inbound: ChangesPageLazy,
};

/** Bytes on the wire (bodies as sent and received, compressed or not) and decoded. */
export interface WireBytes {
  sent: number;
  received: number;
  /** The answers' bodies after decompression. */
  decoded: number;
}

/** What this client accepts (docs/sync.md, "Compressed pages"): brotli first, gzip else. */
export const ACCEPT_ENCODING = 'br, gzip';

/** A body as sent, decompressed by its Content-Encoding; an unknown coding is an error. */
function decodeBody(raw: Buffer, coding: string | string[] | undefined): Buffer {
  const c = (Array.isArray(coding) ? coding[0] : coding)?.trim().toLowerCase() ?? 'identity';
  if (c === 'identity' || c === '' || raw.length === 0) return raw;
  if (c === 'br') return brotliDecompressSync(raw);
  if (c === 'gzip' || c === 'x-gzip') return gunzipSync(raw);
  throw new Error(`unsupported content-encoding ${c}`);
}

const DEFAULT_RETRY: ReadRetry = { attempts: 4, base_ms: 200, max_ms: 5_000 };

/** Retry-After as seconds or an HTTP date, in milliseconds from now. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  nowMs: number,
): number | null {
  const v = Array.isArray(value) ? value[0] : value;
  if (v === undefined || v.trim() === '') return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, at - nowMs);
}

/** Exponential backoff with full jitter, capped, never below what the server asked for. */
export function backoffMs(
  attempt: number,
  base: number,
  max: number,
  random: () => number,
  retryAfterMs: number | null = null,
): number {
  const ceiling = Math.min(max, base * 2 ** Math.max(0, attempt));
  const jittered = Math.round(ceiling / 2 + random() * (ceiling / 2));
  return retryAfterMs === null ? jittered : Math.max(retryAfterMs, jittered);
}

function classify(err: unknown): Failure {
  const e = err as { name?: string; code?: unknown; message?: string };
  const message = e?.message ?? String(err);
  const tls = classifyTls(err);
  if (tls) return tls;
  if (
    err instanceof undiciErrors.ConnectTimeoutError ||
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError ||
    e?.name === 'TimeoutError' ||
    e?.name === 'AbortError'
  ) {
    // A DOMException's `code` is a legacy number (23 for TimeoutError): use its name then.
    const code = typeof e.code === 'string' ? e.code : (e.name ?? 'timeout');
    return { kind: 'timeout', code, message, retryable: true };
  }
  return {
    kind: 'network',
    code: typeof e?.code === 'string' ? e.code : 'network',
    message,
    retryable: true,
  };
}

export class CentralClient {
  private readonly pool: Dispatcher;
  /** Fails calls fast for a while after a TLS failure (src/sync/tls.ts). */
  readonly tlsGate: TlsGate;
  private readonly o: ClientOptions;
  private readonly retry: ReadRetry;
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private token: string | null = null;
  private signingIn: Promise<Result<unknown>> | null = null;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly bytes: WireBytes = { sent: 0, received: 0, decoded: 0 };

  constructor(o: ClientOptions) {
    this.o = o;
    const url = new URL(o.baseUrl);
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.retry = { ...DEFAULT_RETRY, ...o.readRetry };
    this.random = o.random ?? Math.random;
    this.sleep = o.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    const t = openTransport(
      this.origin,
      o.transport ?? DEFAULT_TRANSPORT,
      o.timeouts,
      o.connections ?? 8,
    );
    this.pool = t.dispatcher;
    this.tlsGate = t.gate;
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  /** Bytes this client has sent and received so far (a copy). */
  wireBytes(): WireBytes {
    return { ...this.bytes };
  }

  /** Drops the token, so the next call signs in again. */
  forgetToken(): void {
    this.token = null;
  }

  // ---- reads ----

  signIn(options: CallOptions = {}): Promise<Result<Inbound<'signIn'>>> {
    return this.read(
      'signIn',
      { terminal_id: this.o.terminalId, api_key: this.o.apiKey },
      undefined,
      options,
    );
  }

  staffSignIn(
    authCode: string,
    options: CallOptions = {},
  ): Promise<Result<Inbound<'staffSignIn'>>> {
    return this.read('staffSignIn', { auth_code: authCode }, undefined, options);
  }

  changes(
    cursor: string | null,
    limit: number,
    options: CallOptions = {},
  ): Promise<Result<Inbound<'changes'>>> {
    const query: Record<string, string> = { limit: String(limit) };
    if (cursor !== null) query.cursor = cursor;
    return this.read('changes', undefined, query, options);
  }

  /**
   * The same page with its records left as text, each parsed when iterated: a page of
   * thousands of records is never alive at once (the snapshot's memory, docs/sync.md).
   */
  changesLazy(
    cursor: string | null,
    limit: number,
    options: CallOptions = {},
  ): Promise<Result<ChangesPageLazy>> {
    const query: Record<string, string> = { limit: String(limit) };
    if (cursor !== null) query.cursor = cursor;
    return this.read('changes', undefined, query, options, lazyChanges) as Promise<
      Result<ChangesPageLazy>
    >;
  }

  lookup(
    id: string,
    idType: string,
    options: CallOptions = {},
  ): Promise<Result<Inbound<'lookup'>>> {
    return this.read('lookup', undefined, { id, id_type: idType }, options);
  }

  calcCheck(check: unknown, options: CallOptions = {}): Promise<Result<Inbound<'calcCheck'>>> {
    return this.read('calcCheck', check, undefined, options);
  }

  // ---- writes: one attempt per call ----

  /** Sends one write once with its Idempotency-Key; the caller (the outbox) decides on retries. */
  async write<N extends WriteName>(
    name: N,
    body: unknown,
    idempotencyKey: string,
    options: CallOptions = {},
  ): Promise<Result<Inbound<N>>> {
    return (await this.once(operations[name], body, undefined, idempotencyKey, options)) as Result<
      Inbound<N>
    >;
  }

  /**
   * Sends many writes in one request (`write_batch`), each under its own idempotency key, once;
   * the answer is one Result per item, in order, as its own request would have given. The
   * whole call fails as a write does (no answer, 5xx, 429, ...), or as `invalid-response` when
   * the answer does not list every item in order. An item the server did not attempt fails as
   * http 424 `not-attempted`.
   */
  async writeBatch(
    items: readonly BatchWrite[],
    options: CallOptions = {},
  ): Promise<Result<Result<unknown>[]>> {
    const body = {
      items: items.map((i) => ({
        operation: operations[i.name].name,
        idempotency_key: i.idempotencyKey,
        body: i.body,
      })),
    };
    const r = await this.once(operations.writeBatch, body, undefined, null, options);
    if (!r.ok) return r;
    const { results } = r.value as Inbound<'writeBatch'>;
    const mismatch = items.findIndex(
      (item, i) => results[i]?.idempotency_key !== item.idempotencyKey,
    );
    if (results.length !== items.length || mismatch >= 0)
      return {
        ok: false,
        failure: {
          kind: 'invalid-response',
          status: r.status,
          code: 'invalid-response',
          message: `write_batch: the answer lists ${results.length} results for ${items.length} items${mismatch >= 0 ? `, item ${mismatch} under another key` : ''}`,
          retryable: false,
        },
      };
    return {
      ok: true,
      status: r.status,
      value: results.map((res, i) =>
        res.status >= 200 && res.status < 300
          ? acceptedAnswer(operations[items[i]!.name], res.status, res.body)
          : refusedAnswer(res.status, res.body, {}),
      ),
    };
  }

  private async read<N extends OperationName>(
    name: N,
    body: unknown,
    query: Record<string, string> | undefined,
    options: CallOptions,
    decoding?: Decoding,
  ): Promise<Result<Inbound<N>>> {
    const op = operations[name];
    let last: Result<unknown> | null = null;
    for (let attempt = 0; attempt < this.retry.attempts; attempt++) {
      last = await this.once(op, body, query, null, options, false, decoding);
      if (last.ok || !last.failure.retryable || options.signal?.aborted) break;
      if (attempt + 1 < this.retry.attempts) {
        const after = last.failure.kind === 'http' ? last.failure.retryAfterMs : null;
        await this.sleep(
          backoffMs(attempt, this.retry.base_ms, this.retry.max_ms, this.random, after),
        );
      }
    }
    return last as Result<Inbound<N>>;
  }

  private async ensureToken(options: CallOptions): Promise<Failure | null> {
    if (this.token) return null;
    this.signingIn ??= this.once(
      operations.signIn,
      { terminal_id: this.o.terminalId, api_key: this.o.apiKey },
      undefined,
      null,
      options,
    ).finally(() => {
      this.signingIn = null;
    });
    const r = await this.signingIn;
    return r.ok ? null : r.failure;
  }

  private async once(
    op: Operation,
    body: unknown,
    query: Record<string, string> | undefined,
    idempotencyKey: string | null,
    options: CallOptions,
    renewed = false,
    decoding?: Decoding,
  ): Promise<Result<unknown>> {
    if (op.auth === 'token') {
      const failure = await this.ensureToken(options);
      if (failure) return { ok: false, failure };
    }
    const r = await this.send(op, body, query, idempotencyKey, options, decoding);
    // A 401 on a token call: the token expired or was revoked. Sign in again, once; the request
    // had no effect, so sending it again (with the same key) is not a blind retry.
    if (
      !r.ok &&
      r.failure.kind === 'http' &&
      r.failure.status === 401 &&
      op.auth === 'token' &&
      !renewed
    ) {
      this.token = null;
      return this.once(op, body, query, idempotencyKey, options, true, decoding);
    }
    if (r.ok && op === operations.signIn) this.token = (r.value as { token: string }).token;
    return r;
  }

  private async send(
    op: Operation,
    body: unknown,
    query: Record<string, string> | undefined,
    idempotencyKey: string | null,
    options: CallOptions,
    decoding?: Decoding,
  ): Promise<Result<unknown>> {
    const headers = this.requestHeaders(op, idempotencyKey);
    let payload: string | undefined;
    if (op.method === 'POST') {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body ?? {});
    }
    const path = `${this.basePath}${op.path}${query ? `?${new URLSearchParams(query).toString()}` : ''}`;
    const signal = callSignal(options);

    let status: number;
    let text: string | Buffer;
    let responseHeaders: ResponseHeaders;
    const gated = this.tlsGate.blocked();
    if (gated) {
      this.o.onNoResponse?.(gated);
      return { ok: false, failure: gated };
    }
    try {
      const res = await this.pool.request({
        origin: this.origin,
        path,
        method: op.method,
        headers,
        ...(payload !== undefined ? { body: payload } : {}),
        ...(signal ? { signal } : {}),
      });
      status = res.statusCode;
      responseHeaders = res.headers;
      const raw = Buffer.from(await res.body.arrayBuffer());
      const decoded = decodeBody(raw, responseHeaders['content-encoding']);
      this.count(payload, raw, decoded);
      // A decoding keeps the bytes (off the JS heap) for its own parser.
      text = decoding ? decoded : decoded.toString('utf8');
    } catch (err) {
      const failure = classify(err);
      this.tlsGate.record(failure);
      this.o.onNoResponse?.(failure);
      return { ok: false, failure };
    }
    this.tlsGate.record(null);
    const date = responseHeaders.date;
    this.o.onResponse?.({ status, date: typeof date === 'string' ? date : null });

    const json = typeof text === 'string' ? parseJson(text) : decoding!.parse(text);
    if (status >= 200 && status < 300) return acceptedAnswer(op, status, json, decoding);
    return refusedAnswer(status, json, responseHeaders);
  }

  private count(payload: string | undefined, raw: Buffer, decoded: Buffer): void {
    this.bytes.sent += payload === undefined ? 0 : Buffer.byteLength(payload);
    this.bytes.received += raw.length;
    this.bytes.decoded += decoded.length;
  }

  private requestHeaders(op: Operation, idempotencyKey: string | null): Record<string, string> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      'accept-encoding': ACCEPT_ENCODING,
      [HEADERS.appVersion]: this.o.appVersion,
      [HEADERS.schemaVersion]: String(this.o.schemaVersion),
    };
    if (op.auth === 'token' && this.token) headers.authorization = `Bearer ${this.token}`;
    if (idempotencyKey !== null) headers[HEADERS.idempotencyKey] = idempotencyKey;
    return headers;
  }
}

type ResponseHeaders = Record<string, string | string[] | undefined>;

/** The caller's signal and its deadline as one signal; none when neither is given. */
function callSignal(options: CallOptions): AbortSignal | undefined {
  const signals = [
    options.signal,
    options.deadlineMs !== undefined ? AbortSignal.timeout(options.deadlineMs) : undefined,
  ].filter((s): s is AbortSignal => s !== undefined);
  return signals.length === 0
    ? undefined
    : signals.length === 1
      ? signals[0]
      : AbortSignal.any(signals);
}

/** A 2xx answer, held to the schema of what the operation answers. */
function acceptedAnswer(
  op: Operation,
  status: number,
  json: unknown,
  decoding?: Decoding,
): Result<unknown> {
  const parsed = (decoding?.inbound ?? op.inbound).safeParse(json);
  if (!parsed.success) {
    const p = problemsOf(parsed.error)[0];
    return {
      ok: false,
      failure: {
        kind: 'invalid-response',
        status,
        code: 'invalid-response',
        message: `${op.name}: ${p?.path ?? ''}: ${p?.message ?? 'invalid answer'}`,
        retryable: false,
      },
    };
  }
  return { ok: true, status, value: parsed.data };
}

/** Any other answer: the error shape's code when sent, else the status alone. */
function refusedAnswer(status: number, json: unknown, headers: ResponseHeaders): Result<unknown> {
  const err = ApiErrorBody.safeParse(json);
  const retryAfterMs = parseRetryAfter(headers['retry-after'], Date.now());
  return {
    ok: false,
    failure: {
      kind: 'http',
      status,
      code: err.success ? err.data.error.code : `http-${status}`,
      message: err.success ? err.data.error.message : `HTTP ${status}`,
      path: err.success ? (err.data.error.path ?? null) : null,
      ...(err.success && err.data.error.details !== undefined
        ? { details: err.data.error.details }
        : {}),
      retryAfterMs,
      retryable: status === 429 || status === 408 || status >= 500,
    },
  };
}
