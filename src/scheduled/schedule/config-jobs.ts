/**
 * What an UpgradeConfig reads of the objects around it
 * (docs/design/scheduled-flow.md#creating-the-next-job): the UpgradeJobs it controls and the latest
 * of them, the successful ones beyond `successfulJobsHistoryLimit`, and the UpgradeSuspensionWindow
 * that suspends it now. Pure.
 */
import { ScheduledUpgradeConfigDefaults } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import type { ScheduledUpgradeConfig } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { UpgradeJobConditionType } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import { evaluateLabelSelector } from '../../lib/label-selector.js';

/** True when `job` has a controller reference to `config` (same UID, as `metav1.IsControlledBy`). */
export function isControlledBy(job: UpgradeJob, config: ScheduledUpgradeConfig): boolean {
  const uid = config.metadata?.uid;
  return (
    uid !== undefined &&
    uid !== '' &&
    (job.metadata?.ownerReferences ?? []).some((r) => r.controller === true && r.uid === uid)
  );
}

/** Byte order of two names (as Go compares strings). */
function compareNames(left: string | undefined, right: string | undefined): number {
  const x = left ?? '';
  const y = right ?? '';
  return x < y ? -1 : x > y ? 1 : 0;
}

function conditionTrue(job: UpgradeJob, type: string): boolean {
  return (job.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
}

/** `Succeeded=True` (this includes jobs skipped by a suspension window). */
export function isJobSucceeded(job: UpgradeJob): boolean {
  return conditionTrue(job, UpgradeJobConditionType.Succeeded);
}

/** Final: `Succeeded=True` or `Failed=True`, the only states the scheduler counts as finished. */
export function isJobFinished(job: UpgradeJob): boolean {
  return isJobSucceeded(job) || conditionTrue(job, UpgradeJobConditionType.Failed);
}

/** `spec.startAfter` in epoch ms, or undefined when absent or not a time. */
export function startAfterMs(job: UpgradeJob): number | undefined {
  const text = job.spec?.startAfter;
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The latest job of a config: its name, `startAfter`, and whether it is finished. */
export interface LatestJob {
  readonly name: string;
  readonly startAfterMs: number;
  readonly finished: boolean;
}

/**
 * The controlled job with the greatest `startAfter`. When several share it, the latest counts
 * as finished only if all of them are (APPUiO takes whichever it meets first), and the name is
 * that of an unfinished one if any.
 */
export function latestJob(jobs: readonly UpgradeJob[]): LatestJob | undefined {
  let latest: LatestJob | undefined;
  for (const job of [...jobs].sort((a, b) => compareNames(a.metadata?.name, b.metadata?.name))) {
    const at = startAfterMs(job);
    if (at === undefined) continue;
    const candidate = { name: job.metadata?.name ?? '', startAfterMs: at, finished: isJobFinished(job) };
    if (!latest || at > latest.startAfterMs) latest = candidate;
    else if (at === latest.startAfterMs && latest.finished && !candidate.finished) latest = candidate;
  }
  return latest;
}

/** The history limit in effect: 4 when unset; undefined (no limit) when ≤ 0. */
export function effectiveHistoryLimit(limit: number | undefined): number | undefined {
  const l = limit ?? ScheduledUpgradeConfigDefaults.successfulJobsHistoryLimit;
  return l <= 0 ? undefined : l;
}

/**
 * The succeeded jobs to delete: all but the newest `limit` by `startAfter` (ties: the greater
 * name is newer). Failed and unfinished jobs are never deleted. `jobs` must already be the
 * config's controlled jobs.
 */
export function successfulJobsBeyondLimit(jobs: readonly UpgradeJob[], limit: number | undefined): UpgradeJob[] {
  const keep = effectiveHistoryLimit(limit);
  if (keep === undefined) return [];
  const succeeded = jobs.filter(isJobSucceeded);
  succeeded.sort(
    (a, b) => (startAfterMs(b) ?? 0) - (startAfterMs(a) ?? 0) || compareNames(b.metadata?.name, a.metadata?.name),
  );
  return succeeded.slice(keep);
}

/** An UpgradeSuspensionWindow that suspends the config now. */
export interface ActiveSuspensionWindow {
  readonly name: string;
  readonly reason: string;
}

/**
 * The first window by name (of those given, which must be in the config's namespace) whose
 * `configSelector` selects the config's labels and whose `[start, end]` holds `nowMs`. An
 * absent selector selects nothing, `{}` everything; a selector Kubernetes would refuse selects
 * nothing.
 */
export function activeSuspensionWindow(
  windows: readonly UpgradeSuspensionWindow[],
  config: ScheduledUpgradeConfig,
  nowMs: number,
): ActiveSuspensionWindow | undefined {
  const sorted = [...windows].sort((a, b) => compareNames(a.metadata?.name, b.metadata?.name));
  for (const w of sorted) {
    const spec = w.spec;
    if (!spec?.configSelector) continue;
    if (evaluateLabelSelector(spec.configSelector, config.metadata?.labels) !== true) continue;
    const start = Date.parse(spec.start);
    const end = Date.parse(spec.end);
    if (Number.isNaN(start) || Number.isNaN(end) || nowMs < start || nowMs > end) continue;
    return { name: w.metadata?.name ?? '', reason: spec.reason };
  }
  return undefined;
}
