/**
 * ClusterVersion condition helpers (the ClusterOperatorStatusCondition shape): set a condition
 * keeping `lastTransitionTime` when the status did not change, as the CVO's
 * `resourcemerge.SetOperatorStatusCondition` does; find and remove by type.
 */
import type { ClusterOperatorStatusCondition } from '../../api/openshift/config-v1/cluster-version.js';
import { formatTime } from '../../lib/clock.js';

/** A condition to set; reason and message are left out when undefined or empty. */
export interface ConditionInput {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string | undefined;
  message?: string | undefined;
}

/** The condition of a type, if present. */
export function findCondition(
  conditions: readonly ClusterOperatorStatusCondition[] | undefined,
  type: string,
): ClusterOperatorStatusCondition | undefined {
  return conditions?.find((c) => c.type === type);
}

/**
 * Returns a new list with the condition set. Its position is kept when it exists (the CVO
 * appends new types at the end); lastTransitionTime changes only with the status.
 */
export function setCondition(
  conditions: readonly ClusterOperatorStatusCondition[],
  input: ConditionInput,
  now: number,
): ClusterOperatorStatusCondition[] {
  const old = findCondition(conditions, input.type);
  const next: ClusterOperatorStatusCondition = {
    type: input.type,
    status: input.status,
    lastTransitionTime: old && old.status === input.status ? old.lastTransitionTime : formatTime(now),
  };
  if (input.reason) next.reason = input.reason;
  if (input.message) next.message = input.message;
  if (!old) return [...conditions, next];
  return conditions.map((c) => (c.type === input.type ? next : c));
}

/** Returns a new list without the conditions of these types. */
export function removeConditions(
  conditions: readonly ClusterOperatorStatusCondition[],
  ...types: string[]
): ClusterOperatorStatusCondition[] {
  return conditions.filter((c) => !types.includes(c.type));
}
