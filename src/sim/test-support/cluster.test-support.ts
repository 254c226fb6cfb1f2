/**
 * Test support for simulated controllers: the embedded API server with the OpenShift CRDs
 * installed, a KubeClient and shared informers, all on one event-driven VirtualClock that
 * jumps only when the system is quiet. Drive time with `cluster.clock.run({ until })`.
 */
import { setMaxListeners } from 'node:events';
import type { TestContext } from 'node:test';
import { openshiftCustomResourceDefinitions } from '../../api/openshift/crds.js';
import { startApiServer, type ApiServer } from '../../apiserver/server.js';
import { KubeClient } from '../../kube/client.js';
import { InformerFactory } from '../../kube/informer-factory.js';
import { silentLogger, type Logger } from '../../lib/log.js';
import { SeededRandom } from '../../lib/random.js';
import { VirtualClock } from '../virtual-clock.js';
import { installCustomResourceDefinitions } from '../install-crds.js';
import type { SimContext } from '../context.js';
import { startInvariantMonitor, type InvariantMonitor } from '../invariant-monitor.js';

export interface TestCluster {
  server: ApiServer;
  clock: VirtualClock;
  ctx: SimContext;
  /** A second client (e.g. for the test's own reads and writes), on the same clock. */
  client: KubeClient;
  /** Aborts every component started with this signal. */
  signal: AbortSignal;
  /**
   * The invariants (docs/design/cluster-model.md#invariants), checked on every ClusterVersion,
   * ClusterOperator, pool and node event of the shared informers once a component started them
   * (undefined without the OpenShift CRDs).
   */
  invariants: InvariantMonitor | undefined;
  close(): Promise<void>;
}

export interface TestClusterOptions {
  /** Virtual start time (default 2026-03-02T00:00:00Z). */
  start?: number;
  seed?: number;
  logger?: Logger;
  /** Install the OpenShift CRDs (default true). */
  openshiftCrds?: boolean;
}

/** Starts the fixture and registers its teardown with the test. */
export async function startTestCluster(t: TestContext, options: TestClusterOptions = {}): Promise<TestCluster> {
  const clock = new VirtualClock({ mode: 'event', start: options.start ?? Date.UTC(2026, 2, 2) });
  const logger = options.logger ?? silentLogger();
  const server = await startApiServer({ port: 0, clock, logger, activity: clock.activity });
  const config = {
    server: server.url,
    insecureSkipTLSVerify: false,
    auth: () => Promise.resolve(undefined),
    namespace: 'default',
  };
  const newClient = (fieldManager: string): KubeClient =>
    new KubeClient({ config, clock, logger, activity: clock.activity, fieldManager });
  const simClient = newClient('simulated-cluster');
  const testClient = newClient('test');
  const random = new SeededRandom(options.seed ?? 1);
  const informers = new InformerFactory({ client: simClient, clock, logger, random: random.fork('informers') });
  const abort = new AbortController();
  // Every controller and watch of the simulated cluster listens on this one signal.
  setMaxListeners(0, abort.signal);
  const ctx: SimContext = { client: simClient, informers, clock, random, logger, activity: clock.activity };
  const openshift = options.openshiftCrds ?? true;
  if (openshift) await installCustomResourceDefinitions(testClient, openshiftCustomResourceDefinitions());
  // Its informers join the shared ones: without the CRDs they would never sync.
  const invariants = openshift ? startInvariantMonitor(ctx) : undefined;
  const close = async (): Promise<void> => {
    invariants?.stop();
    abort.abort();
    await Promise.allSettled([simClient.close(), testClient.close()]);
    await server.close();
  };
  t.after(close);
  return { server, clock, ctx, client: testClient, signal: abort.signal, invariants, close };
}

/** A controller instance started by {@link startControllerInstance}. */
export interface ControllerInstance {
  /** Stops it (its work in flight ends); also done when the test or the cluster ends. */
  stop(): Promise<void>;
}

let instances = 0;

/**
 * Starts one instance of a controller on its own informers, as a fresh operator process would
 * (nothing shared in memory with an earlier instance). Its watches outlast the longest test:
 * re-watching every few virtual minutes over weeks of virtual time costs real seconds.
 */
export function startControllerInstance(
  t: TestContext,
  cluster: TestCluster,
  build: (informers: InformerFactory) => { start(signal: AbortSignal): Promise<void> },
): ControllerInstance {
  const { ctx, clock } = cluster;
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);
  const stopOnClose = (): void => abort.abort();
  cluster.signal.addEventListener('abort', stopOnClose, { once: true });
  const informers = new InformerFactory({
    client: ctx.client,
    clock,
    logger: ctx.logger,
    random: ctx.random.fork(`instance-${instances++}`),
    defaults: { minWatchTimeoutSeconds: 60 * 86_400 },
  });
  const running = build(informers).start(abort.signal);
  const stop = async (): Promise<void> => {
    abort.abort();
    cluster.signal.removeEventListener('abort', stopOnClose);
    await running;
  };
  t.after(stop);
  return { stop };
}
