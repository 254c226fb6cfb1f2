/**
 * BENCH_SCALE: a factor in (0, 1] applied to the object and watcher counts of the HTTP
 * workloads (writes, list, watch), so that a test can run the runner's code paths in seconds.
 * A scaled run never rewrites docs/benchmarks.md: its figures are not the benchmarks'.
 */

/** The factor BENCH_SCALE names (1 when unset); throws on anything else than a number in (0, 1]. */
export function benchScale(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BENCH_SCALE;
  if (raw === undefined || raw.trim() === '') return 1;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > 1) throw new Error(`BENCH_SCALE=${raw}: expected a number in (0, 1]`);
  return n;
}

/** `n` scaled by the factor, at least 1. */
export function scaled(n: number, scale: number): number {
  return Math.max(1, Math.round(n * scale));
}

/** The factor of this process (read once; a bad value ends the run with one line). */
export const SCALE = ((): number => {
  try {
    return benchScale();
  } catch (err) {
    console.error(`bench: ${(err as Error).message}`);
    process.exit(2);
  }
})();
