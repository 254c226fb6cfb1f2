/**
 * `npm run bench`: the performance targets, measured (not part of the test suite).
 *
 *   node --import tsx scripts/run-bench.ts [--no-write] [--out <file>] [--only <ids>] [--cpu-prof <dir>]
 *
 * --only runs some benchmarks (comma-separated ids: startup-version, startup-help,
 * startup-preview, startup-hook-env, startup-validate, run-idle, run-steady, run-cached, writes,
 * list, watch, informer, reaction, idle, idle-heap, sim-small, sim-scale, fault-campaign,
 * crash-campaign, hostile-input, apiserver-memory; list needs
 * writes) and implies --no-write; --cpu-prof writes V8 CPU profiles of the child processes
 * (API server, operator runtime) into a folder, for investigating a missed target.
 *
 * BENCH_KUBECONFIG=<kubeconfig> also runs the LIST, watch and write workloads against the API
 * server of that kubeconfig's current context (a real kube-apiserver), in a namespace the run
 * creates and deletes, and reports both servers side by side (test/bench/external-runs.ts); the
 * targets stay judged on the embedded server, and a side-by-side that cannot run is reported, not
 * fatal. BENCH_SCALE=<factor in (0, 1]> shrinks those workloads (for tests; docs are not written).
 *
 * Compiles the child processes (test/bench/build.ts), starts the API server in its own
 * process, runs the benchmarks of test/bench/ one after another, prints one PASS/FAIL line per
 * target, and rewrites docs/benchmarks.md with the results (unless --no-write), followed by the
 * hand-written test/bench/analysis.md when that file exists. Exits 1 when a
 * target is missed or a benchmark fails. Every child is killed on the way out, and the whole run
 * is bounded by a watchdog.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RealClock } from '../src/lib/clock.js';
import { compileBenchChildren } from '../test/bench/build.js';
import { runApiServerMemoryBench } from '../test/bench/bench-apiserver-memory.js';
import { runFaultCampaignBench } from '../test/bench/bench-campaigns.js';
import { runCrashCampaignBench } from '../test/bench/bench-crash-campaign.js';
import { runHostileInputBench } from '../test/bench/bench-hostile-input.js';
import { runInformerBench } from '../test/bench/bench-informer.js';
import { runListBench } from '../test/bench/bench-list.js';
import { runIdleBench, runIdleHeapBench, runReactionBench } from '../test/bench/bench-managed.js';
import { runSimScaleBench, runSimSmallBench } from '../test/bench/bench-sim-scale.js';
import { runStartUpBench, STARTUP_BENCH_IDS } from '../test/bench/bench-startup.js';
import { runOperatorCachedBench, runOperatorIdleBench, runOperatorSteadyBench } from '../test/bench/bench-operator.js';
import { runWatchBench } from '../test/bench/bench-watch.js';
import { runWriteBench, WRITE_COUNT, WRITES_NAMESPACE } from '../test/bench/bench-writes.js';
import type { BenchContext } from '../test/bench/context.js';
import { runSideBySide, SIDE_BY_SIDE_IDS } from '../test/bench/external-runs.js';
import { connectExternal, deleteExternalNamespace, type ExternalServer } from '../test/bench/external-server.js';
import { renderReport } from '../test/bench/report.js';
import { SCALE } from '../test/bench/scale.js';
import { sideBySideConsoleLines, type ExternalServerFacts } from '../test/bench/side-by-side.js';
import { verdictLine, type BenchResult } from '../test/bench/result.js';
import { RpcChild } from '../test/bench/rpc.js';
import { formatMiB } from '../test/bench/stats.js';
import type { StartResult } from '../test/bench/server-child.js';

const WATCHDOG_MS = 30 * 60_000;
/** The order of the targets, for the report. */
const ORDER = [
  ...STARTUP_BENCH_IDS,
  'run-idle',
  'run-cached',
  'run-steady',
  'list',
  'watch',
  'writes',
  'informer',
  'reaction',
  'idle',
  'idle-heap',
  'sim-small',
  'sim-scale',
  'fault-campaign',
  'crash-campaign',
  'hostile-input',
  'apiserver-memory',
];

const root = fileURLToPath(new URL('..', import.meta.url));
const { values: flags } = parseArgs({
  options: {
    'no-write': { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, 'docs', 'benchmarks.md') },
    only: { type: 'string' },
    'cpu-prof': { type: 'string' },
  },
});
const only = flags.only === undefined ? undefined : new Set(flags.only.split(',').map((s) => s.trim()));
const childFlags = [
  '--expose-gc',
  ...(flags['cpu-prof'] !== undefined ? ['--cpu-prof', `--cpu-prof-dir=${flags['cpu-prof']}`] : []),
];
const children = new Set<RpcChild>();

function killChildren(): void {
  for (const c of children) c.killNow();
}

/** The external server of the side-by-side, once its namespace exists (deleted on every way out). */
let external: ExternalServer | undefined;

/** Kills the children, deletes the side-by-side's namespace (waiting 5 s at most), exits. */
function abandon(code: number): void {
  killChildren();
  const cleanup = external ? deleteExternalNamespace(external) : Promise.resolve(undefined);
  const timer = setTimeout(() => process.exit(code), 5_000);
  void cleanup.finally(() => {
    clearTimeout(timer);
    process.exit(code);
  });
}

process.on('exit', killChildren);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => abandon(130));
const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${WATCHDOG_MS / 60_000} minutes; giving up`);
  abandon(1);
}, WATCHDOG_MS);
watchdog.unref();

function log(line: string): void {
  console.log(`bench: ${line}`);
}

/** A benchmark that threw: reported as a missed target with the error. */
function crashed(id: string, title: string, err: unknown): BenchResult {
  const message = err instanceof Error ? err.message : String(err);
  return {
    id,
    title,
    method: 'The benchmark did not complete.',
    target: 'completes',
    result: `error: ${message.split('\n')[0] ?? ''}`,
    pass: false,
    measurements: [],
    memory: [],
    notes: [],
  };
}

async function main(): Promise<number> {
  const started = performance.now();
  const loadStart = os.loadavg();
  const date = new Date(new RealClock().now()).toISOString();
  log('compiling the child processes (tsc -p tsconfig.bench.json)');
  const compiledBenchDir = await compileBenchChildren(root);
  const tmp = await mkdtemp(join(os.tmpdir(), 'upgrade-operator-bench-'));
  const kubeconfigPath = join(tmp, 'kubeconfig');
  // The server's process warnings are collected and reported with each benchmark, not printed.
  const server = new RpcChild(join(compiledBenchDir, 'server-child.js'), {
    execArgv: [...childFlags, '--no-warnings'],
    timeoutMs: 60_000,
  });
  children.add(server);
  const results: BenchResult[] = [];
  const benchKubeconfig = process.env.BENCH_KUBECONFIG ?? '';
  let facts: ExternalServerFacts = { state: 'not-requested' };
  if (benchKubeconfig !== '' && (!only || [...SIDE_BY_SIDE_IDS].some((id) => only.has(id)))) {
    try {
      external = await connectExternal(benchKubeconfig, new RealClock());
      facts = {
        state: 'used',
        kubeconfig: benchKubeconfig,
        server: external.target.url,
        version: external.version,
        namespace: external.namespace,
      };
      log(`side by side with ${external.target.url} (${external.version}), namespace ${external.namespace}`);
    } catch (err) {
      facts = { state: 'failed', kubeconfig: benchKubeconfig, error: (err as Error).message };
      console.error(`bench: side by side not run: ${facts.error}`);
    }
  }
  const spawnWriter = (): RpcChild => {
    const writer = new RpcChild(join(compiledBenchDir, 'writer-child.js'), {
      execArgv: childFlags,
      timeoutMs: 180_000,
    });
    children.add(writer);
    return writer;
  };
  try {
    const { url } = await server.call<StartResult>('start', { kubeconfigPath });
    log(`API server at ${url} (pid ${server.pid ?? '?'})`);
    const ctx: BenchContext = { url, server, kubeconfigPath, compiledBenchDir, childFlags, log };
    const steps: Array<[string, string, () => Promise<BenchResult>]> = [
      ...STARTUP_BENCH_IDS.map((id): [string, string, () => Promise<BenchResult>] => [
        id,
        `Start-up of ${id.replace(/^startup-/, '')}`,
        () => runStartUpBench(id, log),
      ]),
      // On the empty cluster: before the other benchmarks write to it.
      ['run-idle', 'The operator idle on an empty cluster', () => runOperatorIdleBench(ctx)],
      ['run-steady', 'The operator idle: CPU and API requests', () => runOperatorSteadyBench(ctx)],
      ['writes', 'Small writes', () => runWriteBench(ctx)],
      ['list', 'LIST of 10,000 objects', () => runListBench(ctx, WRITES_NAMESPACE, WRITE_COUNT)],
      ['watch', '100 watchers, 10,000 events', () => runWatchBench(ctx)],
      ['informer', 'Operator runtime footprint', () => runInformerBench(ctx, children)],
      ['run-cached', 'The operator with 500 Nodes and 10,000 Pods cached', () => runOperatorCachedBench(ctx)],
      ['reaction', 'Reaction delay of the managed flow', () => runReactionBench(log)],
      ['idle', 'Operator API requests when idle', () => runIdleBench(log)],
      ['idle-heap', 'Operator heap over an idle hour', () => runIdleHeapBench(log)],
      ['sim-small', 'Simulated minor upgrade of ha-cloud 3+3', () => runSimSmallBench(log)],
      ['sim-scale', 'Simulated cluster of 250 nodes', () => runSimScaleBench(log)],
      ['fault-campaign', 'Fault campaign: both flows under API faults', () => runFaultCampaignBench(log)],
      ['crash-campaign', 'Crash campaign: run SIGKILLed and restarted mid-upgrade', () => runCrashCampaignBench(log)],
      [
        'hostile-input',
        'Hostile input: random requests and objects to the API server',
        () => runHostileInputBench(log),
      ],
      ['apiserver-memory', 'API-server memory over rounds of churn', () => runApiServerMemoryBench(ctx)],
    ];
    for (const [id, title, run] of steps) {
      if (only && !only.has(id)) continue;
      let r: BenchResult;
      try {
        r = await run();
      } catch (err) {
        console.error(err);
        r = crashed(id, title, err);
      }
      if (external && !r.result.startsWith('error')) {
        const sideBySide = await runSideBySide(r, external, ctx, spawnWriter);
        if (sideBySide) r.sideBySide = sideBySide;
      }
      const warnings = await server.call<Array<[string, number]>>('warnings').catch(() => []);
      for (const [message, count] of warnings)
        r.notes.push(`The API server emitted a process warning ${count} time(s) during this benchmark: \`${message}\``);
      results.push(r);
      console.log(verdictLine(r));
      for (const m of r.measurements) console.log(`    ${m.label}: ${m.value.replace(/\*\*/g, '')}`);
      for (const n of r.notes) console.log(`    note: ${n}`);
      for (const line of sideBySideConsoleLines(r)) console.log(line);
      for (const m of r.memory)
        console.log(
          `    RSS of ${m.process}, ${m.when}: ${formatMiB(m.memory.rss)} (peak ${formatMiB(m.memory.maxRss)})`,
        );
      // The list benchmark lists what the write benchmark created: without those, it cannot run.
      if (id === 'writes' && !r.pass && r.result.startsWith('error')) break;
    }
  } finally {
    if (external) {
      const problem = await deleteExternalNamespace(external);
      if (problem === undefined) log(`deleted the namespace ${external.namespace} on ${external.target.url}`);
      else console.error(`bench: ${problem}`);
      external = undefined;
    }
    for (const c of children) if (c !== server) await c.close();
    await server.close();
    children.delete(server);
    await rm(tmp, { recursive: true, force: true });
  }
  results.sort((a, b) => ORDER.indexOf(a.id) - ORDER.indexOf(b.id));
  const durationS = (performance.now() - started) / 1000;
  const cpus = os.cpus();
  const machine = {
    date,
    node: process.version,
    platform: `${os.type()} ${os.release()} ${process.arch}`,
    cpuModel: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    totalMemoryBytes: os.totalmem(),
    durationS,
    loadStart,
    loadEnd: os.loadavg(),
  };
  console.log('');
  for (const r of results) console.log(verdictLine(r));
  const failed = results.filter((r) => !r.pass).length;
  const missing = (only ? only.size : ORDER.length) - results.length;
  if (flags['no-write'] || only) log('docs not updated (--no-write or --only)');
  else if (SCALE !== 1) log(`docs not updated (BENCH_SCALE=${SCALE}: not the benchmarks' sizes)`);
  else {
    const analysis = await readFile(join(root, 'test', 'bench', 'analysis.md'), 'utf8').catch(() => undefined);
    await writeFile(flags.out, renderReport(results, machine, analysis, facts) + '\n');
    log(`wrote ${flags.out}`);
  }
  log(`${results.length - failed} of ${only ? only.size : ORDER.length} targets met in ${durationS.toFixed(1)} s`);
  return failed > 0 || missing > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err);
    killChildren();
    process.exitCode = 1;
  },
);
