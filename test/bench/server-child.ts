/**
 * The API-server process of the benchmarks: the embedded server on 127.0.0.1 (random port),
 * driven over IPC by scripts/run-bench.ts. It runs compiled (no tsx), so its RSS is the
 * server's own. It can also write straight into its store (seeding, event bursts) and time the
 * in-process list.
 */
import { performance } from 'node:perf_hooks';
import { RealClock } from '../../src/lib/clock.js';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.js';
import type { KubeObject, ResourceType } from '../../src/apiserver/types.js';
import { PLACEMENT_CYCLE, realisticNode, realisticPod, smallConfigMap } from './fixtures.js';
import type { JsonValue } from '../../src/lib/json.js';
import { serveRpc } from './rpc.js';
import { processMemory, type ProcessMemory } from './memory.js';

let server: ApiServer | undefined;

/** Process warnings (the runner starts this process with --no-warnings and reports them instead). */
const warnings = new Map<string, number>();
process.on('warning', (w) => {
  const key = `${w.name}: ${w.message}`;
  warnings.set(key, (warnings.get(key) ?? 0) + 1);
});

function api(): ApiServer {
  if (!server) throw new Error('server not started');
  return server;
}

function type(group: string, resource: string): ResourceType {
  const rt = api().store.resourceType(group, resource);
  if (!rt) throw new Error(`no resource type ${group}/${resource}`);
  return rt;
}

function ensureNamespace(name: string): void {
  const ns = type('', 'namespaces');
  if (!api().store.get(ns, '', name))
    api().store.create(ns, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** Lets the event loop run (watch streams flush) between chunks of a burst. */
function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export interface StartResult {
  url: string;
  pid: number;
}

export interface StoreListResult {
  count: number;
  listMs: number[];
  listAndSerializeMs: number[];
  bytes: number;
}

export interface BurstResult {
  fromResourceVersion: string;
  toResourceVersion: string;
  ms: number;
}

export interface SeedResult {
  ms: number;
  nodes: number;
  pods: number;
}

serveRpc({
  start: async (p) => {
    const { kubeconfigPath } = p as { kubeconfigPath: string };
    server = await startApiServer({ port: 0, clock: new RealClock() });
    await server.writeKubeconfig(kubeconfigPath);
    return { url: server.url, pid: process.pid } satisfies StartResult;
  },
  memory: async (p): Promise<ProcessMemory> => processMemory((p as { gc?: boolean }).gc === true),
  cpu: async (): Promise<NodeJS.CpuUsage> => process.cpuUsage(),
  /** Warnings since the last call, with their counts. */
  warnings: async (): Promise<Array<[string, number]>> => {
    const out = [...warnings];
    warnings.clear();
    return out;
  },
  namespace: async (p) => {
    ensureNamespace((p as { name: string }).name);
    return {};
  },
  storeList: async (p): Promise<StoreListResult> => {
    const { group, resource, namespace, runs } = p as {
      group: string;
      resource: string;
      namespace?: string;
      runs: number;
    };
    const rt = type(group, resource);
    const listMs: number[] = [];
    const listAndSerializeMs: number[] = [];
    let count = 0;
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      const items = api().store.list(rt, namespace);
      listMs.push(performance.now() - t);
      count = items.length;
      t = performance.now();
      const text = JSON.stringify({
        kind: rt.listKind,
        apiVersion: 'v1',
        metadata: { resourceVersion: api().store.currentResourceVersion() },
        items: api().store.list(rt, namespace),
      });
      listAndSerializeMs.push(performance.now() - t);
      bytes = text.length;
    }
    return { count, listMs, listAndSerializeMs, bytes };
  },
  burst: async (p): Promise<BurstResult> => {
    const { namespace, count, chunk, sentinel } = p as {
      namespace: string;
      count: number;
      chunk: number;
      sentinel?: string;
    };
    ensureNamespace(namespace);
    const rt = type('', 'configmaps');
    const from = api().store.currentResourceVersion();
    const t = performance.now();
    for (let i = 0; i < count; i += chunk) {
      for (let j = i; j < Math.min(count, i + chunk); j++)
        api().store.create(rt, smallConfigMap(namespace, j) as unknown as KubeObject, { fieldManager: 'bench' });
      await yieldToLoop();
    }
    const to = api().store.currentResourceVersion();
    const ms = performance.now() - t;
    if (sentinel !== undefined)
      api().store.create(rt, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: sentinel, namespace } });
    return { fromResourceVersion: from, toResourceVersion: to, ms };
  },
  seedCluster: async (p): Promise<SeedResult> => {
    const { nodes, pods, namespaces } = p as { nodes: number; pods: number; namespaces: number };
    const t = performance.now();
    const nodeType = type('', 'nodes');
    const podType = type('', 'pods');
    for (let i = 0; i < namespaces; i++) ensureNamespace(`bench-ns-${i}`);
    for (let i = 0; i < nodes; i++)
      api().store.create(nodeType, realisticNode(i) as unknown as KubeObject, { fieldManager: 'kubelet' });
    // Computing managedFields for 10,000 large pods dominates seeding (seconds to minutes on a
    // loaded machine). Pods with the same i % PLACEMENT_CYCLE have the same field structure, so
    // the first of each is written with field managers (the server computes managedFields) and
    // the others are stored with a copy of that result: the same size and shape (it names the
    // same fields; only the podIPs key names the first pod's IP), without the cost.
    const managed = new Map<number, { create: JsonValue; status: JsonValue }>();
    for (let i = 0; i < pods; i++) {
      const pod = realisticPod(i, { namespaces, nodes }) as unknown as KubeObject;
      const status = pod.status!;
      const known = managed.get(i % PLACEMENT_CYCLE);
      if (known) pod.metadata.managedFields = known.create;
      const created = api().store.create(podType, pod, known ? {} : { fieldManager: 'kube-controller-manager' });
      const withStatus: KubeObject = {
        ...created,
        metadata: { ...created.metadata, ...(known ? { managedFields: known.status } : {}) },
        status,
      };
      const updated = api().store.update(
        podType,
        withStatus,
        known ? { subresource: 'status' } : { fieldManager: 'kubelet', subresource: 'status' },
      );
      if (!known)
        managed.set(i % PLACEMENT_CYCLE, {
          create: created.metadata.managedFields!,
          status: updated.metadata.managedFields!,
        });
      if (i % 1000 === 999) await yieldToLoop();
    }
    return { ms: performance.now() - t, nodes, pods };
  },
});

async function shutdown(): Promise<void> {
  await server?.close();
  process.exit(0);
}

process.on('SIGTERM', () => void shutdown());
