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
  /** The figures that compare across API servers (the side-by-side with BENCH_KUBECONFIG). */
  figures?: Figure[];
  /** The same workload against the external API server, when one was given. */
  sideBySide?: SideBySide;
}

/** Milliseconds (lower is better) or a rate per second (higher is better). */
export type FigureUnit = 'ms' | 'per-s';

/** One measured figure, as a number. */
export interface Figure {
  label: string;
  unit: FigureUnit;
  value: number;
}

/** One figure on both servers. */
export interface SideBySideRow {
  label: string;
  unit: FigureUnit;
  embedded: number;
  external: number;
}

/** A benchmark's workload run against the external API server too. */
export interface SideBySide {
  /** How the external run was made, and how it differs from the embedded one (Markdown). */
  method: string;
  rows: SideBySideRow[];
  notes: string[];
  /** Why the side-by-side failed, in one line (the embedded results stand). */
  error?: string;
}

/** The one-line verdict printed for a benchmark: "PASS list: 23.1 ms median (target ≤ 100 ms)". */
export function verdictLine(r: BenchResult): string {
  return `${r.pass ? 'PASS' : 'FAIL'} ${r.id}: ${r.result} (target ${r.target})`;
}
