/**
 * The managed-upgrade operator, wired: metrics registries, outside-API clients, the
 * UpgradeConfig, NodeKeeper and MachineConfigPool controllers, the policy sources (LOCAL, OCM,
 * OCM agent) with their notifier and sync loop, on one client and informer factory. Used by
 * `upgrade-operator run` and by `simulate` (which passes the simulated cluster's monitoring
 * URLs and its virtual clock); nothing here knows which cluster it talks to.
 */
import type { NotificationSource } from '../engine/notifications/notification-controller.js';
import { upgradeConfigProgress } from '../managed/notifications/upgrade-config-progress.js';
import { Registry } from 'prom-client';
import { ManagedUpgradeConfigResource } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { ManagedUpgradeConfig } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { ManagedOperatorConfig } from '../managed/config/managed-operator-config.js';
import type { OperatorSettings } from '../managed/config/operator-settings.js';
import { createManagedUpgradeConfigController } from '../managed/controllers/upgrade-config-controller.js';
import { createMachineConfigPoolController } from '../managed/controllers/machine-config-pool-controller.js';
import { createNodeKeeperController } from '../managed/controllers/node-keeper-controller.js';
import { AlertmanagerClient } from '../integrations/alertmanager-client.js';
import { HttpClient, type HttpTransportOptions } from '../integrations/http/http-client.js';
import { PrometheusClient } from '../integrations/prometheus-client.js';
import { RegistryClient } from '../integrations/registry-client.js';
import { UpdateServiceClient, updatesFrom } from '../integrations/update-service-client.js';
import type { KubeClient } from '../kube/client.js';
import type { Runnable } from '../kube/manager.js';
import type { SeededRandom } from '../lib/random.js';
import { EventRecorder } from '../kube/event-recorder.js';
import type { InformerFactory } from '../kube/informer-factory.js';
import type { ActivityTracker } from '../lib/activity.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import { ManagedUpgradeCollector } from '../managed/metrics/managed-upgrade-collector.js';
import { ManagedUpgradeMetrics } from '../managed/metrics/managed-upgrade-metrics.js';
import { PolicySources } from '../managed/providers/policy-sources.js';
import { UpgradeConfigManager } from '../managed/providers/upgrade-config-manager.js';
import type { DrainSettings } from '../managed/drain/drain-strategies.js';
import { drainNodeWithStrategies } from '../managed/drain/node-drainer.js';
import { dvoMetricsFromService } from '../managed/health/dvo-metrics-source.js';
import { workerRollout } from '../managed/cluster-version/worker-pools.js';
import { historyFor } from '../managed/history/upgrade-history.js';
import { userAgent } from './version.js';
import { errorMessage } from '../lib/errors.js';

/** Options of {@link createManagedOperator}. */
export interface ManagedOperatorOptions {
  client: KubeClient;
  informers: InformerFactory;
  clock: Clock;
  logger: Logger;
  activity?: ActivityTracker;
  settings: OperatorSettings;
  prometheusUrl: string;
  alertmanagerUrl: string;
  /** Bearer token for Prometheus and Alertmanager (in-cluster: the service account's). */
  monitoringToken?: () => string | undefined;
  /** Extra CA certificates (PEM) for the monitoring endpoints. */
  ca?: string;
  /** Registry host → base URL overrides (simulation: the simulated registry). */
  registryHosts?: Record<string, string>;
  /** With a virtual clock: stop counting an outside call as activity after this much real time. */
  releaseActivityAfterWallMs?: number;
  /**
   * The clock of outside calls' timeouts (Prometheus, Alertmanager, the update service; default
   * `clock`). On scaled time (a rehearsal against an external API server) it is the wall clock:
   * a 30 s timeout is about the network, not 30 virtual seconds (50 ms at ×600).
   */
  timeoutClock?: Clock;
  /** Seeds the jitter of the policy sync loop and the OCM retries. */
  random: SeededRandom;
}

/** The wired operator. */
export interface ManagedOperator {
  /** `upgradeoperator_*` gauges (MUO's port 8383). */
  metricsRegistry: Registry;
  /** `managed_upgrade_*` collector (MUO's port 8089). */
  collectorRegistry: Registry;
  /** The UpgradeConfig, NodeKeeper and MachineConfigPool controllers and the policy sync loop, for a Manager to run while leading. */
  controllers: Runnable[];
  /** Its UpgradeConfigs, as the notifications read them (docs/configuration.md#notifications). */
  notificationSource: NotificationSource<ManagedUpgradeConfig>;
  /** Runs the controllers until the signal aborts (without a Manager, so without leader election). */
  start(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

function drainSettings(config: ManagedOperatorConfig, pdbForceDrainTimeoutMs: number): DrainSettings {
  return {
    drainTimeoutMs: config.nodeDrain.timeOutMs,
    pdbForceDrainTimeoutMs,
    expectedNodeDrainTimeMs: config.nodeDrain.expectedNodeDrainTimeMs,
    disableDrainStrategies: config.nodeDrain.disableDrainStrategies,
    ignoredNamespacePatterns: config.nodeDrain.ignoredNamespacePatterns,
  };
}

/** Builds the operator (nothing runs until `start`). */
export function createManagedOperator(options: ManagedOperatorOptions): ManagedOperator {
  const transport: HttpTransportOptions = {
    clock: options.timeoutClock ?? options.clock,
    userAgent: userAgent(),
    ...(options.activity ? { activity: options.activity } : {}),
    ...(options.monitoringToken ? { bearerToken: options.monitoringToken } : {}),
    ...(options.ca ? { ca: options.ca } : {}),
    ...(options.releaseActivityAfterWallMs !== undefined
      ? { releaseActivityAfterWallMs: options.releaseActivityAfterWallMs }
      : {}),
  };
  const prometheus = new PrometheusClient({ ...transport, url: options.prometheusUrl });
  const alertmanager = new AlertmanagerClient({ ...transport, url: options.alertmanagerUrl });
  const { bearerToken: _t, ca: _c, ...plain } = transport;
  const updateService = new UpdateServiceClient(plain);
  const registry = new RegistryClient({ ...plain, ...(options.registryHosts ? { hosts: options.registryHosts } : {}) });
  const probeClient = new HttpClient({ ...plain, api: 'external-dependency' });
  const dvoClient = new HttpClient({ ...plain, api: 'dvo' });
  const metricsRegistry = new Registry();
  const collectorRegistry = new Registry();
  const metrics = new ManagedUpgradeMetrics(metricsRegistry);
  const events = new EventRecorder({
    client: options.client,
    clock: options.clock,
    logger: options.logger,
    component: 'upgrade-operator',
    ...(options.activity ? { activity: options.activity } : {}),
  });
  // The policy source (LOCAL, OCM, OCM agent) and its notifier follow the ConfigMap as it changes.
  const sources = new PolicySources({
    client: options.client,
    clock: options.clock,
    random: options.random.fork('ocm'),
    logger: options.logger,
    config: () => managed.config().config,
    transport: plain,
    ...(options.timeoutClock ? { timeoutClock: options.timeoutClock } : {}),
  });

  // The NodeKeeper registers the compact Pod cache first (see createNodeKeeperController).
  const nodeKeeper = createNodeKeeperController({
    informers: options.informers,
    client: options.client,
    clock: options.clock,
    logger: options.logger,
    ...(options.activity ? { activity: options.activity } : {}),
    events,
    state: () => {
      // Called only while reconciling, after `managed` below is initialised.
      const config = managed.config().config;
      const cr = managed.upgradeConfigs()[0];
      const entry = historyFor(cr?.status?.history, cr?.spec?.desired.version);
      const rolling = !workerRollout(managed.cluster.pools()).done;
      return {
        active: entry?.phase === 'Upgrading' && rolling,
        settings: drainSettings(config, (cr?.spec?.PDBForceDrainTimeout ?? 0) * 60_000),
      };
    },
    onDrainTimeout: (node, on) => metrics.setNodeDrainTimeout(node, on),
    onPdbForceDrainStarted: async (node, signal) => {
      options.logger.info({ node }, 'PDB-blocked pods are being removed by force (PDB-DELETE)');
      await managed.notifyPdbForceDrain(signal);
    },
  });
  const managed = createManagedUpgradeConfigController({
    client: options.client,
    informers: options.informers,
    clock: options.clock,
    logger: options.logger,
    ...(options.activity ? { activity: options.activity } : {}),
    events,
    metrics,
    settings: options.settings,
    prometheus,
    alertmanager,
    dvo: dvoMetricsFromService({ client: options.client, http: dvoClient }),
    notifier: sources.notifier(),
    provider: (config) => sources.provider(config),
    validation: {
      fetchGraph: async (graphQuery, signal) => {
        const graph = await updateService.graph({
          upstream: graphQuery.upstream,
          channel: graphQuery.channel,
          arch: graphQuery.arch,
          id: graphQuery.clusterId,
          version: graphQuery.fromVersion,
          ...(signal ? { signal } : {}),
        });
        const u = updatesFrom(graph, graphQuery.fromVersion);
        return {
          updates: (u?.updates ?? []).map((r) => r.version),
          conditionalUpdates: (u?.conditionalUpdates ?? []).map((c) => c.release.version),
        };
      },
      releaseVersionOfImage: async (image, signal) => (await registry.imageLabels(image, signal)).release ?? '',
    },
    urlProbe: async (url, timeoutMs, signal) => {
      try {
        const res = await probeClient.request({ path: url, timeoutMs, signal, acceptErrorStatus: true });
        return res.status < 400 ? undefined : `HTTP ${res.status}`;
      } catch (err) {
        return errorMessage(err);
      }
    },
    drainNode: async (node, config, pdbMs, signal) => {
      const r = await drainNodeWithStrategies(
        options.client,
        node,
        drainSettings(config, pdbMs),
        options.clock.now(),
        signal,
      );
      return { failed: r.failed, nextDueAt: r.nextDueAt };
    },
  });
  new ManagedUpgradeCollector(collectorRegistry, () => ({
    config: managed.upgradeConfigs()[0],
    clusterVersion: managed.cluster.clusterVersion(),
  }));
  const pools = createMachineConfigPoolController({
    client: options.client,
    informers: options.informers,
    clock: options.clock,
    logger: options.logger,
    ...(options.activity ? { activity: options.activity } : {}),
    settings: options.settings,
  });
  // Wake the NodeKeeper whenever an upgrade's state may have changed its activity.
  const wake = (): void => nodeKeeper.wakeAll();
  const removeWake = options.informers
    .informerFor(ManagedUpgradeConfigResource, { namespace: options.settings.watchNamespace })
    .addHandlers({ onAdd: wake, onUpdate: wake });
  const policySync = new UpgradeConfigManager({
    client: options.client,
    clock: options.clock,
    random: options.random.fork('policy-sync'),
    logger: options.logger,
    events,
    metrics,
    namespace: options.settings.watchNamespace,
    config: () => managed.config().config,
    provider: (config) => sources.provider(config),
    cached: (namespace, name) =>
      options.informers
        .informerFor(ManagedUpgradeConfigResource, { namespace: options.settings.watchNamespace })
        .get(namespace, name),
    synced: (signal) => managed.configSynced(signal),
  });
  const controllers: Runnable[] = [managed.controller, nodeKeeper.controller, pools, policySync];

  return {
    metricsRegistry,
    collectorRegistry,
    controllers,
    notificationSource: {
      flow: 'managed',
      resource: ManagedUpgradeConfigResource,
      namespace: options.settings.watchNamespace === '' ? undefined : options.settings.watchNamespace,
      progress: upgradeConfigProgress,
    },
    async start(signal: AbortSignal): Promise<void> {
      await Promise.all(controllers.map((c) => c.start(signal)));
    },
    async close(): Promise<void> {
      removeWake();
      events.close();
      await Promise.allSettled([
        prometheus.close(),
        alertmanager.close(),
        updateService.close(),
        registry.close(),
        probeClient.close(),
        dvoClient.close(),
        sources.close(),
      ]);
    },
  };
}
