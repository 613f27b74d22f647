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
