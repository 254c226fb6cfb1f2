/**
 * Start-up of the CLI (issue 17): `--version`, `--help`, `preview`, `hook-env` and `validate` of
 * one file, each against `node -e 0` on the same machine. Paired runs, the order within a pair
 * alternating, and the median of the per-pair ratios: the machine is shared, so a load spike
 * slows both halves of a pair and cancels out of its ratio. The command runs as installed
 * (`bin/upgrade-operator.js` on `dist/`, built first if stale).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BUILT_BINARY, ensureBuilt } from '../../src/cli/binary.test-support.js';
import { startUpCommands, type StartUpCommand } from '../../src/cli/loaded-modules.test-support.js';
import type { BenchResult } from './result.js';
import { formatMs, summarize } from './stats.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Pairs per command. */
const PAIRS = 21;
/** The target: at most this many times `node -e 0`. */
const MAX_RATIO = 2;

/** Wall time of one process, ms; throws when it fails. */
function timed(args: readonly string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited with ${r.status}: ${r.stderr.toString()}`);
  return ms;
}

function benchId(command: StartUpCommand): string {
  return `startup-${command.id.replace(/^--/, '')}`;
}

/** Paired runs of one command against `node -e 0`. */
function measure(command: StartUpCommand): BenchResult {
  const baseline = ['-e', '0'];
  const line = [BUILT_BINARY, ...command.args];
  // One warm-up of each: the first run pays for the disk cache.
  timed(baseline);
  timed(line);
  const node: number[] = [];
  const cli: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    let n: number;
    let x: number;
    if (i % 2 === 0) {
      n = timed(baseline);
      x = timed(line);
    } else {
      x = timed(line);
      n = timed(baseline);
    }
    node.push(n);
    cli.push(x);
    ratios.push(x / n);
  }
  const ratio = summarize(ratios).median;
  const shown = `upgrade-operator ${command.args.map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ')}`.replace(
    /\/\S*\/(upgrade-(config|job)\.yaml)/,
    '$1',
  );
  return {
    id: benchId(command),
    title: `Start-up of ${command.id}`,
    method: `\`${shown}\` as installed (\`bin/upgrade-operator.js\` on \`dist/\`) against \`node -e 0\`: ${PAIRS} pairs of runs, the order alternating within pairs, wall time from spawn to exit; the verdict is the median of the per-pair ratios.`,
    target: `≤ ${MAX_RATIO}× \`node -e 0\` (median of paired ratios)`,
    result: `${ratio.toFixed(2)}× (${formatMs(summarize(cli).median)} against ${formatMs(summarize(node).median)})`,
    pass: ratio <= MAX_RATIO,
    measurements: [
      { label: 'ratio (median of pairs)', value: `**${ratio.toFixed(2)}×**` },
      { label: `${command.id} wall time`, value: summarizeMs(cli) },
      { label: '`node -e 0` wall time', value: summarizeMs(node) },
    ],
    memory: [],
    notes: [],
  };
}

function summarizeMs(samples: readonly number[]): string {
  const s = summarize(samples);
  return `median ${formatMs(s.median)}, p95 ${formatMs(s.p95)}`;
}

/** The ids of the start-up benchmarks (`--only`), one per command. */
export const STARTUP_BENCH_IDS = [
  'startup-version',
  'startup-help',
  'startup-preview',
  'startup-hook-env',
  'startup-validate',
];

/** The start-up benchmark of one command (`id`: one of {@link STARTUP_BENCH_IDS}). */
export async function runStartUpBench(id: string, log: (line: string) => void): Promise<BenchResult> {
  await ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'startup-bench-'));
  try {
    const command = startUpCommands(dir).find((c) => benchId(c) === id);
    if (command === undefined) throw new Error(`no start-up command for ${id}`);
    log(`start-up: ${command.id}, ${PAIRS} pairs against node -e 0`);
    return measure(command);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
