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
