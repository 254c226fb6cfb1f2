/** The outcome of one benchmark, as the runner prints it and the report renders it. */
import type { ProcessMemory } from './memory.js';

export interface Measurement {
  label: string;
  value: string;
}

export interface BenchResult {
  /** Short id: "list", "watch", "writes", "informer". */
  id: string;
  title: string;
  /** What the benchmark does, in a sentence or three (Markdown). */
  method: string;
  /** The target, in words: "≤ 100 ms (median and p95)". */
  target: string;
  /** The measured figure compared with the target, in words. */
  result: string;
  pass: boolean;
  measurements: Measurement[];
  /** Memory of the process the target is about (the API server, or the operator runtime). */
  memory: Array<{ process: string; when: string; memory: ProcessMemory }>;
  notes: string[];
}

/** The one-line verdict printed for a benchmark: "PASS list: 23.1 ms median (target ≤ 100 ms)". */
export function verdictLine(r: BenchResult): string {
  return `${r.pass ? 'PASS' : 'FAIL'} ${r.id}: ${r.result} (target ${r.target})`;
}
