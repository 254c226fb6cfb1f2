/**
 * The alerting invariant of docs/design/cluster-model.md#invariants: every alert whose rule has a
 * `for` clause spent that long in `pending` before `firing`; rules without `for` go straight to
 * `firing`. Checked over the rule evaluator's transition log ({@link AlertTransition}),
 * incrementally.
 */
import type { AlertTransition } from './rules.js';

/** What the check remembers between calls: the pending alert instances, by key. */
export interface AlertCheckState {
  readonly pending: Set<string>;
}

/** A fresh state (nothing pending). */
export function newAlertCheckState(): AlertCheckState {
  return { pending: new Set() };
}

function instanceKey(alertTransition: AlertTransition): string {
  const labels = Object.entries(alertTransition.labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${alertTransition.alertname}${JSON.stringify(labels)}@${alertTransition.activeAt}`;
}

function describe(alertTransition: AlertTransition): string {
  const labels = Object.entries(alertTransition.labels)
    .filter(([k]) => k !== 'alertname')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  return `alert ${alertTransition.alertname}{${labels}}`;
}

/**
 * Checks transitions (oldest first, continuing from `state`, which it updates): a `firing` of a
 * rule with `for` follows a `pending` of the same instance and comes at least `for` after it
 * became active; a rule without `for` is never `pending` and fires at the evaluation that first
 * returned it.
 */
export function alertTransitionViolations(
  transitions: readonly AlertTransition[],
  state: AlertCheckState = newAlertCheckState(),
): string[] {
  const out: string[] = [];
  for (const t of transitions) {
    const key = instanceKey(t);
    switch (t.state) {
      case 'pending':
        if (t.forMs === 0) out.push(`${describe(t)}: pending, but its rule has no for clause (it must fire at once)`);
        state.pending.add(key);
        break;
      case 'firing':
        if (t.forMs > 0) {
          if (!state.pending.has(key))
            out.push(`${describe(t)}: firing without having been pending (for ${t.forMs / 1000}s)`);
          else if (t.at - t.activeAt < t.forMs)
            out.push(
              `${describe(t)}: firing after ${(t.at - t.activeAt) / 1000}s pending, less than its for of ${t.forMs / 1000}s`,
            );
        } else if (t.at !== t.activeAt) {
          out.push(
            `${describe(t)}: its rule has no for clause but it fired ${(t.at - t.activeAt) / 1000}s after it became active`,
          );
        }
        state.pending.delete(key);
        break;
      case 'dropped':
      case 'resolved':
        state.pending.delete(key);
        break;
    }
  }
  return out;
}
