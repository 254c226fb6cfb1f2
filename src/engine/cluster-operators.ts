/**
 * The ClusterOperator health check (docs/design/managed-flow.md#health-checks): an operator is
 * degraded when its `Degraded` condition is True or its `Available` condition is False. The message
 * names every such operator with the condition's own reason and message, which is what an SRE needs
 * to start looking.
 */
import type { ClusterOperator } from '../api/openshift/config-v1/cluster-operator.js';
import type { ClusterOperatorStatusCondition } from '../api/openshift/config-v1/cluster-version.js';
import { errorMessage, failed, HealthcheckReason, oneLine, passed, truncate } from './health-check.js';
import type { CheckResult } from './health-check.js';

/** MUO's failure-list item of this check. */
export const CLUSTER_OPERATORS_MUO_TEXT = 'ClusterOperatorsHealthcheckFailed';

/** Condition messages longer than this are cut, so one bad operator cannot flood a condition. */
const MAX_CONDITION_MESSAGE = 300;

function describe(statusCondition: ClusterOperatorStatusCondition): string {
  const detail = [
    statusCondition.reason,
    statusCondition.message === undefined
      ? undefined
      : truncate(oneLine(statusCondition.message), MAX_CONDITION_MESSAGE),
  ]
    .filter((s): s is string => s !== undefined && s !== '')
    .join(': ');
  return detail === ''
    ? `${statusCondition.type}=${statusCondition.status}`
    : `${statusCondition.type}=${statusCondition.status} (${detail})`;
}

/**
 * Pure: the offending conditions of one operator (`Available=False` first, then
 * `Degraded=True`); empty when the operator is fine.
 */
export function degradedConditions(operator: ClusterOperator): ClusterOperatorStatusCondition[] {
  const conditions = operator.status?.conditions ?? [];
  const unavailable = conditions.filter((c) => c.type === 'Available' && c.status === 'False');
  const degraded = conditions.filter((c) => c.type === 'Degraded' && c.status === 'True');
  return [...unavailable, ...degraded];
}

/**
 * Pure: the check over every ClusterOperator. Failure message:
 * `cluster operators degraded: authentication: Degraded=True (Reason: message); dns: Available=False (…)`,
 * operators sorted by name.
 */
export function checkClusterOperators(operators: readonly ClusterOperator[]): CheckResult {
  const bad = operators
    .map((co) => ({ name: co.metadata?.name ?? '', conditions: degradedConditions(co) }))
    .filter((o) => o.conditions.length > 0)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (bad.length === 0) return passed('cluster-operators');
  const parts = bad.map((o) => `${o.name}: ${o.conditions.map(describe).join(', ')}`);
  return failed(
    'cluster-operators',
    HealthcheckReason.ClusterOperatorsDegraded,
    CLUSTER_OPERATORS_MUO_TEXT,
    `cluster operators degraded: ${parts.join('; ')}`,
  );
}

/** The check's verdict when the ClusterOperators could not be read (fail closed). */
export function clusterOperatorsUnknown(err: unknown): CheckResult {
  return failed(
    'cluster-operators',
    HealthcheckReason.ClusterOperatorStatusFailed,
    CLUSTER_OPERATORS_MUO_TEXT,
    `unable to read ClusterOperators: ${errorMessage(err)}`,
  );
}
