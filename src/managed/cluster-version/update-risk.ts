/**
 * Whether a target may be commenced given what the cluster version operator says of its risks
 * (docs/design/cluster-model.md#available-and-conditional-updates,
 * docs/design/cluster-model.md#behaviour-4-a-conditional-updates-risk). A target among
 * `availableUpdates`, or a conditional update with `Recommended=True`, is known-good. A conditional
 * update with `Recommended=False` (a risk applies to this cluster) or with `Recommended` Unknown or
 * absent (the CVO could not evaluate its risks) is not known-good: by default it is taken, as MUO
 * takes any conditional update, and its risks are named (a Warning Event, the `UpdateRecommended`
 * condition); with `conditionalUpdates.requireRiskAcceptance` it is taken only when the
 * UpgradeConfig accepts, by name, every risk that applies (or, when the CVO cannot say which,
 * every risk of the update). Pure functions over ClusterVersion as read from the API.
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

/** What the CVO says of a target that is not known-good. */
export interface RiskAssessment {
  /** `UpdateNotRecommended` (Recommended=False) or `UpdateRiskUnknown` (Unknown or not evaluated yet). */
  reason: 'UpdateNotRecommended' | 'UpdateRiskUnknown';
  /** The risks that apply (all of the update's when the CVO does not say which). */
  risks: NamedRisk[];
  /** Those of them the UpgradeConfig accepts by name. */
  accepted: string[];
  /** Those it does not. */
  unaccepted: string[];
  /** The CVO's Recommended condition in words (`Recommended=False PreRelease`). */
  cvoSays: string;
}

/** The verdict on a target. */
export type RiskVerdict =
  /** Not offered at all (neither available nor conditional): another wait says so. */
  | { go: false; reason: 'NotOffered' }
  /** Known-good: available, or conditional and recommended. */
  | { go: true; risk?: undefined }
  /** Not known-good, and taken: its risks are all accepted, or acceptance is not required. */
  | { go: true; risk: RiskAssessment }
  /** Not commenced (acceptance is required and a risk is not accepted). */
  | { go: false; reason: RiskAssessment['reason']; risk: RiskAssessment };

/** Whether not-known-good targets need their risks accepted, and which the UpgradeConfig accepts. */
export interface RiskPolicy {
  /** Risk names the UpgradeConfig accepts ({@link ACCEPT_RISKS_ANNOTATION}). */
  accepted: readonly string[];
  /** `conditionalUpdates.requireRiskAcceptance` of the operator ConfigMap. */
  requireAcceptance: boolean;
}

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
 * and the risk policy.
 */
export function judgeUpdateRisk(
  cv: ClusterVersion,
  target: { version?: string | undefined; image?: string | undefined },
  policy: RiskPolicy,
): RiskVerdict {
  const available = (cv.status?.availableUpdates ?? []).some((r) =>
    target.image ? r.image === target.image : r.version === target.version && r.image,
  );
  const entry = conditionalEntry(cv, target);
  // The CVO lists a recommended conditional update among availableUpdates too; a not-recommended one never.
  if (!entry) return available ? { go: true } : { go: false, reason: 'NotOffered' };
  const recommended = (entry.conditions ?? []).find((c) => c.type === 'Recommended');
  if (recommended?.status === 'True') return { go: true };
  const risks: NamedRisk[] = entry.risks.map((r) => ({ name: r.name, message: r.message, url: r.url }));
  // Which risks apply: a newer CVO says so per risk (`Applies`); Recommended=False names the one
  // that applies as its reason; MultipleReasons or ExposedToRisks leave it open: all of them count.
  const applies = entry.risks
    .filter((r) => r.conditions?.some((c) => c.type === 'Applies' && c.status === 'True'))
    .map((r) => r.name);
  const named = recommended?.status === 'False' ? (applies.length > 0 ? applies : [recommended.reason ?? '']) : [];
  const single = risks.filter((r) => named.includes(r.name));
  const applying = single.length > 0 ? single : risks;
  const names = applying.map((r) => r.name);
  const risk: RiskAssessment = {
    reason: recommended?.status === 'False' ? 'UpdateNotRecommended' : 'UpdateRiskUnknown',
    risks: applying,
    accepted: names.filter((n) => policy.accepted.includes(n)),
    unaccepted: names.filter((n) => !policy.accepted.includes(n)),
    cvoSays: recommended
      ? `Recommended=${recommended.status} ${recommended.reason ?? ''}`.trimEnd()
      : 'no Recommended condition yet',
  };
  // An update without risks and without a verdict is never "all accepted".
  const allAccepted = risk.unaccepted.length === 0 && applying.length > 0;
  if (allAccepted || !policy.requireAcceptance) return { go: true, risk };
  return { go: false, reason: risk.reason, risk };
}

function formatRisks(risks: readonly NamedRisk[]): string {
  return risks.map((r) => `${r.name}: ${r.message}${r.url ? ` ${r.url}` : ''}`).join('; ');
}

/**
 * The refusal in words (`conditionalUpdates.requireRiskAcceptance`): what the CVO says, which
 * risks, and how to accept them.
 */
export function describeRiskRefusal(risk: RiskAssessment, version: string): string {
  const what =
    risk.reason === 'UpdateNotRecommended'
      ? `the cluster version operator does not recommend the update to ${version} for this cluster`
      : `the cluster version operator could not evaluate the risks of the update to ${version}`;
  return `${what} (${risk.cvoSays}): ${formatRisks(risk.risks)}; not commencing unless the UpgradeConfig accepts ${risk.unaccepted.length === 1 ? 'this risk' : 'these risks'} (annotation ${ACCEPT_RISKS_ANNOTATION}: "${risk.unaccepted.join(',')}")`;
}

/**
 * A target commenced although it is not known-good, in words (the `UpdateRecommended` condition
 * and, while a risk is not accepted, a Warning Event): what the CVO says, each risk with its
 * message and URL, and which the UpgradeConfig accepts.
 */
export function describeCommencedRisk(risk: RiskAssessment, version: string): string {
  const what =
    risk.reason === 'UpdateNotRecommended'
      ? `commenced the update to ${version}, which the cluster version operator does not recommend for this cluster`
      : `commenced the update to ${version}, whose risks the cluster version operator could not evaluate`;
  const risks = risk.risks.length > 0 ? `: ${formatRisks(risk.risks)}` : '';
  const accepted = risk.accepted.length > 0 ? `; risks accepted by the UpgradeConfig: ${risk.accepted.join(', ')}` : '';
  const unaccepted =
    risk.unaccepted.length > 0
      ? `; not accepted: ${risk.unaccepted.join(', ')} (conditionalUpdates.requireRiskAcceptance is off)`
      : '';
  return `${what} (${risk.cvoSays})${risks}${accepted}${unaccepted}`;
}
