import { constants, performance, PerformanceObserver } from 'node:perf_hooks';
// Shared figures for every benchmark: percentiles over samples in microseconds.
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i] ?? Number.NaN;
}

export interface Summary {
  n: number;
  median_us: number;
  p99_us: number;
  per_second: number;
}

/** Summarises durations given in nanoseconds (from process.hrtime.bigint()). */
export function summarize(samplesNs: readonly bigint[]): Summary {
  const us = samplesNs.map((ns) => Number(ns) / 1000).sort((a, b) => a - b);
  const median = percentile(us, 50);
  return {
    n: us.length,
    median_us: round(median),
    p99_us: round(percentile(us, 99)),
    per_second: Math.round(1e6 / median),
  };
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

/** Times `fn` `n` times after `warmup` runs; returns one sample per run in nanoseconds. */
export function sample(n: number, warmup: number, fn: () => void): bigint[] {
  for (let i = 0; i < warmup; i++) fn();
  const out: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    fn();
    out.push(process.hrtime.bigint() - t0);
  }
  return out;
}

export function line(label: string, s: Summary): string {
  return `${label.padEnd(44)} median ${String(s.median_us).padStart(9)} us   p99 ${String(s.p99_us).padStart(9)} us   ${String(s.per_second).padStart(8)}/s   (n=${s.n})`;
}

/** GC events seen by a PerformanceObserver while `fn` ran, and the figures they explain. */
export interface GcReport {
  /** GC events during the timed samples, by kind (minor = scavenge, major = mark-compact...). */
  events: number;
  byKind: Record<string, number>;
  /** Their median and longest pause, in microseconds. */
  medianPauseUs: number;
  maxPauseUs: number;
  /** Of the slowest 1% of samples, how many overlap a GC event. */
  slowWithGc: number;
  slowCount: number;
  /** Bytes allocated per call, measured in a separate untimed pass (median of calls with no GC). */
  heapBytesPerCall: number;
  arrayBufferBytesPerCall: number;
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/**
 * `sample` with a GC watch: the same timed loop (each sample also notes its start on the
 * performance clock, outside the timed span), GC entries collected by an observer and matched
 * to the slowest 1% of samples; then `allocRuns` untimed calls measure allocation per call.
 */
export async function sampleWithGc(
  n: number,
  warmup: number,
  fn: () => void,
  allocRuns = 300,
): Promise<{ samples: bigint[]; gc: GcReport }> {
  for (let i = 0; i < warmup; i++) fn();
  const entries: { start: number; end: number; kind: string }[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = ((e as { detail?: unknown }).detail as { kind?: number } | null)?.kind;
      entries.push({
        start: e.startTime,
        end: e.startTime + e.duration,
        kind: GC_KINDS[kind ?? -1] ?? String(kind),
      });
    }
  });
  obs.observe({ entryTypes: ['gc'] });
  const samples: bigint[] = new Array<bigint>(n);
  const starts = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    starts[i] = performance.now();
    const t0 = process.hrtime.bigint();
    fn();
    samples[i] = process.hrtime.bigint() - t0;
  }
  // GC entries are delivered asynchronously: let the observer catch up before reading them.
  await new Promise((r) => setTimeout(r, 50));
  obs.disconnect();
  const byKind: Record<string, number> = {};
  for (const e of entries) byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
  const slowCount = Math.max(1, Math.ceil(n / 100));
  const slow = samples
    .map((ns, i) => ({ i, ns }))
    .sort((a, b) => (a.ns < b.ns ? 1 : a.ns > b.ns ? -1 : 0))
    .slice(0, slowCount);
  const slowWithGc = slow.filter(({ i, ns }) => {
    const s = starts[i]!;
    const e = s + Number(ns) / 1e6 + 0.01; // performance.now() is in ms; 10 us of slack
    return entries.some((g) => g.start < e && g.end > s);
  }).length;
  return {
    samples,
    gc: {
      events: entries.length,
      byKind,
      ...pauses(entries.map((e) => (e.end - e.start) * 1000)),
      slowWithGc,
      slowCount,
      ...allocation(allocRuns, fn),
    },
  };
}

function pauses(us: number[]): { medianPauseUs: number; maxPauseUs: number } {
  const sorted = [...us].sort((a, b) => a - b);
  return {
    medianPauseUs: round(percentile(sorted, 50)),
    maxPauseUs: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

/** Median heap and ArrayBuffer bytes allocated per call, over calls during which no GC ran. */
function allocation(
  runs: number,
  fn: () => void,
): { heapBytesPerCall: number; arrayBufferBytesPerCall: number } {
  const heap: number[] = [];
  const buffers: number[] = [];
  for (let i = 0; i < runs; i++) {
    const m0 = process.memoryUsage();
    fn();
    const m1 = process.memoryUsage();
    const dh = m1.heapUsed - m0.heapUsed;
    const db = m1.arrayBuffers - m0.arrayBuffers;
    // A GC during the call frees memory: the delta is then no allocation figure.
    if (dh >= 0 && db >= 0) {
      heap.push(dh);
      buffers.push(db);
    }
  }
  const med = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  return { heapBytesPerCall: med(heap), arrayBufferBytesPerCall: med(buffers) };
}

export function gcLine(label: string, n: number, g: GcReport): string {
  const kinds = Object.entries(g.byKind)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  return (
    `${label.padEnd(44)} GC events ${g.events} in ${n} samples (${kinds || 'none'}; pause ` +
    `median ${g.medianPauseUs} us, max ${g.maxPauseUs} us); ` +
    `slowest 1%: ${g.slowWithGc}/${g.slowCount} overlap a GC; allocated per call ` +
    `${(g.heapBytesPerCall / 1024).toFixed(1)} KB heap + ${(g.arrayBufferBytesPerCall / 1024).toFixed(1)} KB ArrayBuffers`
  );
}
