/**
 * The side-by-side runs: after a benchmark ran on the embedded server, the same workload against
 * the external server (BENCH_KUBECONFIG), paired figure by figure. What only the embedded server
 * can give (its in-process store timings, CPU time and RSS, creating objects inside the server)
 * has no counterpart and is left out, and the method text says so.
 */
import { measureList, listFigures } from './bench-list.js';
import { measureWrites, writeFigures, WRITE_COUNT } from './bench-writes.js';
import type { BenchContext } from './context.js';
import type { ExternalServer } from './external-server.js';
import type { BenchResult, SideBySide } from './result.js';
import type { RpcChild } from './rpc.js';
import { SCALE, scaled } from './scale.js';
import { pairFigures } from './side-by-side.js';
import { formatCount } from './stats.js';
import { embeddedTarget } from './target.js';
import { CREATE_CONCURRENCY, httpWatchFigures, measureHttpWatch, type HttpWatchRun } from './watch-over-http.js';

/** The benchmarks with a side-by-side. */
export const SIDE_BY_SIDE_IDS: ReadonlySet<string> = new Set(['writes', 'list', 'watch']);

/** The embedded server's namespace for the watch workload over HTTP (bench-watch.ts uses `bench-watch`). */
const WATCH_HTTP_NAMESPACE = 'bench-watch-http';
const WATCH_DEADLINE_MS = 120_000;

export interface SideBySideSizes {
  writes: number;
  watchers: number;
  events: number;
}

/** The sizes of the full benchmarks (BENCH_SCALE reduces them). */
export const SIDE_BY_SIDE_SIZES: SideBySideSizes = {
  writes: WRITE_COUNT,
  watchers: scaled(100, SCALE),
  events: scaled(10_000, SCALE),
};

const NO_RSS =
  "The external server's CPU time and RSS are not measured: they cannot be read from outside its process (a remote server's least of all).";

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}

async function writesSideBySide(
  embedded: BenchResult,
  ext: ExternalServer,
  ctx: BenchContext,
  sizes: SideBySideSizes,
): Promise<SideBySide> {
  const run = await measureWrites(ext.target, ext.namespace, { count: sizes.writes, log: ctx.log });
  if (run.failed !== undefined) return { method: '', rows: [], notes: [], error: run.failed };
  return {
    method:
      `The same workload (${formatCount(sizes.writes)} creates, then as many conditional updates, 32 in flight, a warm-up round and three ` +
      `measured rounds) from the same client against the external server, in the run's namespace \`${ext.namespace}\`.`,
    rows: pairFigures(embedded.figures ?? [], writeFigures(run)),
    notes: [NO_RSS],
  };
}

async function listSideBySide(embedded: BenchResult, ext: ExternalServer, sizes: SideBySideSizes): Promise<SideBySide> {
  const http = await measureList(ext.target, ext.namespace, sizes.writes);
  return {
    method:
      `The same \`GET\` of the ${formatCount(sizes.writes)} ConfigMaps the write workload left in \`${ext.namespace}\` on the external server, ` +
      'on one keep-alive connection, each answer parsed and counted. A real cluster adds ConfigMaps of its own to every namespace ' +
      "(`kube-root-ca.crt`): they are in the body but not counted. The in-process `store.list()` timings are the embedded server's " +
      'alone and have no counterpart.',
    rows: pairFigures(embedded.figures ?? [], listFigures(http)),
    notes: [NO_RSS],
  };
}

function watchProblem(server: string, run: HttpWatchRun): string | undefined {
  if (run.error !== undefined) return `${server}: ${run.error}`;
  if (run.complete !== run.watchers)
    return `${server}: ${run.watchers - run.complete} of ${run.watchers} watchers incomplete`;
  return undefined;
}

async function watchSideBySide(
  ext: ExternalServer,
  ctx: BenchContext,
  sizes: SideBySideSizes,
  spawnWriter: () => RpcChild,
): Promise<SideBySide> {
  const writer = spawnWriter();
  try {
    const options = {
      watchers: sizes.watchers,
      events: sizes.events,
      writer,
      deadlineMs: WATCH_DEADLINE_MS,
      log: ctx.log,
    };
    await ctx.server.call('namespace', { name: WATCH_HTTP_NAMESPACE });
    ctx.log('watch: the workload over HTTP on the embedded server, for the side-by-side');
    const onEmbedded = await measureHttpWatch(embeddedTarget(ctx.url), WATCH_HTTP_NAMESPACE, options);
    const embeddedProblem = watchProblem('embedded server', onEmbedded);
    if (embeddedProblem !== undefined) return { method: '', rows: [], notes: [], error: embeddedProblem };
    ctx.log('watch: the workload over HTTP on the external server');
    const onExternal = await measureHttpWatch(ext.target, ext.namespace, options);
    const externalProblem = watchProblem('external server', onExternal);
    if (externalProblem !== undefined) return { method: '', rows: [], notes: [], error: externalProblem };
    return {
      method:
        'The benchmark above has the embedded server create the objects inside its own process, which an external server cannot do. ' +
        `So the side-by-side runs a variant on both servers: ${sizes.watchers} watches opened as above, then a separate client process ` +
        `creates the ${formatCount(sizes.events)} ConfigMaps over HTTP, ${CREATE_CONCURRENCY} requests in flight (the write benchmark's ` +
        'concurrency), then a sentinel. Concurrent creates commit in no fixed order, so each watcher checks that it got every ' +
        'object exactly once, ADDED, in increasing resourceVersion, and the sentinel after all of them. Both columns are this ' +
        'variant; the time includes the creates over HTTP, so it is longer than the in-process figure above.',
      rows: pairFigures(httpWatchFigures(onEmbedded), httpWatchFigures(onExternal)),
      notes: [NO_RSS],
    };
  } finally {
    await writer.close();
  }
}

/**
 * The side-by-side of one benchmark (`embedded` is its result on the embedded server); a failure
 * becomes the result's one-line error, never an exception.
 */
export async function runSideBySide(
  embedded: BenchResult,
  ext: ExternalServer,
  ctx: BenchContext,
  spawnWriter: () => RpcChild,
  sizes: SideBySideSizes = SIDE_BY_SIDE_SIZES,
): Promise<SideBySide | undefined> {
  if (!SIDE_BY_SIDE_IDS.has(embedded.id)) return undefined;
  try {
    if (embedded.id === 'writes') return await writesSideBySide(embedded, ext, ctx, sizes);
    if (embedded.id === 'list') return await listSideBySide(embedded, ext, sizes);
    return await watchSideBySide(ext, ctx, sizes, spawnWriter);
  } catch (err) {
    return { method: '', rows: [], notes: [], error: firstLine(err) };
  }
}
