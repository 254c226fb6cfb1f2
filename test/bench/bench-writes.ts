/**
 * Benchmark 3: small writes over HTTP. Creates 10,000 small ConfigMaps, then replaces each once
 * (conditional PUT carrying the resourceVersion the create returned, as a controller does),
 * with keep-alive connections and 32 requests in flight. One warm-up round, then three measured
 * rounds (the objects of a round are deleted before the next); the rates reported are the
 * rounds' medians, because the wall-clock rate of one round swings by ±20 % with the host's other
 * work on this 2-core machine.
 */
import { Pool } from 'undici';
import { runConcurrent, type ConcurrentRun } from './concurrency.js';
import { describeCpu, serverCpu, serverMemory, type BenchContext } from './context.js';
import { smallConfigMap } from './fixtures.js';
import type { BenchResult } from './result.js';
import { formatCount, formatMs, formatRate, summarize } from './stats.js';

export const WRITES_NAMESPACE = 'bench';
export const WRITE_COUNT = 10_000;
const CONCURRENCY = 32;
const ROUNDS = 3;
const TARGET_PER_S = 5_000;
const DEADLINE_MS = 60_000;

function rateOf(run: ConcurrentRun): number {
  return run.done / (run.elapsedMs / 1000);
}

function problem(run: ConcurrentRun, count: number): string | undefined {
  if (run.error) return run.error.message;
  if (run.timedOut || run.done !== count) return `only ${run.done} of ${count} done within ${DEADLINE_MS / 1000} s`;
  return undefined;
}

/** One round: its creates and updates, and the server's CPU time (µs) during each. */
interface Round {
  creates: ConcurrentRun;
  updates: ConcurrentRun | undefined;
  problem: string | undefined;
  /** The server's CPU usage before the creates, after them, and after the updates. */
  cpu: [CpuUsage, CpuUsage, CpuUsage];
}

type CpuUsage = Awaited<ReturnType<typeof serverCpu>>;

/** Server CPU µs per operation between two samples. */
function cpuPerOp(from: CpuUsage, to: CpuUsage, ops: number): number {
  return (to.user - from.user + to.system - from.system) / Math.max(1, ops);
}

/** Creates the benchmark's 10,000 ConfigMaps (they are listed afterwards) and updates them. */
export async function runWriteBench(ctx: BenchContext): Promise<BenchResult> {
  const pool = new Pool(ctx.url, { connections: CONCURRENCY, pipelining: 1, keepAliveTimeout: 60_000 });
  const resourceVersions: string[] = new Array<string>(WRITE_COUNT).fill('');
  const post = async (namespace: string, i: number, record: boolean): Promise<void> => {
    const res = await pool.request({
      path: `/api/v1/namespaces/${namespace}/configmaps?fieldManager=bench`,
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(smallConfigMap(namespace, i)),
    });
    const text = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`create cm-${i}: HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
    if (record)
      resourceVersions[i] = (JSON.parse(text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  };
  const put = async (i: number): Promise<void> => {
    const cm = smallConfigMap(WRITES_NAMESPACE, i);
    (cm.metadata as { resourceVersion?: string }).resourceVersion = resourceVersions[i]!;
    cm.data = { index: String(i), value: `updated-${i}` };
    const res = await pool.request({
      path: `/api/v1/namespaces/${WRITES_NAMESPACE}/configmaps/cm-${i}?fieldManager=bench`,
      method: 'PUT',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(cm),
    });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`update cm-${i}: HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
  };
  const deleteAll = async (): Promise<void> => {
    const res = await pool.request({
      path: `/api/v1/namespaces/${WRITES_NAMESPACE}/configmaps`,
      method: 'DELETE',
      headers: { accept: 'application/json' },
    });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`deleting the ConfigMaps: HTTP ${res.statusCode}`);
  };
  const round = async (): Promise<Round> => {
    const cpu0 = await serverCpu(ctx);
    const creates = await runConcurrent(
      { count: WRITE_COUNT, concurrency: CONCURRENCY, deadlineMs: DEADLINE_MS },
      (i) => post(WRITES_NAMESPACE, i, true),
    );
    const cpu1 = await serverCpu(ctx);
    const createProblem = problem(creates, WRITE_COUNT);
    const updates =
      createProblem === undefined
        ? await runConcurrent({ count: WRITE_COUNT, concurrency: CONCURRENCY, deadlineMs: DEADLINE_MS }, put)
        : undefined;
    const cpu2 = await serverCpu(ctx);
    return {
      creates,
      updates,
      problem: createProblem ?? (updates ? problem(updates, WRITE_COUNT) : undefined),
      cpu: [cpu0, cpu1, cpu2],
    };
  };
  try {
    await ctx.server.call('namespace', { name: WRITES_NAMESPACE });
    // A whole round first, not measured: the JIT warms up and the heap grows to hold the objects.
    ctx.log(`writes: warming up with a round of ${WRITE_COUNT} creates and updates`);
    const warm = await round();
    if (warm.problem !== undefined) throw new Error(`warm-up: ${warm.problem}`);
    await deleteAll();
    const before = await serverMemory(ctx, true);
    const rounds: Round[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // The last round's objects stay: the list benchmark reads them.
      if (r > 0) await deleteAll();
      ctx.log(
        `writes: round ${r + 1} of ${ROUNDS}: ${WRITE_COUNT} creates, then ${WRITE_COUNT} updates, ${CONCURRENCY} in flight`,
      );
      const measured = await round();
      rounds.push(measured);
      if (measured.problem !== undefined) break;
    }
    const after = await serverMemory(ctx, false);
    const failed = rounds.find((x) => x.problem !== undefined);
    const median = (values: number[]): number => summarize(values).median;
    const createRate = failed ? 0 : median(rounds.map((x) => rateOf(x.creates)));
    const updateRate = failed ? 0 : median(rounds.map((x) => (x.updates ? rateOf(x.updates) : 0)));
    const cpuPerCreateUs = median(rounds.map((x) => cpuPerOp(x.cpu[0], x.cpu[1], x.creates.done)));
    const cpuPerUpdateUs = median(rounds.map((x) => (x.updates ? cpuPerOp(x.cpu[1], x.cpu[2], x.updates.done) : 0)));
    const pass = failed === undefined && createRate >= TARGET_PER_S && updateRate >= TARGET_PER_S;
    const perRound = (pick: (x: Round) => ConcurrentRun | undefined): string =>
      rounds
        .map((x) => {
          const run = pick(x);
          return run
            ? `${formatCount(run.done)} in ${formatMs(run.elapsedMs)} = ${formatRate(rateOf(run))}`
            : 'not run';
        })
        .join('; ');
    const latencies = (pick: (x: Round) => ConcurrentRun | undefined): number[] =>
      rounds.flatMap((x) => pick(x)?.latenciesMs ?? []);
    const first = rounds[0];
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
      ...(latencies((x) => x.creates).length > 0
        ? [
            {
              label: 'Create latency (median / p95, all rounds)',
              value: `${formatMs(summarize(latencies((x) => x.creates)).median)} / ${formatMs(summarize(latencies((x) => x.creates)).p95)}`,
            },
          ]
        : []),
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
      ...(latencies((x) => x.updates).length > 0
        ? [
            {
              label: 'Update latency (median / p95, all rounds)',
              value: `${formatMs(summarize(latencies((x) => x.updates)).median)} / ${formatMs(summarize(latencies((x) => x.updates)).p95)}`,
            },
          ]
        : []),
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
      memory: [
        { process: 'API server', when: 'after the warm-up round (its objects deleted)', memory: before },
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
  } finally {
    await pool.close();
  }
}
