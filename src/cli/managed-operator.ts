/**
 * The managed-upgrade operator, wired: metrics registries, outside-API clients, the
 * UpgradeConfig, NodeKeeper and MachineConfigPool controllers, the policy sources (LOCAL, OCM,
 * OCM agent) with their notifier and sync loop, on one client and informer factory. Used by
 * `upgrade-operator run` and by `simulate` (which passes the simulated cluster's monitoring
 * URLs and its virtual clock); nothing here knows which cluster it talks to.
 */
import { Registry } from 'prom-client';
import { ManagedUpgradeConfigResource } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
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
export function createManagedOperator(o: ManagedOperatorOptions): ManagedOperator {
  const transport: HttpTransportOptions = {
    clock: o.clock,
    userAgent: userAgent(),
    ...(o.activity ? { activity: o.activity } : {}),
    ...(o.monitoringToken ? { bearerToken: o.monitoringToken } : {}),
    ...(o.ca ? { ca: o.ca } : {}),
    ...(o.releaseActivityAfterWallMs !== undefined ? { releaseActivityAfterWallMs: o.releaseActivityAfterWallMs } : {}),
  };
  const prometheus = new PrometheusClient({ ...transport, url: o.prometheusUrl });
  const alertmanager = new AlertmanagerClient({ ...transport, url: o.alertmanagerUrl });
  const { bearerToken: _t, ca: _c, ...plain } = transport;
  const updateService = new UpdateServiceClient(plain);
  const registry = new RegistryClient({ ...plain, ...(o.registryHosts ? { hosts: o.registryHosts } : {}) });
  const probeClient = new HttpClient({ ...plain, api: 'external-dependency' });
  const dvoClient = new HttpClient({ ...plain, api: 'dvo' });
  const metricsRegistry = new Registry();
  const collectorRegistry = new Registry();
  const metrics = new ManagedUpgradeMetrics(metricsRegistry);
  const events = new EventRecorder({ client: o.client, clock: o.clock, logger: o.logger, component: 'upgrade-operator', ...(o.activity ? { activity: o.activity } : {}) });
  // The policy source (LOCAL, OCM, OCM agent) and its notifier follow the ConfigMap as it changes.
  const sources = new PolicySources({
    client: o.client,
    clock: o.clock,
    random: o.random.fork('ocm'),
    logger: o.logger,
    config: () => managed.config().config,
    transport: plain,
  });

  // The NodeKeeper registers the compact Pod cache first (see createNodeKeeperController).
  const nodeKeeper = createNodeKeeperController({
    informers: o.informers,
    client: o.client,
    clock: o.clock,
    logger: o.logger,
    ...(o.activity ? { activity: o.activity } : {}),
    events,
    state: () => {
      // Called only while reconciling, after `managed` below is initialised.
      const config = managed.config().config;
      const cr = managed.upgradeConfigs()[0];
      const entry = historyFor(cr?.status?.history, cr?.spec?.desired.version);
      const rolling = !workerRollout(managed.cluster.pools()).done;
      return { active: entry?.phase === 'Upgrading' && rolling, settings: drainSettings(config, (cr?.spec?.PDBForceDrainTimeout ?? 0) * 60_000) };
    },
    onDrainTimeout: (node, on) => metrics.setNodeDrainTimeout(node, on),
    onPdbForceDrainStarted: async (node, signal) => {
      o.logger.info({ node }, 'PDB-blocked pods are being removed by force (PDB-DELETE)');
      await managed.notifyPdbForceDrain(signal);
    },
  });
  const managed = createManagedUpgradeConfigController({
    client: o.client,
    informers: o.informers,
    clock: o.clock,
    logger: o.logger,
    ...(o.activity ? { activity: o.activity } : {}),
    events,
    metrics,
    settings: o.settings,
    prometheus,
    alertmanager,
    dvo: dvoMetricsFromService({ client: o.client, http: dvoClient }),
    notifier: sources.notifier(),
    provider: (config) => sources.provider(config),
    validation: {
      fetchGraph: async (q, signal) => {
        const graph = await updateService.graph({ upstream: q.upstream, channel: q.channel, arch: q.arch, id: q.clusterId, version: q.fromVersion, ...(signal ? { signal } : {}) });
        const u = updatesFrom(graph, q.fromVersion);
        return { updates: (u?.updates ?? []).map((r) => r.version), conditionalUpdates: (u?.conditionalUpdates ?? []).map((c) => c.release.version) };
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
      const r = await drainNodeWithStrategies(o.client, node, drainSettings(config, pdbMs), o.clock.now(), signal);
      return { failed: r.failed, nextDueAt: r.nextDueAt };
    },
  });
  new ManagedUpgradeCollector(collectorRegistry, () => ({ config: managed.upgradeConfigs()[0], clusterVersion: managed.cluster.clusterVersion() }));
  const pools = createMachineConfigPoolController({
    client: o.client,
    informers: o.informers,
    clock: o.clock,
    logger: o.logger,
    ...(o.activity ? { activity: o.activity } : {}),
    settings: o.settings,
  });
  // Wake the NodeKeeper whenever an upgrade's state may have changed its activity.
  const wake = (): void => nodeKeeper.wakeAll();
  const removeWake = o.informers.informerFor(ManagedUpgradeConfigResource, { namespace: o.settings.watchNamespace }).addHandlers({ onAdd: wake, onUpdate: wake });
  const policySync = new UpgradeConfigManager({
    client: o.client,
    clock: o.clock,
    random: o.random.fork('policy-sync'),
    logger: o.logger,
    events,
    metrics,
    namespace: o.settings.watchNamespace,
    config: () => managed.config().config,
    provider: (config) => sources.provider(config),
    cached: (namespace, name) => o.informers.informerFor(ManagedUpgradeConfigResource, { namespace: o.settings.watchNamespace }).get(namespace, name),
  });
  const controllers: Runnable[] = [managed.controller, nodeKeeper.controller, pools, policySync];

  return {
    metricsRegistry,
    collectorRegistry,
    controllers,
    async start(signal: AbortSignal): Promise<void> {
      await Promise.all(controllers.map((c) => c.start(signal)));
    },
    async close(): Promise<void> {
      removeWake();
      events.close();
      await Promise.allSettled([prometheus.close(), alertmanager.close(), updateService.close(), registry.close(), probeClient.close(), dvoClient.close(), sources.close()]);
    },
  };
}
