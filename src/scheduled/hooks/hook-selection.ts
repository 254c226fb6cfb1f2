/**
 * Which UpgradeJobHooks run for an UpgradeJob and an event
 * (docs/design/scheduled-flow.md#hook-events, docs/design/scheduled-flow.md#selection-and-claims),
 * as APPUiO's controller decides it. A hook runs when it is in the job's namespace, lists the
 * event, was created no later than the cutoff (final events only: the final condition's
 * lastTransitionTime, so hooks are not retroactive), its selector matches the job's labels (`{}` or
 * absent matches all; an invalid selector skips the hook), and its claim allows it: `run: All` (the
 * default) always; `run: Next` when unclaimed — the caller then writes the claim to
 * `status.claimedBy` before running it, and the claim is never released — or when claimed by this
 * job. Pure: the caller lists hooks and writes claims.
 *
 * Deliberate differences from the shipped controller (for docs/compatibility.md):
 * - a claim is recognised by the UpgradeJob's name and UID; upstream compared all four fields,
 *   and its typed client could write empty `apiVersion`/`kind`, which we still accept but never
 *   write (our claims carry `managedupgrade.appuio.io/v1beta1` and `UpgradeJob`);
 * - the selected hooks come back sorted by name, so Jobs are made and failures reported in a
 *   stable order (upstream: cache order);
 * - {@link matchesDisruptiveHooks} (for `META.matchesDisruptiveHooks` and the metric) looks at
 *   every hook of the job's namespace that would run for the job, whatever the event.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { evaluateLabelSelector } from '../../lib/label-selector.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { ClaimReference, UpgradeJobHook } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import {
  DEFAULT_HOOK_FAILURE_POLICY,
  DEFAULT_HOOK_RUN_MODE,
  EVENTS_INFLUENCING_OUTCOME,
  type HookFailurePolicy,
  type HookRunMode,
  type UpgradeEvent,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { UpgradeJobConditionType } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { APPUIO_GROUP, APPUIO_VERSION } from '../../api/managedupgrade.appuio.io/v1beta1/group.js';

/** `spec.run` with its default (`All`). */
export function hookRunMode(hook: UpgradeJobHook): HookRunMode {
  return hook.spec?.run ?? DEFAULT_HOOK_RUN_MODE;
}

/** `spec.failurePolicy` with its default (`Ignore`). */
export function hookFailurePolicy(hook: UpgradeJobHook): HookFailurePolicy {
  return hook.spec?.failurePolicy ?? DEFAULT_HOOK_FAILURE_POLICY;
}

/** True for Create, Start, UpgradeComplete and MachineConfigPoolUnpause: waited for, and `Abort` fails the job. */
export function eventInfluencesOutcome(event: UpgradeEvent): boolean {
  return EVENTS_INFLUENCING_OUTCOME.includes(event);
}

/** True for the events of a finished job (Success, Failure, Finish), which have a cutoff. */
export function isFinalEvent(event: UpgradeEvent): boolean {
  return event === 'Success' || event === 'Failure' || event === 'Finish';
}

/** The claim an UpgradeJob writes to a `run: Next` hook's `status.claimedBy`. */
export function claimReferenceFor(job: UpgradeJob): ClaimReference {
  return {
    apiVersion: `${APPUIO_GROUP}/${APPUIO_VERSION}`,
    kind: 'UpgradeJob',
    name: job.metadata?.name ?? '',
    uid: job.metadata?.uid ?? '',
  };
}

/** How a hook's claim stands towards a job: `free` (no claim), `ours`, or `theirs`. */
export type ClaimState = 'free' | 'ours' | 'theirs';

/** The claim state of `hook` for `job`; a claim with empty name and UID (Go's zero value) is free. */
export function claimState(hook: UpgradeJobHook, job: UpgradeJob): ClaimState {
  const c = hook.status?.claimedBy;
  if (c === undefined || (c.name === '' && c.uid === '')) return 'free';
  return c.name === (job.metadata?.name ?? '') && c.uid === (job.metadata?.uid ?? '') ? 'ours' : 'theirs';
}

/** True when the hook would run for the job as far as its claim goes (`run: All`, or a free or own claim). */
export function claimAllows(hook: UpgradeJobHook, job: UpgradeJob): boolean {
  return hookRunMode(hook) !== 'Next' || claimState(hook, job) !== 'theirs';
}

/** True when the hook's selector (absent = `{}` = all) matches the job's labels; 'invalid' for a selector Kubernetes rejects. */
export function selectorMatches(hook: UpgradeJobHook, job: UpgradeJob): boolean | 'invalid' {
  const selector: LabelSelector = hook.spec?.selector ?? {};
  for (const e of selector.matchExpressions ?? []) {
    if ((e.operator === 'Exists' || e.operator === 'DoesNotExist') && (e.values ?? []).length > 0) return 'invalid';
  }
  return evaluateLabelSelector(selector, job.metadata?.labels);
}

/** Milliseconds of an RFC 3339 time, or undefined. */
function timeMs(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

/**
 * The cutoff of a final event: the lastTransitionTime of the job's true Succeeded or Failed
 * condition (ms); undefined for a job that is not final.
 */
export function finalEventCutoff(job: UpgradeJob): number | undefined {
  for (const type of [UpgradeJobConditionType.Succeeded, UpgradeJobConditionType.Failed]) {
    const c = (job.status?.conditions ?? []).find((x) => x.type === type && x.status === 'True');
    if (c !== undefined) return timeMs(c.lastTransitionTime);
  }
  return undefined;
}

/** Why a hook that lists the event does not run for the job. */
export type HookSkipReason =
  'otherNamespace' | 'createdAfterCutoff' | 'selectorMismatch' | 'invalidSelector' | 'claimedByOther';

/** The outcome of selecting hooks for one event. */
export interface HookSelection {
  /** Hooks that run, sorted by name. */
  run: UpgradeJobHook[];
  /** `run: Next` hooks among `run` that are unclaimed: write `claim` to their `status.claimedBy` before running them. */
  toClaim: UpgradeJobHook[];
  /** The claim to write. */
  claim: ClaimReference;
  /** Hooks listing the event that do not run, and why (`invalidSelector` deserves a log line). */
  skipped: { hook: string; reason: HookSkipReason }[];
}

/** Options of {@link selectHooks}. */
export interface SelectHooksOptions {
  /** For final events: hooks created after this time (ms) do not run. Defaults to {@link finalEventCutoff} for final events. */
  cutoff?: number;
}

/** The hooks that run for `job` on `event`, out of every hook the caller listed. */
export function selectHooks(
  job: UpgradeJob,
  hooks: readonly UpgradeJobHook[],
  event: UpgradeEvent,
  options: SelectHooksOptions = {},
): HookSelection {
  const cutoff = options.cutoff ?? (isFinalEvent(event) ? finalEventCutoff(job) : undefined);
  const namespace = job.metadata?.namespace ?? '';
  const out: HookSelection = { run: [], toClaim: [], claim: claimReferenceFor(job), skipped: [] };
  const sorted = [...hooks].sort((a, b) =>
    (a.metadata?.name ?? '') < (b.metadata?.name ?? '')
      ? -1
      : (a.metadata?.name ?? '') > (b.metadata?.name ?? '')
        ? 1
        : 0,
  );
  for (const hook of sorted) {
    if (!(hook.spec?.events ?? []).includes(event)) continue;
    const name = hook.metadata?.name ?? '';
    const skip = (reason: HookSkipReason): void => void out.skipped.push({ hook: name, reason });
    if ((hook.metadata?.namespace ?? '') !== namespace) {
      skip('otherNamespace');
      continue;
    }
    const created = timeMs(hook.metadata?.creationTimestamp);
    if (cutoff !== undefined && created !== undefined && created > cutoff) {
      skip('createdAfterCutoff');
      continue;
    }
    const matches = selectorMatches(hook, job);
    if (matches !== true) {
      skip(matches === 'invalid' ? 'invalidSelector' : 'selectorMismatch');
      continue;
    }
    if (!claimAllows(hook, job)) {
      skip('claimedByOther');
      continue;
    }
    out.run.push(hook);
    if (hookRunMode(hook) === 'Next' && claimState(hook, job) === 'free') out.toClaim.push(hook);
  }
  return out;
}

/**
 * `META.matchesDisruptiveHooks` and the metric's `matches_disruptive_hooks`: some `disruptive`
 * hook in the job's namespace has a valid selector matching the job and a claim that lets it run
 * for the job, whatever its events.
 */
export function matchesDisruptiveHooks(job: UpgradeJob, hooks: readonly UpgradeJobHook[]): boolean {
  const namespace = job.metadata?.namespace ?? '';
  return hooks.some(
    (h) =>
      h.spec?.disruptive === true &&
      (h.metadata?.namespace ?? '') === namespace &&
      selectorMatches(h, job) === true &&
      claimAllows(h, job),
  );
}
