/**
 * What the managed health checks read, built once for their tests and the health-check steps'
 * tests: ClusterOperators and worker Nodes.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';

/** Why a ClusterOperator is Degraded: the condition's reason and, when given, its message. */
export interface Degradation {
  reason: string;
  message?: string;
}

/** An Available ClusterOperator: Degraded=True when `degraded` says why, else Degraded=False. */
export function clusterOperator(name: string, degraded?: Degradation): ClusterOperator {
  const lastTransitionTime = '2026-03-01T00:00:00Z';
  return {
    metadata: { name },
    spec: {},
    status: {
      conditions: [
        { type: 'Available', status: 'True', lastTransitionTime },
        degraded
          ? { type: 'Degraded', status: 'True', ...degraded, lastTransitionTime }
          : { type: 'Degraded', status: 'False', lastTransitionTime },
      ],
    },
  };
}

/** A worker Node; `cordoned`: unschedulable, with the taint the cordon puts on it. */
export function workerNode(name: string, cordoned = false): Node {
  return {
    metadata: { name, labels: { 'node-role.kubernetes.io/worker': '' } },
    spec: cordoned
      ? { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] }
      : {},
  };
}
