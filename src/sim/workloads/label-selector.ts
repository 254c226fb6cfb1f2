/**
 * metav1.LabelSelector matching for the simulated controllers (pools → nodes, Deployments →
 * pods, MachineSets → Machines, nodeSelector → nodes). Semantics of
 * `metav1.LabelSelectorAsSelector`: a missing selector matches nothing, an empty one everything.
 * An invalid selector matches nothing (the evaluation is `src/lib/label-selector.ts`).
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { evaluateLabelSelector } from '../../lib/label-selector.js';

/** True if `labels` satisfy the selector (undefined matches nothing; `{}` matches everything). */
export function matchesLabelSelector(selector: LabelSelector | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  return selector !== undefined && evaluateLabelSelector(selector, labels) === true;
}

/** True if every key/value of `subset` is in `labels` (a pod's nodeSelector, a matchLabels map). */
export function hasLabels(subset: Readonly<Record<string, string>> | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {};
  for (const [k, v] of Object.entries(subset ?? {})) if (l[k] !== v) return false;
  return true;
}
