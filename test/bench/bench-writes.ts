/**
 * Benchmark 3: small writes over HTTP. Creates 10,000 small ConfigMaps, then replaces each once
 * (conditional PUT carrying the resourceVersion the create returned, as a controller does),
 * with keep-alive connections and 32 requests in flight.
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
const WARMUP = 1_000;
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
    if (record) resourceVersions[i] = (JSON.parse(text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
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
  try {
    await ctx.server.call('namespace', { name: WRITES_NAMESPACE });
    await ctx.server.call('namespace', { name: 'bench-warmup' });
    ctx.log(`writes: warming up with ${WARMUP} creates`);
    const warm = await runConcurrent({ count: WARMUP, concurrency: CONCURRENCY, deadlineMs: DEADLINE_MS }, (i) => post('bench-warmup', i, false));
    if (warm.error) throw warm.error;
    const before = await serverMemory(ctx, true);
    ctx.log(`writes: ${WRITE_COUNT} creates, ${CONCURRENCY} in flight`);
    const cpu0 = await serverCpu(ctx);
    const creates = await runConcurrent({ count: WRITE_COUNT, concurrency: CONCURRENCY, deadlineMs: DEADLINE_MS }, (i) => post(WRITES_NAMESPACE, i, true));
    const cpu1 = await serverCpu(ctx);
    const createProblem = problem(creates, WRITE_COUNT);
    let updates: ConcurrentRun | undefined;
    if (createProblem === undefined) {
      ctx.log(`writes: ${WRITE_COUNT} updates, ${CONCURRENCY} in flight`);
      updates = await runConcurrent({ count: WRITE_COUNT, concurrency: CONCURRENCY, deadlineMs: DEADLINE_MS }, put);
    }
    const cpu2 = await serverCpu(ctx);
    const updateProblem = updates ? problem(updates, WRITE_COUNT) : 'not run (creates failed)';
    const after = await serverMemory(ctx, false);
    const createRate = rateOf(creates);
    const updateRate = updates ? rateOf(updates) : 0;
    const cpuPerCreateUs = (cpu1.user - cpu0.user + cpu1.system - cpu0.system) / Math.max(1, creates.done);
    const cpuPerUpdateUs = updates ? (cpu2.user - cpu1.user + cpu2.system - cpu1.system) / Math.max(1, updates.done) : 0;
    const pass = createProblem === undefined && updateProblem === undefined && createRate >= TARGET_PER_S && updateRate >= TARGET_PER_S;
    const measurements = [
      { label: 'Creates', value: createProblem ?? `${formatCount(creates.done)} in ${formatMs(creates.elapsedMs)} = **${formatRate(createRate)}**` },
      { label: 'API-server CPU during the creates', value: describeCpu(cpu0, cpu1, creates.elapsedMs) },
      ...(creates.latenciesMs.length > 0 ? [{ label: 'Create latency (median / p95)', value: `${formatMs(summarize(creates.latenciesMs).median)} / ${formatMs(summarize(creates.latenciesMs).p95)}` }] : []),
      { label: 'Updates', value: updateProblem ?? `${formatCount(updates!.done)} in ${formatMs(updates!.elapsedMs)} = **${formatRate(updateRate)}**` },
      ...(updates ? [{ label: 'API-server CPU during the updates', value: describeCpu(cpu1, cpu2, updates.elapsedMs) }] : []),
      ...(updates && updates.latenciesMs.length > 0 ? [{ label: 'Update latency (median / p95)', value: `${formatMs(summarize(updates.latenciesMs).median)} / ${formatMs(summarize(updates.latenciesMs).p95)}` }] : []),
    ];
    return {
      id: 'writes',
      title: 'Small writes',
      method:
        `Creates ${formatCount(WRITE_COUNT)} small ConfigMaps (two data keys, two labels) with \`POST\`, then replaces each once with a conditional \`PUT\` ` +
        `(carrying the resourceVersion its create returned), over HTTP/1.1 keep-alive with ${CONCURRENCY} requests in flight (undici \`Pool\` of ${CONCURRENCY} connections). ` +
        `Every request names a field manager, so the server maintains managedFields as it does for the operator's own writes. ` +
        `${formatCount(WARMUP)} creates into another namespace warm the server up first. Every answer's status code is checked (201, 200).`,
      target: `≥ ${formatRate(TARGET_PER_S).replace('/s', '')} writes/s (creates and updates each)`,
      result: `${formatRate(createRate)} creates, ${formatRate(updateRate)} updates`,
      pass,
      measurements,
      memory: [
        { process: 'API server', when: 'before the creates', memory: before },
        { process: 'API server', when: 'after the updates', memory: after },
      ],
      notes: [
        `The API server's CPU time per write depends much less on other work on the machine than the wall-clock rate does: ${Math.round(cpuPerCreateUs)} µs per create` +
          (updates ? ` and ${Math.round(cpuPerUpdateUs)} µs per update` : '') +
          `, so one core of this machine, fully available, would serve at most about ${formatRate(1e6 / cpuPerCreateUs)} creates` +
          (updates ? ` and ${formatRate(1e6 / cpuPerUpdateUs)} updates` : '') +
          ' (some of that CPU time is garbage collection on helper threads).',
      ],
    };
  } finally {
    await pool.close();
  }
}
