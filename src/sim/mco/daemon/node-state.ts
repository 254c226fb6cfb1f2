/**
 * What the simulated machine-config daemon and drain controller read from and write to a Node
 * (docs/design/cluster-model.md#node-annotations,
 * docs/design/cluster-model.md#the-per-node-update): the MCO annotations, the drain request
 * strings, the kubelet's Ready condition during a reboot (its taint is the node lifecycle
 * controller's, src/sim/nodes), the cordon taint, and the texts the real
 * components write. Pure functions only; the controllers turn their results into API writes.
 */
import type { Node, NodeCondition, Taint } from 'kubernetes-types/core/v1.js';
import { MachineConfigNodeAnnotation as A } from '../../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { formatTime } from '../../../lib/clock.js';
import type { JsonObject } from '../../../lib/json.js';

/** The taint a cordon adds (`kubectl cordon` plus the node lifecycle controller). */
export const UNSCHEDULABLE_TAINT_KEY = 'node.kubernetes.io/unschedulable';
/** `controlPlaneTopology` value of a single-node cluster: the MCD skips drain and cordon. */
export const SINGLE_REPLICA_TOPOLOGY = 'SingleReplica';
/** The MCD's `reason` annotation is truncated to this many characters (`%.2000s`). */
export const MAX_REASON_LENGTH = 2000;

/** The MCO annotations of a node (absent ones are undefined). */
export interface McoNodeAnnotations {
  currentConfig: string | undefined;
  desiredConfig: string | undefined;
  state: string | undefined;
  reason: string | undefined;
  desiredDrain: string | undefined;
  lastAppliedDrain: string | undefined;
  controlPlaneTopology: string | undefined;
}

/** Reads the MCO annotations of a node. */
export function mcoAnnotations(node: Node): McoNodeAnnotations {
  const a = node.metadata?.annotations ?? {};
  return {
    currentConfig: a[A.CurrentConfig],
    desiredConfig: a[A.DesiredConfig],
    state: a[A.State],
    reason: a[A.Reason],
    desiredDrain: a[A.DesiredDrain],
    lastAppliedDrain: a[A.LastAppliedDrain],
    controlPlaneTopology: a[A.ControlPlaneTopology],
  };
}

/** `drain-<config>`: the MCD asks the drain controller to cordon and drain. */
export function drainRequest(config: string): string {
  return `drain-${config}`;
}

/** `uncordon-<config>`: the MCD asks the drain controller to uncordon after the update. */
export function uncordonRequest(config: string): string {
  return `uncordon-${config}`;
}

/** The verb of a drain request (`drain`, `uncordon`, or whatever precedes the first `-`). */
export function drainVerb(request: string): string {
  return request.split('-')[0] ?? '';
}

/** True for control-plane nodes (the `master` or `control-plane` role label). */
export function isControlPlaneNode(node: Node): boolean {
  const labels = node.metadata?.labels ?? {};
  return 'node-role.kubernetes.io/master' in labels || 'node-role.kubernetes.io/control-plane' in labels;
}

/** The node's Ready condition, if any (whether it is True: `isNodeReady` in workloads/scheduling.ts). */
export function readyCondition(node: Node): NodeCondition | undefined {
  return node.status?.conditions?.find((c) => c.type === 'Ready');
}

/** The kubelet's message while a rebooted node's network plugin is not up yet. */
export const KUBELET_NOT_READY_MESSAGE =
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: No CNI configuration file in /etc/kubernetes/cni/net.d/. Has your network provider started?';

/**
 * The node's conditions with Ready set to True (`KubeletReady`) or False (`KubeletNotReady`),
 * keeping every other condition; lastTransitionTime moves only when the status changes.
 */
export function withReadyCondition(node: Node, ready: boolean, now: number): NodeCondition[] {
  const at = formatTime(now);
  const old = readyCondition(node);
  const status = ready ? 'True' : 'False';
  const next: NodeCondition = {
    type: 'Ready',
    status,
    lastHeartbeatTime: at,
    lastTransitionTime: old?.status === status ? (old.lastTransitionTime ?? at) : at,
    reason: ready ? 'KubeletReady' : 'KubeletNotReady',
    message: ready ? 'kubelet is posting ready status' : KUBELET_NOT_READY_MESSAGE,
  };
  const conditions = node.status?.conditions ?? [];
  return old ? conditions.map((c) => (c.type === 'Ready' ? next : c)) : [...conditions, next];
}

/** The node's taints with `key:effect` added (if missing) or removed. */
export function withTaint(node: Node, taint: Taint, present: boolean): Taint[] {
  const taints = node.spec?.taints ?? [];
  const has = taints.some((t) => t.key === taint.key && t.effect === taint.effect);
  if (present) return has ? [...taints] : [...taints, taint];
  return taints.filter((t) => !(t.key === taint.key && t.effect === taint.effect));
}

/** True if the node carries a taint with this key and effect. */
export function hasTaint(node: Node, key: string, effect: string): boolean {
  return (node.spec?.taints ?? []).some((t) => t.key === key && t.effect === effect);
}

/** The cordon taint, stamped with the time it was added. */
export function unschedulableTaint(now: number): Taint {
  return { key: UNSCHEDULABLE_TAINT_KEY, effect: 'NoSchedule', timeAdded: formatTime(now) };
}

/**
 * A merge patch of spec.unschedulable and the cordon taint (`null` removes the field, as the
 * drain helper's two-way patch does), guarded by the resourceVersion it was computed from.
 */
export function cordonPatch(node: Node, cordon: boolean, now: number): JsonObject {
  const taints = withTaint(node, unschedulableTaint(now), cordon) as unknown as JsonObject[];
  return {
    metadata: { resourceVersion: node.metadata?.resourceVersion ?? null },
    spec: { unschedulable: cordon ? true : null, taints },
  };
}

/** A merge patch that sets (string) or removes (null) annotations. */
export function annotationPatch(annotations: Record<string, string | null>): JsonObject {
  return { metadata: { annotations } };
}

/** The MCD's reason annotation for an error (`%.2000s`). */
export function truncateReason(message: string): string {
  return message.length > MAX_REASON_LENGTH ? message.slice(0, MAX_REASON_LENGTH) : message;
}

/** The MCD's error after waiting an hour for the drain (pkg/daemon/drain.go). */
export function drainTimeoutMessage(nodeName: string): string {
  return `failed to drain node: ${nodeName} after 1 hour. Please see machine-config-controller logs for more information`;
}

/** The MCD's error after waiting ten minutes for the uncordon (pkg/daemon/update.go). */
export function uncordonTimeoutMessage(nodeName: string): string {
  return `failed to uncordon node: ${nodeName} after 10 minutes. Please see machine-config-controller logs for more information`;
}

/** The MCD's error when rpm-ostree fails to rebase onto the new OS image. */
export function osUpdateErrorMessage(osImageURL: string): string {
  return `failed to update OS to ${osImageURL}: error running rpm-ostree rebase --experimental ostree-unverified-registry:${osImageURL}: error: Timeout was reached: exit status 1`;
}
