/**
 * Versions parsed as MUO parses them: `blang/semver/v4`'s strict `Parse` (no `v` prefix, no
 * whitespace, no leading zeros, all three numbers). node-semver accepts more (a `v` prefix,
 * surrounding space, and in loose mode leading zeros), so a strict SemVer 2.0.0 pattern
 * guards it; comparison is node-semver's, which like blang ignores build metadata.
 */
// Only the pieces used: the package's index loads all of its 48 modules (docs/benchmarks.md#start-up-and-footprint-issue-17).
import type SemVer from 'semver/classes/semver.js';
import compare from 'semver/functions/compare.js';
import parse from 'semver/functions/parse.js';

/** SemVer 2.0.0, exactly (semver.org's grammar). */
const STRICT_SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** Why strict parsing refused a version, in words for a condition message. */
export const STRICT_SEMVER_EXPECTATION =
  'expected MAJOR.MINOR.PATCH with optional -PRERELEASE and +BUILD, without a v prefix or leading zeros';

/** The parsed version, or undefined when `text` is not a strict semantic version. */
export function parseStrictSemver(text: string): SemVer | undefined {
  if (!STRICT_SEMVER.test(text)) return undefined;
  return parse(text) ?? undefined;
}

/** True when `text` is a strict semantic version. */
export function isStrictSemver(text: string): boolean {
  return parseStrictSemver(text) !== undefined;
}

/** -1, 0 or 1 as `a` is lower than, equal to (build ignored) or greater than `b`. */
export function compareStrictSemver(left: SemVer, right: SemVer): -1 | 0 | 1 {
  return compare(left, right);
}
