/**
 * Benchmark: the API server's memory over rounds that leave its store as they found it. Each of
 * ten rounds creates a namespace, opens a watch on its ConfigMaps, creates 2,000 ConfigMaps over
 * HTTP, lists them in pages, opens a second watch that replays them from the watch window, and
 * deletes the namespace (the namespace controller deletes the ConfigMaps) until it is gone. The
 * heap after a full GC is read after every round, in a fresh API-server process of its own (so
 * what other benchmarks left behind does not count).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { DEFAULT_WATCH_WINDOW_SIZE } from '../../src/apiserver/storage/watch-hub.js';
import { LineSplitter, parseWatchLine } from '../../src/kube/watch-decoder.js';
import { runConcurrent } from './concurrency.js';
import type { BenchContext } from './context.js';
import { smallConfigMap } from './fixtures.js';
import type { ProcessMemory } from './memory.js';
import type { BenchResult } from './result.js';
import { RpcChild } from './rpc.js';
import type { StartResult } from './server-child.js';
import { formatCount, formatMiB } from './stats.js';

const ROUNDS = 10;
const OBJECTS = 2_000;
const CONCURRENCY = 16;
const PAGE = 500;
const NAMESPACE = 'bench-memory';
const ROUND_DEADLINE_MS = 120_000;
/**
 * The first round whose end finds the watch window full: each round adds a creation and a deletion
 * per ConfigMap. Until then the heap grows by design (the window is bounded, not empty).
 */
const WINDOW_FULL_ROUND = Math.ceil(DEFAULT_WATCH_WINDOW_SIZE / (2 * OBJECTS));
/** From that round on, the heap after GC stays within this band (max − min). */
const TARGET_SPREAD_BYTES = 2 * 2 ** 20;

/** Counts one watch stream's events until every object has been deleted; throws on an ERROR event. */
async function consumeWatch(body: AsyncIterable<Buffer | string>): Promise<{ added: number; deleted: number }> {
  const lines = new LineSplitter();
  let added = 0;
  let deleted = 0;
  for await (const chunk of body) {
    for (const line of lines.push(chunk)) {
      const ev = parseWatchLine(line);
      if (ev.type === 'ERROR') throw new Error(`watch ended with an error: ${JSON.stringify(ev.object)}`);
      if (ev.type === 'ADDED') added++;
      else if (ev.type === 'DELETED') deleted++;
      if (deleted === OBJECTS) return { added, deleted };
    }
  }
  throw new Error(`watch stream ended after ${added} ADDED and ${deleted} DELETED events`);
}

async function send(
  pool: Pool,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<[number, string]> {
  const res = await pool.request({
    path,
    method,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return [res.statusCode, await res.body.text()];
}

function expect(what: string, [status, text]: [number, string], code: number): string {
  if (status !== code) throw new Error(`${what}: HTTP ${status} (expected ${code}): ${text.slice(0, 200)}`);
  return text;
}

/** One round against the server at `pool`; resolves once the namespace is gone. */
async function round(pool: Pool, signal: AbortSignal): Promise<void> {
  const nsPath = '/api/v1/namespaces';
  const created = expect(
    'create the namespace',
    await send(pool, 'POST', nsPath, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } }),
    201,
  );
  const rv = (JSON.parse(created) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const cmPath = `${nsPath}/${NAMESPACE}/configmaps`;
  const openWatch = async (): Promise<{ done: Promise<{ added: number; deleted: number }> }> => {
    const res = await pool.request({
      path: `${cmPath}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true`,
      method: 'GET',
      headers: { accept: 'application/json' },
      bodyTimeout: 0,
      signal,
    });
    if (res.statusCode !== 200) throw new Error(`watch: HTTP ${res.statusCode}`);
    // Wrapped: an async function's returned promise would be awaited with it.
    return { done: consumeWatch(res.body).finally(() => res.body.destroy()) };
  };
  // Live: opened before the creates.
  const live = await openWatch();
  const creates = await runConcurrent(
    { count: OBJECTS, concurrency: CONCURRENCY, deadlineMs: ROUND_DEADLINE_MS },
    async (i) => {
      expect(
        `create cm-${i}`,
        await send(pool, 'POST', `${cmPath}?fieldManager=bench`, smallConfigMap(NAMESPACE, i)),
        201,
      );
    },
  );
  if (creates.error) throw creates.error;
  if (creates.done !== OBJECTS) throw new Error(`only ${creates.done} of ${OBJECTS} creates done`);
  let listed = 0;
  let token = '';
  do {
    const page = JSON.parse(
      expect(
        'list',
        await send(pool, 'GET', `${cmPath}?limit=${PAGE}${token ? `&continue=${encodeURIComponent(token)}` : ''}`),
        200,
      ),
    ) as { items: unknown[]; metadata: { continue?: string } };
    listed += page.items.length;
    token = page.metadata.continue ?? '';
  } while (token !== '');
  if (listed !== OBJECTS) throw new Error(`listed ${listed} ConfigMaps, expected ${OBJECTS}`);
  // Replayed: from the namespace's resourceVersion, out of the watch window.
  const replayed = await openWatch();
  expect('delete the namespace', await send(pool, 'DELETE', `${nsPath}/${NAMESPACE}`), 200);
  for (const [name, watch] of [
    ['live', live],
    ['replaying', replayed],
  ] as const) {
    const seen = await watch.done;
    if (seen.added !== OBJECTS) throw new Error(`${name} watch: ${seen.added} ADDED events, expected ${OBJECTS}`);
  }
  for (;;) {
    const [status] = await send(pool, 'GET', `${nsPath}/${NAMESPACE}`);
    if (status === 404) return;
    if (signal.aborted) throw new Error('the namespace was not removed in time');
    await sleep(20);
  }
}

export async function runApiServerMemoryBench(ctx: BenchContext): Promise<BenchResult> {
  const tmp = await mkdtemp(join(os.tmpdir(), 'upgrade-operator-bench-memory-'));
  const server = new RpcChild(join(ctx.compiledBenchDir, 'server-child.js'), {
    execArgv: [...ctx.childFlags, '--no-warnings'],
    timeoutMs: 60_000,
  });
  const rounds: ProcessMemory[] = [];
  let error: string | undefined;
  let pool: Pool | undefined;
  let baseline: ProcessMemory | undefined;
  try {
    const { url } = await server.call<StartResult>('start', { kubeconfigPath: join(tmp, 'kubeconfig') });
    pool = new Pool(url, { connections: CONCURRENCY + 2, keepAliveTimeout: 60_000 });
    baseline = await server.call<ProcessMemory>('memory', { gc: true });
    for (let r = 1; r <= ROUNDS; r++) {
      const abort = new AbortController();
      const deadline = setTimeout(
        () => abort.abort(new Error(`round ${r} took longer than ${ROUND_DEADLINE_MS / 1000} s`)),
        ROUND_DEADLINE_MS,
      );
      try {
        await round(pool, abort.signal);
      } finally {
        clearTimeout(deadline);
      }
      const m = await server.call<ProcessMemory>('memory', { gc: true });
      rounds.push(m);
      ctx.log(
        `apiserver-memory: round ${r} of ${ROUNDS}: heap after GC ${formatMiB(m.heapUsed)}, RSS ${formatMiB(m.rss)}`,
      );
    }
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  } finally {
    await pool?.destroy();
    await server.close();
    await rm(tmp, { recursive: true, force: true });
  }
  const spreadOf = (xs: ProcessMemory[]): number =>
    xs.length > 0 ? Math.max(...xs.map((x) => x.heapUsed)) - Math.min(...xs.map((x) => x.heapUsed)) : Number.NaN;
  const spread = spreadOf(rounds.slice(WINDOW_FULL_ROUND - 1));
  const steadyRange = `rounds ${WINDOW_FULL_ROUND}–${ROUNDS}`;
  const pass = error === undefined && rounds.length === ROUNDS && spread <= TARGET_SPREAD_BYTES;
  const perRound = (pick: (x: ProcessMemory) => number): string =>
    rounds.map((x, i) => `${i + 1}: ${(pick(x) / 2 ** 20).toFixed(1)}`).join(', ');
  const last = rounds.at(-1);
  return {
    id: 'apiserver-memory',
    title: 'API-server memory over rounds of churn',
    method:
      `${ROUNDS} rounds against a fresh API-server process of their own, each leaving the store as it found it: create namespace \`${NAMESPACE}\`; ` +
      `open a watch on its ConfigMaps from the namespace's resourceVersion; create ${formatCount(OBJECTS)} small ConfigMaps with \`POST\` ` +
      `(field manager set, ${CONCURRENCY} in flight); list them in pages of ${PAGE}; open a second watch from the same resourceVersion, which the ` +
      `server replays from its watch window; delete the namespace, and wait until both watches have had ${formatCount(OBJECTS)} ADDED and ` +
      `${formatCount(OBJECTS)} DELETED events and the namespace is gone. After every round the server's heap is read after two full GCs. ` +
      `The watch window (${formatCount(DEFAULT_WATCH_WINDOW_SIZE)} changes per resource type) is full from round ${WINDOW_FULL_ROUND} on; ` +
      `the target is that the rounds from then on do not grow the heap.`,
    target: `heap after GC of ${steadyRange} within ${formatMiB(TARGET_SPREAD_BYTES)} (max − min)`,
    result:
      error !== undefined
        ? `error after ${rounds.length} rounds: ${error.split('\n')[0] ?? ''}`
        : `${steadyRange} within ${formatMiB(spread)}`,
    pass,
    measurements: [
      ...(baseline ? [{ label: 'Heap after GC before round 1', value: formatMiB(baseline.heapUsed) }] : []),
      { label: 'Heap after GC per round (MiB)', value: perRound((x) => x.heapUsed) },
      ...(rounds.length >= WINDOW_FULL_ROUND
        ? [{ label: `Spread of ${steadyRange}`, value: `**${formatMiB(spread)}**` }]
        : []),
      ...(rounds.length > 1
        ? [
            {
              label: `Spread of rounds 2–${rounds.length} (the window filling)`,
              value: formatMiB(spreadOf(rounds.slice(1))),
            },
          ]
        : []),
      { label: 'RSS after each round (MiB)', value: perRound((x) => x.rss) },
    ],
    memory: [
      ...(baseline ? [{ process: 'API server', when: 'before round 1', memory: baseline }] : []),
      ...(last ? [{ process: 'API server', when: `after round ${rounds.length}`, memory: last }] : []),
    ],
    notes: [],
  };
}
