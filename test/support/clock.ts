// Clocks and timers the tests drive by hand, for the sync layer's ports (src/sync/clock.ts).
import type { SyncClock, SyncTimers } from '../../src/sync/clock.js';

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
