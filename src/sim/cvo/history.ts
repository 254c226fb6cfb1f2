/**
 * `status.history` rules (`pkg/cvo/status.go: mergeOperatorHistory`,
 * docs/design/cluster-model.md#history): a new target is prepended as Partial and closes an
 * unfinished head; the same target merges into the head; completion marks the head Completed once;
 * at most 100 entries. Pure.
 */
import type { UpdateHistory } from '../../api/openshift/config-v1/cluster-version.js';
import { formatTime } from '../../lib/clock.js';

/** The CVO keeps at most this many entries. */
export const MAX_HISTORY = 100;

export interface HistoryTarget {
  version: string;
  image: string;
  verified: boolean;
  acceptedRisks?: string | undefined;
}

/** The history after a target was accepted at `now`. */
export function startHistoryEntry(
  history: readonly UpdateHistory[],
  target: HistoryTarget,
  now: number,
): UpdateHistory[] {
  const out = history.map((h) => ({ ...h }));
  const head = out[0];
  if (head && (head.image === target.image || (target.image === '' && head.version === target.version))) {
    if (target.acceptedRisks) head.acceptedRisks = target.acceptedRisks;
    return out;
  }
  if (head && head.completionTime === null) head.completionTime = formatTime(now);
  const entry: UpdateHistory = {
    state: 'Partial',
    startedTime: formatTime(now),
    completionTime: null,
    version: target.version,
    image: target.image,
    verified: target.verified,
  };
  if (target.acceptedRisks) entry.acceptedRisks = target.acceptedRisks;
  out.unshift(entry);
  return pruneHistory(out);
}

/** The history after the head's payload was applied completely at `now` (completionTime is set once). */
export function completeHistoryHead(history: readonly UpdateHistory[], now: number): UpdateHistory[] {
  const out = history.map((h) => ({ ...h }));
  const head = out[0];
  if (!head) return out;
  head.state = 'Completed';
  if (head.completionTime === null) head.completionTime = formatTime(now);
  return out;
}

/**
 * Keeps at most MAX_HISTORY entries, dropping the least informative first: the oldest Partial
 * entries, then the oldest Completed ones; the head and the first (install) entry stay.
 */
export function pruneHistory(history: readonly UpdateHistory[]): UpdateHistory[] {
  const out = [...history];
  while (out.length > MAX_HISTORY) {
    let drop = -1;
    for (let i = out.length - 2; i >= 1; i--) {
      if (out[i]!.state === 'Partial') {
        drop = i;
        break;
      }
    }
    if (drop < 0) drop = out.length - 2;
    out.splice(drop, 1);
  }
  return out;
}
