/**
 * docs/benchmarks.md, rendered from the results of one run (pure).
 */
import type { BenchResult } from './result.js';
import { renderSideBySideOfBench, renderSideBySideSection, type ExternalServerFacts } from './side-by-side.js';
import { formatMiB } from './stats.js';

/** Facts about the machine and runtime a run was measured on. */
export interface MachineFacts {
  date: string;
  node: string;
  platform: string;
  cpuModel: string;
  cores: number;
  totalMemoryBytes: number;
  durationS: number;
  /** os.loadavg() when the run started and ended: other work on the machine skews the timings. */
  loadStart: number[];
  loadEnd: number[];
}

function load(l: number[]): string {
  return l.map((x) => x.toFixed(2)).join(' / ');
}

function escapeCell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * The whole Markdown document; `analysis` (hand-written Markdown, optional) is appended under its
 * own heading; `external` says whether the side-by-side with an external API server ran.
 */
export function renderReport(
  results: readonly BenchResult[],
  machine: MachineFacts,
  analysis?: string,
  external: ExternalServerFacts = { state: 'not-requested' },
): string {
  const lines: string[] = [];
  const allPass = results.every((r) => r.pass);
  lines.push('# Benchmarks', '');
  lines.push(
    'Measured by `npm run bench` (`scripts/run-bench.ts`, benchmarks in `test/bench/`), which rewrites this file with the results of ' +
      'its run (pass `--no-write` to only print them). The benchmarks are not part of the test suite: they use the wall clock, because ' +
      'time is what they measure. Every target is checked; the run exits non-zero when one is missed.',
    '',
  );
  lines.push(
    'Set-up: the embedded API server runs in its own process, compiled to JavaScript (no tsx), on 127.0.0.1 with a random port; ' +
      'the runner drives it over HTTP/1.1 with keep-alive, like any client, from a separate process (so the load generator does not ' +
      "share the server's event loop or count in its memory). The operator-runtime footprint is measured in a third process that " +
      'loads only `src/kube` (and the `lib/` and `api/` pieces it imports), also compiled. RSS is the resident set size of the process ' +
      'named; "peak" is the highest RSS the process reached so far.',
    '',
  );
  lines.push('## Machine', '');
  lines.push('| | |', '|---|---|');
  lines.push(`| Date | ${machine.date} |`);
  lines.push(`| Node.js | ${machine.node} |`);
  lines.push(`| Platform | ${escapeCell(machine.platform)} |`);
  lines.push(`| CPU | ${escapeCell(machine.cpuModel)} |`);
  lines.push(`| Cores | ${machine.cores} |`);
  lines.push(`| Memory | ${(machine.totalMemoryBytes / 2 ** 30).toFixed(1)} GiB |`);
  lines.push(`| Run time | ${machine.durationS.toFixed(1)} s |`);
  lines.push(`| Load average (1 / 5 / 15 min), start | ${load(machine.loadStart)} |`);
  lines.push(`| Load average (1 / 5 / 15 min), end | ${load(machine.loadEnd)} |`, '');
  const busiest = Math.max(machine.loadStart[0] ?? 0, machine.loadEnd[0] ?? 0);
  if (busiest > machine.cores) {
    lines.push(
      `The machine was busy with other work during this run (1-minute load average up to ${busiest.toFixed(1)} on ${machine.cores} cores), ` +
        'so wall-clock figures are pessimistic; CPU-time figures are less affected.',
      '',
    );
  }
  lines.push('## Summary', '');
  lines.push(allPass ? 'Every target is met.' : `**${results.filter((r) => !r.pass).length} target(s) missed.**`, '');
  lines.push('| Benchmark | Target | Result | |', '|---|---|---|---|');
  for (const r of results)
    lines.push(
      `| ${escapeCell(r.title)} | ${escapeCell(r.target)} | ${escapeCell(r.result)} | ${r.pass ? 'PASS' : '**FAIL**'} |`,
    );
  lines.push('');
  lines.push(...renderSideBySideSection(results, external));
  for (const r of results) {
    lines.push(`## ${r.title}`, '');
    lines.push(r.method, '');
    lines.push(`**Target:** ${r.target}. **Result:** ${r.result} — ${r.pass ? 'PASS' : '**FAIL**'}.`, '');
    lines.push('| Measurement | Value |', '|---|---|');
    for (const m of r.measurements) lines.push(`| ${escapeCell(m.label)} | ${escapeCell(m.value)} |`);
    for (const m of r.memory) {
      lines.push(
        `| RSS of ${escapeCell(m.process)}, ${escapeCell(m.when)} | ${formatMiB(m.memory.rss)} (heap used ${formatMiB(m.memory.heapUsed)}, peak RSS ${formatMiB(m.memory.maxRss)}${m.memory.gc ? ', after full GC' : ''}) |`,
      );
    }
    lines.push('');
    for (const n of r.notes) lines.push(`- ${n}`);
    if (r.notes.length > 0) lines.push('');
    lines.push(...renderSideBySideOfBench(r));
  }
  if (analysis !== undefined && analysis.trim() !== '') {
    lines.push('## Analysis', '');
    lines.push(
      '_Written by hand from profiles of earlier runs (`test/bench/analysis.md`); the figures above are from this run._',
      '',
    );
    lines.push(analysis.trim(), '');
  }
  return lines.join('\n');
}
