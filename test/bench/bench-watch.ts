/**
 * Benchmark 2: 100 concurrent HTTP watches of one collection while the server commits 10,000
 * changes to it. Every watcher decodes its stream with the operator's own watch decoder and
 * must see exactly the 10,000 ADDED events, in resourceVersion order, followed by a sentinel
 * object (which proves nothing else arrived in between).
 */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { LineSplitter, parseWatchLine } from '../../src/kube/watch-decoder.js';
import { serverMemory, type BenchContext } from './context.js';
import type { BurstResult } from './server-child.js';
import type { BenchResult } from './result.js';
import { SCALE, scaled } from './scale.js';
import { formatCount, formatMs, formatRate, summarize } from './stats.js';

const WATCHERS = scaled(100, SCALE);
const EVENTS = scaled(10_000, SCALE);
const NAMESPACE = 'bench-watch';
const SENTINEL = 'sentinel';
const CHUNK = 500;
const DEADLINE_MS = 90_000;

interface WatcherState {
  received: number;
  lastRv: number;
  /** ms from the burst's start to the 10,000th event. */
  allAtMs: number | undefined;
  sawSentinel: boolean;
  error: string | undefined;
}

/** Consumes one watch stream and checks every event against the expected sequence cm-0 … cm-9999, sentinel. */
async function consume(
  body: AsyncIterable<Buffer | string>,
  state: WatcherState,
  startedAt: () => number,
): Promise<void> {
  const lines = new LineSplitter();
  for await (const chunk of body) {
    for (const line of lines.push(chunk)) {
      const ev = parseWatchLine(line);
      if (ev.type === 'BOOKMARK') continue;
      const meta = ev.object.metadata as { name?: string; resourceVersion?: string } | undefined;
      const name = meta?.name ?? '';
      const rv = Number(meta?.resourceVersion ?? 'NaN');
      if (ev.type !== 'ADDED') throw new Error(`unexpected ${ev.type} event for ${name}`);
      if (!(rv > state.lastRv))
        throw new Error(`resourceVersion ${meta?.resourceVersion ?? '?'} after ${state.lastRv}: out of order`);
      state.lastRv = rv;
      if (state.received === EVENTS) {
        if (name !== SENTINEL) throw new Error(`event ${state.received + 1} is ${name}, expected the sentinel`);
        state.sawSentinel = true;
        return;
      }
      const expected = `cm-${state.received}`;
      if (name !== expected)
        throw new Error(
          `event ${state.received + 1} is ${name}, expected ${expected} (dropped, duplicated or reordered)`,
        );
      state.received++;
      if (state.received === EVENTS) state.allAtMs = performance.now() - startedAt();
    }
  }
  throw new Error(`stream ended after ${state.received} events`);
}

/** Opens the watchers, has the server commit the changes, waits for every watcher's sentinel. */
export async function runWatchBench(ctx: BenchContext): Promise<BenchResult> {
  await ctx.server.call('namespace', { name: NAMESPACE });
  const pool = new Pool(ctx.url, { connections: WATCHERS, keepAliveTimeout: 60_000 });
  const abort = new AbortController();
  // One abort listener per watch request is expected here.
  setMaxListeners(WATCHERS + 10, abort.signal);
  const deadline = setTimeout(() => abort.abort(new Error(`deadline of ${DEADLINE_MS / 1000} s passed`)), DEADLINE_MS);
  const states: WatcherState[] = Array.from({ length: WATCHERS }, () => ({
    received: 0,
    lastRv: 0,
    allAtMs: undefined,
    sawSentinel: false,
    error: undefined,
  }));
  let burstStart = 0;
  try {
    const listRes = await pool.request({
      path: `/api/v1/namespaces/${NAMESPACE}/configmaps`,
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    const list = (await listRes.body.json()) as { metadata: { resourceVersion: string } };
    const rv = list.metadata.resourceVersion;
    ctx.log(`watch: opening ${WATCHERS} watches from resourceVersion ${rv}`);
    const path = `/api/v1/namespaces/${NAMESPACE}/configmaps?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=600`;
    const responses = await Promise.all(
      states.map(() =>
        pool.request({
          path,
          method: 'GET',
          headers: { accept: 'application/json' },
          bodyTimeout: 0,
          signal: abort.signal,
        }),
      ),
    );
    for (const r of responses) if (r.statusCode !== 200) throw new Error(`watch: HTTP ${r.statusCode}`);
    const consumers = responses.map((r, i) =>
      consume(r.body, states[i]!, () => burstStart)
        .catch((err: unknown) => {
          states[i]!.error = err instanceof Error ? err.message : String(err);
        })
        .finally(() => r.body.destroy()),
    );
    const before = await serverMemory(ctx, true);
    ctx.log(`watch: committing ${EVENTS} changes`);
    burstStart = performance.now();
    const burst = await ctx.server.call<BurstResult>(
      'burst',
      { namespace: NAMESPACE, count: EVENTS, chunk: CHUNK, sentinel: SENTINEL },
      DEADLINE_MS,
    );
    await Promise.all(consumers);
    const totalMs = Math.max(...states.map((s) => s.allAtMs ?? Number.NaN));
    const after = await serverMemory(ctx, false);
    const failed = states.filter((s) => s.error !== undefined || !s.sawSentinel || s.received !== EVENTS);
    const complete = states.filter((s) => s.allAtMs !== undefined);
    const pass = failed.length === 0;
    const perWatcher = complete.length > 0 ? summarize(complete.map((s) => s.allAtMs!)) : undefined;
    const firstError = failed.find((s) => s.error !== undefined)?.error;
    return {
      id: 'watch',
      title: `${WATCHERS} watchers, ${formatCount(EVENTS)} events`,
      method:
        `Opens ${WATCHERS} watches (\`GET …/namespaces/${NAMESPACE}/configmaps?watch=true&resourceVersion=…&allowWatchBookmarks=true\`, one keep-alive ` +
        `connection each), then has the server create ${formatCount(EVENTS)} ConfigMaps in its store (chunks of ${CHUNK}, yielding to the event loop in between, ` +
        `so the streams flush while the changes are being made), then one sentinel ConfigMap. Each watcher decodes its stream with the operator's ` +
        `watch decoder (\`src/kube/watch-decoder.ts\`) and checks that the events are exactly ADDED cm-0 … cm-${EVENTS - 1}, in increasing ` +
        `resourceVersion, then the sentinel: nothing dropped, duplicated, reordered or inserted. The total time runs from the start of the changes ` +
        `to the moment the last watcher has its ${formatCount(EVENTS)}th event.`,
      target: `every watcher gets all ${formatCount(EVENTS)} events, in order, none dropped`,
      result: pass
        ? `${WATCHERS}/${WATCHERS} watchers complete and in order, in ${formatMs(totalMs)}`
        : `${failed.length} of ${WATCHERS} watchers incomplete: ${firstError ?? 'missing events'}`,
      pass,
      measurements: [
        {
          label: 'Watchers complete (all events, in order, then the sentinel)',
          value: `${WATCHERS - failed.length} / ${WATCHERS}`,
        },
        { label: 'Events delivered', value: formatCount(states.reduce((a, s) => a + s.received, 0)) },
        ...(pass
          ? [{ label: 'Total time (first change → last watcher has every event)', value: `**${formatMs(totalMs)}**` }]
          : []),
        ...(perWatcher
          ? [
              {
                label: 'Per-watcher completion time (median / p95 / max)',
                value: `${formatMs(perWatcher.median)} / ${formatMs(perWatcher.p95)} / ${formatMs(perWatcher.max)}`,
              },
            ]
          : []),
        ...(pass
          ? [
              {
                label: 'Delivery rate, all watchers together',
                value: `${formatRate((WATCHERS * EVENTS) / (totalMs / 1000))} events`,
              },
            ]
          : []),
        { label: 'Time the server spent committing the changes', value: formatMs(burst.ms) },
      ],
      memory: [
        { process: 'API server', when: 'with the watches open, before the changes', memory: before },
        { process: 'API server', when: 'after every watcher got every event', memory: after },
      ],
      notes: [],
    };
  } finally {
    clearTimeout(deadline);
    abort.abort();
    await pool.destroy();
  }
}
