/**
 * The scheduled-upgrade operator (APPUiO compatible), wired: the UpgradeConfig controller
 * (maintenance windows → UpgradeJobs), the UpgradeJob controller (the job's lifecycle on the
 * shared step engine, hooks, health checks), the UpgradeSuspensionWindow status controller, the
 * ClusterVersion sync (managedupgrade.appuio.io template and overlays → config.openshift.io), the
 * NodeForceDrain controller and the 19 `openshift_upgrade_controller_*` families, on one client
 * and informer factory. Used by `upgrade-operator run --flows scheduled` and by `simulate`.
 */
import type { NotificationSource } from '../engine/notifications/notification-controller.js';
import { upgradeJobProgress } from '../scheduled/notifications/upgrade-job-progress.js';
import { Registry } from 'prom-client';
import { NodeResource } from '../api/builtin.js';
import { UpgradeJobHookResource } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { UpgradeJobResource } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { MACHINE_API_NAMESPACE, MachineResource } from '../api/openshift/machine-v1beta1/machine.js';
import { MachineConfigPoolResource } from '../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { createNodeForceDrainController } from '../scheduled/controllers/node-force-drain-controller.js';
import { createClusterVersionSyncController } from '../scheduled/controllers/cluster-version-sync-controller.js';
import { createUpgradeSuspensionWindowController } from '../scheduled/controllers/upgrade-suspension-window-controller.js';
import { createScheduledUpgradeConfigController } from '../scheduled/controllers/upgrade-config-controller.js';
import { createUpgradeJobController } from '../scheduled/controllers/upgrade-job-controller.js';
import { JqSelector } from '../integrations/jq-selector.js';
import { PrometheusClient } from '../integrations/prometheus-client.js';
import type { KubeClient } from '../kube/client.js';
import type { Controller } from '../kube/controller.js';
import { EventRecorder } from '../kube/event-recorder.js';
import type { InformerFactory } from '../kube/informer-factory.js';
import type { ActivityTracker } from '../lib/activity.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import { ClusterStateCollector } from '../scheduled/metrics/cluster-state-metrics.js';
import { ClusterVersionCollector } from '../scheduled/metrics/cluster-version-metrics.js';
import { NodeForceDrainMetrics } from '../scheduled/metrics/node-force-drain-metrics.js';
import { ScheduledUpgradeConfigCollector } from '../scheduled/metrics/scheduled-upgrade-metrics.js';
import { SuspensionWindowCollector } from '../scheduled/metrics/suspension-window-metrics.js';
import { UpgradeJobCollector } from '../scheduled/metrics/upgrade-job-metrics.js';
import { userAgent } from './version.js';

/** Options of {@link createScheduledOperator}. */
export interface ScheduledOperatorOptions {
  client: KubeClient;
  informers: InformerFactory;
  clock: Clock;
  logger: Logger;
  activity?: ActivityTracker;
  /** The namespace of UpgradeConfigs, UpgradeJobs, hooks and windows (APPUiO `--namespace`); empty: all. */
  namespace: string;
  /** The zone `location: Local` means (the process zone), asked when a schedule is compiled. */
  localZoneId: () => string;
  /** The upstream ClusterVersion (`--managed-upstream-cluster-version-name`). */
  clusterVersionName?: string;
  /** Where the Machines of `machine_info` live (`--machine-namespace`, default `openshift-machine-api`). */
  machineNamespace?: string;
  /** The managed (managedupgrade.appuio.io) ClusterVersion synced to the upstream one (`--managed-cluster-version-name`, default `version`). */
  managedClusterVersionName?: string;
  /** Its namespace (`--managed-cluster-version-namespace`; default: `namespace`, else `default`). */
  managedClusterVersionNamespace?: string;
  /** NodeForceDrain: the longest wait between passes while a node drains, ms (`--node-drain-reconcile-interval`, default 3 min; 0: no cap). */
  nodeDrainReconcileIntervalMs?: number;
  prometheusUrl: string;
  monitoringToken?: () => string | undefined;
  ca?: string;
  /** With a virtual clock: stop counting an outside call as activity after this much real time. */
  releaseActivityAfterWallMs?: number;
  /**
   * The clock of outside calls' timeouts (Prometheus, Alertmanager, the update service; default
   * `clock`). On scaled time (a rehearsal against an external API server) it is the wall clock:
   * a 30 s timeout is about the network, not 30 virtual seconds (50 ms at ×600).
   */
  timeoutClock?: Clock;
}

/** The wired operator. */
export interface ScheduledOperator {
  /** `openshift_upgrade_controller_*` metrics. */
  metricsRegistry: Registry;
  controllers: Controller[];
  /** Its UpgradeJobs, as the notifications read them (docs/configuration.md#notifications). */
  notificationSource: NotificationSource<UpgradeJob>;
  /** Runs the controllers until the signal aborts (without a Manager). */
  start(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** Builds the operator (nothing runs until `start`). */
export function createScheduledOperator(options: ScheduledOperatorOptions): ScheduledOperator {
  const machineNamespace = options.machineNamespace ?? MACHINE_API_NAMESPACE;
  const activity = options.activity ? { activity: options.activity } : {};
  const prometheus = new PrometheusClient({
    url: options.prometheusUrl,
    clock: options.timeoutClock ?? options.clock,
    userAgent: userAgent(),
    ...activity,
    ...(options.monitoringToken ? { bearerToken: options.monitoringToken } : {}),
    ...(options.ca ? { ca: options.ca } : {}),
    ...(options.releaseActivityAfterWallMs !== undefined
      ? { releaseActivityAfterWallMs: options.releaseActivityAfterWallMs }
      : {}),
  });
  const events = new EventRecorder({
    client: options.client,
    clock: options.clock,
    logger: options.logger,
    component: 'upgrade-operator',
    ...activity,
  });
  const common = {
    client: options.client,
    informers: options.informers,
    clock: options.clock,
    logger: options.logger,
    events,
    ...activity,
    ...(options.clusterVersionName ? { clusterVersionName: options.clusterVersionName } : {}),
  };
  const configs = createScheduledUpgradeConfigController({
    ...common,
    localZoneId: options.localZoneId,
    namespace: options.namespace === '' ? undefined : options.namespace,
  });
  const jobs = createUpgradeJobController({ ...common, namespace: options.namespace, prometheus });
  const metricsRegistry = new Registry();
  const log = { log: options.logger.child({ component: 'metrics' }) };
  const ns = options.namespace === '' ? undefined : options.namespace;
  const hooks = options.informers.informerFor(UpgradeJobHookResource, { namespace: ns });
  const windows = createUpgradeSuspensionWindowController({ ...common, namespace: options.namespace });
  const clusterVersionSync = createClusterVersionSyncController({
    ...common,
    managedNamespace: options.managedClusterVersionNamespace || options.namespace || 'default',
    ...(options.managedClusterVersionName ? { managedName: options.managedClusterVersionName } : {}),
    ...(options.clusterVersionName ? { upstreamName: options.clusterVersionName } : {}),
  });
  const pools = options.informers.informerFor(MachineConfigPoolResource);
  const nodes = options.informers.informerFor(NodeResource);
  const machines = options.informers.informerFor(MachineResource, { namespace: machineNamespace });
  new ScheduledUpgradeConfigCollector(metricsRegistry, () => configs.upgradeConfigs(), log);
  new UpgradeJobCollector(metricsRegistry, { jobs: () => jobs.upgradeJobs(), hooks: () => hooks.list() }, log);
  new SuspensionWindowCollector(metricsRegistry, () => windows.windows(), log);
  new ClusterVersionCollector(metricsRegistry, () => clusterVersionSync.managedClusterVersions()[0], log);
  const jq = new JqSelector();
  const forceDrain = createNodeForceDrainController({
    ...common,
    namespace: options.namespace,
    jq,
    metrics: new NodeForceDrainMetrics(metricsRegistry),
    ...(options.nodeDrainReconcileIntervalMs !== undefined
      ? { drainReconcileInterval: options.nodeDrainReconcileIntervalMs }
      : {}),
  });
  new ClusterStateCollector(
    metricsRegistry,
    {
      clusterVersion: () => jobs.cluster.clusterVersion(),
      machineConfigPools: () => pools.list(),
      nodes: () => nodes.list(),
      machines: () => machines.list(),
    },
    { ...log, machineNamespace },
  );
  const controllers = [
    configs.controller,
    jobs.controller,
    windows.controller,
    clusterVersionSync.controller,
    forceDrain.controller,
  ];
  return {
    metricsRegistry,
    controllers,
    notificationSource: {
      flow: 'scheduled',
      resource: UpgradeJobResource,
      namespace: options.namespace === '' ? undefined : options.namespace,
      progress: upgradeJobProgress,
    },
    async start(signal: AbortSignal): Promise<void> {
      await Promise.all(controllers.map((c) => c.start(signal)));
    },
    async close(): Promise<void> {
      events.close();
      await Promise.all([prometheus.close(), jq.close()]);
    },
  };
}
