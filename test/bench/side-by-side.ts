/**
 * The side-by-side of the embedded API server with an external one (BENCH_KUBECONFIG), pure:
 * pairing the figures of the two runs, the ratio of each pair, and the Markdown of the report.
 */
import type { BenchResult, Figure, FigureUnit, SideBySideRow } from './result.js';
import { formatMs, formatRate } from './stats.js';

/** What the run knows about the external server: where it is, or why it could not be used. */
export type ExternalServerFacts =
  | { state: 'not-requested' }
  | { state: 'failed'; kubeconfig: string; error: string }
  | { state: 'used'; kubeconfig: string; server: string; version: string; namespace: string };

/** The command that runs the side-by-side, as docs/benchmarks.md shows it. */
export const SIDE_BY_SIDE_COMMAND = 'BENCH_KUBECONFIG=~/.kube/config npm run bench';

/** The rows of the figures both runs have (by label, in the embedded run's order). */
export function pairFigures(embedded: readonly Figure[], external: readonly Figure[]): SideBySideRow[] {
  return embedded.flatMap((e) => {
    const x = external.find((f) => f.label === e.label && f.unit === e.unit);
    return x ? [{ label: e.label, unit: e.unit, embedded: e.value, external: x.value }] : [];
  });
}

/**
 * How many times faster the embedded server was on this figure (below 1: slower): external ÷
 * embedded for times, embedded ÷ external for rates. Undefined when a figure is 0 or not finite.
 */
export function embeddedSpeedup(row: SideBySideRow): number | undefined {
  const [num, den] = row.unit === 'ms' ? [row.external, row.embedded] : [row.embedded, row.external];
  if (!(num > 0) || !(den > 0) || !Number.isFinite(num) || !Number.isFinite(den)) return undefined;
  return num / den;
}

/** "2.3× faster", "1.5× slower", "same" (within 5 %), "n/a". */
export function describeSpeedup(speedup: number | undefined): string {
  if (speedup === undefined) return 'n/a';
  if (Math.abs(speedup - 1) < 0.05) return 'same';
  return speedup > 1 ? `${speedup.toFixed(1)}× faster` : `${(1 / speedup).toFixed(1)}× slower`;
}

/** A figure in its unit. */
export function formatFigure(value: number, unit: FigureUnit): string {
  return unit === 'ms' ? formatMs(value) : formatRate(value);
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

const HOW_TO_RUN =
  `Run it with \`${SIDE_BY_SIDE_COMMAND}\` (any kubeconfig; its current context is used: server URL, CA or ` +
  '`insecure-skip-tls-verify`, client certificate and key, bearer token or exec plugin). The credentials must allow creating and ' +
  'deleting a namespace and ConfigMaps in it.';

/** The report's section on the side-by-side: what was compared, against what, and every pair of figures. */
export function renderSideBySideSection(results: readonly BenchResult[], facts: ExternalServerFacts): string[] {
  const lines = ['## Side by side with an external API server', ''];
  if (facts.state === 'not-requested') {
    lines.push(
      'Not run: `BENCH_KUBECONFIG` was not set. When it names a kubeconfig, the LIST, watch and write workloads also run against ' +
        'that server (a real kube-apiserver, say) in a namespace the run creates and deletes afterwards, and each of those ' +
        'sections shows both servers and their ratio; the targets are judged on the embedded server only. ' +
        HOW_TO_RUN,
      '',
    );
    return lines;
  }
  if (facts.state === 'failed') {
    lines.push(
      `Asked for (\`BENCH_KUBECONFIG=${cell(facts.kubeconfig)}\`) but not run: ${cell(facts.error)}. ` +
        'The embedded results above stand. ' +
        HOW_TO_RUN,
      '',
    );
    return lines;
  }
  lines.push(
    `The same workloads against \`${cell(facts.server)}\` (version ${cell(facts.version)}, from \`${cell(facts.kubeconfig)}\`), ` +
      `in the namespace \`${cell(facts.namespace)}\`, created for the run and deleted at its end. The load generator is the same ` +
      'code on the same machine for both servers; a remote server adds its network round trips to every figure. "Embedded vs external" says ' +
      'how many times faster the embedded server was (external ÷ embedded for times, embedded ÷ external for rates). ' +
      'The targets are judged on the embedded server only.',
    '',
  );
  lines.push('| Benchmark | Measurement | Embedded | External | Embedded vs external |', '|---|---|---|---|---|');
  for (const r of results) {
    if (!r.sideBySide) continue;
    if (r.sideBySide.error !== undefined) {
      lines.push(`| ${cell(r.title)} | not measured: ${cell(r.sideBySide.error)} | | | |`);
      continue;
    }
    for (const row of r.sideBySide.rows)
      lines.push(
        `| ${cell(r.title)} | ${cell(row.label)} | ${formatFigure(row.embedded, row.unit)} | ${formatFigure(row.external, row.unit)} | ${describeSpeedup(embeddedSpeedup(row))} |`,
      );
  }
  lines.push('');
  return lines;
}

/** A benchmark section's part on the side-by-side (nothing when it was not run for this benchmark). */
export function renderSideBySideOfBench(r: BenchResult): string[] {
  const s = r.sideBySide;
  if (!s) return [];
  if (s.error !== undefined) return [`**Side by side with the external API server:** not measured: ${s.error}.`, ''];
  const lines = [`**Side by side with the external API server.** ${s.method}`, ''];
  lines.push('| Measurement | Embedded | External | Embedded vs external |', '|---|---|---|---|');
  for (const row of s.rows)
    lines.push(
      `| ${cell(row.label)} | ${formatFigure(row.embedded, row.unit)} | ${formatFigure(row.external, row.unit)} | ${describeSpeedup(embeddedSpeedup(row))} |`,
    );
  lines.push('');
  for (const n of s.notes) lines.push(`- ${n}`);
  if (s.notes.length > 0) lines.push('');
  return lines;
}

/** The console lines of a benchmark's side-by-side. */
export function sideBySideConsoleLines(r: BenchResult): string[] {
  const s = r.sideBySide;
  if (!s) return [];
  if (s.error !== undefined) return [`    side by side: not measured: ${s.error}`];
  return s.rows.map(
    (row) =>
      `    side by side: ${row.label}: embedded ${formatFigure(row.embedded, row.unit)}, external ${formatFigure(row.external, row.unit)} (embedded ${describeSpeedup(embeddedSpeedup(row))})`,
  );
}
