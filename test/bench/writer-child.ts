/**
 * A load-generator process for the watch workload over HTTP: it creates the ConfigMaps the
 * watchers wait for with `POST`s, a fixed number in flight, then a sentinel ConfigMap, so that
 * neither the server nor the watchers share its event loop. Driven over IPC (rpc.ts).
 */
import { performance } from 'node:perf_hooks';
import { runConcurrent } from './concurrency.js';
import { smallConfigMap } from './fixtures.js';
import { serveRpc } from './rpc.js';
import { openPool, sendJson, type HttpTarget } from './target.js';

export interface CreateParams {
  target: HttpTarget;
  namespace: string;
  count: number;
  concurrency: number;
  sentinel: string;
  deadlineMs: number;
}

export interface CreateResult {
  /** ConfigMaps created (the sentinel not counted). */
  done: number;
  /** First create sent → last create answered, ms. */
  ms: number;
  /** The first failure, or the deadline passing. */
  error?: string;
}

async function createConfigMaps(p: CreateParams): Promise<CreateResult> {
  const pool = openPool(p.target, { connections: p.concurrency, pipelining: 1 });
  const path = `/api/v1/namespaces/${p.namespace}/configmaps?fieldManager=bench`;
  try {
    const t = performance.now();
    const run = await runConcurrent(
      { count: p.count, concurrency: p.concurrency, deadlineMs: p.deadlineMs },
      async (i) => {
        const res = await sendJson(pool, p.target, 'POST', path, smallConfigMap(p.namespace, i));
        if (res.statusCode !== 201)
          throw new Error(`create cm-${i}: HTTP ${res.statusCode}: ${res.text.slice(0, 200)}`);
      },
    );
    const ms = performance.now() - t;
    if (run.error) return { done: run.done, ms, error: run.error.message };
    if (run.done !== p.count) return { done: run.done, ms, error: `only ${run.done} of ${p.count} created in time` };
    const sentinel = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: p.sentinel, namespace: p.namespace } };
    const res = await sendJson(pool, p.target, 'POST', path, sentinel);
    if (res.statusCode !== 201)
      return { done: run.done, ms, error: `create ${p.sentinel}: HTTP ${res.statusCode}: ${res.text.slice(0, 200)}` };
    return { done: run.done, ms };
  } finally {
    await pool.close();
  }
}

serveRpc({
  /** Answers once the process is up (the caller's clock should not count its start-up). */
  ready: () => Promise.resolve({}),
  create: (p) => createConfigMaps(p as CreateParams),
});
