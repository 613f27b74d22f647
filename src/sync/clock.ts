// The sync layer's clock port: the wall clock for what is stored and shown, and a monotonic
// clock for how long ago something happened, which a change of the system clock cannot move
// (sync.md: the offline window is measured with a monotonic clock). Never set, only read.
import { performance } from 'node:perf_hooks';

export interface SyncClock {
  /** Wall-clock milliseconds since the epoch. */
  now(): number;
  /** Milliseconds from an arbitrary origin; only differences mean anything. */
  monotonic(): number;
}

export const systemSyncClock: SyncClock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
};

/** A clock tests drive by hand: `advance` moves both, `jumpWall` only the wall clock. */
export function manualClock(
  startWallMs: number,
): SyncClock & { advance(ms: number): void; jumpWall(ms: number): void } {
  let wall = startWallMs;
  let mono = 0;
  return {
    now: () => wall,
    monotonic: () => mono,
    advance(ms: number) {
      wall += ms;
      mono += ms;
    },
    jumpWall(ms: number) {
      wall += ms;
    },
  };
}

/** The timer port of the sync loops (sync-service.ts): real timers, or a test's by hand. */
export interface SyncTimers {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Node's timers, unref'd: a pending drain or pull never keeps the process alive. */
export const systemTimers: SyncTimers = {
  set(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clear: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Timers a test fires by moving `clock` (both of its clocks) with `advance`: every timer due
 * by then runs, earliest first, each at its own time; `pending` lists the delays still set.
 */
export function manualTimers(clock: ReturnType<typeof manualClock>): SyncTimers & {
  advance(ms: number): void;
  pending(): number[];
} {
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    set(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: clock.monotonic() + Math.max(0, ms), fn });
      return id;
    },
    clear: (handle) => void timers.delete(handle as number),
    advance(ms) {
      const end = clock.monotonic() + ms;
      for (let guard = 0; guard < 10_000; guard++) {
        let next: [number, { at: number; fn: () => void }] | null = null;
        for (const entry of timers) if (!next || entry[1].at < next[1].at) next = entry;
        if (!next || next[1].at > end) break;
        timers.delete(next[0]);
        if (next[1].at > clock.monotonic()) clock.advance(next[1].at - clock.monotonic());
        next[1].fn();
      }
      if (end > clock.monotonic()) clock.advance(end - clock.monotonic());
    },
    pending: () => [...timers.values()].map((t) => t.at - clock.monotonic()),
  };
}
