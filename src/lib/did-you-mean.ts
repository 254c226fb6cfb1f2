/**
 * The likely intended name for a mistyped one, for "unknown X (did you mean Y?)" messages. The
 * edit distance is fastest-levenshtein's; which names are close enough to suggest is ours.
 */
import { distance } from 'fastest-levenshtein';

/**
 * The known name closest to `name` (case differences count as none), when it is close enough to
 * be a typo: at most a third of the longer name's characters differ, and never more than four.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of known) {
    const edits = distance(name.toLowerCase(), candidate.toLowerCase());
    if (edits < bestDistance) {
      best = candidate;
      bestDistance = edits;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.min(4, Math.ceil(Math.max(name.length, best.length) / 3));
  return bestDistance <= limit ? best : undefined;
}

/** ` (did you mean "Y"?)` when a known name is close to `name`, else ''. */
export function didYouMean(name: string, known: Iterable<string>): string {
  const closest = closestName(name, known);
  return closest === undefined ? '' : ` (did you mean ${JSON.stringify(closest)}?)`;
}
