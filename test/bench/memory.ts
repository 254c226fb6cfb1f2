/**
 * Memory figures of the current process, optionally after a full garbage collection
 * (available when node runs with --expose-gc).
 */
import { readFileSync } from 'node:fs';

/** What the benchmarks report about a process's memory, in bytes. */
export interface ProcessMemory {
  rss: number;
  heapUsed: number;
  /** Peak RSS of the process so far (Linux: VmHWM; elsewhere getrusage's maxrss). */
  maxRss: number;
  /** Whether a full GC ran first. */
  gc: boolean;
}

/** Current memory; with `collect` (and --expose-gc) after two full GCs, so only live data counts. */
export function processMemory(collect: boolean): ProcessMemory {
  const gc = (globalThis as { gc?: () => void }).gc;
  const ran = collect && gc !== undefined;
  if (ran) {
    gc();
    gc();
  }
  const m = process.memoryUsage();
  return { rss: m.rss, heapUsed: m.heapUsed, maxRss: peakRss() ?? process.resourceUsage().maxRSS * 1024, gc: ran };
}

/**
 * The peak RSS from /proc/self/status (VmHWM, in kB). getrusage's maxrss is no good for a
 * forked child on Linux: it survives exec, so a child starts with its parent's peak.
 */
export function peakRss(status?: string): number | undefined {
  let text = status;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/status', 'utf8');
    } catch {
      return undefined;
    }
  }
  const m = /^VmHWM:\s*(\d+)\s*kB/m.exec(text);
  return m ? Number(m[1]) * 1024 : undefined;
}
