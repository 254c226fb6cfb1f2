/**
 * metav1.LabelSelector evaluation shared by the operator (PDB selection when draining) and the
 * simulated controllers (pools → nodes, MachineSets → Machines). The API server keeps its own
 * parser for `?labelSelector=` strings. Callers decide what a selector Kubernetes would reject
 * means for them, and what a missing selector means.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';

/**
 * True or false for whether `labels` satisfy `selector` (`{}` selects everything);
 * `'invalid'` when the selector has an unknown operator or `In`/`NotIn` without values.
 */
export function evaluateLabelSelector(
  selector: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean | 'invalid' {
  const l = labels ?? {};
  for (const [k, v] of Object.entries(selector.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const e of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(l, e.key);
    const value = l[e.key];
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        if (values.length === 0) return 'invalid';
        if (!has || value === undefined || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (values.length === 0) return 'invalid';
        if (has && value !== undefined && values.includes(value)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return 'invalid';
    }
  }
  return true;
}
