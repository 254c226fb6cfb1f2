/**
 * Version ordering as APPUiO picks the newest available update: golang.org/x/mod/semver's `Compare`
 * on `"v" + version` (docs/design/scheduled-flow.md#creating-the-next-job). That dialect is SemVer
 * 2.0.0 plus the shorthands `MAJOR` and `MAJOR.MINOR` (read as `.0`), build metadata ignored, and
 * every invalid string lower than every valid one (invalid strings equal to each other).
 * node-semver does the comparing; a strict pattern in front of it refuses what x/mod refuses
 * (leading zeros, a second `v`, whitespace), which node-semver would otherwise accept.
 */
// Only the pieces used: the package's index loads all of its 48 modules (docs/benchmarks.md#start-up-and-footprint-issue-17).
import type SemVer from 'semver/classes/semver.js';
import compare from 'semver/functions/compare.js';
import parse from 'semver/functions/parse.js';
import type { Release } from '../../api/openshift/config-v1/cluster-version.js';

const NUM = '(?:0|[1-9]\\d*)';
const PRERELEASE_ID = '(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)';
const GO_SEMVER = new RegExp(
  `^(${NUM})(?:\\.(${NUM})(?:\\.(${NUM})(-${PRERELEASE_ID}(?:\\.${PRERELEASE_ID})*)?(?:\\+[0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*)?)?)?$`,
);

/** The version (without the `v` x/mod adds) as node-semver reads it, or undefined when x/mod calls it invalid. */
export function parseGoSemver(version: string): SemVer | undefined {
  const m = GO_SEMVER.exec(version);
  if (!m) return undefined;
  const [, major, minor, patch, prerelease] = m;
  return parse(`${major}.${minor ?? '0'}.${patch ?? '0'}${prerelease ?? ''}`) ?? undefined;
}

/** x/mod/semver's `Compare("v"+a, "v"+b)`: -1, 0 or 1; invalid versions are lowest and equal to each other. */
export function compareGoSemver(left: string, right: string): -1 | 0 | 1 {
  const va = parseGoSemver(left);
  const vb = parseGoSemver(right);
  if (!va) return vb ? -1 : 0;
  if (!vb) return 1;
  return compare(va, vb);
}

/**
 * The release APPUiO would pin: the highest version of ClusterVersion `status.availableUpdates`
 * (conditional updates are not considered, as APPUiO ignores them); among equal versions the
 * first listed. Undefined when the list is empty or absent (a "noop" job).
 */
export function newestAvailableRelease(availableUpdates: readonly Release[] | null | undefined): Release | undefined {
  let best: Release | undefined;
  for (const r of availableUpdates ?? []) {
    if (best === undefined || compareGoSemver(r.version, best.version) > 0) best = r;
  }
  return best;
}
