/**
 * The node controller's choice of nodes to move to a pool's target config under maxUnavailable
 * (docs/design/cluster-model.md#choosing-the-nodes-to-update; `getAllCandidateMachines`,
 * `updateCandidateMachines`). Pure.
 */
import type { Node } from 'kubernetes-types/core/v1.js';
import {
  MachineConfigNodeAnnotation,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { isNodeMCDFailing, isNodeReady, isNodeUnavailable, MASTER_POOL, nodeAnnotation } from './node-state.js';

/** Zone label used to order candidates. */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';

/**
 * `spec.maxUnavailable` resolved against the pool size as the MCO does
 * (`intstr.GetScaledValueFromIntOrPercent(v, n, false)`: percentages round down): default 1,
 * 0 counts as 1. Throws on a malformed value (the MCO fails the pool sync).
 */
export function resolveMaxUnavailable(value: number | string | undefined, nodeCount: number): number {
  let n: number;
  if (value === undefined) n = 1;
  else if (typeof value === 'number') n = value;
  else {
    const m = /^(-?\d+)%$/.exec(value);
    if (!m) throw new Error(`invalid value for IntOrString: invalid type: string is not a percentage`);
    n = Math.floor((Number(m[1]) * nodeCount) / 100);
  }
  return n <= 0 ? 1 : n;
}

export interface SelectionOptions {
  /** Name of the node running the machine-config-operator pod; in the master pool it goes last. */
  operatorNode?: string | undefined;
}

/** What a sync of the node controller decides for one pool. */
export interface Selection {
  maxUnavailable: number;
  /** Nodes counted unavailable (they use slots). */
  unavailable: number;
  /** Slots left for new targets. */
  capacity: number;
  /** Nodes to set desiredConfig on, in choice order. */
  chosen: Node[];
}

/**
 * Chooses the nodes to target. `nodes` are the pool's nodes; a paused pool or a pool without a
 * target chooses none. Unavailable nodes use slots; nodes whose daemon fails on the target use
 * slots too. When candidates exceed the slots they are ordered by zone (lexical, unlabeled last)
 * then age (oldest first; name breaks ties so that runs replay).
 */
export function selectNodesToUpdate(
  pool: MachineConfigPool,
  nodes: readonly Node[],
  options: SelectionOptions = {},
): Selection {
  const target = pool.spec.configuration?.name;
  const maxUnavailable = resolveMaxUnavailable(pool.spec.maxUnavailable, nodes.length);
  const unavailable = nodes.filter(isNodeUnavailable).length;
  const none = (capacity: number): Selection => ({ maxUnavailable, unavailable, capacity, chosen: [] });
  if (!target || pool.spec.paused) return none(Math.max(0, maxUnavailable - unavailable));
  if (unavailable >= maxUnavailable) return none(0);
  let capacity = maxUnavailable - unavailable;
  let failingOnTarget = 0;
  let candidates: Node[] = [];
  for (const node of nodes) {
    if (nodeAnnotation(node, MachineConfigNodeAnnotation.DesiredConfig) === target) {
      if (isNodeMCDFailing(node)) failingOnTarget++;
      continue;
    }
    if (!isNodeReady(node)) continue;
    candidates.push(node);
  }
  if (failingOnTarget >= capacity) return none(0);
  capacity -= failingOnTarget;
  if (pool.metadata?.name === MASTER_POOL && candidates.length > 1 && options.operatorNode !== undefined) {
    candidates = candidates.filter((n) => n.metadata?.name !== options.operatorNode);
  }
  if (capacity < candidates.length) candidates = [...candidates].sort(byZoneThenAge).slice(0, capacity);
  return { maxUnavailable, unavailable, capacity, chosen: candidates };
}

function byZoneThenAge(left: Node, right: Node): number {
  const za = left.metadata?.labels?.[ZONE_LABEL];
  const zb = right.metadata?.labels?.[ZONE_LABEL];
  if (za !== zb) {
    if (za === undefined) return 1;
    if (zb === undefined) return -1;
    return za < zb ? -1 : 1;
  }
  const ta = Date.parse(left.metadata?.creationTimestamp ?? '') || 0;
  const tb = Date.parse(right.metadata?.creationTimestamp ?? '') || 0;
  if (ta !== tb) return ta - tb;
  const na = left.metadata?.name ?? '';
  const nb = right.metadata?.name ?? '';
  return na < nb ? -1 : na > nb ? 1 : 0;
}
