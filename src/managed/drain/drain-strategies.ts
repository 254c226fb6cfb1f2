/**
 * MUO's timed node-drain strategies
 * (docs/design/managed-flow.md#the-nodekeeper-and-drain-strategies), as one pure decision: given a
 * cordoned node, the pods on it, every PodDisruptionBudget and the time, which pods to force-delete
 * or strip of finalizers now, whether the drain has failed (`HasFailed`), and when the answer next
 * changes (so that callers wake exactly then instead of polling).
 *
 * | strategy                | due after the cordon                                  | targets                                   |
 * |-------------------------|-------------------------------------------------------|-------------------------------------------|
 * | `DELETE`                | nodeDrain.timeOut                                     | non-PDB pods (deleted with grace 0 unless already terminating) |
 * | `DEFAULT-FINALIZER`     | nodeDrain.timeOut                                     | non-PDB pods with finalizers              |
 * | `POD-STUCK-TERMINATING` | nodeDrain.timeOut                                     | non-PDB terminating pods without finalizers |
 * | `PDB-DELETE`            | PDBForceDrainTimeout + nodeDrain.expectedNodeDrainTime | PDB pods (grace 0 unless already terminating) |
 * | `PDB-FINALIZER`         | PDBForceDrainTimeout + nodeDrain.expectedNodeDrainTime | PDB pods with finalizers                  |
 *
 * Every strategy skips DaemonSet pods and pods in namespaces matching `ignoredNamespacePatterns`.
 * Deliberate differences from MUO: a strategy is due *at* its time (MUO: strictly after); the
 * strategies are sorted correctly for `HasFailed` (MUO's comparator indexes the unsorted slice);
 * a "PDB pod" is judged by the full selector of PDBs in the pod's own namespace (pod-selection.ts).
 */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { hasFinalizers, isDaemonSetPod, isInIgnoredNamespace, isTerminating, pdbsSelecting } from './pod-selection.js';
import type { GoRegexp } from '../../lib/go-regexp.js';

/** The strategy names, as MUO logs them. */
export const DrainStrategyName = {
  Delete: 'DELETE',
  DefaultFinalizer: 'DEFAULT-FINALIZER',
  PodStuckTerminating: 'POD-STUCK-TERMINATING',
  PdbDelete: 'PDB-DELETE',
  PdbFinalizer: 'PDB-FINALIZER',
} as const;
export type DrainStrategyName = (typeof DrainStrategyName)[keyof typeof DrainStrategyName];

/** The cordon taint whose `timeAdded` starts the drain clock. */
export const UNSCHEDULABLE_TAINT_KEY = 'node.kubernetes.io/unschedulable';

/** What the strategies need to know; durations in ms. */
export interface DrainSettings {
  /** nodeDrain.timeOut: grace before the non-PDB strategies; the drain-failure threshold. */
  drainTimeoutMs: number;
  /** The UpgradeConfig's spec.PDBForceDrainTimeout. */
  pdbForceDrainTimeoutMs: number;
  /** nodeDrain.expectedNodeDrainTime. */
  expectedNodeDrainTimeMs: number;
  /** nodeDrain.disableDrainStrategies: only judge failure, never touch pods. */
  disableDrainStrategies: boolean;
  /** nodeDrain.ignoredNamespacePatterns, compiled (unanchored). */
  ignoredNamespacePatterns: readonly GoRegexp[];
}

/** The pod an action is about, with the identity the executor's preconditions use. */
export interface DrainPodRef {
  namespace: string;
  name: string;
  uid: string;
  resourceVersion: string;
}

/** One thing to do to one pod. */
export interface DrainAction {
  /** `delete`: DELETE with gracePeriodSeconds 0; `remove-finalizers`: clear metadata.finalizers. */
  type: 'delete' | 'remove-finalizers';
  strategy: DrainStrategyName;
  pod: DrainPodRef;
  /** Why, for Events and logs. */
  reason: string;
}

/** How one strategy stands at `now`. */
export interface StrategyStatus {
  name: DrainStrategyName;
  description: string;
  dueAt: number;
  /** Due (its wait has elapsed), so it runs. */
  due: boolean;
  /** Pods it targets (MUO's IsValid: targets exist). */
  targets: number;
}

/** The decision for one node. */
export interface DrainPlan {
  /** `unknown-start`: cordoned, but the cordon taint has no usable `timeAdded` (see `message`). */
  status: 'not-cordoned' | 'draining' | 'unknown-start';
  /** timeAdded of the cordon taint (epoch ms). */
  drainStartedAt: number | undefined;
  /** In order: DELETE, DEFAULT-FINALIZER, POD-STUCK-TERMINATING, PDB-DELETE, PDB-FINALIZER. */
  actions: DrainAction[];
  /** MUO's HasFailed. */
  failed: boolean;
  /** The next instant at which a strategy falls due or a failure threshold passes, if any. */
  nextDueAt?: number;
  /** PDB-DELETE deletes pods in this plan (MUO then sends the "delayed" notification once). */
  pdbDeleteFirstTime: boolean;
  /** The strategies considered (empty when disabled or not draining). */
  strategies: StrategyStatus[];
  message?: string;
}

/** Cordoned (spec.unschedulable and the NoSchedule cordon taint) and since when. */
export function cordonOf(node: Node): { cordoned: boolean; since?: number; timeAdded?: string } {
  if (node.spec?.unschedulable !== true) return { cordoned: false };
  const taint = (node.spec.taints ?? []).find((t) => t.key === UNSCHEDULABLE_TAINT_KEY && t.effect === 'NoSchedule');
  if (!taint) return { cordoned: false };
  const raw = taint.timeAdded;
  if (raw === undefined || raw === null || raw === '') return { cordoned: true };
  const since = Date.parse(raw);
  return Number.isFinite(since) ? { cordoned: true, since, timeAdded: raw } : { cordoned: true, timeAdded: raw };
}

interface Candidate {
  pod: Pod;
  pdbs: PodDisruptionBudget[];
}

interface StrategyDef {
  name: DrainStrategyName;
  description: string;
  type: DrainAction['type'];
  pdb: boolean;
  /** Targets (IsValid), among the node's eligible pods of the right PDB kind. */
  targets(pod: Pod): boolean;
  /** Of the targets, those acted on now. */
  acts(pod: Pod): boolean;
}

const STRATEGIES: readonly StrategyDef[] = [
  {
    name: 'DELETE',
    description: 'Default pod deletion',
    type: 'delete',
    pdb: false,
    targets: () => true,
    acts: (p) => !isTerminating(p),
  },
  {
    name: 'DEFAULT-FINALIZER',
    description: 'Default pod finalizer removal',
    type: 'remove-finalizers',
    pdb: false,
    targets: hasFinalizers,
    acts: () => true,
  },
  {
    name: 'POD-STUCK-TERMINATING',
    description: 'Pod stuck terminating removal',
    type: 'delete',
    pdb: false,
    targets: (p) => !hasFinalizers(p) && isTerminating(p),
    acts: () => true,
  },
  {
    name: 'PDB-DELETE',
    description: 'PDB pod deletion',
    type: 'delete',
    pdb: true,
    targets: () => true,
    acts: (p) => !isTerminating(p),
  },
  {
    name: 'PDB-FINALIZER',
    description: 'PDB Pod finalizer removal',
    type: 'remove-finalizers',
    pdb: true,
    targets: hasFinalizers,
    acts: () => true,
  },
];

/**
 * Decides the drain of one node at `now`. `pods` may hold pods of other nodes (they are
 * ignored); `pdbs` is every PodDisruptionBudget of the cluster.
 */
export function planNodeDrain(
  node: Node,
  pods: readonly Pod[],
  pdbs: readonly PodDisruptionBudget[],
  now: number,
  settings: DrainSettings,
): DrainPlan {
  const nodeName = node.metadata?.name ?? '';
  const cordon = cordonOf(node);
  const idle = { actions: [], failed: false, pdbDeleteFirstTime: false, strategies: [] };
  if (!cordon.cordoned) return { status: 'not-cordoned', drainStartedAt: undefined, ...idle };
  const start = cordon.since;
  if (start === undefined) {
    const detail =
      cordon.timeAdded === undefined
        ? `the ${UNSCHEDULABLE_TAINT_KEY} taint has no timeAdded`
        : `the ${UNSCHEDULABLE_TAINT_KEY} taint has an unreadable timeAdded ${JSON.stringify(cordon.timeAdded)}`;
    return {
      status: 'unknown-start',
      drainStartedAt: undefined,
      ...idle,
      message: `cannot determine drain commencement time for node ${nodeName}: ${detail}`,
    };
  }
  const timeoutAt = start + settings.drainTimeoutMs;
  if (settings.disableDrainStrategies) {
    const plan: DrainPlan = { status: 'draining', drainStartedAt: start, ...idle, failed: now >= timeoutAt };
    return withNextDue(plan, [timeoutAt], now);
  }

  const eligible: Candidate[] = pods
    .filter(
      (p) =>
        p.spec?.nodeName === nodeName &&
        !isDaemonSetPod(p) &&
        !isInIgnoredNamespace(p, settings.ignoredNamespacePatterns),
    )
    .map((pod) => ({ pod, pdbs: pdbsSelecting(pod, pdbs) }));
  const pdbWait = settings.pdbForceDrainTimeoutMs + settings.expectedNodeDrainTimeMs;
  const elapsed = formatDuration(now - start);
  const actions: DrainAction[] = [];
  const strategies: StrategyStatus[] = [];
  for (const def of STRATEGIES) {
    const wait = def.pdb ? pdbWait : settings.drainTimeoutMs;
    const dueAt = start + wait;
    const targets = eligible.filter((c) => c.pdbs.length > 0 === def.pdb && def.targets(c.pod));
    const due = now >= dueAt;
    strategies.push({ name: def.name, description: def.description, dueAt, due, targets: targets.length });
    if (!due) continue;
    const threshold = def.pdb
      ? `PDBForceDrainTimeout ${formatDuration(settings.pdbForceDrainTimeoutMs)} + nodeDrain.expectedNodeDrainTime ${formatDuration(settings.expectedNodeDrainTimeMs)}`
      : `nodeDrain.timeOut ${formatDuration(settings.drainTimeoutMs)}`;
    for (const c of targets) {
      if (!def.acts(c.pod)) continue;
      const why = `${describePod(def, c)}; node ${nodeName} has been cordoned for ${elapsed} (${threshold})`;
      actions.push({ type: def.type, strategy: def.name, pod: podRef(c.pod), reason: why });
    }
  }
  const plan: DrainPlan = {
    status: 'draining',
    drainStartedAt: start,
    actions,
    failed: hasFailed(strategies, start, now, settings),
    pdbDeleteFirstTime: actions.some((a) => a.strategy === 'PDB-DELETE'),
    strategies,
  };
  const candidates = [timeoutAt, ...strategies.flatMap((s) => [s.dueAt, s.dueAt + settings.expectedNodeDrainTimeMs])];
  return withNextDue(plan, candidates, now);
}

/**
 * MUO's HasFailed with strategies: while a strategy not yet due still has targets, not failed;
 * else failed once cordoned for the last due strategy's wait + expectedNodeDrainTime when that
 * exceeds nodeDrain.timeOut, or for nodeDrain.timeOut otherwise.
 */
function hasFailed(
  strategies: readonly StrategyStatus[],
  start: number,
  now: number,
  settings: DrainSettings,
): boolean {
  const sorted = [...strategies].sort((a, b) => a.dueAt - b.dueAt);
  const executed = sorted.filter((s) => s.due);
  if (sorted.some((s) => !s.due && s.targets > 0)) return false;
  const last = executed.at(-1);
  if (last) {
    const wait = last.dueAt - start;
    if (wait + settings.expectedNodeDrainTimeMs > settings.drainTimeoutMs)
      return now >= start + wait + settings.expectedNodeDrainTimeMs;
  }
  return now >= start + settings.drainTimeoutMs;
}

function withNextDue(plan: DrainPlan, candidates: readonly number[], now: number): DrainPlan {
  const future = candidates.filter((t) => t > now);
  return future.length > 0 ? { ...plan, nextDueAt: Math.min(...future) } : plan;
}

function describePod(def: StrategyDef, candidate: Candidate): string {
  const m = candidate.pod.metadata ?? {};
  const cover =
    candidate.pdbs.length > 0
      ? `covered by PodDisruptionBudget ${candidate.pdbs.map((p) => p.metadata?.name ?? '').join(', ')}`
      : 'not covered by a PodDisruptionBudget';
  if (def.type === 'remove-finalizers')
    return `pod has finalizers [${(m.finalizers ?? []).join(', ')}] and is ${cover}`;
  if (isTerminating(candidate.pod))
    return `pod has been terminating since ${m.deletionTimestamp ?? ''} without finalizers and is ${cover}`;
  return `pod is ${cover}`;
}

function podRef(pod: Pod): DrainPodRef {
  const m = pod.metadata ?? {};
  return {
    namespace: m.namespace ?? '',
    name: m.name ?? '',
    uid: m.uid ?? '',
    resourceVersion: m.resourceVersion ?? '',
  };
}

/** A duration as Go prints it, to the second: `1h0m0s`, `50m0s`, `45s`. */
export function formatDuration(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  let s = Math.floor(Math.abs(ms) / 1000);
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  if (h > 0) return `${sign}${h}h${m}m${s}s`;
  if (m > 0) return `${sign}${m}m${s}s`;
  return `${sign}${s}s`;
}
