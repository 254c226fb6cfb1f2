/**
 * The scheduled-upgrade operator (APPUiO compatible), wired: the UpgradeConfig controller
 * (maintenance windows → UpgradeJobs), the UpgradeJob controller (the job's lifecycle on the
 * shared step engine, hooks, health checks) and the UpgradeConfig metrics, on one client and
 * informer factory. Used by `upgrade-operator run --flows scheduled` and by `simulate`.
 */
import { Registry } from 'prom-client';
import { createScheduledUpgradeConfigController } from '../controllers/scheduled-upgrade-config-controller.js';
import { createUpgradeJobController } from '../controllers/upgrade-job-controller.js';
import { PrometheusClient } from '../integrations/prometheus-client.js';
import type { KubeClient } from '../kube/client.js';
import type { Controller } from '../kube/controller.js';
import { EventRecorder } from '../kube/event-recorder.js';
import type { InformerFactory } from '../kube/informer-factory.js';
import type { ActivityTracker } from '../lib/activity.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import { ScheduledUpgradeConfigCollector } from '../metrics/scheduled-upgrade-metrics.js';
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
  /** The zone `location: Local` means (the process zone). */
  localZoneId: string;
  /** The upstream ClusterVersion (`--managed-upstream-cluster-version-name`). */
  clusterVersionName?: string;
  prometheusUrl: string;
  monitoringToken?: () => string | undefined;
  ca?: string;
  /** With a virtual clock: stop counting an outside call as activity after this much real time. */
  releaseActivityAfterWallMs?: number;
}

/** The wired operator. */
export interface ScheduledOperator {
  /** `openshift_upgrade_controller_*` metrics. */
  metricsRegistry: Registry;
  controllers: Controller[];
  /** Runs the controllers until the signal aborts (without a Manager). */
  start(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** Builds the operator (nothing runs until `start`). */
export function createScheduledOperator(o: ScheduledOperatorOptions): ScheduledOperator {
  const activity = o.activity ? { activity: o.activity } : {};
  const prometheus = new PrometheusClient({
    url: o.prometheusUrl,
    clock: o.clock,
    userAgent: userAgent(),
    ...activity,
    ...(o.monitoringToken ? { bearerToken: o.monitoringToken } : {}),
    ...(o.ca ? { ca: o.ca } : {}),
    ...(o.releaseActivityAfterWallMs !== undefined ? { releaseActivityAfterWallMs: o.releaseActivityAfterWallMs } : {}),
  });
  const events = new EventRecorder({ client: o.client, clock: o.clock, logger: o.logger, component: 'upgrade-operator', ...activity });
  const common = { client: o.client, informers: o.informers, clock: o.clock, logger: o.logger, events, ...activity, ...(o.clusterVersionName ? { clusterVersionName: o.clusterVersionName } : {}) };
  const configs = createScheduledUpgradeConfigController({ ...common, localZoneId: o.localZoneId, namespace: o.namespace === '' ? undefined : o.namespace });
  const jobs = createUpgradeJobController({ ...common, namespace: o.namespace, prometheus });
  const metricsRegistry = new Registry();
  new ScheduledUpgradeConfigCollector(metricsRegistry, () => configs.upgradeConfigs());
  const controllers = [configs.controller, jobs.controller];
  return {
    metricsRegistry,
    controllers,
    async start(signal: AbortSignal): Promise<void> {
      await Promise.all(controllers.map((c) => c.start(signal)));
    },
    async close(): Promise<void> {
      await prometheus.close();
    },
  };
}
