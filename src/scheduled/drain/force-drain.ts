/**
 * The pure decisions of APPUiO's NodeForceDrain (docs/design/scheduled-flow.md#force-drain): which
 * nodes drain, what the status records about them, when a node leaves its grace period, which pods
 * are excluded without any I/O, what to do with a pod (delete, force-delete, wait), and when to
 * look again. The controller (`scheduled/controllers/node-force-drain-controller.ts`) does the I/O
 * around them.
 *
 * One deliberate difference from APPUiO: `status.lastObservedNodeDrain` keeps only nodes that are
 * draining now. APPUiO never drops an entry, so a node whose drain was abandoned (desiredDrain set
 * back to lastAppliedDrain) and that starts draining again with the same lastAppliedDrain would
 * be force-drained at once, without a new grace period. Dropping the entry gives every drain
 * its own observation.
 */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { LabelSelector, OwnerReference } from 'kubernetes-types/meta/v1.js';
import type {
  NodeForceDrainSpec,
  ObservedNodeDrain,
} from '../../api/managedupgrade.appuio.io/v1beta1/node-force-drain.js';
import { MachineConfigNodeAnnotation } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { formatTime } from '../../lib/clock.js';
import { parseGoDurationMs } from '../../lib/go-duration.js';
import { jsonEqual } from '../../lib/json.js';
import { evaluateLabelSelector } from '../../lib/label-selector.js';

/** A NodeForceDrain spec, parsed and checked. */
export interface ForceDrainSettings {
  nodeSelector: LabelSelector;
  /** Undefined when the spec's selector is missing or empty: pods of every namespace. */
  namespaceSelector: LabelSelector | undefined;
  /** Undefined when missing or empty: no jq filter. */
  podJQSelector: string | undefined;
  nodeDrainGracePeriodMs: number;
  podForceDeleteGracePeriodMs: number;
}

/** Outcome of {@link parseForceDrainSpec}. */
export type ForceDrainSettingsResult = { ok: true; settings: ForceDrainSettings } | { ok: false; problems: string[] };

/** A draining node: its name and its drain ID (the lastAppliedDrain annotation, "" when missing). */
export interface DrainingNode {
  name: string;
  drainID: string;
}

/** What to do with one pod on a node past its grace period (before the exclusion rules). */
export type PodAction = { kind: 'delete' } | { kind: 'force' } | { kind: 'wait'; inMs: number } | { kind: 'none' };

/** Why a pod is not a candidate (the reasons APPUiO logs, plus the jq ones). */
export const PodExclusion = {
  Static: 'static pod',
  NamespaceMismatch: 'namespace does not match',
  NamespaceError: 'error getting namespace',
  DaemonSet: 'controlled by daemonset',
  DaemonSetError: 'error checking daemonset',
  JqMismatch: 'jq selector did not emit true',
  JqError: 'jq selector failed',
} as const;

/** One of {@link PodExclusion}. */
export type PodExclusionReason = (typeof PodExclusion)[keyof typeof PodExclusion];

/** True when a selector has no requirement (selects everything). */
export function isEmptySelector(labelSelector: LabelSelector | undefined): boolean {
  return (
    labelSelector === undefined ||
    (Object.keys(labelSelector.matchLabels ?? {}).length === 0 && (labelSelector.matchExpressions ?? []).length === 0)
  );
}

/** What metav1.LabelSelectorAsSelector would reject in a selector, in apimachinery's words. */
export function labelSelectorProblems(labelSelector: LabelSelector | undefined): string[] {
  const problems: string[] = [];
  for (const e of labelSelector?.matchExpressions ?? []) {
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          problems.push(`key ${JSON.stringify(e.key)}: for 'in', 'notin' operators, values set can't be empty`);
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0)
          problems.push(`key ${JSON.stringify(e.key)}: values set must be empty for exists and does not exist`);
        break;
      default:
        problems.push(`${JSON.stringify(e.operator)} is not a valid label selector operator`);
    }
  }
  return problems;
}

/** Parses a spec: Go durations, valid selectors. Every problem is listed; none means the object may act. */
export function parseForceDrainSpec(spec: NodeForceDrainSpec | undefined): ForceDrainSettingsResult {
  if (spec === undefined) return { ok: false, problems: ['spec is missing'] };
  const problems: string[] = [];
  const duration = (field: string, text: string | undefined): number => {
    const d = parseGoDurationMs(text ?? '');
    if (d.ok) return d.ms;
    problems.push(`spec.${field}: ${d.error}`);
    return 0;
  };
  const nodeDrainGracePeriodMs = duration('nodeDrainGracePeriod', spec.nodeDrainGracePeriod);
  const podForceDeleteGracePeriodMs = duration('podForceDeleteGracePeriod', spec.podForceDeleteGracePeriod);
  for (const p of labelSelectorProblems(spec.nodeSelector)) problems.push(`spec.nodeSelector: ${p}`);
  for (const p of labelSelectorProblems(spec.namespaceSelector)) problems.push(`spec.namespaceSelector: ${p}`);
  if (problems.length > 0) return { ok: false, problems };
  const jq = spec.podJQSelector ?? '';
  return {
    ok: true,
    settings: {
      nodeSelector: spec.nodeSelector ?? {},
      namespaceSelector: isEmptySelector(spec.namespaceSelector) ? undefined : spec.namespaceSelector,
      podJQSelector: jq.trim() === '' ? undefined : jq,
      nodeDrainGracePeriodMs,
      podForceDeleteGracePeriodMs,
    },
  };
}

/** True when the selector (already checked with {@link labelSelectorProblems}) selects these labels. */
export function selects(selector: LabelSelector, labels: Readonly<Record<string, string>> | undefined): boolean {
  return evaluateLabelSelector(selector, labels) === true;
}

/** A node drains while the MCO's desiredDrain annotation differs from lastAppliedDrain (missing = ""). */
export function isNodeDraining(node: Node): boolean {
  const a = node.metadata?.annotations ?? {};
  return (
    (a[MachineConfigNodeAnnotation.DesiredDrain] ?? '') !== (a[MachineConfigNodeAnnotation.LastAppliedDrain] ?? '')
  );
}

/** The draining nodes among `nodes` that the selector selects, in the given order. */
export function drainingNodes(nodes: readonly Node[], selector: LabelSelector): DrainingNode[] {
  return nodes
    .filter((n) => selects(selector, n.metadata?.labels) && isNodeDraining(n))
    .map((n) => ({
      name: n.metadata?.name ?? '',
      drainID: n.metadata?.annotations?.[MachineConfigNodeAnnotation.LastAppliedDrain] ?? '',
    }))
    .filter((n) => n.name !== '');
}

/**
 * The new `status.lastObservedNodeDrain`: an entry per draining node; a first sighting, a changed
 * drainID or an unreadable observedTime gets `observedTime = now`; entries of nodes that no longer
 * drain are dropped (see the module comment). Existing entries keep their order, new ones follow.
 */
export function observeNodeDrains(
  current: readonly ObservedNodeDrain[] | undefined,
  draining: readonly DrainingNode[],
  now: number,
): { observed: ObservedNodeDrain[]; changed: boolean } {
  const byName = new Map(draining.map((n) => [n.name, n]));
  const observed: ObservedNodeDrain[] = [];
  const seen = new Set<string>();
  for (const entry of current ?? []) {
    const node = byName.get(entry.nodeName);
    if (!node || seen.has(entry.nodeName)) continue;
    seen.add(entry.nodeName);
    const keep = entry.drainID === node.drainID && !Number.isNaN(Date.parse(entry.observedTime));
    observed.push(keep ? entry : { nodeName: node.name, drainID: node.drainID, observedTime: formatTime(now) });
  }
  for (const node of draining) {
    if (seen.has(node.name)) continue;
    seen.add(node.name);
    observed.push({ nodeName: node.name, drainID: node.drainID, observedTime: formatTime(now) });
  }
  return { observed, changed: !jsonEqual([...(current ?? [])], observed) };
}

/** Milliseconds until the node leaves its grace period (≤ 0: past it, `observedTime + grace ≤ now`). */
export function timeUntilDrain(entry: ObservedNodeDrain, nodeDrainGracePeriodMs: number, now: number): number {
  return Date.parse(entry.observedTime) + nodeDrainGracePeriodMs - now;
}

/** The controller ownerReference of a pod, if any. */
export function controllerOf(pod: Pod): OwnerReference | undefined {
  return pod.metadata?.ownerReferences?.find((r) => r.controller === true);
}

/** A static (mirror) pod: its controller is the Node (`v1`, `Node`); the kubelet owns it. */
export function isStaticPod(pod: Pod): boolean {
  const ref = controllerOf(pod);
  return ref !== undefined && ref.apiVersion === 'v1' && ref.kind === 'Node';
}

/** The name of the DaemonSet (`apps/v1`) controlling the pod, if one does; whether it still exists needs a lookup. */
export function daemonSetOf(pod: Pod): string | undefined {
  const ref = controllerOf(pod);
  return ref !== undefined && ref.apiVersion === 'apps/v1' && ref.kind === 'DaemonSet' ? ref.name : undefined;
}

/**
 * What the force drainer does with a pod on a node past its grace period: a pod not being deleted
 * is deleted when the drain grace is not 0; a pod being deleted is force-deleted once
 * `deletionTimestamp − deletionGracePeriodSeconds + podForceDeleteGracePeriod ≤ now` (when that
 * grace is not 0), else waited for.
 */
export function podAction(
  pod: Pod,
  settings: Pick<ForceDrainSettings, 'nodeDrainGracePeriodMs' | 'podForceDeleteGracePeriodMs'>,
  now: number,
): PodAction {
  const deletion = pod.metadata?.deletionTimestamp;
  if (deletion === undefined) return settings.nodeDrainGracePeriodMs !== 0 ? { kind: 'delete' } : { kind: 'none' };
  if (settings.podForceDeleteGracePeriodMs === 0) return { kind: 'none' };
  const requested = Date.parse(deletion) - (pod.metadata?.deletionGracePeriodSeconds ?? 0) * 1000;
  if (Number.isNaN(requested)) return { kind: 'none' };
  const inMs = requested + settings.podForceDeleteGracePeriodMs - now;
  return inMs > 0 ? { kind: 'wait', inMs } : { kind: 'force' };
}

/** Inputs of {@link requeueAfter}. */
export interface RequeueInputs {
  /** Smallest time until a draining node leaves its grace period, if one is still in it. */
  untilNextDrainMs: number | undefined;
  /** A plain delete was attempted this pass. */
  deletedPods: boolean;
  podForceDeleteGracePeriodMs: number;
  /** Smallest time until a terminating pod is due for its force delete, if any waits. */
  untilNextForceDeleteMs: number | undefined;
  /** Some selected node drains. */
  draining: boolean;
  /** `--node-drain-reconcile-interval`; 0 disables the cap. */
  drainReconcileIntervalMs: number;
}

/**
 * The smallest of: the time until the next node leaves its grace period; the pod force grace
 * period if pods were deleted this pass (and it is not 0); the time until the next force delete.
 * While a node drains it is capped at the drain reconcile interval (unless that is 0). Undefined:
 * nothing to wait for.
 */
export function requeueAfter(requeueInputs: RequeueInputs): number | undefined {
  const candidates = [
    requeueInputs.untilNextDrainMs,
    requeueInputs.deletedPods && requeueInputs.podForceDeleteGracePeriodMs > 0
      ? requeueInputs.podForceDeleteGracePeriodMs
      : undefined,
    requeueInputs.untilNextForceDeleteMs,
  ];
  let after: number | undefined;
  for (const c of candidates) if (c !== undefined && c > 0 && (after === undefined || c < after)) after = c;
  if (
    requeueInputs.draining &&
    requeueInputs.drainReconcileIntervalMs > 0 &&
    (after === undefined || after > requeueInputs.drainReconcileIntervalMs)
  )
    after = requeueInputs.drainReconcileIntervalMs;
  return after;
}
