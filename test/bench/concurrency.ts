/**
 * Runs a fixed number of asynchronous operations with a fixed number in flight, bounded by a
 * deadline, and records the latency of each (the load generator of the write benchmarks).
 */
import { performance } from 'node:perf_hooks';

export interface ConcurrentRun {
  /** Operations that completed. */
  done: number;
  /** Wall time from the first start to the last completion, ms. */
  elapsedMs: number;
  /** Latency of each completed operation, ms. */
  latenciesMs: number[];
  /** The first failure, if any (the run stops at the first failure). */
  error?: Error;
  /** True when the deadline stopped the run before every operation was done. */
  timedOut: boolean;
}

export interface ConcurrentOptions {
  count: number;
  concurrency: number;
  /** Stop starting new operations after this many ms. */
  deadlineMs: number;
}

/** Runs op(0) … op(count-1), `concurrency` at a time, until done, failed or past the deadline. */
export async function runConcurrent(
  options: ConcurrentOptions,
  op: (i: number) => Promise<void>,
): Promise<ConcurrentRun> {
  const latenciesMs: number[] = [];
  let next = 0;
  let error: Error | undefined;
  let timedOut = false;
  const start = performance.now();
  const worker = async (): Promise<void> => {
    while (next < options.count && error === undefined) {
      if (performance.now() - start > options.deadlineMs) {
        timedOut = true;
        return;
      }
      const i = next++;
      const t = performance.now();
      try {
        await op(i);
      } catch (err) {
        error ??= err instanceof Error ? err : new Error(String(err));
        return;
      }
      latenciesMs.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.concurrency, options.count)) }, worker));
  const elapsedMs = performance.now() - start;
  return { done: latenciesMs.length, elapsedMs, latenciesMs, timedOut, ...(error ? { error } : {}) };
}
