/**
 * Completion tracking and the failure policy of hook Jobs
 * (docs/design/scheduled-flow.md#failure-policy, docs/design/scheduled-flow.md#tracking), as
 * APPUiO's controller decides them. Pure: the caller lists the UpgradeJob's hook Jobs (selector
 * `hookJobsSelector`), writes `status.hookTracker`, removes finalizers and creates Jobs.
 *
 * - A hook Job is `failed` when its `Failed` condition is True (message: that condition's message),
 *   `complete` when `Complete` is True, otherwise `active`; interim conditions (SuccessCriteriaMet,
 *   FailureTarget) are ignored.
 * - `status.hookTracker` = the live Jobs' entries plus every non-active entry already tracked, so a
 *   finished Job deleted by TTL or by hand is remembered and never re-created; it is written only
 *   when that set changed, sorted by hook + event + tracking key. Finished Jobs then lose the
 *   tracker finalizer; all of them do once the UpgradeJob is gone.
 * - A run (hook, event, tracking key) with neither a live Job nor a tracked entry gets its Job
 *   created and counts as active.
 * - Create, Start, UpgradeComplete and MachineConfigPoolUnpause wait while a run is active; then
 *   a failure of an `Abort` hook fails the UpgradeJob with `HookFailed` and the message
 *   `hook "<hook>" failed: <message>` (several joined with `, `), unless the job is already final.
 *   `Ignore` failures, and everything about Finish, Success and Failure, are only logged.
 *
 * Deliberate differences: an entry that is both tracked and live counts once (upstream could
 * repeat it in the HookFailed message); a Job without the tracking-key label (made before
 * upstream added it) counts for the empty key instead of being invisible.
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { HookJobTracker, UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { UpgradeJobHook } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import {
  HOOK_JOB_TRACKER_FINALIZER,
  type UpgradeEvent,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import {
  UpgradeJobReason,
  type HookJobTrackerStatus,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { hookRunKeyOf } from './hook-job.js';
import { eventInfluencesOutcome, hookFailurePolicy } from './hook-selection.js';

/** A hook Job's state and, when failed, the message of its Failed condition. */
export interface HookJobState {
  status: HookJobTrackerStatus;
  message: string;
}

function conditionTrue(job: Job, type: string): { message?: string } | undefined {
  return (job.status?.conditions ?? []).find((c) => c.type === type && c.status === 'True');
}

/** True when the Job's `Complete` or `Failed` condition is True. */
export function isHookJobFinished(job: Job): boolean {
  return conditionTrue(job, 'Complete') !== undefined || conditionTrue(job, 'Failed') !== undefined;
}

/** `failed` (Failed=True, with its message), `complete` (Complete=True) or `active`. */
export function hookJobState(job: Job): HookJobState {
  const failed = conditionTrue(job, 'Failed');
  if (failed !== undefined) return { status: 'failed', message: failed.message ?? '' };
  if (conditionTrue(job, 'Complete') !== undefined) return { status: 'complete', message: '' };
  return { status: 'active', message: '' };
}

/** A tracker entry as the Go type writes it (empty strings omitted). */
export function trackerEntry(hook: string, event: string, trackingKey: string, state: HookJobState): HookJobTracker {
  const e: HookJobTracker = { hookEvent: event, upgradeJobHook: hook, status: state.status };
  if (trackingKey !== '') e.trackingKey = trackingKey;
  if (state.message !== '') e.message = state.message;
  return e;
}

function identity(hookJobTracker: HookJobTracker): string {
  return JSON.stringify([
    hookJobTracker.upgradeJobHook ?? '',
    hookJobTracker.hookEvent ?? '',
    hookJobTracker.trackingKey ?? '',
    hookJobTracker.status ?? '',
    hookJobTracker.message ?? '',
  ]);
}

function uniq(entries: readonly HookJobTracker[]): HookJobTracker[] {
  const seen = new Map<string, HookJobTracker>();
  for (const e of entries) if (!seen.has(identity(e))) seen.set(identity(e), e);
  return [...seen.values()];
}

function compareEntries(left: HookJobTracker, right: HookJobTracker): number {
  const ka = `${left.upgradeJobHook ?? ''}${left.hookEvent ?? ''}${left.trackingKey ?? ''}`;
  const kb = `${right.upgradeJobHook ?? ''}${right.hookEvent ?? ''}${right.trackingKey ?? ''}`;
  if (ka !== kb) return ka < kb ? -1 : 1;
  const ia = identity(left);
  const ib = identity(right);
  return ia < ib ? -1 : ia > ib ? 1 : 0;
}

/** The entries of the live hook Jobs of `upgradeJob` (Jobs of other UpgradeJobs or without labels are ignored). */
export function liveTrackerEntries(upgradeJob: string, jobs: readonly Job[]): HookJobTracker[] {
  const out: HookJobTracker[] = [];
  for (const job of jobs) {
    const key = hookRunKeyOf(job);
    if (key === undefined || key.upgradeJob !== upgradeJob) continue;
    out.push(trackerEntry(key.hook, key.event, key.trackingKey, hookJobState(job)));
  }
  return out;
}

/** What one tracking pass found. */
export interface TrackerUpdate {
  /** The new `status.hookTracker`, sorted. */
  tracker: HookJobTracker[];
  /** True when it differs (as a set) from the current one: write the status. */
  changed: boolean;
  /** Names of finished Jobs that still carry the tracker finalizer: remove it after the status write. */
  releaseFinalizer: string[];
}

/** One `trackHookJobs` pass for an existing UpgradeJob and its listed hook Jobs. */
export function updateHookTracker(upgradeJob: UpgradeJob, jobs: readonly Job[]): TrackerUpdate {
  const name = upgradeJob.metadata?.name ?? '';
  const current = upgradeJob.status?.hookTracker ?? [];
  const next = uniq([...liveTrackerEntries(name, jobs), ...current.filter((e) => e.status !== 'active')]).sort(
    compareEntries,
  );
  const before = new Set(current.map(identity));
  const after = new Set(next.map(identity));
  const changed = before.size !== after.size || [...after].some((k) => !before.has(k));
  const releaseFinalizer = jobs
    .filter(
      (j) =>
        hookRunKeyOf(j)?.upgradeJob === name &&
        isHookJobFinished(j) &&
        (j.metadata?.finalizers ?? []).includes(HOOK_JOB_TRACKER_FINALIZER),
    )
    .map((j) => j.metadata?.name ?? '');
  return { tracker: next, changed, releaseFinalizer };
}

/** Names of the Jobs that still carry the tracker finalizer: all of them lose it once their UpgradeJob is gone. */
export function finalizersToReleaseForDeletedJob(jobs: readonly Job[]): string[] {
  return jobs
    .filter((j) => (j.metadata?.finalizers ?? []).includes(HOOK_JOB_TRACKER_FINALIZER))
    .map((j) => j.metadata?.name ?? '');
}

/**
 * The known outcomes of one run (hook, event, tracking key): live Jobs plus tracked entries,
 * each counted once. Empty means no Job was ever made: create it (it then counts as active).
 */
export function hookRunEntries(
  run: { upgradeJob: string; hook: string; event: UpgradeEvent; trackingKey: string },
  tracker: readonly HookJobTracker[],
  jobs: readonly Job[],
): HookJobTracker[] {
  const same = (e: HookJobTracker): boolean =>
    e.upgradeJobHook === run.hook && e.hookEvent === run.event && (e.trackingKey ?? '') === run.trackingKey;
  return uniq([...liveTrackerEntries(run.upgradeJob, jobs).filter(same), ...tracker.filter(same)]);
}

/** One selected hook and what is known about its run for the event (an empty list once its Job was just created). */
export interface HookRunResult {
  hook: UpgradeJobHook;
  entries: readonly HookJobTracker[];
}

/** What the UpgradeJob flow does after an event's hooks were started or looked at. */
export type HookOutcome =
  /** An outcome-influencing event with runs still active (hook names): wait for their Jobs. */
  | { kind: 'wait'; active: string[] }
  /** Set `Failed=True` with this reason and message. */
  | { kind: 'fail'; reason: typeof UpgradeJobReason.HookFailed; message: string }
  /**
   * Go on. `active`: runs not finished (fire-and-forget events); `abortFailures`: failures of
   * `Abort` hooks that do not fail the job (event or job state); `ignoredFailures`: failures of
   * `Ignore` hooks. All only for the log.
   */
  | { kind: 'proceed'; active: string[]; abortFailures: string[]; ignoredFailures: string[] };

/** `hook "<hook>" failed: <message>`, the text of one HookFailed cause. */
export function hookFailedMessage(hook: string, message: string): string {
  return `hook "${hook}" failed: ${message}`;
}

function isFinal(job: UpgradeJob): boolean {
  return (job.status?.conditions ?? []).some(
    (c) => (c.type === 'Succeeded' || c.type === 'Failed') && c.status === 'True',
  );
}

/** The failure policy and completion decision for one event over the selected hooks' runs. */
export function decideHookOutcome(job: UpgradeJob, event: UpgradeEvent, runs: readonly HookRunResult[]): HookOutcome {
  const active: string[] = [];
  const abortFailures: string[] = [];
  const ignoredFailures: string[] = [];
  for (const { hook, entries } of runs) {
    const name = hook.metadata?.name ?? '';
    if (entries.length === 0 || entries.some((e) => e.status === 'active')) {
      active.push(name);
      continue;
    }
    for (const e of entries) {
      if (e.status !== 'failed') continue;
      (hookFailurePolicy(hook) === 'Abort' ? abortFailures : ignoredFailures).push(
        hookFailedMessage(name, e.message ?? ''),
      );
    }
  }
  const influences = eventInfluencesOutcome(event);
  if (influences && active.length > 0) return { kind: 'wait', active };
  if (influences && abortFailures.length > 0 && !isFinal(job)) {
    return { kind: 'fail', reason: UpgradeJobReason.HookFailed, message: abortFailures.join(', ') };
  }
  return { kind: 'proceed', active, abortFailures, ignoredFailures };
}
