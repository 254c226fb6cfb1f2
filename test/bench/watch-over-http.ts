/**
 * The watch workload as any API server can run it: watchers open HTTP watches on a namespace's
 * ConfigMaps, and a separate client process (writer-child.ts) creates the ConfigMaps over HTTP,
 * a fixed number in flight, then a sentinel. Concurrent creates commit in no fixed order, so
 * each watcher checks that it saw every name exactly once, ADDED, in increasing
 * resourceVersion, and the sentinel after all of them; objects others put in the namespace
 * (a real cluster's `kube-root-ca.crt`) are skipped. The embedded benchmark (bench-watch.ts)
 * has the server create the objects in-process instead; this one runs against both servers for
 * the side-by-side.
 */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { LineSplitter, parseWatchLine, type WatchEvent } from '../../src/kube/watch-decoder.js';
import { isBenchObject } from './bench-list.js';
import type { Figure } from './result.js';
import type { RpcChild } from './rpc.js';
import { summarize } from './stats.js';
import { openPool, sendJson, targetPath, type HttpTarget } from './target.js';
import type { CreateParams, CreateResult } from './writer-child.js';

/** Requests in flight of the creating process: the write benchmark's. */
export const CREATE_CONCURRENCY = 32;
const SENTINEL = 'sentinel';

/**
 * One watcher's check of its stream (pure): every `cm-<i>` (i < expected) ADDED exactly once,
 * resourceVersions increasing, then the sentinel. `accept` returns true once the sentinel came
 * and throws at the first event that breaks the rules.
 */
export class UnorderedWatchTally {
  readonly #seen: Uint8Array;
  received = 0;
  lastRv = 0;
  /** ms (on the caller's clock) when the last expected object arrived. */
  allAtMs: number | undefined;
  sawSentinel = false;

  readonly expected: number;

  constructor(expected: number) {
    this.expected = expected;
    this.#seen = new Uint8Array(expected);
  }

  accept(ev: WatchEvent, nowMs: number): boolean {
    if (ev.type === 'BOOKMARK') return false;
    if (ev.type === 'ERROR') {
      const message = ev.object.message;
      throw new Error(`watch ERROR event: ${typeof message === 'string' ? message : 'no message'}`);
    }
    const meta = ev.object.metadata as { name?: string; resourceVersion?: string } | undefined;
    const name = meta?.name ?? '';
    const isSentinel = name === SENTINEL;
    if (!isSentinel && !isBenchObject(ev.object)) return false;
    const rv = Number(meta?.resourceVersion ?? 'NaN');
    if (ev.type !== 'ADDED') throw new Error(`unexpected ${ev.type} event for ${name}`);
    if (!(rv > this.lastRv))
      throw new Error(`resourceVersion ${meta?.resourceVersion ?? '?'} after ${this.lastRv}: out of order`);
    this.lastRv = rv;
    if (isSentinel) {
      if (this.received !== this.expected)
        throw new Error(`the sentinel after ${this.received} of ${this.expected} objects`);
      this.sawSentinel = true;
      return true;
    }
    const i = /^cm-(\d+)$/.exec(name) ? Number(name.slice(3)) : -1;
    if (!(i >= 0 && i < this.expected)) throw new Error(`unexpected object ${name}`);
    if (this.#seen[i] === 1) throw new Error(`${name} delivered twice`);
    this.#seen[i] = 1;
    this.received++;
    if (this.received === this.expected) this.allAtMs = nowMs;
    return false;
  }
}

export interface HttpWatchOptions {
  watchers: number;
  events: number;
  /** The creating process (writer-child.ts). */
  writer: RpcChild;
  deadlineMs: number;
  log: (line: string) => void;
}

export interface HttpWatchRun {
  watchers: number;
  events: number;
  /** Watchers that got every object and then the sentinel. */
  complete: number;
  /** First create → the last watcher has every object, ms. */
  totalMs: number;
  /** Each complete watcher's time from the first create to its last object, ms. */
  perWatcherMs: number[];
  /** The creating process's time for its creates, ms. */
  createMs: number;
  /** The first problem (a watcher's or the creator's). */
  error: string | undefined;
}

/**
 * Runs the workload in `namespace` (which must exist; the benchmark's ConfigMaps left there by
 * an earlier workload are deleted first, before the watches start, and its own at the end).
 */
export async function measureHttpWatch(
  target: HttpTarget,
  namespace: string,
  options: HttpWatchOptions,
): Promise<HttpWatchRun> {
  const { watchers, events } = options;
  const pool = openPool(target, { connections: watchers + 1 });
  const abort = new AbortController();
  setMaxListeners(watchers + 10, abort.signal);
  const deadline = setTimeout(
    () => abort.abort(new Error(`deadline of ${options.deadlineMs / 1000} s passed`)),
    options.deadlineMs,
  );
  const collection = `/api/v1/namespaces/${namespace}/configmaps`;
  try {
    const cleared = await sendJson(pool, target, 'DELETE', `${collection}?labelSelector=app%3Dbench`);
    if (cleared.statusCode !== 200) throw new Error(`clearing ${collection}: HTTP ${cleared.statusCode}`);
    const stale = await sendJson(pool, target, 'DELETE', `${collection}/${SENTINEL}`);
    if (stale.statusCode !== 200 && stale.statusCode !== 404)
      throw new Error(`deleting the old sentinel: HTTP ${stale.statusCode}`);
    const listed = await sendJson(pool, target, 'GET', collection);
    if (listed.statusCode !== 200) throw new Error(`GET ${collection}: HTTP ${listed.statusCode}`);
    const rv = (JSON.parse(listed.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    options.log(`watch over HTTP: opening ${watchers} watches from resourceVersion ${rv}`);
    const path = targetPath(
      target,
      `${collection}?watch=true&resourceVersion=${rv}&allowWatchBookmarks=true&timeoutSeconds=600`,
    );
    const responses = await Promise.all(
      Array.from({ length: watchers }, () =>
        pool.request({
          path,
          method: 'GET',
          headers: { accept: 'application/json', ...target.headers },
          bodyTimeout: 0,
          signal: abort.signal,
        }),
      ),
    );
    for (const r of responses) if (r.statusCode !== 200) throw new Error(`watch: HTTP ${r.statusCode}`);
    let start = 0;
    const tallies = responses.map(() => new UnorderedWatchTally(events));
    const errors: string[] = [];
    const consumers = responses.map(async (r, i) => {
      const tally = tallies[i]!;
      const lines = new LineSplitter();
      try {
        for await (const chunk of r.body)
          for (const line of lines.push(chunk as Buffer | string))
            if (tally.accept(parseWatchLine(line), performance.now() - start)) return;
        throw new Error(`stream ended after ${tally.received} events`);
      } catch (err) {
        errors.push(err instanceof Error ? err.message : String(err));
      } finally {
        r.body.destroy();
      }
    });
    options.log(`watch over HTTP: a separate process creates ${events} ConfigMaps, ${CREATE_CONCURRENCY} in flight`);
    await options.writer.call('ready');
    start = performance.now();
    const created = await options.writer.call<CreateResult>(
      'create',
      {
        target,
        namespace,
        count: events,
        concurrency: CREATE_CONCURRENCY,
        sentinel: SENTINEL,
        deadlineMs: options.deadlineMs,
      } satisfies CreateParams,
      options.deadlineMs + 10_000,
    );
    if (created.error !== undefined) abort.abort(new Error(created.error));
    await Promise.all(consumers);
    // The objects go again, so that they do not weigh on the benchmarks that follow.
    await sendJson(pool, target, 'DELETE', `${collection}?labelSelector=app%3Dbench`);
    await sendJson(pool, target, 'DELETE', `${collection}/${SENTINEL}`);
    const done = tallies.filter((t) => t.sawSentinel && t.allAtMs !== undefined);
    const perWatcherMs = done.map((t) => t.allAtMs!);
    return {
      watchers,
      events,
      complete: done.length,
      totalMs: done.length === watchers ? Math.max(...perWatcherMs) : Number.NaN,
      perWatcherMs,
      createMs: created.ms,
      error: created.error ?? errors[0],
    };
  } finally {
    clearTimeout(deadline);
    abort.abort();
    await pool.destroy();
  }
}

/** The figures of a watch run over HTTP that compare across servers (none when a watcher missed something). */
export function httpWatchFigures(run: HttpWatchRun): Figure[] {
  if (run.error !== undefined || run.complete !== run.watchers) return [];
  return [
    { label: 'Total time (first create → last watcher has every event)', unit: 'ms', value: run.totalMs },
    { label: 'Per-watcher completion time (median)', unit: 'ms', value: summarize(run.perWatcherMs).median },
    { label: "Creating process's time for its creates", unit: 'ms', value: run.createMs },
    {
      label: 'Delivery rate, all watchers together',
      unit: 'per-s',
      value: (run.watchers * run.events) / (run.totalMs / 1000),
    },
  ];
}
