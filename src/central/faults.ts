// The sandbox's fault switches (sync.md, interfaces.md): added latency, an error rate, 429
// with Retry-After, connection resets and "commit then drop the response". Each rate is a
// probability per request of the /v1 surface; the random source is a port so tests replay.
// Commit-then-drop on a batch applies its first half, then drops: a batch cut off mid-way.
import { z } from 'zod';

const rate = z.number().min(0).max(1);

export const FaultSettings = z.strictObject({
  latency_ms: z.int().min(0).max(60_000).default(0),
  error_rate: rate.default(0),
  rate_429: rate.default(0),
  retry_after_s: z.int().min(0).max(3_600).default(1),
  reset_rate: rate.default(0),
  commit_then_drop_rate: rate.default(0),
  /** Play a central without the batch operation (404), as one that predates it (ours). */
  no_batch: z.boolean().default(false),
});
export type FaultSettings = z.infer<typeof FaultSettings>;

export const NO_FAULTS: FaultSettings = FaultSettings.parse({});

/** What to do with one request, decided before it is handled. */
export type FaultDecision =
  | { kind: 'none' }
  | { kind: 'error' }
  | { kind: 'rate-limit'; retryAfterS: number }
  | { kind: 'reset' }
  | { kind: 'commit-then-drop' };

/** Draws each switch in a fixed order, so one random stream gives one sequence of faults. */
export function decideFault(settings: FaultSettings, random: () => number): FaultDecision {
  if (settings.reset_rate > 0 && random() < settings.reset_rate) return { kind: 'reset' };
  if (settings.error_rate > 0 && random() < settings.error_rate) return { kind: 'error' };
  if (settings.rate_429 > 0 && random() < settings.rate_429) {
    return { kind: 'rate-limit', retryAfterS: settings.retry_after_s };
  }
  if (settings.commit_then_drop_rate > 0 && random() < settings.commit_then_drop_rate) {
    return { kind: 'commit-then-drop' };
  }
  return { kind: 'none' };
}

/** A small seeded generator (mulberry32) for reproducible fault runs. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
