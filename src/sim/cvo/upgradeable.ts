/**
 * The ClusterVersion `Upgradeable` condition [4.14–4.19 model]
 * (docs/design/cluster-model.md#upgradeable): spec.overrides and ClusterOperators with
 * Upgradeable=False. One failing check gives its reason and message; several give `MultipleReasons`
 * plus the per-check sub-conditions. Nothing failing: the condition (and the sub-conditions) are
 * removed. Pure.
 */
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { ClusterVersionSpec } from '../../api/openshift/config-v1/cluster-version.js';
import { findCondition, type ConditionInput } from './conditions.js';

/** The sub-condition types that appear when more than one check fails. */
export const UPGRADEABLE_SUB_CONDITIONS = [
  'UpgradeableAdminAckRequired',
  'UpgradeableClusterOperators',
  'UpgradeableClusterVersionOverrides',
  'UpgradeableDeletesInProgress',
] as const;

interface Check {
  type: (typeof UPGRADEABLE_SUB_CONDITIONS)[number];
  reason: string;
  message: string;
}

/** The ClusterOperator check: one CO gives its reason; several `ClusterOperatorsNotUpgradeable`. */
function operatorsCheck(operators: readonly ClusterOperator[]): Check | undefined {
  const blocking = operators
    .map((co) => ({ name: co.metadata?.name ?? '', cond: findCondition(co.status?.conditions, 'Upgradeable') }))
    .filter((x) => x.cond?.status === 'False')
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (blocking.length === 0) return undefined;
  if (blocking.length === 1) {
    const b = blocking[0]!;
    return {
      type: 'UpgradeableClusterOperators',
      reason: b.cond?.reason ?? '',
      message: `Cluster operator ${b.name} should not be upgraded between minor versions: ${b.cond?.message ?? ''}`,
    };
  }
  const lines = blocking.map(
    (b) =>
      `Cluster operator ${b.name} should not be upgraded between minor versions: ${b.cond?.reason ?? ''}: ${b.cond?.message ?? ''}`,
  );
  return {
    type: 'UpgradeableClusterOperators',
    reason: 'ClusterOperatorsNotUpgradeable',
    message: `Multiple cluster operators should not be upgraded between minor versions:\n* ${lines.join('\n* ')}`,
  };
}

/** What Upgradeable should be: the main condition and the sub-conditions to set (others removed). */
export interface UpgradeableResult {
  /** undefined: remove the condition. */
  upgradeable: ConditionInput | undefined;
  subConditions: ConditionInput[];
}

/** Evaluates the Upgradeable checks. */
export function evaluateUpgradeable(
  spec: ClusterVersionSpec,
  operators: readonly ClusterOperator[],
): UpgradeableResult {
  const checks: Check[] = [];
  if ((spec.overrides ?? []).length > 0) {
    checks.push({
      type: 'UpgradeableClusterVersionOverrides',
      reason: 'ClusterVersionOverridesSet',
      message:
        'Disabling ownership via cluster version overrides prevents upgrades. Please remove overrides before continuing.',
    });
  }
  const ops = operatorsCheck(operators);
  if (ops) checks.push(ops);
  if (checks.length === 0) return { upgradeable: undefined, subConditions: [] };
  if (checks.length === 1) {
    const c = checks[0]!;
    return {
      upgradeable: { type: 'Upgradeable', status: 'False', reason: c.reason, message: c.message },
      subConditions: [],
    };
  }
  return {
    upgradeable: {
      type: 'Upgradeable',
      status: 'False',
      reason: 'MultipleReasons',
      message: `Cluster should not be upgraded between minor versions for multiple reasons: ${checks.map((c) => c.reason).join(',')}\n* ${checks.map((c) => c.message).join('\n* ')}`,
    },
    subConditions: checks.map((c) => ({ type: c.type, status: 'False', reason: c.reason, message: c.message })),
  };
}
