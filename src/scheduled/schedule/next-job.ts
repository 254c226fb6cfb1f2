/**
 * The pure decision behind APPUiO's `scheduleJob`
 * (docs/design/scheduled-flow.md#creating-the-next-job): given an UpgradeConfig's schedule policy,
 * what is known of its latest UpgradeJob, its `status.lastScheduledUpgrade`, and now — create a job
 * for a slot, consume a suspended slot, wait until a job may be created, wait for the latest job,
 * or fail with a reason. No I/O: the controller gathers the inputs and carries out the answer.
 *
 * Deliberate differences from APPUiO (for docs/compatibility.md):
 * - Missed slots are skipped like APPUiO skips them, but past 100 of them (a long outage, or a
 *   config with an old creation timestamp) the search jumps straight to the first slot still
 *   reachable instead of failing for ever (APPUiO's permanent "could not find next scheduling
 *   window after N attempts" error,
 *   docs/design/scheduled-flow.md#3-too-many-missed-windows-end-scheduling-for-good). The answer is
 *   the one an unbounded skip loop would give.
 * - After a finished job, the search starts from the later of the job's `startAfter` and
 *   `lastScheduledUpgrade`, so a slot consumed by suspension after that job is never taken again.
 */
import { parseGoDurationMs } from '../../lib/go-duration.js';
import {
  ScheduledUpgradeConfigDefaults,
  UpgradeConfigEventReason,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import type { MaintenanceSchedule, ScheduleFields, ScheduleProblem } from './maintenance-schedule.js';
import { compileSchedule, nextScheduleTime } from './maintenance-schedule.js';

/** How many missed slots are skipped one by one before jumping (APPUiO's attempt bound). */
export const MAX_SKIPPED_SLOTS = 100;

/** The scheduling part of an UpgradeConfig spec, compiled. Durations are absolute milliseconds. */
export interface SchedulingPolicy {
  readonly schedule: MaintenanceSchedule;
  readonly pinVersionWindowMs: number;
  readonly maxSchedulingDelayMs: number;
  readonly maxUpgradeStartDelayMs: number;
  readonly suspend: boolean;
}

/** The spec fields the policy is compiled from (an UpgradeConfig `spec` fits). */
export interface SchedulingSpecFields {
  readonly schedule: ScheduleFields & { readonly suspend?: boolean | undefined };
  readonly pinVersionWindow?: string | undefined;
  readonly maxSchedulingDelay?: string | undefined;
  readonly maxUpgradeStartDelay?: string | undefined;
}

/** Why a spec cannot be scheduled. */
export interface SchedulingProblem {
  readonly reason: ScheduleProblem['reason'] | 'InvalidDuration';
  readonly field: string;
  readonly message: string;
}

/** Outcome of {@link compileSchedulingPolicy}. */
export type CompilePolicyResult = { ok: true; policy: SchedulingPolicy } | { ok: false; problem: SchedulingProblem };

/**
 * Compiles the scheduling fields of an UpgradeConfig spec. Durations are Go durations (as
 * APPUiO decodes them); absent `maxSchedulingDelay`/`maxUpgradeStartDelay` take the CRD default
 * (1h), an absent or empty `pinVersionWindow` is 0.
 */
export function compileSchedulingPolicy(spec: SchedulingSpecFields, localZoneId: string): CompilePolicyResult {
  const compiled = compileSchedule(spec.schedule, localZoneId);
  if (!compiled.ok) return { ok: false, problem: compiled.problem };
  const durations: Record<string, number> = {};
  const fields = [
    ['pinVersionWindow', spec.pinVersionWindow || '0'],
    ['maxSchedulingDelay', spec.maxSchedulingDelay ?? ScheduledUpgradeConfigDefaults.maxSchedulingDelay],
    ['maxUpgradeStartDelay', spec.maxUpgradeStartDelay ?? ScheduledUpgradeConfigDefaults.maxUpgradeStartDelay],
  ] as const;
  for (const [name, text] of fields) {
    const d = parseGoDurationMs(text);
    if (!d.ok) return { ok: false, problem: { reason: 'InvalidDuration', field: `spec.${name}`, message: d.error } };
    durations[name] = d.ms;
  }
  return {
    ok: true,
    policy: {
      schedule: compiled.schedule,
      pinVersionWindowMs: durations.pinVersionWindow ?? 0,
      maxSchedulingDelayMs: durations.maxSchedulingDelay ?? 0,
      maxUpgradeStartDelayMs: durations.maxUpgradeStartDelay ?? 0,
      suspend: spec.schedule.suspend === true,
    },
  };
}

/** What the controller knows, as instants in epoch milliseconds. */
export interface SchedulingState {
  /** `metadata.creationTimestamp` of the UpgradeConfig. */
  readonly creationTimestampMs: number;
  /** `status.lastScheduledUpgrade`, when set. */
  readonly lastScheduledUpgradeMs?: number | undefined;
  /**
   * The UpgradeJob this config controls with the greatest `spec.startAfter`, if any; `finished`
   * when it has condition `Succeeded=True` or `Failed=True`.
   */
  readonly latestJob?: { readonly startAfterMs: number; readonly finished: boolean } | undefined;
  /** An UpgradeSuspensionWindow selecting this config whose `[start, end]` holds now, if any. */
  readonly activeSuspensionWindow?: { readonly name: string; readonly reason: string } | undefined;
}

/** Missed slots passed over on the way to the answer. */
export interface SkippedSlots {
  /** How many were skipped one by one (at most {@link MAX_SKIPPED_SLOTS}). */
  readonly count: number;
  /** The last slot skipped one by one. */
  readonly lastMs?: number;
  /** True when more were passed over by jumping ahead. */
  readonly more: boolean;
}

/** The answer of {@link decideNextJob}. */
export type NextJobDecision =
  /** Status lags behind the latest job (a lost status write): set `lastScheduledUpgrade` and stop. */
  | { readonly action: 'repair-status'; readonly lastScheduledUpgradeMs: number }
  /** The latest job is queued for the future, or not finished: nothing until it changes. */
  | { readonly action: 'wait-for-job'; readonly reason: 'JobQueued' | 'JobNotFinished'; readonly startAfterMs: number }
  /** The next slot's job may be created only at `createAtMs`. */
  | { readonly action: 'wait'; readonly nextRunMs: number; readonly createAtMs: number; readonly skipped: SkippedSlots }
  /** Create the job for `nextRunMs`, then set `lastScheduledUpgrade = nextRunMs`. */
  | {
      readonly action: 'create';
      readonly nextRunMs: number;
      readonly createAtMs: number;
      readonly startAfterMs: number;
      readonly startBeforeMs: number;
      readonly skipped: SkippedSlots;
    }
  /** Consume the slot without a job: emit the Normal Event, set `lastScheduledUpgrade = nextRunMs`. */
  | {
      readonly action: 'suspend';
      readonly nextRunMs: number;
      readonly event: { readonly reason: string; readonly message: string };
      readonly skipped: SkippedSlots;
    }
  /** No slot can be computed. */
  | { readonly action: 'error'; readonly reason: 'NoNextSchedule'; readonly message: string };

/**
 * The next step of scheduling (docs/design/scheduled-flow.md#creating-the-next-job steps 1–8). The
 * next slot is always computed from the persisted starting point, never from now (APPUiO #16), so
 * an intermediate reconcile does not move it. A slot is taken while
 * `createAt ≤ now ≤ createAt + maxSchedulingDelay`, with `createAt = slot − pinVersionWindow`;
 * later slots are skipped, never caught up.
 */
export function decideNextJob(policy: SchedulingPolicy, state: SchedulingState, nowMs: number): NextJobDecision {
  let startingPoint = state.lastScheduledUpgradeMs ?? state.creationTimestampMs;
  const latest = state.latestJob;
  if (latest) {
    const last = state.lastScheduledUpgradeMs;
    if (last === undefined || last < latest.startAfterMs)
      return { action: 'repair-status', lastScheduledUpgradeMs: latest.startAfterMs };
    if (latest.startAfterMs > nowMs)
      return { action: 'wait-for-job', reason: 'JobQueued', startAfterMs: latest.startAfterMs };
    if (!latest.finished)
      return { action: 'wait-for-job', reason: 'JobNotFinished', startAfterMs: latest.startAfterMs };
    startingPoint = Math.max(last, latest.startAfterMs);
  }

  const slot = findSlot(policy, startingPoint, nowMs);
  if ('error' in slot) return { action: 'error', reason: 'NoNextSchedule', message: slot.error };
  const { nextRunMs, createAtMs, skipped } = slot;
  if (nowMs < createAtMs) return { action: 'wait', nextRunMs, createAtMs, skipped };
  if (policy.suspend) {
    return {
      action: 'suspend',
      nextRunMs,
      event: {
        reason: UpgradeConfigEventReason.Suspended,
        message: 'Upgrade scheduling is suspended by .spec.schedule.suspend',
      },
      skipped,
    };
  }
  const window = state.activeSuspensionWindow;
  if (window) {
    return {
      action: 'suspend',
      nextRunMs,
      event: {
        reason: UpgradeConfigEventReason.SuspendedBySuspensionWindow,
        message: `Upgrade scheduling is suspended by UpgradeSuspensionWindow ${window.name}: ${window.reason}`,
      },
      skipped,
    };
  }
  return {
    action: 'create',
    nextRunMs,
    createAtMs,
    startAfterMs: nextRunMs,
    startBeforeMs: nextRunMs + policy.maxUpgradeStartDelayMs,
    skipped,
  };
}

type Slot = { nextRunMs: number; createAtMs: number; skipped: SkippedSlots } | { error: string };

/** The first slot after `startingPoint` whose creation window has not closed by `now`. */
function findSlot(policy: SchedulingPolicy, startingPoint: number, nowMs: number): Slot {
  let from = startingPoint;
  let count = 0;
  let lastMs: number | undefined;
  let more = false;
  for (;;) {
    const next = nextScheduleTime(policy.schedule, from);
    if (!next.ok) return { error: next.error };
    const createAtMs = next.time - policy.pinVersionWindowMs;
    if (nowMs <= createAtMs + policy.maxSchedulingDelayMs) {
      return {
        nextRunMs: next.time,
        createAtMs,
        skipped: lastMs === undefined ? { count, more } : { count, lastMs, more },
      };
    }
    // Missed: its creation window closed before now.
    if (count < MAX_SKIPPED_SLOTS) {
      count++;
      lastMs = next.time;
      from = next.time;
    } else {
      more = true;
      from = jumpPoint(policy.schedule, next.time, nowMs + policy.pinVersionWindowMs - policy.maxSchedulingDelayMs);
    }
  }
}

/**
 * A starting point at or after `from` whose next activation is the first one at or after
 * `earliest` (slots before `earliest` are all missed). Cron activations fall on whole seconds;
 * `@every` ones on `from + k·delay`, whose phase must be kept.
 */
function jumpPoint(schedule: MaintenanceSchedule, from: number, earliest: number): number {
  if (schedule.cron.kind === 'every') {
    const base = Math.floor(from / 1000) * 1000;
    const steps = Math.max(0, Math.ceil((earliest - base) / schedule.cron.delayMs) - 1);
    return base + steps * schedule.cron.delayMs;
  }
  return Math.max(from, Math.ceil(earliest / 1000) * 1000 - 1000);
}
