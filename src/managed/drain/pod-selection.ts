/**
 * Which pods a drain strategy may touch, as pure predicates over pods and PodDisruptionBudgets.
 *
 * A "PDB pod" is a pod that a PodDisruptionBudget in the pod's own namespace selects with its full
 * label selector, as the eviction API and the disruption controller decide it (MUO matched any
 * single `matchLabels` pair of any PDB in any namespace;
 * docs/design/managed-flow.md#drain-strategies-match-pdb-pods-loosely). The selector evaluation
 * itself is `src/lib/label-selector.ts`.
 */
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { evaluateLabelSelector } from '../../lib/label-selector.js';
import type { GoRegexp } from '../../lib/go-regexp.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';

/**
 * True when the label selector of a policy/v1 PodDisruptionBudget selects these labels.
 * A nil selector selects nothing; an empty one (`{}`) selects every pod of the namespace.
 * A selector Kubernetes would reject (an unknown operator, `In` without values) counts as
 * selecting the pod: the pod is then handled by the later, PDB-aware strategies (fail closed).
 */
export function pdbSelectorMatches(
  selector: LabelSelector | null | undefined,
  labels: Readonly<Record<string, string>>,
): boolean {
  if (selector === undefined || selector === null) return false;
  return evaluateLabelSelector(selector, labels) !== false;
}

/** The PodDisruptionBudgets in the pod's namespace that select the pod. */
export function pdbsSelecting(pod: Pod, pdbs: readonly PodDisruptionBudget[]): PodDisruptionBudget[] {
  const ns = pod.metadata?.namespace ?? '';
  const labels = pod.metadata?.labels ?? {};
  return pdbs.filter((pdb) => (pdb.metadata?.namespace ?? '') === ns && pdbSelectorMatches(pdb.spec?.selector, labels));
}

/** True when a DaemonSet owns the pod (any owner reference of kind DaemonSet, as MUO and kubectl drain judge it). */
export function isDaemonSetPod(pod: Pod): boolean {
  return (pod.metadata?.ownerReferences ?? []).some((ref) => ref.kind === 'DaemonSet');
}

/** True when the pod's namespace matches one of the (unanchored, Go) patterns. */
export function isInIgnoredNamespace(pod: Pod, patterns: readonly GoRegexp[]): boolean {
  const ns = pod.metadata?.namespace ?? '';
  return patterns.some((re) => re.test(ns));
}

/** True when the pod has finalizers. */
export function hasFinalizers(pod: Pod): boolean {
  return (pod.metadata?.finalizers ?? []).length > 0;
}

/** True when the pod is being deleted (deletionTimestamp set). */
export function isTerminating(pod: Pod): boolean {
  const ts = pod.metadata?.deletionTimestamp;
  return ts !== undefined && ts !== null && ts !== '';
}
