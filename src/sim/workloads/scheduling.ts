/**
 * The simplified scheduler and the node/pod predicates the simulated controllers share: a pod
 * fits a node that is Ready, schedulable, matches the pod's `nodeSelector` and whose NoSchedule
 * and NoExecute taints the pod tolerates (PreferNoSchedule is ignored, as a scoring detail);
 * among the nodes that fit, the least loaded wins (fewest pods of the same owner, then fewest
 * pods, then name order), which spreads replicas round-robin.
 */
import type { Node, Pod, PodSpec, Taint, Toleration } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import type { KubeObjectLike } from '../../api/resource.js';
import { hasLabels } from './label-selector.js';

/** The node's Ready condition is True. */
export function isNodeReady(node: Node): boolean {
  return node.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** Ready and not cordoned. */
export function isNodeSchedulable(node: Node): boolean {
  return isNodeReady(node) && node.spec?.unschedulable !== true;
}

/** v1.Toleration.ToleratesTaint. */
export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect !== undefined && toleration.effect !== '' && toleration.effect !== taint.effect) return false;
  const key = toleration.key ?? '';
  if (key !== '' && key !== taint.key) return false;
  switch (toleration.operator ?? 'Equal') {
    case 'Exists':
      return true;
    case 'Equal':
      return key !== '' && (toleration.value ?? '') === (taint.value ?? '');
    default:
      return false;
  }
}

/** Every NoSchedule/NoExecute taint of the node is tolerated. */
export function toleratesNode(spec: Pick<PodSpec, 'tolerations'> | undefined, node: Node): boolean {
  const tolerations = spec?.tolerations ?? [];
  return (node.spec?.taints ?? []).every(
    (t) => t.effect === 'PreferNoSchedule' || tolerations.some((tol) => tolerates(tol, t)),
  );
}

/** The pod (template) spec may run on this node. */
export function fitsNode(spec: PodSpec | undefined, node: Node): boolean {
  return isNodeSchedulable(node) && hasLabels(spec?.nodeSelector, node.metadata?.labels) && toleratesNode(spec, node);
}

/** The controlling owner reference, if any. */
export function controllerOf(obj: KubeObjectLike): OwnerReference | undefined {
  return obj.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** The pod counts towards its controller's replicas: not terminating and not finished. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return pod.metadata?.deletionTimestamp === undefined && phase !== 'Succeeded' && phase !== 'Failed';
}

/** The pod's Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/**
 * Picks the node for a pod of `ownerUid`, or undefined when none fits. `pods` are the pods
 * bound to nodes (any owner); terminating ones do not count as load.
 */
export function pickNode(
  spec: PodSpec | undefined,
  nodes: readonly Node[],
  pods: readonly Pod[],
  ownerUid: string | undefined,
): Node | undefined {
  const own = new Map<string, number>();
  const total = new Map<string, number>();
  for (const p of pods) {
    const n = p.spec?.nodeName;
    if (n === undefined || !isPodActive(p)) continue;
    total.set(n, (total.get(n) ?? 0) + 1);
    if (ownerUid !== undefined && controllerOf(p)?.uid === ownerUid) own.set(n, (own.get(n) ?? 0) + 1);
  }
  let best: Node | undefined;
  let bestScore: [number, number, string] | undefined;
  for (const node of nodes) {
    if (!fitsNode(spec, node)) continue;
    const name = node.metadata?.name ?? '';
    const score: [number, number, string] = [own.get(name) ?? 0, total.get(name) ?? 0, name];
    if (bestScore === undefined || compareScore(score, bestScore) < 0) {
      best = node;
      bestScore = score;
    }
  }
  return best;
}

function compareScore(left: [number, number, string], right: [number, number, string]): number {
  if (left[0] !== right[0]) return left[0] - right[0];
  if (left[1] !== right[1]) return left[1] - right[1];
  return left[2] < right[2] ? -1 : left[2] > right[2] ? 1 : 0;
}
