/**
 * APPUiO's NodeForceDrain counters (docs/design/scheduled-flow.md#metrics): every plain delete of a
 * pod by the force drainer, and every grace-period-1 delete of a pod stuck terminating. Names and
 * label names are APPUiO's, exactly; help texts are ours. `namespace` is the pod's namespace. As in
 * APPUiO, `pod_uid` makes one series per deleted pod: the families grow with every forced drain
 * until the process restarts.
 */
import { Counter, type Registry } from 'prom-client';

/** Family names, APPUiO's spelling. */
export const NodeForceDrainMetricName = {
  podDeletions: 'openshift_upgrade_controller_node_force_drain_pod_deletions_total',
  podTerminations: 'openshift_upgrade_controller_node_force_drain_pod_terminations_total',
} as const;

/** Label names of both families, in APPUiO's order. */
export const NODE_FORCE_DRAIN_METRIC_LABELS = ['node_force_drain', 'node', 'namespace', 'pod_name', 'pod_uid'] as const;

/** The labels of one deleted pod. */
export interface NodeForceDrainPodLabels {
  /** The NodeForceDrain's name. */
  node_force_drain: string;
  node: string;
  /** The pod's namespace. */
  namespace: string;
  pod_name: string;
  pod_uid: string;
}

/** The two counters, registered on the Registry handed in. */
export class NodeForceDrainMetrics {
  readonly #deletions: Counter<string>;
  readonly #terminations: Counter<string>;

  /** Throws if one of the names is already registered on `registry`. */
  constructor(registry: Registry) {
    this.#deletions = new Counter({
      name: NodeForceDrainMetricName.podDeletions,
      help: 'Pods the NodeForceDrain controller deleted (plain delete with their grace period, bypassing PodDisruptionBudgets) from a node past its nodeDrainGracePeriod.',
      labelNames: [...NODE_FORCE_DRAIN_METRIC_LABELS],
      registers: [registry],
    });
    this.#terminations = new Counter({
      name: NodeForceDrainMetricName.podTerminations,
      help: 'Pods stuck terminating that the NodeForceDrain controller deleted again with a grace period of 1 second after podForceDeleteGracePeriod.',
      labelNames: [...NODE_FORCE_DRAIN_METRIC_LABELS],
      registers: [registry],
    });
  }

  /** Counts one plain delete. */
  podDeleted(labels: NodeForceDrainPodLabels): void {
    this.#deletions.inc({ ...labels });
  }

  /** Counts one grace-period-1 delete. */
  podTerminated(labels: NodeForceDrainPodLabels): void {
    this.#terminations.inc({ ...labels });
  }
}
