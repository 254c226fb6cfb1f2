/**
 * The environment every named scenario runs in: an API server and a simulated cluster's context
 * (client, shared informers, seeded randomness) on one virtual clock. `newClient` gives other
 * parties (the operator, a user) their own clients on the same server and clock.
 *
 * - Embedded (the default): this process starts the API server on an event-driven virtual clock
 *   that shares its quiescence tracker, so time jumps only when nothing is busy and one seed
 *   gives one timeline.
 * - External (`external`): the clients come from a kubeconfig (TLS, token, client certificate
 *   or exec plugin as it says) and no server starts. Its in-flight work is invisible here, so
 *   time cannot jump on quiet: it is scaled real time (virtual ms per wall ms) from the scenario's
 *   start, at the wall pace until the runner begins the scaled time, and a run is not reproducible
 *   by seed. The server stamps creation and deletion times on its wall clock: every client made
 *   here reads them on the virtual clock (src/kube/server-times.ts). Before anything is
 *   written, {@link readClusterFacts} and {@link refusals} make sure the server is not a real
 *   OpenShift cluster nor an earlier run's leftovers; then the OpenShift CRDs and this project's
 *   CRDs are installed there, and a stand-in for the kubelet removes gracefully deleted Pods of
 *   the simulated Nodes when their grace period ends in virtual time (nothing else would).
 */
import { setMaxListeners } from 'node:events';
import { NodeResource } from '../../api/builtin.js';
import { customResourceDefinitions } from '../../api/manifests.js';
import { openshiftCustomResourceDefinitions } from '../../api/openshift/crds.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { startApiServer, type ApiServer } from '../../apiserver/server.js';
import { KubeClient } from '../../kube/client.js';
import { InformerFactory } from '../../kube/informer-factory.js';
import { loadRestConfig } from '../../kube/kubeconfig.js';
import type { RestConfig } from '../../kube/rest-config.js';
import type { RequestMetrics } from '../../kube/runtime-metrics.js';
import type { ActivityTracker } from '../../lib/activity.js';
import { RealClock, type Clock } from '../../lib/clock.js';
import { virtualTimeOfStamp, type ServerTimeBase } from '../../kube/server-times.js';
import { errorMessage } from '../../lib/errors.js';
import { silentLogger, type Logger } from '../../lib/log.js';
import { SeededRandom } from '../../lib/random.js';
import type { SimContext } from '../../sim/context.js';
import { installCustomResourceDefinitions } from '../../sim/install-crds.js';
import { monitoringCustomResourceDefinitions } from '../../api/monitoring/crds.js';
import { startGracefulPodTerminator } from '../../sim/workloads/graceful-pod-terminator.js';
import { VirtualClock } from '../../sim/virtual-clock.js';

/** Virtual start of every embedded run, so that one seed gives one timeline (2026-03-02T00:00:00Z). */
export const VIRTUAL_START = Date.UTC(2026, 2, 2);

/** The field manager of every write of the simulated cluster (how its objects are recognised). */
export const SIMULATED_CLUSTER_MANAGER = 'simulated-cluster';

/**
 * API groups that only OpenShift's own API servers serve (openshift-apiserver and
 * oauth-apiserver); the simulator never installs them, so a server serving one is a real cluster.
 */
export const OPENSHIFT_ONLY_GROUPS: readonly string[] = [
  'apps.openshift.io',
  'build.openshift.io',
  'image.openshift.io',
  'oauth.openshift.io',
  'project.openshift.io',
  'route.openshift.io',
  'user.openshift.io',
];

/** An API server elsewhere, named by a kubeconfig. */
export interface ExternalApiServerOptions {
  /** The kubeconfig file (required: never KUBECONFIG or ~/.kube/config implicitly). */
  kubeconfig: string;
  /** A context other than its current-context. */
  context?: string;
  /** Virtual ms per wall ms (> 0). */
  timeScale: number;
  /** Run although the server has Nodes the simulator did not create. */
  force?: boolean;
}

export interface SimEnvironmentOptions {
  seed: number;
  /** Virtual start (default: {@link VIRTUAL_START}, on either server). */
  start?: number;
  logger?: Logger;
  /** Where the event-driven clock reports a system that never goes quiet (default: `logger`). */
  stallLogger?: Logger;
  /** Run against this API server instead of starting the embedded one. */
  external?: ExternalApiServerOptions;
  /** The wall clock (scaled time, waits for an external server, stall reports); a RealClock by default. */
  wall?: Clock;
}

export interface SimEnvironment {
  /** The embedded API server; undefined against an external one. */
  readonly server: ApiServer | undefined;
  /** The API server's base URL (embedded or external). */
  readonly apiServerUrl: string;
  /** `event` (embedded: reproducible by seed) or `scaled` (external: wall time, not reproducible). */
  readonly timeMode: 'event' | 'scaled';
  readonly clock: VirtualClock;
  /** The simulated cluster's context (its client has field manager `simulated-cluster`). */
  readonly ctx: SimContext;
  /** A user's client (field manager `user`), for what `kubectl` or `oc` would do. */
  readonly client: KubeClient;
  /** Aborted by close(): every component started with it stops. */
  readonly signal: AbortSignal;
  /** Nodes the server had before the run (`--force`): left to their own kubelet and controllers. */
  readonly foreignNodes: ReadonlySet<string>;
  readonly logger: Logger;
  /** Another client on the same server and clock (close it yourself); `activity` defaults to the clock's. */
  newClient(
    fieldManager: string,
    namespace?: string,
    activity?: ActivityTracker,
    requestMetrics?: RequestMetrics,
  ): KubeClient;
  close(): Promise<void>;
}

/** The environment of the embedded API server (always there). */
export interface EmbeddedSimEnvironment extends SimEnvironment {
  readonly server: ApiServer;
}

/** Thrown when an external API server must not get a simulated cluster. */
export class ClusterRefusedError extends Error {
  readonly reason = 'ClusterRefused';
  readonly refusals: readonly string[];

  constructor(refusals: readonly string[]) {
    super(`refusing to run the simulated cluster here:\n  - ${refusals.join('\n  - ')}`);
    this.name = 'ClusterRefusedError';
    this.refusals = refusals;
  }
}

/** Starts the embedded API server, or connects to the external one, and builds the context (no simulated component runs yet). */
export async function startSimEnvironment(
  options: SimEnvironmentOptions & { external?: undefined },
): Promise<EmbeddedSimEnvironment>;
export async function startSimEnvironment(options: SimEnvironmentOptions): Promise<SimEnvironment>;
export async function startSimEnvironment(options: SimEnvironmentOptions): Promise<SimEnvironment> {
  const logger = options.logger ?? silentLogger();
  if (options.external) return startExternal(options, options.external, logger);
  const clock = new VirtualClock({
    mode: 'event',
    start: options.start ?? VIRTUAL_START,
    logger: options.stallLogger ?? logger,
    ...(options.wall ? { wall: options.wall } : {}),
  });
  // uids and generated names from the seed too: one seed, one report (final objects included).
  const server = await startApiServer({
    port: 0,
    clock,
    logger,
    activity: clock.activity,
    random: new SeededRandom(options.seed).fork('apiserver'),
  });
  const config: RestConfig = {
    server: server.url,
    insecureSkipTLSVerify: false,
    auth: () => Promise.resolve(undefined),
    namespace: 'default',
  };
  const env: EmbeddedSimEnvironment = {
    ...assemble({ seed: options.seed, clock, logger, config, afterClose: () => server.close() }),
    server,
  };
  return env;
}

async function startExternal(
  options: SimEnvironmentOptions,
  ext: ExternalApiServerOptions,
  logger: Logger,
): Promise<SimEnvironment> {
  if (!(ext.timeScale > 0) || !Number.isFinite(ext.timeScale))
    throw new Error(`the time scale must be a positive number, got ${ext.timeScale}`);
  const wall = options.wall ?? new RealClock();
  // Token files and exec plugins expire on wall time, whatever the simulation's pace.
  const config = loadRestConfig({
    clock: wall,
    kubeconfig: ext.kubeconfig,
    ...(ext.context !== undefined ? { context: ext.context } : {}),
  });
  // The scenario's start means the same instant as embedded; the server's own stamps are read on
  // this clock (docs/simulation.md#time-on-an-external-server).
  const clock = new VirtualClock({
    mode: 'scaled',
    scale: ext.timeScale,
    start: options.start ?? VIRTUAL_START,
    wall,
    logger,
    // The set-up runs at the wall pace; the scenario runner begins the scaled time.
    wallPaceUntilBegun: true,
  });
  const env = assemble({
    seed: options.seed,
    clock,
    logger,
    config,
    afterClose: () => Promise.resolve(),
    serverTimes: (serverMs) => {
      const scaling = clock.scaling;
      return scaling ? virtualTimeOfStamp(scaling, serverMs) : serverMs;
    },
  });
  try {
    const facts = await readClusterFacts(env.client, env.signal);
    const refused = refusals(facts, ext.force === true);
    if (refused.length > 0) throw new ClusterRefusedError(refused);
    // A server elsewhere registers CRDs in its own time: look again every 100 ms, for up to a minute.
    const crdWait = { attempts: 600, pause: () => wall.sleep(100, env.signal) };
    await installCustomResourceDefinitions(
      env.ctx.client,
      [...openshiftCustomResourceDefinitions(), ...monitoringCustomResourceDefinitions()],
      crdWait,
    );
    await installCustomResourceDefinitions(env.ctx.client, customResourceDefinitions(), crdWait);
    const foreignNodes = new Set(facts.nodes.map((n) => n.name));
    startGracefulPodTerminator(env.ctx, foreignNodes, env.signal);
    return { ...env, foreignNodes };
  } catch (err) {
    await env.close();
    throw err;
  }
}

/** The context and clients on one server and clock; close() aborts, closes the clients, then `afterClose`. */
function assemble(parts: {
  seed: number;
  clock: VirtualClock;
  logger: Logger;
  config: RestConfig;
  afterClose: () => Promise<void>;
  /** The server stamps wall time: its stamps read on the virtual clock (external servers). */
  serverTimes?: ServerTimeBase;
}): SimEnvironment {
  const { clock, logger } = parts;
  const abort = new AbortController();
  // Every simulated controller and watch listens on this one signal.
  setMaxListeners(0, abort.signal);
  const newClient = (
    fieldManager: string,
    namespace = 'default',
    activity: ActivityTracker = clock.activity,
    requestMetrics?: RequestMetrics,
  ): KubeClient =>
    new KubeClient({
      config: { ...parts.config, namespace },
      clock,
      logger,
      activity,
      fieldManager,
      ...(requestMetrics ? { requestMetrics } : {}),
      ...(parts.serverTimes ? { serverTimes: parts.serverTimes } : {}),
    });
  const simClient = newClient(SIMULATED_CLUSTER_MANAGER);
  const client = newClient('user');
  const random = new SeededRandom(parts.seed);
  const ctx: SimContext = {
    client: simClient,
    informers: new InformerFactory({ client: simClient, clock, logger, random: random.fork('informers') }),
    clock,
    random,
    logger,
    activity: clock.activity,
  };
  return {
    server: undefined,
    apiServerUrl: parts.config.server,
    timeMode: clock.mode,
    clock,
    ctx,
    client,
    signal: abort.signal,
    foreignNodes: new Set<string>(),
    logger,
    newClient,
    async close(): Promise<void> {
      abort.abort();
      await Promise.allSettled([simClient.close(), client.close()]);
      await parts.afterClose();
    },
  };
}

/** What an external API server holds that decides whether a simulated cluster may run there. */
export interface ClusterFacts {
  /** The server's URL, for messages. */
  server: string;
  /** Served groups of {@link OPENSHIFT_ONLY_GROUPS}. */
  openshiftGroups: string[];
  /** The ClusterVersion `version`, with the field managers that wrote it; undefined if absent. */
  clusterVersion: { managers: string[] } | undefined;
  /** Every Node, with the field managers that wrote it. */
  nodes: Array<{ name: string; managers: string[] }>;
}

/**
 * Why a simulated cluster must not run on a server (empty: it may), pure. Never overridable:
 * a real OpenShift cluster (its API groups, or a ClusterVersion the simulator did not write),
 * and an earlier run's simulated cluster (a scenario starts from an empty cluster). Overridden
 * by `force`: Nodes the simulator did not create, which its machine-config daemons and drains
 * would act on if a pool selects them.
 */
export function refusals(facts: ClusterFacts, force: boolean): string[] {
  const out: string[] = [];
  const simulated = (managers: readonly string[]): boolean => managers.includes(SIMULATED_CLUSTER_MANAGER);
  if (facts.openshiftGroups.length > 0) {
    out.push(
      `${facts.server} is an OpenShift cluster (it serves ${facts.openshiftGroups.join(', ')}); simulate never runs its simulated controllers against a real cluster`,
    );
  }
  const cv = facts.clusterVersion;
  if (cv && !simulated(cv.managers)) {
    out.push(
      `${facts.server} holds a ClusterVersion "${CLUSTER_VERSION_NAME}" that the simulator did not write (field managers: ${cv.managers.join(', ') || 'none recorded'}); it looks like a real OpenShift cluster, and simulate never writes to one`,
    );
  }
  const leftoverNodes = facts.nodes.filter((n) => simulated(n.managers));
  if ((cv && simulated(cv.managers)) || leftoverNodes.length > 0) {
    const what = [
      cv && simulated(cv.managers) ? `ClusterVersion "${CLUSTER_VERSION_NAME}"` : '',
      leftoverNodes.length > 0 ? `${leftoverNodes.length} Node(s)` : '',
    ]
      .filter((w) => w !== '')
      .join(' and ');
    out.push(
      `${facts.server} still holds the simulated cluster of an earlier run (${what} written by ${SIMULATED_CLUSTER_MANAGER}); a scenario starts from an empty cluster: restart that API server or use a fresh one`,
    );
  }
  const foreign = facts.nodes.filter((n) => !simulated(n.managers));
  if (foreign.length > 0 && !force) {
    const names =
      foreign
        .slice(0, 5)
        .map((n) => n.name)
        .join(', ') + (foreign.length > 5 ? ', …' : '');
    out.push(
      `${facts.server} has ${foreign.length} Node(s) the simulator did not create (${names}); the simulated machine-config daemons would cordon, drain and "reboot" any Node a pool selects (node-role.kubernetes.io/master or worker): pass --force to run anyway`,
    );
  }
  return out;
}

/** Reads {@link ClusterFacts} (discovery, the ClusterVersion, the Nodes); any error other than absence propagates (fail closed). */
export async function readClusterFacts(client: KubeClient, signal?: AbortSignal): Promise<ClusterFacts> {
  const server = client.config.server;
  const reading = async <T>(what: string, read: () => Promise<T>): Promise<T> => {
    try {
      return await read();
    } catch (err) {
      throw new Error(`cannot check what the API server at ${server} holds (${what}): ${errorMessage(err)}`, {
        cause: err,
      });
    }
  };
  const groupList = await reading('API groups', () =>
    client.request({ method: 'GET', path: '/apis', ...(signal ? { signal } : {}) }),
  );
  const served = new Set(
    ((groupList as { groups?: Array<{ name?: string }> } | null)?.groups ?? []).map((g) => g.name ?? ''),
  );
  const openshiftGroups = OPENSHIFT_ONLY_GROUPS.filter((g) => served.has(g));
  const managers = (o: { metadata?: { managedFields?: Array<{ manager?: string }> } }): string[] =>
    [...new Set((o.metadata?.managedFields ?? []).map((f) => f.manager ?? ''))].filter((m) => m !== '');
  const cv = served.has(ClusterVersionResource.group)
    ? await reading(`ClusterVersion ${CLUSTER_VERSION_NAME}`, () =>
        client.getIfExists(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, signal ? { signal } : {}),
      )
    : undefined;
  const nodes = await reading('Nodes', () => client.list(NodeResource, signal ? { signal } : {}));
  return {
    server,
    openshiftGroups,
    clusterVersion: cv ? { managers: managers(cv) } : undefined,
    nodes: nodes.items.map((n) => ({ name: n.metadata?.name ?? '', managers: managers(n) })),
  };
}
