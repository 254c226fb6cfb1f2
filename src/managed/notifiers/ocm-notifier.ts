/**
 * The OCM notifier (docs/design/managed-flow.md#reporting-to-ocm,
 * docs/design/managed-flow.md#notifications): a policy-state notification PATCHes the state of the
 * upgrade policy the UpgradeConfig came from (same version, same `next_run` instant) with the state
 * and MUO's text — only for the transitions MUO allows from the state OCM has now; a service-log
 * notification posts a service log with MUO's fields, only when the `ServiceLogNotification`
 * feature gate is on, and never changes the policy state. De-duplication is the caller's
 * (`sendNotificationOnce` stores it on the UpgradeConfig).
 */
import type { OcmApi } from '../../integrations/ocm-client.js';
import type { OcmPolicyState, OcmServiceLog } from '../../integrations/ocm-model.js';
import type { Logger } from '../../lib/log.js';
import { OCM_POLICY_STATE, type Notification, type Notifier, type NotifyStateName } from './notifier.js';
import { policyMatches } from '../providers/ocm-policy.js';
import { findOcmCluster } from '../providers/ocm-provider.js';

/** MUO's fixed service-log fields. */
export const SERVICE_LOG_FIELDS = {
  severity: 'Info',
  serviceName: 'RedHat Managed Upgrade Notifications',
  logType: 'Cluster Updates',
  internalOnly: false,
} as const;

/** The KCS article the health-check service logs point to. */
export const HEALTH_CHECK_DOC_REFERENCE = 'https://access.redhat.com/solutions/7081505';

/** The summary of each service-log state (and whether it carries the health-check article). */
export const SERVICE_LOG_SUMMARY: Partial<Record<NotifyStateName, { summary: string; docReference: boolean }>> = {
  StateControlPlaneStartedSL: {
    summary: 'Cluster is starting with control and worker plane upgrade',
    docReference: false,
  },
  StateControlPlaneFinishedSL: { summary: 'Cluster has finished control plane upgrade', docReference: false },
  StateWorkerPlaneFinishedSL: { summary: 'Cluster has finished with worker plane upgrade', docReference: false },
  StateHealthCheckSL: { summary: 'Cluster has encountered healthcheck failure during upgrade', docReference: true },
  StatePreHealthCheckSL: { summary: 'Cluster has encountered pre-upgrade healthcheck failure', docReference: true },
};

/** What OCM's current state means to the guard (MUO reads a `delayed` without "retry" in its text as skipped). */
type GuardState =
  | 'pending'
  | 'scheduled'
  | 'started'
  | 'delayed'
  | 'skipped'
  | 'scaleSkipped'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'unknown';

const ALLOWED: Readonly<Record<GuardState, readonly NotifyStateName[]>> = {
  scheduled: ['StateStarted'],
  started: ['StateScaleSkipped', 'StateDelayed', 'StateCompleted', 'StateFailed'],
  scaleSkipped: ['StateDelayed', 'StateFailed', 'StateSkipped', 'StateCompleted'],
  delayed: ['StateCompleted', 'StateFailed', 'StateSkipped'],
  skipped: ['StateCompleted', 'StateFailed'],
  pending: [],
  completed: [],
  failed: [],
  cancelled: [],
  unknown: [],
};

/** MUO's reading of OCM's current state. */
export function guardState(current: OcmPolicyState): GuardState {
  const v = current.value.toLowerCase();
  if (v === 'delayed') return current.description.includes('retry') ? 'delayed' : 'skipped';
  return v === 'pending' ||
    v === 'scheduled' ||
    v === 'started' ||
    v === 'completed' ||
    v === 'failed' ||
    v === 'cancelled'
    ? v
    : 'unknown';
}

/** True when MUO writes `next` over OCM's `current` state. */
export function transitionAllowed(current: OcmPolicyState, next: NotifyStateName): boolean {
  return ALLOWED[guardState(current)].includes(next);
}

/** The service log of a notification (`clusterId`: OCM's internal id). */
export function serviceLogFor(
  notification: Notification,
  clusterId: string,
  options: { docReferences: boolean },
): OcmServiceLog | undefined {
  const s = SERVICE_LOG_SUMMARY[notification.state];
  if (!s) return undefined;
  return {
    clusterId,
    ...SERVICE_LOG_FIELDS,
    summary: s.summary,
    description: notification.description,
    ...(s.docReference && options.docReferences ? { docReferences: [HEALTH_CHECK_DOC_REFERENCE] } : {}),
  };
}

/** Options of {@link OcmNotifier}. */
export interface OcmNotifierOptions {
  ocm: OcmApi;
  externalId: (signal?: AbortSignal) => Promise<string>;
  /** Whether the `ServiceLogNotification` gate is on (asked at each notification). */
  serviceLogs: () => boolean;
  logger: Logger;
}

/** Notifies OCM (or the OCM agent). */
export class OcmNotifier implements Notifier {
  readonly kind = 'ocm';
  readonly #o: OcmNotifierOptions;
  readonly #log: Logger;

  constructor(options: OcmNotifierOptions) {
    this.#o = options;
    this.#log = options.logger.child({ component: 'ocm-notifier' });
  }

  async notify(notification: Notification, signal: AbortSignal): Promise<void> {
    const { ocm } = this.#o;
    const value = OCM_POLICY_STATE[notification.state];
    if (value === undefined) {
      if (!SERVICE_LOG_SUMMARY[notification.state]) return;
      if (!this.#o.serviceLogs()) {
        this.#log.debug(
          { state: notification.state },
          'service log not sent: the ServiceLogNotification feature gate is off',
        );
        return;
      }
      const cluster = await findOcmCluster(ocm, await this.#o.externalId(signal), signal);
      // The OCM agent's service-log call drops doc references (as MUO's agent client does).
      const log = serviceLogFor(notification, cluster.id, { docReferences: ocm.api === 'ocm' });
      if (log) await ocm.postServiceLog(log, signal);
      this.#log.info(
        { state: notification.state, version: notification.version },
        `service log sent: ${log?.summary ?? ''}`,
      );
      return;
    }
    const cluster = await findOcmCluster(ocm, await this.#o.externalId(signal), signal);
    const policies = await ocm.upgradePolicies(cluster.id, signal);
    const policy = policies.find((p) => policyMatches(p, notification.version, notification.upgradeAt));
    if (!policy)
      throw new Error(`${ocm.api}: no upgrade policy for version ${notification.version} at ${notification.upgradeAt}`);
    const current = await ocm.policyState(cluster.id, policy.id, signal);
    if (!transitionAllowed(current, notification.state)) {
      this.#log.info(
        { state: notification.state, policy: policy.id, current: current.value },
        `policy state not changed: ${notification.state} is not sent over OCM state ${current.value}`,
      );
      return;
    }
    await ocm.setPolicyState(cluster.id, policy.id, { value, description: notification.description }, signal);
    this.#log.info(
      { state: notification.state, policy: policy.id, version: notification.version },
      `Upgrade-State: ${value} Description: ${notification.description}`,
    );
  }
}
