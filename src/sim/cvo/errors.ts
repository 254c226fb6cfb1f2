/**
 * The errors of a sync attempt as the CVO models them (`payload.UpdateError`): a reason, a message,
 * an update effect that says whether the update may go on, and the ClusterOperators concerned. The
 * ClusterOperator gate (`pkg/cvo/internal/operatorstatus.go`,
 * docs/design/cluster-model.md#the-cvos-gate), the condensing of errors that share a reason into
 * one plural error, and the summary of an attempt's errors
 * (docs/design/cluster-model.md#progressing-and-failing).
 */
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { OperandVersion } from '../releases/payload.js';
import { findCondition } from './conditions.js';

/** `None`: the update goes on; `FailAfterInterval`: fails after 40 min; `Fail`: fails at once. */
export type UpdateEffect = 'None' | 'FailAfterInterval' | 'Fail';

/** One error of an attempt. */
export interface SyncError {
  reason: string;
  message: string;
  effect: UpdateEffect;
  /** ClusterOperators concerned, sorted. */
  names: string[];
}

/** The gate on one ClusterOperator of the payload; undefined when it passes. */
export function checkOperatorGate(
  name: string,
  co: ClusterOperator | undefined,
  expected: readonly OperandVersion[],
): SyncError | undefined {
  if (expected.length === 0) {
    return {
      reason: 'ClusterOperatorNoVersions',
      message: `Cluster operator ${name} does not declare expected versions`,
      effect: 'Fail',
      names: [name],
    };
  }
  const conditions = co?.status?.conditions;
  if (findCondition(conditions, 'Available')?.status !== 'True') {
    return {
      reason: 'ClusterOperatorNotAvailable',
      message: `Cluster operator ${name} is not available`,
      effect: 'Fail',
      names: [name],
    };
  }
  // A missing Degraded condition counts as degraded.
  if (findCondition(conditions, 'Degraded')?.status !== 'False') {
    return {
      reason: 'ClusterOperatorDegraded',
      message: `Cluster operator ${name} is degraded`,
      effect: 'FailAfterInterval',
      names: [name],
    };
  }
  const live = co?.status?.versions ?? [];
  const behind = expected.some((v) => live.find((l) => l.name === v.name)?.version !== v.version);
  if (behind) {
    return {
      reason: 'ClusterOperatorUpdating',
      message: `Cluster operator ${name} is updating versions`,
      effect: 'None',
      names: [name],
    };
  }
  return undefined;
}

const PLURAL: Readonly<Record<string, { reason: string; verb: string }>> = {
  ClusterOperatorNotAvailable: { reason: 'ClusterOperatorsNotAvailable', verb: 'are not available' },
  ClusterOperatorDegraded: { reason: 'ClusterOperatorsDegraded', verb: 'are degraded' },
  ClusterOperatorUpdating: { reason: 'ClusterOperatorsUpdating', verb: 'are updating versions' },
};

/** Merges ClusterOperator errors that share a reason into one plural error (names sorted). */
export function condenseErrors(errors: readonly SyncError[]): SyncError[] {
  const out: SyncError[] = [];
  const groups = new Map<string, SyncError[]>();
  for (const e of errors) {
    if (!PLURAL[e.reason]) {
      out.push(e);
      continue;
    }
    const g = groups.get(e.reason) ?? [];
    g.push(e);
    groups.set(e.reason, g);
  }
  for (const [reason, group] of groups) {
    const names = [...new Set(group.flatMap((e) => e.names))].sort();
    if (names.length === 1) {
      out.push({ ...group[0]!, names });
      continue;
    }
    const plural = PLURAL[reason]!;
    out.push({
      reason: plural.reason,
      message: `Cluster operators ${names.join(', ')} ${plural.verb}`,
      effect: group[0]!.effect,
      names,
    });
  }
  return out;
}

/**
 * One error for an attempt, or undefined when it had none. Errors sharing a reason are
 * condensed. When only errors that let the update go on remain, the Degraded one is reported
 * (it is the one that can turn into a failure), else the updating one. One blocking error is
 * reported alone; several become `MultipleErrors`.
 */
export function summarizeErrors(errors: readonly SyncError[]): SyncError | undefined {
  const condensed = condenseErrors(errors);
  if (condensed.length <= 1) return condensed[0];
  const blocking = condensed.filter((e) => e.effect === 'Fail');
  if (blocking.length === 1) return blocking[0];
  if (blocking.length === 0) {
    return condensed.find((e) => e.effect === 'FailAfterInterval') ?? condensed[0];
  }
  const messages = blocking.map((e) => e.message).sort();
  return {
    reason: 'MultipleErrors',
    message: `Multiple errors are preventing progress:\n* ${messages.join('\n* ')}`,
    effect: 'Fail',
    names: [...new Set(blocking.flatMap((e) => e.names))].sort(),
  };
}

/** The text after `Unable to apply <version>: ` for a blocking error (`pkg/cvo/status.go`). */
export function errorSummary(err: SyncError): string {
  switch (err.reason) {
    case 'ClusterOperatorNotAvailable':
      return `the cluster operator ${err.names[0] ?? ''} is not available`;
    case 'ClusterOperatorsNotAvailable':
      return 'some cluster operators are not available';
    case 'ClusterOperatorNoVersions':
      return `the cluster operator ${err.names[0] ?? ''} does not declare expected versions`;
    case 'ClusterOperatorDegraded':
      return `the cluster operator ${err.names[0] ?? ''} is degraded`;
    case 'ClusterOperatorsDegraded':
      return 'some cluster operators are degraded';
    case 'WorkloadNotAvailable':
      return `the workload ${err.names[0] ?? ''} has not yet successfully rolled out`;
    case 'UpdatePayloadResourceNotFound':
    case 'UpdatePayloadResourceConflict':
      return 'some resources could not be updated';
    case 'UpdatePayloadClusterDown':
      return 'the control plane is down or not responding';
    case 'UpdatePayloadClusterError':
      return 'the control plane is reporting an internal error';
    case 'MultipleErrors':
      return 'an unknown error has occurred: MultipleErrors';
    default:
      return err.message;
  }
}
