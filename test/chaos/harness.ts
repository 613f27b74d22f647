// The chaos run's moving parts: the sandbox central and the agent as child processes of the
// built bin (the same path as a real till), and a TCP link between them the test can cut.
// The link also counts the faults that reach the agent (503, 429, answers that never came), so
// the summary quotes measured figures, not the configured rates.
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = 'bin/loyalty-terminal.cjs';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Rejects after `ms` unless `p` settles first: no wait of the run is unbounded. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

export interface Child {
  proc: ChildProcess;
  /** The JSON line the command printed once it listened. */
  info: Record<string, string>;
  exited: Promise<number | null>;
  stderr(): string;
}

/** Runs `loyalty-terminal ARGS` and waits for its one JSON line on stdout. */
export async function startChild(args: string[], timeoutMs = 30_000): Promise<Child> {
  const proc = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (d: string) => {
    // Only the tail matters when a start fails; a long run must not keep it all.
    err = (err + d).slice(-4_000);
  });
  const exited = new Promise<number | null>((resolve) =>
    proc.once('exit', (code) => resolve(code)),
  );
  const lines = createInterface({ input: proc.stdout! });
  const first = new Promise<Record<string, string>>((resolve, reject) => {
    lines.on('line', (line) => {
      try {
        const json = JSON.parse(line) as Record<string, string>;
        if (typeof json.url === 'string') resolve(json);
      } catch {
        // not the line we wait for
      }
    });
    void exited.then((code) => reject(new Error(`${args[0]} exited with ${code}: ${err}`)));
  });
  try {
    const info = await within(first, timeoutMs, `${args[0]} start`);
    return { proc, info, exited, stderr: () => err };
  } catch (e) {
    proc.kill('SIGKILL');
    throw e;
  }
}

/** Ends a child and waits for it (SIGKILL is never refused). */
export async function stopChild(child: Child | null, signal: NodeJS.Signals = 'SIGKILL') {
  if (!child || child.proc.exitCode !== null || child.proc.signalCode !== null) return;
  child.proc.kill(signal);
  try {
    await within(child.exited, 10_000, 'child exit');
  } catch {
    child.proc.kill('SIGKILL');
    await within(child.exited, 5_000, 'child exit after SIGKILL').catch(() => undefined);
  }
}

export interface LinkCounts {
  /** Connections refused or torn while the link was cut. */
  cut_connections: number;
  /** 5xx answers that went through (the sandbox's error fault; 503). */
  errors_5xx: number;
  rate_limited_429: number;
  /** Requests whose answer never came: the server closed with a request outstanding. */
  dropped_answers: number;
}

/**
 * A TCP relay agent -> central. `cut()` tears every connection and refuses new ones until
 * `restore()`; `target` follows the central across its restarts.
 */
export class Link {
  target: { port: number };
  private server: Server;
  private sockets = new Set<Socket>();
  private up = true;
  counts: LinkCounts = {
    cut_connections: 0,
    errors_5xx: 0,
    rate_limited_429: 0,
    dropped_answers: 0,
  };
  url = '';

  constructor(target: { port: number }) {
    this.target = target;
    this.server = createServer((client) => this.relay(client));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const addr = this.server.address();
    if (addr === null || typeof addr === 'string') throw new Error('link has no port');
    this.url = `http://127.0.0.1:${addr.port}`;
  }

  private relay(client: Socket): void {
    if (!this.up) {
      this.counts.cut_connections++;
      client.destroy();
      return;
    }
    const server = createConnection({ host: '127.0.0.1', port: this.target.port });
    this.sockets.add(client);
    this.sockets.add(server);
    // A request is outstanding from the client's bytes until the server's next bytes.
    let outstanding = false;
    client.on('data', (d) => {
      outstanding = true;
      server.write(d);
    });
    server.on('data', (d) => {
      outstanding = false;
      for (const m of d.toString('latin1').matchAll(/HTTP\/1\.1 (\d{3})/g)) {
        if (m[1] === '429') this.counts.rate_limited_429++;
        else if (m[1]!.startsWith('5')) this.counts.errors_5xx++;
      }
      client.write(d);
    });
    const end = (from: 'client' | 'server') => {
      if (from === 'server' && outstanding && this.up) this.counts.dropped_answers++;
      outstanding = false;
      client.destroy();
      server.destroy();
      this.sockets.delete(client);
      this.sockets.delete(server);
    };
    client.on('close', () => end('client'));
    client.on('error', () => end('client'));
    server.on('close', () => end('server'));
    server.on('error', () => end('server'));
  }

  cut(): void {
    this.up = false;
    for (const s of this.sockets) {
      this.counts.cut_connections++;
      s.destroy();
    }
    this.sockets.clear();
  }

  restore(): void {
    this.up = true;
  }

  get isUp(): boolean {
    return this.up;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

// The answers are read loosely: the contract's schemas check them on the agent's side.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** One command over the agent API; throws when no answer came (connection refused or torn). */
export async function command(
  agent: { url: string; token: string },
  name: string,
  body: unknown,
  timeoutMs = 20_000,
): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${agent.url}/api/commands/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${agent.token}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

/** A sandbox control call, straight to the central (never through the link). */
export async function sandbox(
  central: { url: string; api_key: string },
  method: 'GET' | 'PUT',
  path: string,
  body?: unknown,
  // A long run's final reads list every transaction of the run: on two loaded cores that
  // took more than 10 s once (10,000 sales).
  timeoutMs = 60_000,
): Promise<Json> {
  const res = await fetch(`${central.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${central.api_key}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Json;
}

/**
 * The simulated payment unit's books as the unit keeps them on disk (`devices sim-books`):
 * the unit's side of every card operation, read from outside the agent like a reconciliation.
 */
export async function simBooks(dataDir: string): Promise<Json> {
  const proc = spawn(process.execPath, [BIN, 'devices', 'sim-books', '--data', dataDir], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  proc.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
  const code = await within(
    new Promise<number | null>((resolve) => proc.once('exit', resolve)),
    30_000,
    'devices sim-books',
  );
  if (code !== 0) throw new Error(`devices sim-books exited ${code}: ${err}`);
  return JSON.parse(out) as Json;
}

/**
 * The sandbox's own records of one entity (coupons, corporate accesses), read straight from
 * its database file, read-only: the sandbox has no control route for them.
 */
export function centralRecords(dbFile: string, entity: string): Json[] {
  const db = new Database(dbFile, { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare('SELECT data FROM records WHERE entity = ? AND deleted = 0')
      .all(entity) as { data: string }[];
    return rows.map((r) => JSON.parse(r.data) as Json);
  } finally {
    db.close();
  }
}

/** The sandbox central's faults the chaos runs switch on and off (`PUT /sandbox/faults`). */
export const FAULTS_ON = {
  latency_ms: 5,
  error_rate: 0.1,
  rate_429: 0.05,
  retry_after_s: 1,
  reset_rate: 0.05,
  commit_then_drop_rate: 0.1,
};
export const FAULTS_OFF = {
  latency_ms: 0,
  error_rate: 0,
  rate_429: 0,
  retry_after_s: 1,
  reset_rate: 0,
  commit_then_drop_rate: 0,
};
