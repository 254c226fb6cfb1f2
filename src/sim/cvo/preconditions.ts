/**
 * The release preconditions the CVO runs before accepting a new payload
 * (`pkg/payload/precondition`, docs/design/cluster-model.md#release-acceptance-and-preconditions):
 * rollback, Upgradeable for minor updates, and the non-blocking recommended-update check whose
 * warnings become history `acceptedRisks`. Pure.
 */
import semver from 'semver';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import { findCondition } from './conditions.js';

/** One failed precondition. */
export interface PreconditionFailure {
  name: string;
  reason: string;
  message: string;
  blocking: boolean;
}

export interface PreconditionInput {
  /** The ClusterVersion with the status the CVO holds (desired = the payload it runs). */
  cv: ClusterVersion;
  /** The version being moved to. */
  targetVersion: string;
  targetImage: string;
  /** The Upgradeable condition as the CVO last computed it. */
  upgradeable: { status: string; reason?: string | undefined; message?: string | undefined } | undefined;
}

/** The most recent Completed history version (the version the cluster is at). */
export function currentCompletedVersion(cv: ClusterVersion): string | undefined {
  return cv.status?.history?.find((h) => h.state === 'Completed')?.version;
}

function rollback(input: PreconditionInput): PreconditionFailure | undefined {
  const current = input.cv.status?.desired.version;
  if (!current || !semver.valid(current) || !semver.valid(input.targetVersion)) return undefined;
  if (!semver.lt(input.targetVersion, current)) return undefined;
  const history = input.cv.status?.history ?? [];
  const previous = history.find((h) => h.version !== current && h.state === 'Completed');
  if (previous && previous.version === input.targetVersion && semver.minor(previous.version) === semver.minor(current))
    return undefined;
  const message = previous
    ? `${input.targetVersion} is less than the current target ${current}, and the only supported rollback is to the cluster's previous version ${previous.version} (${previous.image})`
    : `${input.targetVersion} is less than the current target ${current}, and the cluster has no previous version to roll back to`;
  return { name: 'ClusterVersionRollback', reason: 'LowDesiredVersion', message, blocking: true };
}

function upgradeable(input: PreconditionInput): PreconditionFailure | undefined {
  const cond = input.upgradeable;
  if (cond?.status !== 'False') return undefined;
  const completed = currentCompletedVersion(input.cv);
  const target = input.targetVersion;
  if (!completed || !semver.valid(completed) || !semver.valid(target)) return undefined;
  const minorOrMajor =
    semver.major(target) > semver.major(completed) ||
    (semver.major(target) === semver.major(completed) && semver.minor(target) > semver.minor(completed));
  if (!minorOrMajor) return undefined;
  const desired = input.cv.status?.desired.version ?? '';
  const minorInProgress =
    semver.valid(desired) !== null &&
    desired !== completed &&
    semver.minor(desired) > semver.minor(completed) &&
    semver.minor(desired) === semver.minor(target);
  if (minorInProgress) {
    return {
      name: 'ClusterVersionUpgradeable',
      reason: 'MinorVersionClusterUpdateInProgress',
      message: `Retarget to ${target} while a minor version update from ${completed} to ${desired} is in progress`,
      blocking: false,
    };
  }
  return { name: 'ClusterVersionUpgradeable', reason: cond.reason ?? '', message: cond.message ?? '', blocking: true };
}

function recommended(input: PreconditionInput): PreconditionFailure | undefined {
  const { cv, targetVersion, targetImage } = input;
  const from = cv.status?.desired.version ?? '';
  const name = 'ClusterVersionRecommendedUpdate';
  const same = (r: { version: string; image: string }): boolean =>
    r.image === targetImage || (targetImage === '' && r.version === targetVersion);
  if ((cv.status?.availableUpdates ?? []).some(same)) return undefined;
  const conditional = (cv.status?.conditionalUpdates ?? []).find((c) => same(c.release));
  if (conditional) {
    const rec = conditional.conditions?.find((c) => c.type === 'Recommended');
    if (rec?.status === 'True') return undefined;
    if (rec?.status === 'False') {
      return {
        name,
        reason: rec.reason,
        message: `Update from ${from} to ${targetVersion} is not recommended:\n\n${rec.message}`,
        blocking: false,
      };
    }
    const status = rec?.status ?? 'Unknown';
    return {
      name,
      reason: rec?.reason ?? 'UnknownConditionType',
      message: `Update from ${from} to ${targetVersion} is Recommended=${status}: ${rec?.reason ?? ''}: ${rec?.message ?? ''}`,
      blocking: false,
    };
  }
  if (!cv.spec.channel) {
    return {
      name,
      reason: 'NoChannel',
      message: `Configured channel is unset, so the recommended status of updating from ${from} to ${targetVersion} is unknown.`,
      blocking: false,
    };
  }
  const retrieved = findCondition(cv.status?.conditions, 'RetrievedUpdates');
  if (retrieved?.status === 'True') {
    return {
      name,
      reason: 'UnknownUpdate',
      message: `RetrievedUpdates=True (${retrieved.reason ?? ''}), so the update from ${from} to ${targetVersion} is probably neither recommended nor supported.`,
      blocking: false,
    };
  }
  return {
    name,
    reason: 'UnknownUpdate',
    message: `RetrievedUpdates=${retrieved?.status ?? 'Unknown'} (${retrieved?.reason ?? ''}), so the recommended status of updating from ${from} to ${targetVersion} is unknown.`,
    blocking: false,
  };
}

/** Runs the preconditions in the CVO's order; only failures are returned. */
export function checkPreconditions(input: PreconditionInput): PreconditionFailure[] {
  return [rollback(input), upgradeable(input), recommended(input)].filter(
    (f): f is PreconditionFailure => f !== undefined,
  );
}

/** One failure as the CVO prints it. */
export function renderFailure(preconditionFailure: PreconditionFailure): string {
  return `Precondition ${JSON.stringify(preconditionFailure.name)} failed because of ${JSON.stringify(preconditionFailure.reason)}: ${preconditionFailure.message}`;
}

/** Several failures: `Multiple precondition checks failed:\n* …`. */
export function renderFailures(failures: readonly PreconditionFailure[]): string {
  if (failures.length === 1) return renderFailure(failures[0]!);
  return `Multiple precondition checks failed:\n* ${failures.map(renderFailure).join('\n* ')}`;
}

/** The outcome of the checks: blocked (without force), and the text history records as accepted risks. */
export function judgePreconditions(
  failures: readonly PreconditionFailure[],
  force: boolean,
): { blocked: boolean; message: string; acceptedRisks: string } {
  const blocking = failures.filter((f) => f.blocking);
  if (blocking.length > 0 && !force) return { blocked: true, message: renderFailures(failures), acceptedRisks: '' };
  const parts: string[] = [];
  if (blocking.length > 0) parts.push(`Forced through blocking failures: ${renderFailures(blocking)}`);
  const warnings = failures.filter((f) => !f.blocking);
  if (warnings.length > 0) parts.push(renderFailures(warnings));
  return { blocked: false, message: '', acceptedRisks: parts.join('\n') };
}
