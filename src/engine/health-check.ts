/**
 * The vocabulary shared by every health check (docs/design/managed-flow.md#health-checks,
 * docs/metrics.md#operator-gauges): check names, MUO's exact `upgradeoperator_healthcheck_failed`
 * reasons, and the failure record a check returns. Pure data; no I/O.
 */

/** The health checks, in MUO's order of execution. */
export const CHECK_NAMES = [
  'critical-alerts',
  'cluster-operators',
  'capacity-reservation',
  'cordoned-nodes',
  'node-pressure',
  'pod-disruption-budgets',
  'deployment-validation',
] as const;
/** One health check. */
export type CheckName = (typeof CHECK_NAMES)[number];

/** The `reason` label values of `upgradeoperator_healthcheck_failed`, exactly as MUO writes them. */
export const HealthcheckReason = {
  QueryFailed: 'healthcheck_query_failed',
  CriticalAlertsFiring: 'critical_alerts_firing',
  ClusterOperatorsDegraded: 'cluster_operators_degraded',
  ClusterOperatorStatusFailed: 'cluster_operator_status_failed',
  DefaultWorkerMachinepoolNotFound: 'default_worker_machinepool_not_found',
  ClusterNodeQueryFailed: 'cluster_node_query_failed',
  ClusterNodeManuallyCordoned: 'cluster_node_manually_cordoned',
  ClusterNodeTaintUnschedulable: 'cluster_node_taint_unschedulable',
  ClusterInvalidPdb: 'cluster_invalid_pdb',
  ClusterInvalidPdbConfiguration: 'cluster_invalid_pdb_configuration',
  PdbQueryFailed: 'pdb_query_failed',
  DvoClientCreationFailed: 'dvo_client_creation_failed',
  DvoMetricsQueryFailed: 'dvo_metrics_query_failed',
} as const;
/** A `reason` label value of `upgradeoperator_healthcheck_failed`. */
export type HealthcheckReasonName = (typeof HealthcheckReason)[keyof typeof HealthcheckReason];

/**
 * The metric reasons each check can set to 1. A caller resets to 0 the reasons of the checks
 * that ran and passed (`metricReasonsToClear` in managed-health-check.ts).
 */
export const CHECK_METRIC_REASONS: Readonly<Record<CheckName, readonly HealthcheckReasonName[]>> = {
  'critical-alerts': [HealthcheckReason.CriticalAlertsFiring, HealthcheckReason.QueryFailed],
  'cluster-operators': [HealthcheckReason.ClusterOperatorsDegraded, HealthcheckReason.ClusterOperatorStatusFailed],
  'capacity-reservation': [HealthcheckReason.DefaultWorkerMachinepoolNotFound],
  'cordoned-nodes': [HealthcheckReason.ClusterNodeManuallyCordoned, HealthcheckReason.ClusterNodeQueryFailed],
  'node-pressure': [HealthcheckReason.ClusterNodeTaintUnschedulable, HealthcheckReason.ClusterNodeQueryFailed],
  'pod-disruption-budgets': [HealthcheckReason.ClusterInvalidPdbConfiguration, HealthcheckReason.PdbQueryFailed],
  'deployment-validation': [
    HealthcheckReason.ClusterInvalidPdb,
    HealthcheckReason.DvoMetricsQueryFailed,
    HealthcheckReason.DvoClientCreationFailed,
  ],
};

/**
 * The checks whose failure blocks an upgrade in progress. MUO (gate `PreHealthCheck` on, phase
 * Upgrading) keeps the step pending only for critical-alert and ClusterOperator failures; the
 * other failures are reported and the upgrade goes on.
 */
export const BLOCKING_CHECKS: ReadonlySet<CheckName> = new Set<CheckName>(['critical-alerts', 'cluster-operators']);

/** Why one health check failed. */
export interface HealthFailure {
  check: CheckName;
  /** The exact MUO `reason` label of `upgradeoperator_healthcheck_failed`. */
  metricReason: HealthcheckReasonName;
  /**
   * MUO's item of the failure list sent in service logs, e.g. `CriticalAlertsHealthcheckFailed`,
   * `NodeUnschedulableHealthcheckFailed:(n1,n2)`.
   */
  muoText: string;
  /** One line an SRE can act on, naming the offending objects. */
  message: string;
  /** True when this failure keeps an upgrade in progress from going on. */
  blocking: boolean;
}

/** The outcome of one check. */
export type CheckResult =
  { check: CheckName; healthy: true } | { check: CheckName; healthy: false; failure: HealthFailure };

/** A passed check. */
export function passed(check: CheckName): CheckResult {
  return { check, healthy: true };
}

/** A failed check; `blocking` follows {@link BLOCKING_CHECKS}. */
export function failed(
  check: CheckName,
  metricReason: HealthcheckReasonName,
  muoText: string,
  message: string,
): CheckResult {
  return {
    check,
    healthy: false,
    failure: { check, metricReason, muoText, message: oneLine(message), blocking: BLOCKING_CHECKS.has(check) },
  };
}

/** Collapses whitespace (condition messages and errors may span lines) so a message fits one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Shortens `text` to at most `max` characters, marking the cut with `…`. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** The message of a thrown value. */
export { errorMessage } from '../lib/errors.js';
