/**
 * The notifications of both flows, wired (docs/configuration.md#notifications): one notification
 * controller per flow that runs (the managed flow's UpgradeConfigs, the scheduled flow's
 * UpgradeJobs), both reading the one configuration in the operator namespace and sharing one set
 * of delivery counters. Used by `upgrade-operator run` and by `simulate`.
 */
import type { UpgradeJob } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { ManagedUpgradeConfig } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import {
  createNotificationController,
  type NotificationSource,
} from '../engine/notifications/notification-controller.js';
import { NotificationMetrics } from '../engine/notifications/notification-metrics.js';
import type { ControllerDeps } from '../engine/controller-deps.js';
import type { HttpTransportOptions } from '../integrations/http/http-client.js';
import type { Controller } from '../kube/controller.js';
import { EventRecorder } from '../kube/event-recorder.js';
import type { SeededRandom } from '../lib/random.js';
import type { Registry } from 'prom-client';

/** Options of {@link createNotifications}. */
export interface NotificationsOptions extends ControllerDeps {
  /** Where the configuration ConfigMap, its Secret and the state ConfigMap live. */
  operatorNamespace: string;
  /**
   * The flows that run, each with its upgrade objects (from `createManagedOperator` and
   * `createScheduledOperator`: this module loads neither flow's code).
   */
  managed?: NotificationSource<ManagedUpgradeConfig> | undefined;
  scheduled?: NotificationSource<UpgradeJob> | undefined;
  random: SeededRandom;
  /** Proxy, CA and activity release settings of the receivers' HTTP client. */
  transport?: HttpTransportOptions;
}

/** The wired notifications. */
export interface Notifications {
  /** `upgrade_operator_notification*` counters. */
  metricsRegistry: Registry;
  controllers: Controller[];
  start(signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** Builds the notification controllers of the flows that run (nothing runs until `start`). */
export function createNotifications(options: NotificationsOptions): Notifications {
  const metrics = new NotificationMetrics();
  const events = new EventRecorder({
    client: options.client,
    clock: options.clock,
    logger: options.logger,
    component: 'upgrade-operator',
    ...(options.activity ? { activity: options.activity } : {}),
  });
  const common = {
    client: options.client,
    informers: options.informers,
    clock: options.clock,
    logger: options.logger,
    ...(options.activity ? { activity: options.activity } : {}),
    operatorNamespace: options.operatorNamespace,
    events,
    metrics,
    ...(options.transport ? { transport: options.transport } : {}),
  };
  const built = [
    ...(options.managed
      ? [
          createNotificationController({
            ...common,
            ...options.managed,
            name: 'managed-notifications',
            random: options.random.fork('managed-notifications'),
          }),
        ]
      : []),
    ...(options.scheduled
      ? [
          createNotificationController({
            ...common,
            ...options.scheduled,
            name: 'scheduled-notifications',
            random: options.random.fork('scheduled-notifications'),
          }),
        ]
      : []),
  ];
  const controllers = built.map((b) => b.controller);
  return {
    metricsRegistry: metrics.registry,
    controllers,
    async start(signal: AbortSignal): Promise<void> {
      await Promise.all(controllers.map((c) => c.start(signal)));
    },
    async close(): Promise<void> {
      events.close();
      await Promise.all(built.map((b) => b.close()));
    },
  };
}
