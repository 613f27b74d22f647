// One running instance per data directory (sync.md): two processes must never drain one
// outbox. DIR/terminal.lock holds the holder's pid and its process start time; a lock whose
// process is gone is stale and taken over.
//
// Why the start time: in a container the pid is often the same after a restart (pid 1), and
// two agents in one process (tests) share a pid. Same pid and same start time = this very
// process holds it; same pid and another start time = a previous life, stale. A pid reused
// by an unrelated process looks alive: the lock is then refused, naming the pid, which is the
// safe mistake (a person deletes the file).
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import type { ErrorBody } from '../contract/commands.js';

export const LOCK_FILE = 'terminal.lock';

/** The lock file's content; a missing host or time reads as unknown (''). */
const LockOwner = z.object({
  pid: z.number(),
  /** Epoch milliseconds when the owning process started. */
  started_ms: z.number(),
  host: z.string().catch(''),
  acquired_at: z.string().catch(''),
});
export type LockOwner = z.output<typeof LockOwner>;

export interface DataDirLock {
  file: string;
  owner: LockOwner;
  release(): void;
}

export type LockResult = { ok: true; lock: DataDirLock } | { ok: false; error: ErrorBody };

export interface LockEnv {
  pid: number;
  startedMs: number;
  host: string;
  now: () => Date;
  /** Whether a process with this pid exists. */
  isAlive: (pid: number) => boolean;
}

/** Start times differ between runs by far more than this; within it, it is the same process. */
const SAME_PROCESS_MS = 2_000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function currentProcess(): LockEnv {
  return {
    pid: process.pid,
    startedMs: Math.round(Date.now() - process.uptime() * 1000),
    host: hostname(),
    now: () => new Date(),
    isAlive: processAlive,
  };
}

function readOwner(file: string): LockOwner | null {
  try {
    const o = LockOwner.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return o.success ? o.data : null;
  } catch {
    return null; // unreadable or half written: treated as stale
  }
}

function holderAlive(owner: LockOwner, env: LockEnv): boolean {
  if (owner.host && owner.host !== env.host) return true; // another machine: cannot tell, keep off
  if (owner.pid === env.pid) return Math.abs(owner.started_ms - env.startedMs) <= SAME_PROCESS_MS;
  return env.isAlive(owner.pid);
}

/** Takes DIR/terminal.lock, or says who holds it. */
export function acquireDataDirLock(dir: string, env: LockEnv = currentProcess()): LockResult {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = join(dir, LOCK_FILE);
  const owner: LockOwner = {
    pid: env.pid,
    started_ms: env.startedMs,
    host: env.host,
    acquired_at: env.now().toISOString(),
  };
  // Two rounds: the second after removing a stale lock. Creation is exclusive ('wx'), so of
  // two processes racing for a stale lock only one creates the new file.
  for (let round = 0; round < 2; round++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const held = readOwner(file);
      if (held && holderAlive(held, env)) {
        return {
          ok: false,
          error: {
            code: 'instance-locked',
            message: `another terminal (pid ${held.pid}${held.host ? ` on ${held.host}` : ''}) uses ${dir}; stop it, or delete ${file} if it is gone`,
            path: 'data',
            details: { file, pid: held.pid, host: held.host, acquired_at: held.acquired_at },
          },
        };
      }
      rmSync(file, { force: true });
      continue;
    }
    try {
      writeSync(fd, `${JSON.stringify(owner)}\n`);
    } finally {
      closeSync(fd);
    }
    let released = false;
    return {
      ok: true,
      lock: {
        file,
        owner,
        release() {
          if (released) return;
          released = true;
          // Remove only our own lock: if it was taken over meanwhile, it is not ours any more.
          const now = readOwner(file);
          if (
            now &&
            now.pid === owner.pid &&
            now.started_ms === owner.started_ms &&
            now.acquired_at === owner.acquired_at
          ) {
            rmSync(file, { force: true });
          }
        },
      },
    };
  }
  return {
    ok: false,
    error: {
      code: 'instance-locked',
      message: `could not take ${file}; another process races for it`,
      path: 'data',
    },
  };
}
