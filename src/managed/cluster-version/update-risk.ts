/**
 * Whether a target may be commenced given what the cluster version operator says of its risks
 * (docs/design/cluster-model.md#available-and-conditional-updates,
 * docs/design/cluster-model.md#behaviour-4-a-conditional-updates-risk). A target among
 * `availableUpdates`, or a conditional update with `Recommended=True`, is known-good. A conditional
 * update with `Recommended=False` (a risk applies to this cluster) or with `Recommended` Unknown or
 * absent (the CVO could not evaluate its risks: not known-good) is taken only when the
 * UpgradeConfig accepts, by name, every risk that applies (or, when the CVO cannot say which, every
 * risk of the update). MUO takes any conditional update; a risk that starts to apply after the
 * upgrade was scheduled then goes through unseen. Pure functions over ClusterVersion as read from
 * the API.
 */
import type { ClusterVersion, ConditionalUpdate } from '../../api/openshift/config-v1/cluster-version.js';

/**
 * Annotation on an UpgradeConfig naming the conditional-update risks its owner accepts:
 * comma-separated risk names as the CVO lists them (`status.conditionalUpdates[].risks[].name`).
 */
export const ACCEPT_RISKS_ANNOTATION = 'upgrade-operator.io/accept-risks';

/** The risk names an annotation value accepts (trimmed, empty entries dropped). */
export function parseAcceptedRisks(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

/** One risk of a conditional update, as the CVO publishes it. */
export interface NamedRisk {
  name: string;
  message: string;
  url: string;
}

/** The verdict on a target. */
export type RiskVerdict =
  /** Not offered at all (neither available nor conditional): another wait says so. */
  | { go: false; reason: 'NotOffered' }
  /** Known-good: available, or conditional and recommended. */
  | { go: true; accepted: [] }
  /** Not known-good, but every risk that may apply is accepted (names them). */
  | { go: true; accepted: string[] }
  /** Not commenced: `UpdateNotRecommended` (Recommended=False) or `UpdateRiskUnknown` (not evaluated). */
  | {
      go: false;
      reason: 'UpdateNotRecommended' | 'UpdateRiskUnknown';
      risks: NamedRisk[];
      unaccepted: string[];
      cvoSays: string;
    };

/** The conditional-update entry of a target, by image when one is given, else by version. */
function conditionalEntry(
  cv: ClusterVersion,
  target: { version?: string | undefined; image?: string | undefined },
): ConditionalUpdate | undefined {
  return (cv.status?.conditionalUpdates ?? []).find((c) =>
    target.image ? c.release.image === target.image : c.release.version === target.version && c.release.image !== '',
  );
}

/**
 * Judges `target` (its version, or its image in image mode) against the CVO's offered updates
 * and the accepted risk names.
 */
export function judgeUpdateRisk(
  cv: ClusterVersion,
  target: { version?: string | undefined; image?: string | undefined },
  accepted: readonly string[],
): RiskVerdict {
  const available = (cv.status?.availableUpdates ?? []).some((r) =>
    target.image ? r.image === target.image : r.version === target.version && r.image,
  );
  const entry = conditionalEntry(cv, target);
  // The CVO lists a recommended conditional update among availableUpdates too; a not-recommended one never.
  if (!entry) return available ? { go: true, accepted: [] } : { go: false, reason: 'NotOffered' };
  const recommended = (entry.conditions ?? []).find((c) => c.type === 'Recommended');
  if (recommended?.status === 'True') return { go: true, accepted: [] };
  const risks: NamedRisk[] = entry.risks.map((r) => ({ name: r.name, message: r.message, url: r.url }));
  // Which risks apply: a newer CVO says so per risk (`Applies`); Recommended=False names the one
  // that applies as its reason; MultipleReasons or ExposedToRisks leave it open: all of them count.
  const applies = entry.risks
    .filter((r) => r.conditions?.some((c) => c.type === 'Applies' && c.status === 'True'))
    .map((r) => r.name);
  const named = recommended?.status === 'False' ? (applies.length > 0 ? applies : [recommended.reason ?? '']) : [];
  const single = risks.filter((r) => named.includes(r.name));
  const applying = single.length > 0 ? single : risks;
  const unaccepted = applying.map((r) => r.name).filter((n) => !accepted.includes(n));
  if (unaccepted.length === 0 && applying.length > 0) return { go: true, accepted: applying.map((r) => r.name) };
  return {
    go: false,
    reason: recommended?.status === 'False' ? 'UpdateNotRecommended' : 'UpdateRiskUnknown',
    risks: applying,
    unaccepted,
    cvoSays: recommended
      ? `Recommended=${recommended.status} ${recommended.reason ?? ''}`.trimEnd()
      : 'no Recommended condition yet',
  };
}

/** The refusal in words: what the CVO says, which risks, and how to accept them. */
export function describeRiskRefusal(verdict: Extract<RiskVerdict, { risks: NamedRisk[] }>, version: string): string {
  const what =
    verdict.reason === 'UpdateNotRecommended'
      ? `the cluster version operator does not recommend the update to ${version} for this cluster`
      : `the cluster version operator could not evaluate the risks of the update to ${version}`;
  const risks = verdict.risks.map((r) => `${r.name}: ${r.message}${r.url ? ` ${r.url}` : ''}`).join('; ');
  return `${what} (${verdict.cvoSays}): ${risks}; not commencing unless the UpgradeConfig accepts ${verdict.unaccepted.length === 1 ? 'this risk' : 'these risks'} (annotation ${ACCEPT_RISKS_ANNOTATION}: "${verdict.unaccepted.join(',')}")`;
}
