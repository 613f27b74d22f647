// The headless agent's local HTTP API (interfaces.md) on node:http, 127.0.0.1 only:
//   POST /api/commands/NAME   JSON body -> the command map (src/terminal/command-map.ts)
//   GET  /api/status          the `status` command
//   GET  /api/events          server-sent events: what `on()` delivers
//   POST /api/session-codes   a new one-time code for a person (token only)
//   GET  /session?code=C      one-time code -> HttpOnly SameSite=Strict session cookie
//   GET  /*                   the renderer's files for a browser kiosk (strict CSP)
// Every /api call needs `Authorization: Bearer TOKEN` (DIR/agent-token) or the session
// cookie. Every refusal is the error shape. The Host and Origin headers must be our own, so
// neither another site (CSRF) nor a rebound DNS name reaches the API through a browser.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import {
  commandNames,
  type ErrorBody,
  type ErrorResponse,
  type EventName,
} from '../contract/commands.js';
import type { Config } from '../contract/config.js';
import {
  createCommandMap,
  trustedOutputs,
  refuse,
  statusOf,
  type CommandContext,
  type CommandMap,
  type Handler,
  type Handlers,
} from '../terminal/command-map.js';
import {
  bearerToken,
  listenLocal,
  LOCAL_HOST,
  parseJsonText,
  readBody,
  sendJson,
  sendJsonTo,
} from '../http/index.js';
import { acquireDataDirLock, type LockEnv } from '../terminal/lock.js';
import { nullLogger, type Logger } from '../terminal/log.js';
import { createEventHub, type EventHub } from './events.js';
import {
  cookieValue,
  createSessions,
  DISPLAY_COOKIE,
  SESSION_COOKIE,
  sessionCookie,
  type Sessions,
} from './sessions.js';
import { resolveStatic, securityHeaders, sendStatic } from './static.js';
import { stubHandlers, type AppInfo } from './stub-handlers.js';
import { sameSecret, watchToken } from './token.js';

const HOST = LOCAL_HOST;

export interface AgentOptions {
  dataDir: string;
  /** 0 = any free port (the JSON line says which). */
  port?: number;
  config: Config;
  /** The workflow's handlers; a command without one answers the stub (`not-implemented`). */
  handlers?: Partial<Handlers>;
  /**
   * Starts the workflow once the data directory's lock is held (so a second agent never
   * opens the store): its handlers replace `handlers`, and it is closed with the agent.
   */
  attach?: (events: EventHub) => Promise<AttachedWorkflow>;
  events?: EventHub;
  log?: Logger;
  app?: AppInfo;
  /** The renderer's build; null = none (the placeholder page). */
  rendererDir?: string | null;
  /** Largest accepted request body. */
  bodyLimitBytes?: number;
  /** How long a one-time code stays valid. */
  codeTtlMs?: number;
  /** Comment line sent on idle event streams, so proxies and browsers keep them open. */
  heartbeatMs?: number;
  now?: () => number;
  lockEnv?: LockEnv;
}

interface AttachedWorkflow {
  handlers: Partial<Handlers>;
  close(): Promise<void>;
}

export interface Agent {
  /** Base URL, `http://127.0.0.1:PORT`. */
  url: string;
  /** The URL for a person: carries a one-time code. */
  openUrl: string;
  token: string;
  port: number;
  commands: CommandMap;
  events: EventHub;
  /** Another one-time code, as a full URL. */
  mintOpenUrl(): string;
  close(): Promise<void>;
}

/** Raised when the agent cannot start; `error` is the error shape (e.g. `instance-locked`). */
export class AgentStartError extends Error {
  readonly error: ErrorBody;

  constructor(error: ErrorBody) {
    super(error.message);
    this.error = error;
    this.name = 'AgentStartError';
  }
}

class HttpRefusal extends Error {
  readonly body: ErrorResponse;

  constructor(body: ErrorResponse) {
    super(body.error.message);
    this.body = body;
  }
}

function sendError(
  res: ServerResponse,
  body: ErrorResponse,
  extra: Record<string, string> = {},
): void {
  sendJson(res, statusOf(body.error), body, extra);
}

/** The request's body; past the limit, refused as too large. */
async function bodyOf(req: IncomingMessage, limit: number): Promise<Buffer> {
  const body = await readBody(req, limit);
  if (body === 'too-large')
    throw new HttpRefusal(refuse('payload-too-large', `the body is over ${limit} bytes`, '(root)'));
  return body;
}

/**
 * The command name from the path; a malformed escape names no command (404 in the error
 * shape, not the URIError's 500).
 */
function commandName(escaped: string): string {
  try {
    return decodeURIComponent(escaped);
  } catch {
    throw new HttpRefusal(
      refuse('unknown-command', 'the command name is not a valid escape', 'name'),
    );
  }
}

function parseJsonBody(body: Buffer, contentType: string | undefined): unknown {
  if (body.length === 0) return undefined;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw new HttpRefusal(
      refuse(
        'unsupported-media-type',
        'send the input as Content-Type: application/json',
        '(root)',
      ),
    );
  }
  const parsed = parseJsonText(body.toString('utf8'));
  if (!parsed.ok) throw new HttpRefusal(refuse('invalid-input', parsed.message, '(root)'));
  return parsed.value;
}

export async function startAgent(opts: AgentOptions): Promise<Agent> {
  const log = opts.log ?? nullLogger;
  const now = opts.now ?? Date.now;
  const limit = opts.bodyLimitBytes ?? 1024 * 1024;
  const rendererDir = opts.rendererDir === undefined ? null : opts.rendererDir;
  const hub = opts.events ?? createEventHub();

  const locked = acquireDataDirLock(opts.dataDir, opts.lockEnv);
  if (!locked.ok) throw new AgentStartError(locked.error);
  const lock = locked.lock;

  let attached: AttachedWorkflow | null = null;
  try {
    const sessions = createSessions({
      codeTtlMs: opts.codeTtlMs ?? 15 * 60_000,
      idleMs: opts.config.terminal.agent.session_idle_ms,
      now,
    });
    // A rotated token ends every session and code: no cookie outlives the token it came from.
    const tokens = watchToken(opts.dataDir, () => {
      sessions.endAll();
      endStreamsOfEnded();
      log.info('agent token rotated: browser sessions ended');
    });
    if (opts.attach) attached = await opts.attach(hub);
    const commands = registerCommands(opts, attached?.handlers ?? opts.handlers, log);

    let port = 0;
    const allowedHosts = () => [`${HOST}:${port}`, `localhost:${port}`];
    /** Open event streams, each with whether the way in that opened it is still alive. */
    const streams = new Map<ServerResponse, () => boolean>();
    const endStreamsOfEnded = () => {
      for (const [s, alive] of streams) if (!alive()) s.end();
    };

    const { requireAuth, touchSession, streamAccess } = createAuth(tokens, sessions);

    const openUrlFor = (code: string) =>
      `http://${HOST}:${port}/session?code=${encodeURIComponent(code)}`;

    const dispatch = async (
      req: IncomingMessage,
      res: ServerResponse,
      name: string,
      input: unknown,
      requestId: string,
    ) => {
      const result = await commands.dispatch(name, input, { via: 'http', requestId });
      // The cashier left: the browser's way in ends with the sign-in.
      if (name === 'staff-sign-out' && result.status === 200) {
        sessions.endSessions();
        endStreamsOfEnded();
      }
      sendJsonTo(req.headers['accept-encoding'], res, result.status, result.body);
    };

    const events = (req: IncomingMessage, res: ServerResponse, displayOnly: boolean) =>
      openEventStream(req, res, {
        hub,
        streams,
        access: streamAccess(req, displayOnly),
        heartbeatMs: opts.heartbeatMs ?? 25_000,
      });

    /** The Host must be ours, and so must the Origin a browser sends (CSRF, DNS rebinding). */
    const checkHostAndOrigin = (req: IncomingMessage): void => {
      const host = req.headers.host ?? '';
      if (!allowedHosts().includes(host)) {
        throw new HttpRefusal(
          refuse('forbidden-origin', `the agent answers only as ${HOST}:${port}`, 'Host'),
        );
      }
      const origin = req.headers.origin;
      if (origin !== undefined && !allowedHosts().some((h) => origin === `http://${h}`)) {
        throw new HttpRefusal(
          refuse('forbidden-origin', 'requests from another origin are refused', 'Origin'),
        );
      }
    };

    const route = async (req: IncomingMessage, res: ServerResponse, requestId: string) => {
      securityHeaders(res);
      checkHostAndOrigin(req);
      const url = new URL(req.url ?? '/', `http://${HOST}:${port}`);
      const method = req.method ?? 'GET';
      const path = url.pathname;
      if (path.startsWith('/api/') || path === '/api') {
        await routeApi(req, res, { url, method, requestId });
        return;
      }
      if (path === '/session') {
        openSession(res, url, method);
        return;
      }
      await serveRenderer(res, rendererDir, path, method);
    };

    const routeApi = async (
      req: IncomingMessage,
      res: ServerResponse,
      { url, method, requestId }: { url: URL; method: string; requestId: string },
    ) => {
      const path = url.pathname;
      const commandMatch = /^\/api\/commands\/([^/]+)$/.exec(path);
      if (commandMatch) {
        allowMethod(method, 'POST', 'commands are POSTed');
        requireAuth(req);
        const name = commandName(commandMatch[1]!);
        if (name !== 'status') touchSession(req);
        const input = parseJsonBody(await bodyOf(req, limit), req.headers['content-type']);
        await dispatch(req, res, name, input, requestId);
        return;
      }
      if (path === '/api/status') {
        allowMethod(method, 'GET', 'GET /api/status');
        requireAuth(req);
        await dispatch(req, res, 'status', {}, requestId);
        return;
      }
      if (path === '/api/events') {
        allowMethod(method, 'GET', 'GET /api/events');
        events(req, res, url.searchParams.get('only') === 'customer-display');
        return;
      }
      if (path === '/api/session-codes') {
        allowMethod(method, 'POST', 'POST /api/session-codes');
        requireAuth(req, 'token');
        sendJson(res, 200, { url: openUrlFor(sessions.mintCode()) });
        return;
      }
      throw new HttpRefusal(refuse('not-found', `no API at ${path}`, 'path'));
    };

    /** GET /session?code=C: a one-time code for the session cookie. */
    const openSession = (res: ServerResponse, url: URL, method: string) => {
      allowMethod(method, 'GET', 'GET /session?code=...');
      const code = url.searchParams.get('code') ?? '';
      const passes = code ? sessions.exchange(code) : null;
      if (passes === null) {
        throw new HttpRefusal(
          refuse(
            'unauthorized',
            'this code is unknown, expired or already used; ask the agent for a new URL',
            'code',
          ),
        );
      }
      // 303 to the page: the code leaves the address bar and the history.
      res.writeHead(303, {
        Location: '/',
        'Set-Cookie': [
          sessionCookie(passes.session),
          sessionCookie(passes.display, DISPLAY_COOKIE),
        ],
        'Cache-Control': 'no-store',
      });
      res.end();
    };

    const server = createAgentServer(opts.config, (req, res) => {
      const requestId = randomUUID();
      const started = now();
      res.on('finish', () =>
        log.debug('http', {
          request_id: requestId,
          method: req.method,
          path: (req.url ?? '').split('?')[0],
          status: res.statusCode,
          ms: now() - started,
        }),
      );
      route(req, res, requestId).catch((e: unknown) => answerFailure(req, res, e, log, requestId));
    });
    port = await listenLocal(server, opts.port ?? 0);
    const url = `http://${HOST}:${port}`;
    const openUrl = openUrlFor(sessions.mintCode());
    log.info('agent listening', { url, data_dir: opts.dataDir, renderer: rendererDir ?? null });

    let closed: Promise<void> | null = null;
    return {
      url,
      openUrl,
      get token() {
        return tokens.current();
      },
      port,
      commands,
      events: hub,
      mintOpenUrl: () => openUrlFor(sessions.mintCode()),
      close() {
        closed ??= new Promise<void>((done) => {
          for (const s of streams.keys()) s.end();
          server.close(() => {
            void (attached?.close() ?? Promise.resolve())
              .catch((e: unknown) => log.error('the workflow did not close cleanly', { err: e }))
              .finally(() => {
                lock.release();
                log.info('agent stopped', { url });
                done();
              });
          });
          server.closeAllConnections();
        });
        return closed;
      },
    };
  } catch (e) {
    await attached?.close().catch(() => undefined);
    lock.release();
    throw e;
  }
}

/** Who may call: the API token's holder, or a browser with a live session cookie. */
function createAuth(tokens: { current(): string }, sessions: Sessions) {
  const authenticated = (req: IncomingMessage): 'token' | 'session' | null => {
    const token = tokens.current();
    const bearer = bearerToken(req);
    if (bearer !== null && sameSecret(bearer, token)) return 'token';
    const cookie = cookieValue(req.headers.cookie, SESSION_COOKIE);
    if (cookie !== undefined && sessions.isSession(cookie)) return 'session';
    return null;
  };

  /** A person's command keeps the session alive; the status poll and events do not. */
  const touchSession = (req: IncomingMessage): void => {
    const cookie = cookieValue(req.headers.cookie, SESSION_COOKIE);
    if (cookie !== undefined) sessions.touch(cookie);
  };

  const refused = (only?: 'token') =>
    new HttpRefusal(
      refuse(
        'unauthorized',
        only
          ? 'this call needs the API token (Authorization: Bearer)'
          : 'sign in: send the API token (Authorization: Bearer) or open the URL the agent printed',
        'Authorization',
      ),
    );

  const requireAuth = (req: IncomingMessage, only?: 'token'): void => {
    const who = authenticated(req);
    if (who === null || (only && who !== only)) throw refused(only);
  };

  /**
   * Who may open an event stream, which events it carries and how long it lives: the token's
   * holder and a session get every event while their way in lives; a display pass gets the
   * customer display's only, until the token is rotated. A display asks for its events alone
   * (`?only=customer-display`), so its stream rides on the pass and outlives a sign-out.
   */
  const streamAccess = (req: IncomingMessage, displayOnly: boolean): StreamAccess => {
    const bearer = bearerToken(req);
    const cookie = cookieValue(req.headers.cookie, SESSION_COOKIE);
    const display = cookieValue(req.headers.cookie, DISPLAY_COOKIE);
    if (displayOnly && display !== undefined && sessions.isDisplayPass(display))
      return { only: 'customer-display', alive: () => sessions.isDisplayPass(display) };
    const only = displayOnly ? 'customer-display' : null;
    switch (authenticated(req)) {
      case 'token':
        return { only, alive: () => bearer !== null && sameSecret(bearer, tokens.current()) };
      case 'session':
        return { only, alive: () => sessions.isSession(cookie!) };
      case null:
        if (display !== undefined && sessions.isDisplayPass(display))
          return { only: 'customer-display', alive: () => sessions.isDisplayPass(display) };
        throw refused();
    }
  };
  return { requireAuth, touchSession, streamAccess };
}

/** Every command, answered by its injected handler or else by the stub. */
function registerCommands(
  opts: AgentOptions,
  injected: Partial<Handlers> | undefined,
  log: Logger,
): CommandMap {
  const app = opts.app ?? { name: 'loyalty-terminal', version: '0.0.0' };
  const commands = createCommandMap<CommandContext>({ log, trusted: trustedOutputs(process.env) });
  const stubs = stubHandlers({ config: opts.config, app });
  for (const name of commandNames) {
    const handler = (injected?.[name] ?? stubs[name]) as Handler<typeof name>;
    commands.register(name, handler);
  }
  return commands;
}

function allowMethod(method: string, allowed: 'GET' | 'POST', message: string): void {
  if (method !== allowed) throw new HttpRefusal(refuse('method-not-allowed', message, 'method'));
}

/** Which events a stream carries (null: every one) and whether its way in still lives. */
interface StreamAccess {
  only: EventName | null;
  alive: () => boolean;
}

/**
 * GET /api/events: what the hub publishes, as server-sent events, until the client leaves or
 * the way in that opened the stream ends (checked at each heartbeat and at a sign-out).
 */
function openEventStream(
  req: IncomingMessage,
  res: ServerResponse,
  o: {
    hub: EventHub;
    streams: Map<ServerResponse, () => boolean>;
    access: StreamAccess;
    heartbeatMs: number;
  },
): void {
  const { hub, streams, access, heartbeatMs } = o;
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
  });
  res.write(': connected\n\n');
  streams.set(res, access.alive);
  const unsubscribe = hub.subscribe((name, payload) => {
    if (access.only !== null && name !== access.only) return;
    res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
  });
  const beat = setInterval(
    () => (access.alive() ? res.write(': ping\n\n') : res.end()),
    heartbeatMs,
  );
  beat.unref();
  req.on('close', () => {
    clearInterval(beat);
    unsubscribe();
    streams.delete(res);
  });
}

/** Any other path is a file of the renderer's build (GET or HEAD only). */
async function serveRenderer(
  res: ServerResponse,
  rendererDir: string | null,
  path: string,
  method: string,
): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD')
    throw new HttpRefusal(refuse('method-not-allowed', 'the page is read-only', 'method'));
  const found = await resolveStatic(rendererDir, path);
  if (found.kind === 'none')
    throw new HttpRefusal(refuse('not-found', `no file at ${path}`, 'path'));
  sendStatic(res, found, method === 'HEAD');
}

/** A refusal in the error shape; anything else is logged and answered `internal`. */
function answerFailure(
  req: IncomingMessage,
  res: ServerResponse,
  e: unknown,
  log: Logger,
  requestId: string,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (e instanceof HttpRefusal) {
    const extra: Record<string, string> = {};
    if (e.body.error.code === 'unauthorized') extra['WWW-Authenticate'] = 'Bearer';
    // An oversized or unread body is not drained: close the connection instead.
    if (e.body.error.code === 'payload-too-large') extra.Connection = 'close';
    sendError(res, e.body, extra);
    if (extra.Connection === 'close') req.destroy();
    return;
  }
  log.error('agent request failed', { request_id: requestId, err: e });
  sendError(res, refuse('internal', 'internal error; the terminal log has the details'));
}

function createAgentServer(
  config: Config,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Server {
  const { headers_timeout_ms, request_timeout_ms } = config.terminal.agent;
  return createServer(
    {
      headersTimeout: headers_timeout_ms,
      requestTimeout: request_timeout_ms,
      // Node checks these timeouts on this interval (default 30 s), which is what made a
      // 10 s header timeout end a slow client after about 39 s.
      connectionsCheckingInterval: Math.min(1_000, headers_timeout_ms),
    },
    handle,
  );
}

/** Where the renderer's build is expected, relative to the package root. */
export function defaultRendererDir(packageRoot: string): string {
  return join(packageRoot, 'renderer', 'dist');
}
