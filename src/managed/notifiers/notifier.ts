/**
 * Notifications of the managed flow (docs/design/managed-flow.md#notifications): the states MUO
 * reports, their descriptions, and the notifier a step calls. The OCM notifier (policy state +
 * service logs) arrives with the providers issue; here is the interface and the log notifier MUO
 * uses when the source is not OCM (`Upgrade-State: <state> Description: <text>`).
 */
import type { Logger } from '../../lib/log.js';

/** MUO's notification states (`MuoState`). */
export const NotifyState = {
  Started: 'StateStarted',
  Delayed: 'StateDelayed',
  Skipped: 'StateSkipped',
  ScaleSkipped: 'StateScaleSkipped',
  Completed: 'StateCompleted',
  Failed: 'StateFailed',
  ControlPlaneStartedSL: 'StateControlPlaneStartedSL',
  ControlPlaneFinishedSL: 'StateControlPlaneFinishedSL',
  WorkerPlaneFinishedSL: 'StateWorkerPlaneFinishedSL',
  HealthCheckSL: 'StateHealthCheckSL',
  PreHealthCheckSL: 'StatePreHealthCheckSL',
} as const;
/** One of {@link NotifyState}. */
export type NotifyStateName = (typeof NotifyState)[keyof typeof NotifyState];

/** The OCM policy state each MUO state writes (service-log states write none). */
export const OCM_POLICY_STATE: Partial<Record<NotifyStateName, 'started' | 'delayed' | 'completed' | 'failed'>> = {
  StateStarted: 'started',
  StateDelayed: 'delayed',
  StateSkipped: 'delayed',
  StateScaleSkipped: 'delayed',
  StateCompleted: 'completed',
  StateFailed: 'failed',
};

/** One notification. */
export interface Notification {
  state: NotifyStateName;
  /** The UpgradeConfig it concerns. */
  upgradeConfig: { namespace: string; name: string };
  version: string;
  upgradeAt: string;
  description: string;
}

/** Where notifications go. */
export interface Notifier {
  readonly kind: string;
  notify(notification: Notification, signal: AbortSignal): Promise<void>;
}

/** MUO's notifier for any source other than OCM: a log line. */
export class LogNotifier implements Notifier {
  readonly kind = 'log';
  readonly #log: Logger;

  constructor(logger: Logger) {
    this.#log = logger.child({ component: 'notifier' });
  }

  async notify(notification: Notification): Promise<void> {
    this.#log.info(
      { upgradeconfig: notification.upgradeConfig.name, version: notification.version, state: notification.state },
      `Upgrade-State: ${notification.state} Description: ${notification.description}`,
    );
  }
}

/** The condition types the description of a delayed or failed notification keys on. */
const PRE_HEALTH = 'ClusterHealthyBeforeUpgrade';
const EXT_DEP = 'ExternalDependenciesAvailable';
const SCALE_UP = 'ComputeCapacityReserved';
const UPGRADEABLE = 'IsClusterUpgradable';
/** How MUO's step-specific "cancelled" descriptions end. */
const RETRIED_OR_RESCHEDULE =
  'Automated upgrades will be retried on their next scheduling cycle. If you have manually scheduled an upgrade instead, it must now be rescheduled';

/**
 * The description of a notification (docs/design/managed-flow.md#notifications). Delayed and Failed
 * are chosen by the first condition that is not True (`firstFalse`: its type and message).
 */
/** MUO's "delayed" text when the PDB-DELETE drain strategy starts deleting pods (KCS 7075425). */
export const PDB_FORCE_DRAIN_DELAY_DESCRIPTION =
  'Node drain grace period might be impacting cluster upgrade. Please refer to the article for further details https://access.redhat.com/solutions/7075425';

export function describeNotification(
  state: NotifyStateName,
  version: string,
  firstFalse?: { type: string; message?: string },
): string {
  switch (state) {
    case 'StateStarted':
      return `Cluster is currently being upgraded to version ${version}`;
    case 'StateCompleted':
      return `Cluster has been successfully upgraded to version ${version}`;
    case 'StateSkipped':
      return `Cluster upgrade to version ${version} has experienced an issue during capacity reservation efforts. The upgrade will continue without extra compute.`;
    case 'StateScaleSkipped':
      return `Cluster upgrade to version ${version} has skipped Scale-Up additional Worker Node step for compute capacity reservation, as the cluster has no default worker machine pool.`;
    case 'StateDelayed':
      switch (firstFalse?.type ?? '') {
        case PRE_HEALTH:
          return `Cluster upgrade to version ${version} is experiencing a delay as health alerts are firing. The upgrade will continue to retry.`;
        case EXT_DEP:
          return `Cluster upgrade to version ${version} is experiencing a delay as an external dependency of the upgrade is currently unavailable. The upgrade will continue to retry.`;
        case SCALE_UP:
          return `Cluster upgrade to version ${version} is experiencing a delay attempting to scale up an additional worker node. The upgrade will continue to retry.`;
        default:
          return `Cluster upgrade to version ${version} is experiencing a delay whilst it performs necessary pre-upgrade procedures. The upgrade will continue to retry.`;
      }
    case 'StateFailed':
      switch (firstFalse?.type ?? '') {
        case UPGRADEABLE:
          return (
            firstFalse?.message ??
            `Cluster upgrade to version ${version} was cancelled: the cluster is not upgradeable.`
          );
        // MUO's exact texts (customers read them in OCM), without a final full stop, as MUO sends them.
        case PRE_HEALTH:
          return `Cluster upgrade to version ${version} was cancelled during the Pre-Health Check step. Health alerts are firing in the cluster which could impact the upgrade's operation, so the upgrade did not proceed. ${RETRIED_OR_RESCHEDULE}`;
        case EXT_DEP:
          return `Cluster upgrade to version ${version} was cancelled during the External Dependency Availability Check step. A required external dependency of the upgrade was unavailable, so the upgrade did not proceed. ${RETRIED_OR_RESCHEDULE}`;
        case SCALE_UP:
          return `Cluster upgrade to version ${version} was cancelled during the Scale-Up Worker Node step. A temporary additional worker node was unable to be created to temporarily house workloads, so the upgrade did not proceed. ${RETRIED_OR_RESCHEDULE}`;
        default:
          return `Cluster upgrade to version ${version} was cancelled as the cluster did not pass its pre-upgrade verification checks. Automated upgrades will be retried on their next scheduling cycle.`;
      }
    case 'StateControlPlaneStartedSL':
      return `Cluster is starting with control and worker plane upgrade to version ${version}.`;
    case 'StateControlPlaneFinishedSL':
      return `Cluster has finished control plane upgrade to version ${version}.`;
    case 'StateWorkerPlaneFinishedSL':
      return `Cluster has finished worker plane upgrade to version ${version}.`;
    case 'StateHealthCheckSL':
      return `Cluster upgrade to version ${version} may experience a delay as following healthcheck(s) are failing: ${firstFalse?.message ?? ''}`;
    case 'StatePreHealthCheckSL':
      return `Cluster upgrade to version ${version} has been scheduled for more than 2 hours, cluster pre-upgrade health check has identified the following points that may impact the upgrade: ${firstFalse?.message ?? ''}`;
  }
}
