/**
 * metav1.LabelSelector matching for the simulated controllers (pools → nodes, Deployments →
 * pods, MachineSets → Machines, nodeSelector → nodes). Semantics of
 * `metav1.LabelSelectorAsSelector`: a missing selector matches nothing, an empty one everything.
 * An invalid selector matches nothing (the evaluation is `src/lib/label-selector.ts`).
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { evaluateLabelSelector } from '../../lib/label-selector.js';

/** Each selector's text, by selector object. */
const selectorKeys = new WeakMap<LabelSelector, string>();
/** Answers already given, by label map and selector text. */
const answers = new WeakMap<Readonly<Record<string, string>>, Map<string, boolean>>();
const NO_LABELS: Readonly<Record<string, string>> = {};

/**
 * True if `labels` satisfy the selector (undefined matches nothing; `{}` matches everything).
 * The controllers ask again for every pool and node at every reconcile, with the same label
 * maps (informer objects are never modified) and the same few selectors (new objects after
 * every status write, same text): the answers are memoised by label map and selector text.
 */
export function matchesLabelSelector(
  selector: LabelSelector | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  if (selector === undefined) return false;
  let key = selectorKeys.get(selector);
  if (key === undefined) {
    key = JSON.stringify(selector);
    selectorKeys.set(selector, key);
  }
  const l = labels ?? NO_LABELS;
  let known = answers.get(l);
  if (!known) {
    known = new Map();
    answers.set(l, known);
  }
  let answer = known.get(key);
  if (answer === undefined) {
    answer = evaluateLabelSelector(selector, labels) === true;
    known.set(key, answer);
  }
  return answer;
}

/** True if every key/value of `subset` is in `labels` (a pod's nodeSelector, a matchLabels map). */
export function hasLabels(
  subset: Readonly<Record<string, string>> | undefined,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const l = labels ?? {};
  for (const [k, v] of Object.entries(subset ?? {})) if (l[k] !== v) return false;
  return true;
}
