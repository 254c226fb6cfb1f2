/**
 * Benchmark 1: LIST of 10,000 objects over HTTP — the full JSON list response, timed from
 * sending the request to having the whole body, as a client sees it — plus the in-process
 * store list time. Lists the ConfigMaps the write benchmark created.
 */
import { performance } from 'node:perf_hooks';
import { serverMemory, type BenchContext } from './context.js';
import type { StoreListResult } from './server-child.js';
import type { BenchResult, Figure } from './result.js';
import { formatCount, formatMiB, formatMs, summarize } from './stats.js';
import { embeddedTarget, openPool, targetPath, type HttpTarget } from './target.js';

const WARMUP_RUNS = 3;
const RUNS = 40;
const DEADLINE_MS = 30_000;
const TARGET_MS = 100;

export interface HttpListTiming {
  /** Request sent → whole body received, ms. */
  fetchMs: number[];
  /** JSON.parse of the body, ms. */
  parseMs: number[];
  bytes: number;
  items: number;
}

/** True for the objects the benchmarks wrote (a real cluster's namespace holds others, such as `kube-root-ca.crt`). */
export function isBenchObject(item: unknown): boolean {
  return (item as { metadata?: { labels?: Record<string, string> } }).metadata?.labels?.app === 'bench';
}

/**
 * Lists `path` `runs` times after warm-up runs (bounded by a deadline); checks every answer has
 * `expected` items (of those `counted` accepts, when given).
 */
export async function timeHttpList(
  target: HttpTarget,
  path: string,
  expected: number,
  runs: number,
  warmup: number,
  counted?: (item: unknown) => boolean,
): Promise<HttpListTiming> {
  const pool = openPool(target, { connections: 1 });
  const fetchMs: number[] = [];
  const parseMs: number[] = [];
  let bytes = 0;
  const start = performance.now();
  try {
    for (let i = 0; i < warmup + runs && performance.now() - start < DEADLINE_MS; i++) {
      const t0 = performance.now();
      const res = await pool.request({
        path: targetPath(target, path),
        method: 'GET',
        headers: { accept: 'application/json', ...target.headers },
      });
      const text = await res.body.text();
      const t1 = performance.now();
      if (res.statusCode !== 200) throw new Error(`GET ${path}: HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
      const list = JSON.parse(text) as { items?: unknown[] };
      const t2 = performance.now();
      const n = (counted ? list.items?.filter(counted) : list.items)?.length ?? 0;
      if (n !== expected) throw new Error(`GET ${path}: ${n} items, expected ${expected}`);
      bytes = Buffer.byteLength(text);
      if (i >= warmup) {
        fetchMs.push(t1 - t0);
        parseMs.push(t2 - t1);
      }
    }
  } finally {
    await pool.close();
  }
  if (fetchMs.length === 0) throw new Error(`GET ${path}: no measured run within ${DEADLINE_MS} ms`);
  return { fetchMs, parseMs, bytes, items: expected };
}

/** The list workload: the write benchmark's ConfigMaps in `namespace`, listed on one connection. */
export function measureList(target: HttpTarget, namespace: string, count: number): Promise<HttpListTiming> {
  return timeHttpList(target, `/api/v1/namespaces/${namespace}/configmaps`, count, RUNS, WARMUP_RUNS, isBenchObject);
}

/** The figures of a list run that compare across servers. */
export function listFigures(http: HttpListTiming): Figure[] {
  const fetch = summarize(http.fetchMs);
  return [
    { label: 'HTTP list, full body (median)', unit: 'ms', value: fetch.median },
    { label: 'HTTP list, full body (p95)', unit: 'ms', value: fetch.p95 },
    { label: 'Client JSON.parse of the body (median)', unit: 'ms', value: summarize(http.parseMs).median },
  ];
}

/** Lists the write benchmark's ConfigMaps. */
export async function runListBench(ctx: BenchContext, namespace: string, count: number): Promise<BenchResult> {
  const path = `/api/v1/namespaces/${namespace}/configmaps`;
  ctx.log(`list: ${WARMUP_RUNS} + ${RUNS} lists of ${count} ConfigMaps`);
  const http = await measureList(embeddedTarget(ctx.url), namespace, count);
  const store = await ctx.server.call<StoreListResult>('storeList', {
    group: '',
    resource: 'configmaps',
    namespace,
    runs: RUNS,
  });
  const after = await serverMemory(ctx, false);
  const fetch = summarize(http.fetchMs);
  const parse = summarize(http.parseMs);
  const storeList = summarize(store.listMs);
  const storeSer = summarize(store.listAndSerializeMs);
  const pass = fetch.median <= TARGET_MS && fetch.p95 <= TARGET_MS && store.count === count;
  return {
    id: 'list',
    title: `LIST of ${formatCount(count)} objects`,
    method:
      `\`GET ${path}\` (the ${formatCount(count)} ConfigMaps of the write benchmark, managedFields included) on one keep-alive connection: ` +
      `${WARMUP_RUNS} warm-up requests, then ${http.fetchMs.length} timed ones, each from sending the request to having the whole JSON body ` +
      `(${formatMiB(http.bytes)}); every answer is parsed and must hold ${formatCount(count)} items. The in-process figures time ` +
      '`store.list()` alone, and `store.list()` plus `JSON.stringify` of the list, inside the server process.',
    target: `≤ ${TARGET_MS} ms (median and p95, over HTTP)`,
    result: `${formatMs(fetch.median)} median, ${formatMs(fetch.p95)} p95`,
    pass,
    measurements: [
      {
        label: 'HTTP list, full body (median / p95 / max)',
        value: `**${formatMs(fetch.median)}** / **${formatMs(fetch.p95)}** / ${formatMs(fetch.max)}`,
      },
      { label: 'Client JSON.parse of the body (median)', value: formatMs(parse.median) },
      {
        label: 'Response size',
        value: `${formatMiB(http.bytes)} (${formatCount(http.bytes / count)} bytes per object)`,
      },
      {
        label: 'In-process `store.list()` (median / p95)',
        value: `${formatMs(storeList.median)} / ${formatMs(storeList.p95)}`,
      },
      {
        label: 'In-process `store.list()` + `JSON.stringify` (median / p95)',
        value: `${formatMs(storeSer.median)} / ${formatMs(storeSer.p95)}`,
      },
    ],
    figures: listFigures(http),
    memory: [{ process: 'API server', when: 'after the lists', memory: after }],
    notes: [],
  };
}
