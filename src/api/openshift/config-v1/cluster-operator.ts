/**
 * OpenShift's ClusterOperator (config.openshift.io/v1, short name `co`), as the operator reads
 * it (docs/design/cluster-model.md#clusteroperator-shape). Plain JSON shapes.
 */
import type { JsonObject } from '../../../lib/json.js';
import { resource, type KubeObjectLike } from '../../resource.js';
import type { ClusterOperatorStatusCondition } from './cluster-version.js';

/** A version a ClusterOperator reports (`operator` is the operator's own). */
export interface OperandVersion {
  name: string;
  version: string;
}

/** An object a ClusterOperator relates to. */
export interface ObjectReference {
  group: string;
  resource: string;
  namespace?: string;
  name: string;
}

/** `status` of a ClusterOperator. */
export interface ClusterOperatorStatus {
  conditions?: ClusterOperatorStatusCondition[];
  versions?: OperandVersion[];
  relatedObjects?: ObjectReference[];
  extension?: JsonObject | null;
}

/** ClusterOperator: cluster-scoped; `spec` is required and empty (`{}`). */
export interface ClusterOperator extends KubeObjectLike {
  spec: JsonObject;
  status?: ClusterOperatorStatus;
}

/** Descriptor of config.openshift.io/v1 ClusterOperator. */
export const ClusterOperatorResource = resource<ClusterOperator>({
  group: 'config.openshift.io',
  version: 'v1',
  kind: 'ClusterOperator',
  plural: 'clusteroperators',
  namespaced: false,
});

/** Condition types of ClusterOperators. */
export const ClusterOperatorConditionType = {
  Available: 'Available',
  Progressing: 'Progressing',
  Degraded: 'Degraded',
  Upgradeable: 'Upgradeable',
  EvaluationConditionsDetected: 'EvaluationConditionsDetected',
  Disabled: 'Disabled',
} as const;

/** The `status.versions[].name` of the operator's own version. */
export const OPERATOR_VERSION_NAME = 'operator';

/** The version a ClusterOperator reports for itself (its `operator` entry of `status.versions`), if any. */
export function operatorVersion(co: ClusterOperator | undefined): string | undefined {
  return co?.status?.versions?.find((v) => v.name === OPERATOR_VERSION_NAME)?.version;
}
