/**
 * The UpgradeConfig's own `status.conditions` (metav1 conditions, an addition of this operator;
 * docs/compatibility.md#upgrademanagedopenshiftiov1alpha1-upgradeconfig-muo). The controller
 * writes `Waiting` and `ConfigurationValid` on every pass; a step may set another one, which the
 * controller keeps until the step changes or removes it, or a new target starts a new history
 * entry. MUO's step conditions live in `status.history[].conditions` (upgrade-history.ts).
 */
import type { Condition } from 'kubernetes-types/meta/v1.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { formatTime } from '../../lib/clock.js';

/**
 * Set by CommenceUpgrade for a target the cluster version operator does not recommend (`False`,
 * reason `UpdateNotRecommended`) or could not evaluate (`Unknown`, reason `UpdateRiskUnknown`):
 * its message names each risk with its URL. Absent for a known-good target.
 */
export const UPDATE_RECOMMENDED_CONDITION = 'UpdateRecommended';

/** The condition types the controller itself rewrites on every pass. */
export const PASS_CONDITION_TYPES: readonly string[] = ['Waiting', 'ConfigurationValid'];

/**
 * Sets a condition on the UpgradeConfig (in place): `lastTransitionTime` is kept while the status
 * does not change, `observedGeneration` is the object's generation.
 */
export function setStatusCondition(
  cr: ManagedUpgradeConfig,
  condition: Pick<Condition, 'type' | 'status' | 'reason' | 'message'>,
  now: number,
): void {
  const status = (cr.status ??= {});
  const list = status.conditions ?? [];
  const old = list.find((c) => c.type === condition.type);
  const next: Condition = {
    ...condition,
    lastTransitionTime: old && old.status === condition.status ? old.lastTransitionTime : formatTime(now),
    observedGeneration: cr.metadata?.generation ?? 0,
  };
  status.conditions = old ? list.map((c) => (c === old ? next : c)) : [...list, next];
}

/** Removes the condition of `type` from the UpgradeConfig (in place), if it has one. */
export function removeStatusCondition(cr: ManagedUpgradeConfig, type: string): void {
  const list = cr.status?.conditions;
  if (cr.status && list?.some((c) => c.type === type)) cr.status.conditions = list.filter((c) => c.type !== type);
}

/** The conditions a step set, which a pass keeps after its own. */
export function stepConditions(cr: ManagedUpgradeConfig): Condition[] {
  return (cr.status?.conditions ?? []).filter((c) => !PASS_CONDITION_TYPES.includes(c.type));
}
