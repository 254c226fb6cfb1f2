/**
 * Benchmark 5: the operator runtime's own footprint. The server is seeded with 500 Nodes and
 * 10,000 Pods of realistic size; a separate process that loads only the operator runtime
 * (compiled, no tsx, with the Deployment's NODE_OPTIONS) syncs shared informers for both and
 * reports its RSS after a full GC, before (runtime loaded, nothing cached) and after (caches synced).
 */
import { join } from 'node:path';
import { MAX_OLD_SPACE_MIB } from '../../src/api/deploy/managed-operator-manifests.js';
import { operatorNodeOptions } from '../../src/api/deploy/operator-objects.js';
import { serverMemory, type BenchContext } from './context.js';
import { timeHttpList } from './bench-list.js';
import { embeddedTarget } from './target.js';
import type { ProcessMemory } from './memory.js';
import type { BenchResult } from './result.js';
import { RpcChild } from './rpc.js';
import type { SeedResult } from './server-child.js';
import type { SyncResult } from './informer-child.js';
import { formatCount, formatMiB, formatMs, summarize } from './stats.js';
import { PLACEMENT_CYCLE, realisticNode, realisticPod } from './fixtures.js';

const NODES = 500;
const PODS = 10_000;
const NAMESPACES = 50;
const TARGET_BYTES = 128 * 1024 * 1024;
const SYNC_TIMEOUT_MS = 60_000;

/** Starts a runtime process, syncs its informers, reads its memory, and kills it. */
async function measureRuntime(
  ctx: BenchContext,
  children: Set<RpcChild>,
  slimPods: boolean,
): Promise<{ before: ProcessMemory; sync: SyncResult }> {
  // The runtime as the managed flow's Deployment runs it: its NODE_OPTIONS (V8 heap settings).
  const deployed = operatorNodeOptions(MAX_OLD_SPACE_MIB).split(' ');
  const child = new RpcChild(join(ctx.compiledBenchDir, 'informer-child.js'), {
    execArgv: [...ctx.childFlags, ...deployed],
    timeoutMs: SYNC_TIMEOUT_MS + 10_000,
  });
  children.add(child);
  try {
    const before = await child.call<ProcessMemory>('memory', { gc: true });
    const sync = await child.call<SyncResult>('sync', {
      kubeconfigPath: ctx.kubeconfigPath,
      timeoutMs: SYNC_TIMEOUT_MS,
      slimPods,
    });
    return { before, sync };
  } finally {
    await child.close();
    children.delete(child);
  }
}

/** Seeds the cluster, measures the informer process, and kills it. `children` tracks it for the runner's emergency kill. */
export async function runInformerBench(ctx: BenchContext, children: Set<RpcChild>): Promise<BenchResult> {
  ctx.log(`informer: seeding ${NODES} Nodes and ${PODS} Pods`);
  const seed = await ctx.server.call<SeedResult>(
    'seedCluster',
    { nodes: NODES, pods: PODS, namespaces: NAMESPACES },
    120_000,
  );
  ctx.log('informer: timing a LIST of every Pod');
  const podList = await timeHttpList(embeddedTarget(ctx.url), '/api/v1/pods', PODS, 2, 0);
  ctx.log("informer: syncing Node and Pod informers in a runtime process, with the operator's Pod transform");
  const { before, sync } = await measureRuntime(ctx, children, true);
  ctx.log('informer: again, caching whole Pods (no target)');
  const whole = await measureRuntime(ctx, children, false);
  const server = await serverMemory(ctx, true);
  const after = sync.memory;
  const complete = sync.nodes === NODES && sync.pods === PODS;
  const pass = complete && after.rss <= TARGET_BYTES && before.gc;
  const list = summarize(podList.fetchMs);
  const podBytes = JSON.stringify(realisticPod(PODS - 1, { namespaces: NAMESPACES, nodes: NODES })).length;
  const nodeBytes = JSON.stringify(realisticNode(NODES - 1)).length;
  return {
    id: 'informer',
    title: `Operator runtime: informer cache of ${NODES} Nodes and ${formatCount(PODS)} Pods`,
    method:
      `The server's store is seeded with ${NODES} Nodes and ${formatCount(PODS)} Pods in ${NAMESPACES} namespaces, written as a kubelet and a controller would ` +
      `(so they carry managedFields; to keep seeding fast, one pod in ${PLACEMENT_CYCLE} gets them computed by the server and the others a copy of the same shape). Pods have 3 containers (image, command, args, ports, env, resources, mounts, probe, security context), ` +
      `labels, annotations (including a CNI network-status), a ReplicaSet owner reference, tolerations, volumes, and a Running status with 5 conditions ` +
      `and 3 container statuses (about ${formatCount(podBytes)} bytes of JSON each before managedFields). Nodes have labels, annotations, a taint on masters, ` +
      `capacity and allocatable, 4 conditions, addresses, node info and 12 images (about ${formatCount(nodeBytes)} bytes). A separate process loads only ` +
      `the operator runtime (\`src/kube\`, compiled to JavaScript), reads the benchmark's kubeconfig with \`loadRestConfig\`, and syncs shared informers ` +
      `(\`InformerFactory\`) for Nodes and Pods (with a by-node index), paging the LIST 500 at a time, transforming each page as it arrives and stripping managedFields, ` +
      'with the Pod cache transform the operator uses (`src/kube/pod-transform.ts`: identity, labels, owners, deletion state, node, emptyDir volumes, phase, conditions); ' +
      'its RSS is read after two full GCs (`--expose-gc`) with the runtime loaded but nothing cached ("before") and once both caches have synced ("after").',
    target: `≤ ${formatMiB(TARGET_BYTES)} RSS with the caches synced`,
    result: complete
      ? `${formatMiB(after.rss)} RSS after sync (${formatMiB(before.rss)} before)`
      : `caches incomplete: ${sync.nodes} Nodes, ${sync.pods} Pods`,
    pass,
    measurements: [
      { label: 'Objects cached', value: `${formatCount(sync.nodes)} Nodes, ${formatCount(sync.pods)} Pods` },
      { label: 'Informer sync time (LIST of both, paged)', value: formatMs(sync.ms) },
      { label: 'Seeding the store (in the server process)', value: formatMs(seed.ms) },
      {
        label: 'Caching whole Pods instead (no Pod transform; no target)',
        value: `${formatMiB(whole.sync.memory.rss)} RSS after sync (heap used ${formatMiB(whole.sync.memory.heapUsed)}, peak RSS ${formatMiB(whole.sync.memory.maxRss)}); ${formatCount(whole.sync.pods)} Pods in ${formatMs(whole.sync.ms)}`,
      },
      {
        label: `HTTP LIST of all ${formatCount(PODS)} Pods in one response (median of ${podList.fetchMs.length}; no target)`,
        value: `${formatMs(list.median)} for ${formatMiB(podList.bytes)}`,
      },
    ],
    memory: [
      { process: 'operator runtime', when: 'runtime loaded, nothing cached', memory: before },
      { process: 'operator runtime', when: 'caches synced', memory: after },
      {
        process: 'API server',
        when: `holding ${NODES} Nodes and ${formatCount(PODS)} Pods (and the earlier benchmarks' objects)`,
        memory: server,
      },
    ],
    notes: [],
  };
}
