/**
 * metav1.LabelSelector matching for the simulated controllers (pools → nodes, Deployments →
 * pods, MachineSets → Machines, nodeSelector → nodes). Semantics of
 * `metav1.LabelSelectorAsSelector`: a missing selector matches nothing, an empty one everything.
 * Written here because `src/sim` may not import the API server's matcher, and the few lines
 * are not worth a dependency.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

/** True if `labels` satisfy the selector (undefined matches nothing; `{}` matches everything). */
export function matchesLabelSelector(selector: LabelSelector | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  if (selector === undefined) return false;
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(l, e.key);
    const value = l[e.key];
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (!has || value === undefined || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (has && value !== undefined && values.includes(value)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

/** True if every key/value of `subset` is in `labels` (a pod's nodeSelector, a matchLabels map). */
export function hasLabels(subset: Readonly<Record<string, string>> | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  const l = labels ?? {};
  for (const [k, v] of Object.entries(subset ?? {})) if (l[k] !== v) return false;
  return true;
}
