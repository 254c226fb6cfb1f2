/**
 * `upgrade-operator run`: the operator against a real cluster (or any API server a kubeconfig
 * names), serving the managed flow (MUO's UpgradeConfig), the scheduled flow (APPUiO's kinds)
 * or both. One Manager with Lease leader election runs the flows' controllers while leading;
 * the metrics (MUO's :8383), the CR collector (MUO's :8089) and the probes (:8081) are served
 * from the start, on every replica.
 * SIGTERM or SIGINT drains the controllers and releases the Lease. With `--rehearsal FILE` (written
 * by `simulate --operator external`) it runs against a simulated cluster on that cluster's scaled
 * time (src/cli/rehearsal.ts).
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from './commander-package.js';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createNotifications } from './notifications.js';
import type { OperatorSettings } from '../managed/config/operator-settings.js';
import { version } from './version.js';
import { defaultUserAgent, KubeClient } from '../kube/client.js';
import { SERVICE_ACCOUNT_DIR, isInCluster } from '../kube/in-cluster-config.js';
import { loadRestConfig } from '../kube/kubeconfig.js';
import { virtualTimeOfStamp } from '../kube/server-times.js';
import { LeadershipLostError, Manager } from '../kube/manager.js';
import { RuntimeMetrics, processMetricsRegistry } from '../kube/runtime-metrics.js';
import { RealClock, ScaledClock, type Clock, type ClockScaling } from '../lib/clock.js';
import { errorMessage } from '../lib/errors.js';
import { createLogger, type Logger } from '../lib/log.js';
import { SeededRandom } from '../lib/random.js';
import { setMaxListeners } from 'node:events';
import type { KubeObjectLike, ResourceDescriptor } from '../api/resource.js';
import { startMetricsServer, type HealthCheck, type HealthState, type MetricsServer } from '../kube/metrics-server.js';
import { processZoneId } from '../time/zone.js';
import type { RehearsedOption } from './rehearsal.js';
import { LEADER_ELECTION_ID, SCHEDULED_LEADER_ELECTION_ID, type Flow } from './commands/run.js';

/** Options of {@link runOperator} (the command's flags). */
export interface RunOptions {
  /** Which flows run (MUO's UpgradeConfig, APPUiO's kinds, or both). */
  flows: Flow[];
  /** Scheduled flow: the namespace of UpgradeConfigs, UpgradeJobs, hooks, windows (`""`: all). */
  namespace: string;
  /** Scheduled flow: the upstream ClusterVersion's name. */
  managedUpstreamClusterVersionName: string;
  /** Scheduled flow: the managedupgrade.appuio.io ClusterVersion synced to the upstream one. */
  managedClusterVersionName: string;
  /** Scheduled flow: its namespace (`""`: `--namespace`, else `default`). */
  managedClusterVersionNamespace: string;
  /** Scheduled flow: where the Machines of `machine_info` live. */
  machineNamespace: string;
  /** Scheduled flow: NodeForceDrain's longest wait between passes while a node drains, ms (0: no cap). */
  nodeDrainReconcileInterval: number;
  kubeconfig?: string;
  /** A context of the kubeconfig other than its current-context (a rehearsal file's). */
  context?: string;
  /**
   * A rehearsal's clock: the flows run on this scaled time, so that the operator's time is the
   * simulated cluster's. The connection to the API server (the client, the informers' watches,
   * the Lease) and the token file stay on the wall clock: their timings are about processes and
   * the network, not about the upgrade.
   */
  timeScaling?: ClockScaling;
  prometheusUrl: string;
  alertmanagerUrl: string;
  /** Bearer token file for Prometheus and Alertmanager (re-read every minute). */
  monitoringTokenFile?: string;
  /** PEM CA bundle for Prometheus and Alertmanager, added to the system roots. */
  monitoringCaFile?: string;
  metricsBindAddress: string;
  collectorBindAddress: string;
  healthProbeBindAddress: string;
  leaderElect: boolean;
  /** Default: MUO's lease when the managed flow runs, else APPUiO's. */
  leaderElectionId?: string;
  /** Lease timings, in ms. */
  leaderElectLeaseDuration: number;
  leaderElectRenewDeadline: number;
  leaderElectRetryPeriod: number;
  /** Leader-election identity (default: POD_NAME, else `<host>_<pid>`). */
  identity?: string;
}

/** Where the servers listen once started (for the caller's log line and for tests). */
export interface RunningEndpoints {
  metrics: string;
  collector: string;
  probes: string;
}

/** `host:port`, `:port` (every interface) or `port`; port 0 picks a free one. */
export function parseBindAddress(value: string): { host: string | undefined; port: number } {
  const i = value.lastIndexOf(':');
  const host = i < 0 ? undefined : value.slice(0, i).replace(/^\[(.*)\]$/, '$1') || undefined;
  const port = Number(i < 0 ? value : value.slice(i + 1));
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidArgumentError(`${JSON.stringify(value)} is not host:port`);
  return { host: host ?? '0.0.0.0', port };
}

/** A token file read at most once a minute (bound service-account tokens rotate). */
function tokenFromFile(path: string, clock: Clock, log: Logger): () => string | undefined {
  let token: string | undefined;
  let readAt = Number.NEGATIVE_INFINITY;
  return () => {
    if (clock.now() - readAt >= 60_000) {
      readAt = clock.now();
      try {
        token = readFileSync(path, 'utf8').trim() || undefined;
      } catch (err) {
        log.warn({ path, err: errorMessage(err) }, 'cannot read the monitoring token file; keeping the last token');
      }
    }
    return token;
  };
}

/**
 * Runs the operator until the signal aborts (resolves) or leadership is lost (rejects with
 * LeadershipLostError: the process should exit and be restarted, as controller-runtime does).
 */
export async function runOperator(
  options: RunOptions,
  signal: AbortSignal,
  logger: Logger,
  onListening?: (runningEndpoints: RunningEndpoints) => void,
): Promise<void> {
  const wall = new RealClock();
  const timeScaling = options.timeScaling;
  const clock: Clock = options.timeScaling ? new ScaledClock(options.timeScaling, wall) : wall;
  const flows = new Set(options.flows);
  if (flows.size === 0) throw new Error('no flow to run: --flows needs managed, scheduled or both');
  const settings = flows.has('managed') ? await managedFlowSettings(logger) : undefined;
  // The Lease lives with the managed flow's ConfigMap (MUO), else in the scheduled flow's namespace (APPUiO).
  const leaseNamespace = settings?.namespace ?? (options.namespace || process.env['POD_NAMESPACE'] || 'default');
  const restConfig = loadRestConfig({
    clock: wall,
    ...(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}),
    ...(options.context !== undefined ? { context: options.context } : {}),
  });
  const runtimeMetrics = new RuntimeMetrics();
  const client = new KubeClient({
    config: { ...restConfig, namespace: leaseNamespace },
    clock: wall,
    logger,
    requestMetrics: runtimeMetrics.requests,
    fieldManager: 'upgrade-operator',
    userAgent: defaultUserAgent('upgrade-operator', `v${version()}`),
    // A rehearsal's server stamps wall time: its stamps are read on the flows' scaled clock.
    ...(timeScaling ? { serverTimes: (serverMs: number) => virtualTimeOfStamp(timeScaling, serverMs) } : {}),
  });
  const identity = options.identity ?? (process.env['POD_NAME'] || `${hostname()}_${process.pid}`);
  // Jitter only: a per-process seed keeps replicas from retrying in lockstep.
  const random = new SeededRandom((wall.now() ^ process.pid) >>> 0);
  const manager = new Manager({
    client,
    clock: wall,
    logger,
    random: random.fork('manager'),
    informerDefaults: { notServedHint },
    metrics: runtimeMetrics,
    ...(options.leaderElect
      ? {
          leaderElection: {
            namespace: leaseNamespace,
            name:
              options.leaderElectionId ?? (flows.has('managed') ? LEADER_ELECTION_ID : SCHEDULED_LEADER_ELECTION_ID),
            identity,
            leaseDurationMs: options.leaderElectLeaseDuration,
            renewDeadlineMs: options.leaderElectRenewDeadline,
            retryPeriodMs: options.leaderElectRetryPeriod,
            onNewLeader: (leader: string) =>
              logger.info({ leader }, leader === identity ? 'this replica leads' : 'another replica leads'),
          },
        }
      : {}),
  });
  const inCluster = isInCluster();
  const tokenFile = options.monitoringTokenFile ?? (inCluster ? join(SERVICE_ACCOUNT_DIR, 'token') : undefined);
  const caFile = options.monitoringCaFile ?? (inCluster ? join(SERVICE_ACCOUNT_DIR, 'service-ca.crt') : undefined);
  const monitoring = {
    prometheusUrl: options.prometheusUrl,
    ...(tokenFile ? { monitoringToken: tokenFromFile(tokenFile, wall, logger) } : {}),
    ...(caFile ? { ca: readFileSync(caFile, 'utf8') } : {}),
  };
  // Outside calls time out on the wall clock, as the API connection does (network, not virtual time).
  const base = { client, informers: manager.informers, clock, logger, timeoutClock: wall };
  // Each flow's code is loaded only when the flow runs: one flow enabled, the other is never loaded.
  const managed = settings
    ? (await import('./managed-operator.js')).createManagedOperator({
        ...base,
        ...monitoring,
        settings,
        alertmanagerUrl: options.alertmanagerUrl,
        random: random.fork('managed'),
      })
    : undefined;
  const scheduled = flows.has('scheduled')
    ? (await import('./scheduled-operator.js')).createScheduledOperator({
        ...base,
        ...monitoring,
        namespace: options.namespace,
        localZoneId: processZoneId,
        clusterVersionName: options.managedUpstreamClusterVersionName,
        managedClusterVersionName: options.managedClusterVersionName,
        managedClusterVersionNamespace: options.managedClusterVersionNamespace,
        machineNamespace: options.machineNamespace,
        nodeDrainReconcileIntervalMs: options.nodeDrainReconcileInterval,
      })
    : undefined;
  const notifications = createNotifications({
    ...base,
    operatorNamespace: leaseNamespace,
    managed: managed?.notificationSource,
    scheduled: scheduled?.notificationSource,
    random: random.fork('notifications'),
  });
  for (const c of [...(managed?.controllers ?? []), ...(scheduled?.controllers ?? []), ...notifications.controllers])
    manager.add(c);
  // The flows' families, controller-runtime's (every controller, the client, the Lease) and the process's.
  const metricsRegistry = Registry.merge([
    managed?.metricsRegistry ?? new Registry(),
    scheduled?.metricsRegistry ?? new Registry(),
    notifications.metricsRegistry,
    runtimeMetrics.registry,
    processMetricsRegistry(),
  ]);

  let failed = false;
  const running: HealthCheck = { name: 'controllers', ok: true };
  const health = (): HealthState => {
    const manager: HealthCheck = failed
      ? { ...running, ok: false, reason: 'the manager stopped with an error' }
      : running;
    return { live: [manager], ready: [manager, cacheSync(manager.ok ? informers.unsynced() : [])] };
  };
  const informers = manager.informers;
  const servers: MetricsServer[] = [];
  try {
    const serve = async (
      bind: string,
      registries: Parameters<typeof startMetricsServer>[0]['registries'],
    ): Promise<string> => {
      const { host, port } = parseBindAddress(bind);
      const s = await startMetricsServer({ host, port, registries, health });
      servers.push(s);
      return s.url;
    };
    const endpoints: RunningEndpoints = {
      metrics: await serve(options.metricsBindAddress, [{ path: '/metrics', registry: metricsRegistry }]),
      collector: await serve(options.collectorBindAddress, [
        { path: '/metrics', registry: managed?.collectorRegistry ?? new Registry() },
      ]),
      probes: await serve(options.healthProbeBindAddress, []),
    };
    logger.info(
      {
        ...endpoints,
        flows: [...flows],
        identity,
        ...(settings
          ? {
              namespace: settings.namespace,
              watchNamespace: settings.watchNamespace,
              upgradeConfigNames: settings.upgradeConfigNames,
            }
          : {}),
        ...(scheduled ? { scheduledNamespace: options.namespace || '(all)' } : {}),
        ...(options.timeScaling
          ? { rehearsal: { timeScale: options.timeScaling.scale, virtualTime: new Date(clock.now()).toISOString() } }
          : {}),
      },
      'upgrade-operator starting',
    );
    onListening?.(endpoints);
    const started = manager.start(signal);
    try {
      await started;
    } catch (err) {
      failed = true;
      throw err;
    }
  } finally {
    await Promise.allSettled([
      ...servers.map((s) => s.close()),
      managed?.close(),
      scheduled?.close(),
      notifications.close(),
    ]);
    await client.close();
  }
}

/** The managed flow's settings from the environment (MUO's); throws on a fatal problem, logs the others. */
async function managedFlowSettings(logger: Logger): Promise<OperatorSettings> {
  const { settingsFromEnv } = await import('../managed/config/operator-settings.js');
  const { formatConfigProblems } = await import('../managed/config/config-problem.js');
  const { settings, problems } = settingsFromEnv(process.env);
  const fatal = problems.filter((p) => p.severity === 'error');
  if (fatal.length > 0) throw new Error(`invalid settings: ${formatConfigProblems(fatal)}`);
  if (problems.length > 0) logger.warn({ problems: formatConfigProblems(problems) }, 'operator settings');
  return settings;
}

/** Readiness of the caches: not ready while any informer has not synced, naming each and why. */
export function cacheSync(unsynced: ReadonlyArray<{ resource: string; error?: string }>): HealthCheck {
  if (unsynced.length === 0) return { name: 'informer-sync', ok: true };
  const each = unsynced.map((u) => (u.error ? `${u.resource} (${u.error})` : u.resource));
  return { name: 'informer-sync', ok: false, reason: `caches not synced: ${each.join('; ')}` };
}

/** What to do when the API server does not serve a kind the operator reads. */
export function notServedHint(descriptor: Pick<ResourceDescriptor<KubeObjectLike>, 'group'>): string {
  if (OPERATOR_GROUPS.has(descriptor.group))
    return "install the operator's CustomResourceDefinitions: kubectl apply -k deploy/crds";
  if (descriptor.group.endsWith('.openshift.io'))
    return 'OpenShift 4 serves it: is this an OpenShift cluster (or a rehearsal of one)?';
  return 'install its CustomResourceDefinition';
}

/** The API groups of the operator's own kinds (deploy/crds). */
const OPERATOR_GROUPS = new Set(['upgrade.managed.openshift.io', 'managedupgrade.appuio.io']);

/** The flags: the run options (commander names them alike), the log level and the rehearsal file. */
export type RunFlags = RunOptions & { logLevel: string; rehearsal?: string };

/** The options with a rehearsal file's values (flags given on the command line win), and its clock. */
export async function rehearsedRunOptions(
  options: RunOptions,
  path: string,
  fromCommandLine: (option: RehearsedOption) => boolean,
): Promise<RunOptions> {
  // Loaded only for a rehearsal: the file's schema is TypeBox's, which a deployed run never needs.
  const { parseRehearsal, rehearsalScaling, withRehearsal } = await import('./rehearsal.js');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the rehearsal file ${path}: ${errorMessage(err)}`, { cause: err });
  }
  const parsed = parseRehearsal(text);
  if (!parsed.ok)
    throw new Error(
      `invalid rehearsal file ${path} (written by simulate --operator external --rehearsal-out):\n  ${parsed.problems.join('\n  ')}`,
    );
  const file = parsed.rehearsal;
  const explicit = new Set(
    (
      [
        'kubeconfig',
        'prometheusUrl',
        'alertmanagerUrl',
        'flows',
        'namespace',
        'metricsBindAddress',
        'collectorBindAddress',
        'healthProbeBindAddress',
      ] as const
    ).filter(fromCommandLine),
  );
  return {
    ...withRehearsal(options, { ...file, kubeconfig: resolve(path, '..', file.kubeconfig) }, explicit),
    ...(file.context !== undefined && options.kubeconfig === undefined ? { context: file.context } : {}),
    timeScaling: rehearsalScaling(file),
  };
}

/** The action of `run` (src/cli/commands/run.ts defines its flags). */
export async function runAction(runFlags: RunFlags, command: Command): Promise<void> {
  const logger = createLogger({ level: runFlags.logLevel, destination: pino.destination({ fd: 2, sync: true }) });
  const abort = new AbortController();
  setMaxListeners(0, abort.signal);
  const stop = (sig: NodeJS.Signals): void => {
    logger.info({ signal: sig }, 'stopping: draining controllers and releasing the Lease');
    abort.abort();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    const { logLevel: _level, rehearsal, ...flags } = runFlags;
    const options =
      rehearsal === undefined
        ? flags
        : await rehearsedRunOptions(flags, rehearsal, (option) => command.getOptionValueSource(option) === 'cli');
    await runOperator(options, abort.signal, logger);
  } catch (err) {
    if (err instanceof LeadershipLostError) logger.error('leadership lost; exiting so that the pod restarts');
    throw err;
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}
