/**
 * Benchmark 3: small writes over HTTP. Creates 10,000 small ConfigMaps, then replaces each once
 * (conditional PUT carrying the resourceVersion the create returned, as a controller does),
 * with keep-alive connections and 32 requests in flight. One warm-up round, then three measured
 * rounds (the objects of a round are deleted before the next); the rates reported are the
 * rounds' medians, because the wall-clock rate of one round swings by ±20 % with the host's other
 * work on this 2-core machine.
 */
import { runConcurrent, type ConcurrentRun } from './concurrency.js';
import { describeCpu, serverCpu, serverMemory, type BenchContext } from './context.js';
import { smallConfigMap } from './fixtures.js';
import type { BenchResult, Figure, Measurement } from './result.js';
import { SCALE, scaled } from './scale.js';
import { formatCount, formatMs, formatRate, summarize } from './stats.js';
import { embeddedTarget, openPool, sendJson, type HttpTarget } from './target.js';

export const WRITES_NAMESPACE = 'bench';
export const WRITE_COUNT = scaled(10_000, SCALE);
const CONCURRENCY = 32;
const ROUNDS = 3;
const TARGET_PER_S = 5_000;
const DEADLINE_MS = 60_000;
/** The label every benchmark object carries (deletecollection selects on it, so objects others put in the namespace stay). */
export const BENCH_SELECTOR = 'app%3Dbench';

function rateOf(run: ConcurrentRun): number {
  return run.done / (run.elapsedMs / 1000);
}

function problem(run: ConcurrentRun, count: number): string | undefined {
  if (run.error) return run.error.message;
  if (run.timedOut || run.done !== count) return `only ${run.done} of ${count} done within ${DEADLINE_MS / 1000} s`;
  return undefined;
}

type CpuUsage = Awaited<ReturnType<typeof serverCpu>>;

/** One round: its creates and updates, and the server's CPU time (µs) during each when it can be read. */
interface Round {
  creates: ConcurrentRun;
  updates: ConcurrentRun | undefined;
  problem: string | undefined;
  /** The server's CPU usage before the creates, after them, and after the updates. */
  cpu: [CpuUsage, CpuUsage, CpuUsage] | undefined;
}

/** Server CPU µs per operation between two samples. */
function cpuPerOp(from: CpuUsage, to: CpuUsage, ops: number): number {
  return (to.user - from.user + to.system - from.system) / Math.max(1, ops);
}

/** The measured rounds of the write workload on one server. */
export interface WriteRun {
  rounds: Round[];
  /** The first problem of a measured round (the rounds stop there). */
  failed: string | undefined;
  /** Medians of the rounds' rates (0 when a round failed). */
  createRate: number;
  updateRate: number;
}

export interface WriteWorkloadOptions {
  count: number;
  /** Reads the server's CPU time (the embedded server only). */
  cpu?: () => Promise<CpuUsage>;
  /** Called after the warm-up round's objects are deleted, before the measured rounds. */
  afterWarmUp?: () => Promise<void>;
  log: (line: string) => void;
}

/**
 * Creates `count` small ConfigMaps in `namespace` and replaces each once, a warm-up round and
 * then the measured rounds, the objects of a round deleted before the next; the last round's
 * objects stay (the list workload reads them). The namespace must exist.
 */
export async function measureWrites(
  target: HttpTarget,
  namespace: string,
  options: WriteWorkloadOptions,
): Promise<WriteRun> {
  const { count } = options;
  const pool = openPool(target, { connections: CONCURRENCY, pipelining: 1 });
  const resourceVersions: string[] = new Array<string>(count).fill('');
  const post = async (i: number): Promise<void> => {
    const res = await sendJson(
      pool,
      target,
      'POST',
      `/api/v1/namespaces/${namespace}/configmaps?fieldManager=bench`,
      smallConfigMap(namespace, i),
    );
    if (res.statusCode !== 201) throw new Error(`create cm-${i}: HTTP ${res.statusCode}: ${res.text.slice(0, 200)}`);
    resourceVersions[i] = (JSON.parse(res.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  };
  const put = async (i: number): Promise<void> => {
    const cm = smallConfigMap(namespace, i);
    (cm.metadata as { resourceVersion?: string }).resourceVersion = resourceVersions[i]!;
    cm.data = { index: String(i), value: `updated-${i}` };
    const res = await sendJson(
      pool,
      target,
      'PUT',
      `/api/v1/namespaces/${namespace}/configmaps/cm-${i}?fieldManager=bench`,
      cm,
    );
    if (res.statusCode !== 200) throw new Error(`update cm-${i}: HTTP ${res.statusCode}: ${res.text.slice(0, 200)}`);
  };
  const deleteAll = async (): Promise<void> => {
    const res = await sendJson(
      pool,
      target,
      'DELETE',
      `/api/v1/namespaces/${namespace}/configmaps?labelSelector=${BENCH_SELECTOR}`,
    );
    if (res.statusCode !== 200) throw new Error(`deleting the ConfigMaps: HTTP ${res.statusCode}`);
  };
  const round = async (): Promise<Round> => {
    const cpu0 = await options.cpu?.();
    const creates = await runConcurrent({ count, concurrency: CONCURRENCY, deadlineMs: DEADLINE_MS }, post);
    const cpu1 = await options.cpu?.();
    const createProblem = problem(creates, count);
    const updates =
      createProblem === undefined
        ? await runConcurrent({ count, concurrency: CONCURRENCY, deadlineMs: DEADLINE_MS }, put)
        : undefined;
    const cpu2 = await options.cpu?.();
    return {
      creates,
      updates,
      problem: createProblem ?? (updates ? problem(updates, count) : undefined),
      cpu: cpu0 && cpu1 && cpu2 ? [cpu0, cpu1, cpu2] : undefined,
    };
  };
  try {
    // A whole round first, not measured: the JIT warms up and the heap grows to hold the objects.
    options.log(`writes: warming up with a round of ${count} creates and updates`);
    const warm = await round();
    if (warm.problem !== undefined) throw new Error(`warm-up: ${warm.problem}`);
    await deleteAll();
    await options.afterWarmUp?.();
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // The last round's objects stay: the list benchmark reads them.
      if (r > 0) await deleteAll();
      options.log(
        `writes: round ${r + 1} of ${ROUNDS}: ${count} creates, then ${count} updates, ${CONCURRENCY} in flight`,
      );
      const measured = await round();
      rounds.push(measured);
      if (measured.problem !== undefined) break;
    }
    const failed = rounds.find((x) => x.problem !== undefined)?.problem;
    const median = (values: number[]): number => summarize(values).median;
    return {
      rounds,
      failed,
      createRate: failed !== undefined ? 0 : median(rounds.map((x) => rateOf(x.creates))),
      updateRate: failed !== undefined ? 0 : median(rounds.map((x) => (x.updates ? rateOf(x.updates) : 0))),
    };
  } finally {
    await pool.close();
  }
}

function latencies(run: WriteRun, pick: (x: Round) => ConcurrentRun | undefined): number[] {
  return run.rounds.flatMap((x) => pick(x)?.latenciesMs ?? []);
}

/** The figures of a write run that compare across servers: the rates, and the latencies' medians. */
export function writeFigures(run: WriteRun): Figure[] {
  const creates = latencies(run, (x) => x.creates);
  const updates = latencies(run, (x) => x.updates);
  return [
    { label: 'Creates (median of the rounds)', unit: 'per-s', value: run.createRate },
    { label: 'Updates (median of the rounds)', unit: 'per-s', value: run.updateRate },
    ...(creates.length > 0
      ? [{ label: 'Create latency (median)', unit: 'ms' as const, value: summarize(creates).median }]
      : []),
    ...(updates.length > 0
      ? [{ label: 'Update latency (median)', unit: 'ms' as const, value: summarize(updates).median }]
      : []),
  ];
}

/** Creates the benchmark's ConfigMaps (they are listed afterwards) and updates them. */
export async function runWriteBench(ctx: BenchContext): Promise<BenchResult> {
  await ctx.server.call('namespace', { name: WRITES_NAMESPACE });
  let before: Awaited<ReturnType<typeof serverMemory>> | undefined;
  const run = await measureWrites(embeddedTarget(ctx.url), WRITES_NAMESPACE, {
    count: WRITE_COUNT,
    cpu: () => serverCpu(ctx),
    afterWarmUp: async () => {
      before = await serverMemory(ctx, true);
    },
    log: ctx.log,
  });
  const after = await serverMemory(ctx, false);
  const { rounds, createRate, updateRate } = run;
  const failed = run.failed === undefined ? undefined : { problem: run.failed };
  const median = (values: number[]): number => summarize(values).median;
  const withCpu = rounds.flatMap((x) => (x.cpu ? [{ ...x, cpu: x.cpu }] : []));
  const cpuPerCreateUs = median(withCpu.map((x) => cpuPerOp(x.cpu[0], x.cpu[1], x.creates.done)));
  const cpuPerUpdateUs = median(withCpu.map((x) => (x.updates ? cpuPerOp(x.cpu[1], x.cpu[2], x.updates.done) : 0)));
  const pass = failed === undefined && createRate >= TARGET_PER_S && updateRate >= TARGET_PER_S;
  const perRound = (pick: (x: Round) => ConcurrentRun | undefined): string =>
    rounds
      .map((x) => {
        const run = pick(x);
        return run ? `${formatCount(run.done)} in ${formatMs(run.elapsedMs)} = ${formatRate(rateOf(run))}` : 'not run';
      })
      .join('; ');
  const latencyRow = (label: string, pick: (x: Round) => ConcurrentRun | undefined): Measurement[] => {
    const values = latencies(run, pick);
    if (values.length === 0) return [];
    const { median: m, p95 } = summarize(values);
    return [{ label: `${label} latency (median / p95, all rounds)`, value: `${formatMs(m)} / ${formatMs(p95)}` }];
  };
  const first = withCpu[0];
  const measurements = [
    {
      label: 'Creates (median of the rounds)',
      value: failed?.problem ?? `**${formatRate(createRate)}** (rounds: ${perRound((x) => x.creates)})`,
    },
    ...(first
      ? [
          {
            label: "API-server CPU during the first round's creates",
            value: describeCpu(first.cpu[0], first.cpu[1], first.creates.elapsedMs),
          },
        ]
      : []),
    ...latencyRow('Create', (x) => x.creates),
    {
      label: 'Updates (median of the rounds)',
      value: failed ? 'not measured' : `**${formatRate(updateRate)}** (rounds: ${perRound((x) => x.updates)})`,
    },
    ...(first?.updates
      ? [
          {
            label: "API-server CPU during the first round's updates",
            value: describeCpu(first.cpu[1], first.cpu[2], first.updates.elapsedMs),
          },
        ]
      : []),
    ...latencyRow('Update', (x) => x.updates),
  ];
  return {
    id: 'writes',
    title: 'Small writes',
    method:
      `Creates ${formatCount(WRITE_COUNT)} small ConfigMaps (two data keys, two labels) with \`POST\`, then replaces each once with a conditional \`PUT\` ` +
      `(carrying the resourceVersion its create returned), over HTTP/1.1 keep-alive with ${CONCURRENCY} requests in flight (undici \`Pool\` of ${CONCURRENCY} connections). ` +
      `Every request names a field manager, so the server maintains managedFields as it does for the operator's own writes. ` +
      `Every answer's status code is checked (201, 200). A first round, not measured, warms the server up (JIT, and a heap grown to hold the objects); ` +
      `then ${ROUNDS} measured rounds, the objects of each deleted (\`deletecollection\`) before the next; the rates are the rounds' medians.`,
    target: `≥ ${formatRate(TARGET_PER_S).replace('/s', '')} writes/s (creates and updates each)`,
    result: `${formatRate(createRate)} creates, ${formatRate(updateRate)} updates`,
    pass,
    measurements,
    figures: writeFigures(run),
    memory: [
      ...(before
        ? [{ process: 'API server', when: 'after the warm-up round (its objects deleted)', memory: before }]
        : []),
      { process: 'API server', when: "after the last round's updates", memory: after },
    ],
    notes: [
      `The API server's CPU time per write depends much less on other work on the machine than the wall-clock rate does: ${Math.round(cpuPerCreateUs)} µs per create` +
        ` and ${Math.round(cpuPerUpdateUs)} µs per update (medians of the rounds)` +
        `, so one core of this machine, fully available, would serve at most about ${formatRate(1e6 / cpuPerCreateUs)} creates` +
        ` and ${formatRate(1e6 / Math.max(1, cpuPerUpdateUs))} updates` +
        ' (some of that CPU time is garbage collection on helper threads).',
    ],
  };
}
