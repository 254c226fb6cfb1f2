/**
 * This project's managed-upgrade operator as a process of a scenario: the same composition
 * `upgrade-operator run` wires (createManagedOperator), on the scenario's virtual clock, with
 * its metrics endpoints on loopback. Stopping it ends its work in flight and forgets everything
 * in memory, as killing the process would.
 */
import { setMaxListeners } from 'node:events';
import { MANAGED_UPGRADE_OPERATOR_NAMESPACE } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { defaultOperatorSettings } from '../../managed/config/operator-settings.js';
import { InformerFactory } from '../../kube/informer-factory.js';
import type { ActivityTracker } from '../../lib/activity.js';
import { RealClock } from '../../lib/clock.js';
import { errorMessage } from '../../lib/errors.js';
import { SeededRandom } from '../../lib/random.js';
import { startMetricsServer, type MetricsServer } from '../../kube/metrics-server.js';
import { RuntimeMetrics, processMetricsRegistry } from '../../kube/runtime-metrics.js';
import type { SimulatedCluster } from '../../sim/cluster.js';
import { Registry } from 'prom-client';
import { createNotifications } from '../notifications.js';
import { createManagedOperator } from '../managed-operator.js';
import { createScheduledOperator } from '../scheduled-operator.js';
import type { EmbeddedSimEnvironment, SimEnvironment } from './sim-environment.js';
import type { OperatorPod } from './operator-pod.js';

const NS = MANAGED_UPGRADE_OPERATOR_NAMESPACE;

/** A running operator process. */
export interface OperatorProcess {
  metrics: MetricsServer;
  abort: AbortController;
  running: Promise<void>;
  close(): Promise<void>;
}

/** Which flows the process runs, and where the scheduled flow's objects live. */
export interface OperatorFlows {
  flows: ReadonlyArray<'managed' | 'scheduled'>;
  /** The scheduled flow's namespace (APPUiO's `--namespace`). */
  scheduledNamespace: string;
}

/** Reports every HTTP request the operator starts (API server and outside APIs), by label. */
export type RequestObserver = (what: string) => void;

/** The virtual clock's activity tracker, also telling `observe` of each HTTP request. */
function observedActivity(inner: ActivityTracker, observe: RequestObserver | undefined): ActivityTracker {
  if (!observe) return inner;
  return {
    begin(what: string): () => void {
      if (what.startsWith('http ')) observe(what);
      return inner.begin(what);
    },
  };
}

/** Starts the operator against the simulated cluster's API server and monitoring. */
export async function startOperatorProcess(
  env: SimEnvironment,
  sim: SimulatedCluster,
  seed: number,
  flows: OperatorFlows,
  onRequest?: RequestObserver,
  pod?: OperatorPod,
): Promise<OperatorProcess> {
  const activity = observedActivity(env.clock.activity, onRequest);
  // With the embedded API server, the operator's pod and its log (kubectl logs, must-gather).
  const server = 'server' in env ? (env as EmbeddedSimEnvironment).server : undefined;
  const logger = pod && server ? pod.processLogger(env.logger) : env.logger;
  if (pod && server) await pod.publish(env.client, server.podLogs);
  const runtimeMetrics = new RuntimeMetrics();
  const client = env.newClient('upgrade-operator', NS, activity, runtimeMetrics.requests);
  const informers = new InformerFactory({
    client,
    clock: env.clock,
    logger,
    random: new SeededRandom(seed),
  });
  const monitoring = sim.components.monitoring;
  const common = {
    client,
    informers,
    clock: env.clock,
    logger,
    activity,
    prometheusUrl: monitoring.prometheusUrl ?? '',
    releaseActivityAfterWallMs: 2000,
    // On scaled time outside calls time out on the wall clock (30 s is no 50 wall ms at ×600).
    ...(env.timeMode === 'scaled' ? { timeoutClock: new RealClock() } : {}),
  };
  const managed = flows.flows.includes('managed')
    ? createManagedOperator({
        ...common,
        settings: defaultOperatorSettings(),
        alertmanagerUrl: monitoring.alertmanagerUrl ?? '',
        random: new SeededRandom(seed).fork('operator'),
      })
    : undefined;
  // The simulation runs on UTC: `location: Local` means UTC here.
  const scheduled = flows.flows.includes('scheduled')
    ? createScheduledOperator({ ...common, namespace: flows.scheduledNamespace, localZoneId: () => 'UTC' })
    : undefined;
  // Where `run` keeps them: with the managed flow's ConfigMap, else in the scheduled flow's namespace.
  const notifications = createNotifications({
    ...common,
    operatorNamespace: managed ? NS : flows.scheduledNamespace || 'default',
    managed: managed?.notificationSource,
    scheduled: scheduled?.notificationSource,
    random: new SeededRandom(seed).fork('notifications'),
    transport: { releaseActivityAfterWallMs: common.releaseActivityAfterWallMs },
  });
  // As `run`'s Manager does (no leader election here: one process).
  for (const c of [...(managed?.controllers ?? []), ...(scheduled?.controllers ?? []), ...notifications.controllers])
    c.instrument?.(runtimeMetrics);
  const metrics = await startMetricsServer({
    port: 0,
    registries: [
      {
        path: '/metrics',
        registry: Registry.merge([
          managed?.metricsRegistry ?? new Registry(),
          scheduled?.metricsRegistry ?? new Registry(),
          notifications.metricsRegistry,
          runtimeMetrics.registry,
          processMetricsRegistry(),
        ]),
      },
      { path: '/collector', registry: managed?.collectorRegistry ?? new Registry() },
    ],
    health: () => ({ live: [], ready: [] }),
  });
  const abort = new AbortController();
  const signal = AbortSignal.any([abort.signal, env.signal]);
  // Every controller and watch of the operator listens on this one signal.
  setMaxListeners(0, signal);
  const running = Promise.all([managed?.start(signal), scheduled?.start(signal), notifications.start(signal)])
    .then(() => undefined)
    .catch((err: unknown) => logger.error({ err: errorMessage(err) }, 'operator stopped with an error'));
  return {
    metrics,
    abort,
    running,
    async close(): Promise<void> {
      abort.abort();
      await running;
      await Promise.allSettled([
        managed?.close(),
        scheduled?.close(),
        notifications.close(),
        metrics.close(),
        client.close(),
      ]);
    },
  };
}
