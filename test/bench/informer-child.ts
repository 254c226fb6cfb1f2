/**
 * The operator-runtime process of the footprint benchmark. It loads only the operator's
 * runtime (src/kube, with the lib/ and api/ pieces it needs), runs compiled without tsx, and
 * caches Nodes and Pods of the benchmark's API server through shared informers; the runner
 * asks it for its RSS before (runtime loaded, nothing cached) and after the caches synced.
 * With `slimPods` the Pod informer uses the operator's Pod transform (src/kube/pod-transform.ts).
 */
import { performance } from 'node:perf_hooks';
import { NodeResource, PodResource } from '../../src/api/builtin.js';
import { RealClock } from '../../src/lib/clock.js';
import { silentLogger } from '../../src/lib/log.js';
import { SeededRandom } from '../../src/lib/random.js';
import { KubeClient } from '../../src/kube/client.js';
import { InformerFactory } from '../../src/kube/informer-factory.js';
import { loadRestConfig } from '../../src/kube/kubeconfig.js';
import { processMemory, type ProcessMemory } from './memory.js';
import { serveRpc } from './rpc.js';
import { drainPodTransform } from '../../src/kube/pod-transform.js';

export interface SyncResult {
  ms: number;
  nodes: number;
  pods: number;
  memory: ProcessMemory;
}

const stop = new AbortController();
let client: KubeClient | undefined;

serveRpc({
  memory: async (p): Promise<ProcessMemory> => processMemory((p as { gc?: boolean }).gc === true),
  sync: async (p): Promise<SyncResult> => {
    const { kubeconfigPath, timeoutMs, slimPods } = p as {
      kubeconfigPath: string;
      timeoutMs: number;
      slimPods?: boolean;
    };
    const clock = new RealClock();
    const logger = silentLogger();
    client = new KubeClient({ config: loadRestConfig({ kubeconfig: kubeconfigPath, clock }), clock, logger });
    const factory = new InformerFactory({ client, clock, logger, random: new SeededRandom(1) });
    const nodes = factory.informerFor(NodeResource);
    const pods = factory.informerFor(PodResource, {
      indexers: { byNode: (pod) => [pod.spec?.nodeName ?? ''] },
      ...(slimPods === true ? { transform: drainPodTransform } : {}),
    });
    const t = performance.now();
    factory.start(stop.signal);
    const synced = await factory.waitForSync(AbortSignal.timeout(timeoutMs));
    if (!synced) throw new Error(`informers did not sync within ${timeoutMs} ms`);
    const ms = performance.now() - t;
    return { ms, nodes: nodes.list().length, pods: pods.list().length, memory: processMemory(true) };
  },
});

process.on('SIGTERM', () => {
  stop.abort();
  void client?.close().finally(() => process.exit(0));
  if (!client) process.exit(0);
});
