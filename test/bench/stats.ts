/**
 * Summary statistics and formatting for benchmark samples (pure).
 */

/** Summary of a set of samples (milliseconds, bytes, whatever was measured). */
export interface Summary {
  count: number;
  min: number;
  median: number;
  p95: number;
  max: number;
  mean: number;
}

/**
 * The q-quantile (0 ≤ q ≤ 1) of samples sorted ascending, by the nearest-rank method: the
 * smallest sample with at least q·n samples at or below it. Throws on an empty list.
 */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new Error('quantile of no samples');
  if (!(q >= 0 && q <= 1)) throw new Error(`quantile ${q} is not in [0, 1]`);
  const rank = Math.max(1, Math.ceil(q * sorted.length));
  return sorted[rank - 1]!;
}

/** Min, median, p95, max and mean of the samples. Throws on an empty list. */
export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('summary of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  const sum = sorted.reduce((a, b) => a + b, 0);
  const n = sorted.length;
  // The median of an even count is the mean of the two middle samples.
  const median = n % 2 === 1 ? sorted[(n - 1) / 2]! : (sorted[n / 2 - 1]! + sorted[n / 2]!) / 2;
  return { count: n, min: sorted[0]!, median, p95: quantileSorted(sorted, 0.95), max: sorted[n - 1]!, mean: sum / n };
}

const MIB = 1024 * 1024;

/** Bytes as MiB with one decimal: "123.4 MiB". */
export function formatMiB(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MiB`;
}

/** Milliseconds with a precision that suits their size: "0.42 ms", "12.3 ms", "1234 ms". */
export function formatMs(ms: number): string {
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 100) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

/** A rate with thousands separators: "5,123/s". */
export function formatRate(perSecond: number): string {
  return `${Math.round(perSecond).toLocaleString('en-US')}/s`;
}

/** An integer with thousands separators. */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}
