/**
 * One reconcile pass of an APPUiO UpgradeConfig
 * (docs/design/scheduled-flow.md#creating-the-next-job, docs/design/scheduled-flow.md#noop-jobs):
 * compile the schedule, let {@link decideNextJob} say what is due, carry it out (create the
 * window's UpgradeJob, or consume a suspended window with its Event), refresh
 * `status.nextPossibleSchedules`, delete succeeded jobs beyond the history limit, and write the
 * status when it changed. Returns when the config must be looked at again; nothing sleeps.
 *
 * Beyond APPUiO (which keeps no conditions and reports errors only as reconcile errors), every
 * refusal and wait is explained: condition `ScheduleValid` (False with reason `InvalidCron`,
 * `UnknownTimeZone`, `InvalidIsoWeek`, `InvalidDuration` or `NoNextSchedule`, plus a Warning
 * Event of that reason) and condition `Waiting` (what the next job waits for, with a Normal
 * Event and a log line whenever it changes).
 */
import type { Condition } from 'kubernetes-types/meta/v1.js';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import {
  ScheduledUpgradeConfigDefaults,
  ScheduledUpgradeConfigResource,
  UpgradeConfigEventReason,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import type {
  ScheduledUpgradeConfig,
  ScheduledUpgradeConfigStatus,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import type { KubeClient } from '../../kube/client.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { objectKey } from '../../kube/indexer.js';
import { updateStatusWithRetry } from '../../kube/status-writer.js';
import { ignoreNotFound, isAlreadyExists, isNotFound } from '../../kube/status-error.js';
import { formatTime, type Clock } from '../../lib/clock.js';
import { errorMessage } from '../../lib/errors.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import type { Logger } from '../../lib/log.js';
import { nextScheduleTimes } from '../schedule/maintenance-schedule.js';
import {
  compileSchedulingPolicy,
  decideNextJob,
  type SchedulingPolicy,
  type SkippedSlots,
} from '../schedule/next-job.js';
import {
  activeSuspensionWindow,
  isControlledBy,
  latestJob,
  successfulJobsBeyondLimit,
  type LatestJob,
} from '../schedule/config-jobs.js';
import { newestAvailableRelease } from '../steps/go-semver.js';
import { buildScheduledUpgradeJob } from '../steps/scheduled-upgrade-job.js';

/** Condition types we keep on the UpgradeConfig status (APPUiO keeps none). */
export const ScheduledUpgradeConfigConditionType = {
  /** False while the schedule cannot be computed; the reason names the culprit. */
  ScheduleValid: 'ScheduleValid',
  /** What the next UpgradeJob waits for (True), or False while the schedule is invalid. */
  Waiting: 'Waiting',
} as const;

/** Reasons of those conditions (schedule problems are also the Warning Events' reasons). */
export const ScheduledUpgradeConfigReason = {
  Valid: 'Valid',
  InvalidCron: 'InvalidCron',
  UnknownTimeZone: 'UnknownTimeZone',
  InvalidIsoWeek: 'InvalidIsoWeek',
  InvalidDuration: 'InvalidDuration',
  NoNextSchedule: 'NoNextSchedule',
  /** Waiting=False: nothing is scheduled while the schedule is invalid. */
  InvalidSchedule: 'InvalidSchedule',
  WaitingForWindow: 'WaitingForWindow',
  JobQueued: 'JobQueued',
  JobNotFinished: 'JobNotFinished',
  ClusterVersionMissing: 'ClusterVersionMissing',
  /** The window's UpgradeJob could not be created (see the Warning Event); retried with backoff. */
  RetryingJobCreation: 'RetryingJobCreation',
} as const;

/** Event reasons: APPUiO's two, and ours. */
export const ScheduledUpgradeConfigEventReason = {
  ...UpgradeConfigEventReason,
  UpgradeJobCreated: 'UpgradeJobCreated',
  UpgradeJobCreateFailed: 'UpgradeJobCreateFailed',
  SuccessfulJobDeleted: 'SuccessfulJobDeleted',
} as const;

/** How many windows one pass may consume (a suspended `@every 1s` with a long pin could have thousands due). */
const MAX_ACTIONS_PER_PASS = 100;

/** What a pass needs. The listing functions read informer caches of the config's namespace. */
export interface UpgradeConfigPassDeps {
  client: KubeClient;
  clock: Clock;
  log: Logger;
  events: EventRecorder;
  /** What `Local` (and an empty location) means; asked when a schedule is compiled. */
  localZoneId: () => string;
  upgradeJobs(namespace: string): UpgradeJob[];
  suspensionWindows(namespace: string): UpgradeSuspensionWindow[];
  /** The upstream config.openshift.io ClusterVersion. */
  clusterVersion(): ClusterVersion | undefined;
}

/** When to look again. */
export interface UpgradeConfigPassResult {
  /** Reconcile again after this many ms; undefined: only on a change. */
  requeueAfterMs?: number | undefined;
  /** A job is due but ClusterVersion is missing: a ClusterVersion change should wake the config. */
  waitsForClusterVersion: boolean;
}

/** The status with our conditions (the API type has none yet). */
type StatusWithConditions = ScheduledUpgradeConfigStatus & { conditions?: Condition[] };

interface ConditionText {
  reason: string;
  message: string;
}

/** The outcome of scheduling, before it is written. */
interface Plan {
  lastScheduledUpgradeMs: number | undefined;
  problem: ConditionText | undefined;
  waiting: ConditionText & { status: 'True' | 'False' };
  nextPossible: number[];
  wakeAt: number[];
  waitsForClusterVersion: boolean;
  /** A failed write, rethrown after the status is saved. */
  error?: Error;
}

/** Runs one pass over `config` (read fresh from the API server). */
export async function upgradeConfigPass(
  deps: UpgradeConfigPassDeps,
  config: ScheduledUpgradeConfig,
  signal: AbortSignal,
): Promise<UpgradeConfigPassResult> {
  const now = deps.clock.now();
  const namespace = config.metadata?.namespace ?? '';
  const log = deps.log.child({ namespace, upgradeConfig: config.metadata?.name });
  const controlled = deps.upgradeJobs(namespace).filter((j) => isControlledBy(j, config));
  const plan = await schedule(deps, config, controlled, now, log, signal);
  await deleteSuccessfulJobsBeyondLimit(deps, config, controlled, log, signal);
  await writeStatus(deps, config, plan, log, signal);
  if (plan.error !== undefined) throw plan.error;
  const wake = plan.wakeAt.filter((t) => t > now);
  return {
    requeueAfterMs: wake.length > 0 ? Math.min(...wake) - now : undefined,
    waitsForClusterVersion: plan.waitsForClusterVersion,
  };
}

function parseTime(text: string | null | undefined): number | undefined {
  if (!text) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

function skippedText(skipped: SkippedSlots): string {
  if (skipped.count === 0) return '';
  const last = skipped.lastMs === undefined ? '' : `, the last at ${formatTime(skipped.lastMs)}`;
  return `; ${skipped.count}${skipped.more ? '+' : ''} missed window(s) skipped${last}`;
}

async function schedule(
  deps: UpgradeConfigPassDeps,
  config: ScheduledUpgradeConfig,
  controlled: UpgradeJob[],
  now: number,
  log: Logger,
  signal: AbortSignal,
): Promise<Plan> {
  const status = config.status as StatusWithConditions | undefined;
  const plan: Plan = {
    lastScheduledUpgradeMs: parseTime(status?.lastScheduledUpgrade),
    problem: undefined,
    waiting: {
      status: 'False',
      reason: ScheduledUpgradeConfigReason.InvalidSchedule,
      message: 'no UpgradeJob is scheduled while the schedule is invalid',
    },
    nextPossible: [],
    wakeAt: [],
    waitsForClusterVersion: false,
  };
  const compiled = compileSchedulingPolicy(config.spec, deps.localZoneId());
  if (!compiled.ok) {
    plan.problem = {
      reason: compiled.problem.reason,
      message: `${compiled.problem.field}: ${compiled.problem.message}`,
    };
    return plan;
  }
  const policy = compiled.policy;
  try {
    await decideAndAct(deps, config, policy, controlled, now, plan, log, signal);
  } catch (err) {
    plan.error = err instanceof Error ? err : new Error(errorMessage(err));
  }
  const next = nextScheduleTimes(policy.schedule, now, ScheduledUpgradeConfigDefaults.nextPossibleSchedules);
  plan.nextPossible = next.times;
  if (next.times.length === 0 && next.error !== undefined && !plan.problem) {
    plan.problem = { reason: ScheduledUpgradeConfigReason.NoNextSchedule, message: next.error };
    plan.waiting = {
      status: 'False',
      reason: ScheduledUpgradeConfigReason.InvalidSchedule,
      message: 'no UpgradeJob is scheduled while no next window exists',
    };
  }
  if (next.times[0] !== undefined) plan.wakeAt.push(next.times[0]);
  return plan;
}

/** Applies decisions until one says "wait" (a pass may consume several windows). */
async function decideAndAct(
  deps: UpgradeConfigPassDeps,
  config: ScheduledUpgradeConfig,
  policy: SchedulingPolicy,
  controlled: UpgradeJob[],
  now: number,
  plan: Plan,
  log: Logger,
  signal: AbortSignal,
): Promise<void> {
  const namespace = config.metadata?.namespace ?? '';
  const creationTimestampMs = parseTime(config.metadata?.creationTimestamp) ?? now;
  const window = activeSuspensionWindow(deps.suspensionWindows(namespace), config, now);
  let latest: LatestJob | undefined = latestJob(controlled);
  for (let i = 0; i < MAX_ACTIONS_PER_PASS; i++) {
    const decision = decideNextJob(
      policy,
      {
        creationTimestampMs,
        lastScheduledUpgradeMs: plan.lastScheduledUpgradeMs,
        latestJob: latest,
        activeSuspensionWindow: window,
      },
      now,
    );
    switch (decision.action) {
      case 'repair-status':
        log.info(
          { lastScheduledUpgrade: formatTime(decision.lastScheduledUpgradeMs) },
          'status.lastScheduledUpgrade lagged behind the latest UpgradeJob; repaired',
        );
        plan.lastScheduledUpgradeMs = decision.lastScheduledUpgradeMs;
        continue;
      case 'wait-for-job': {
        const name = latest?.name ?? '';
        const at = formatTime(decision.startAfterMs);
        plan.waiting =
          decision.reason === 'JobQueued'
            ? {
                status: 'True',
                reason: ScheduledUpgradeConfigReason.JobQueued,
                message: `UpgradeJob ${name} is queued to start at ${at}`,
              }
            : {
                status: 'True',
                reason: ScheduledUpgradeConfigReason.JobNotFinished,
                message: `UpgradeJob ${name} (window ${at}) has not finished; the next window is scheduled once it has succeeded or failed`,
              };
        if (decision.reason === 'JobQueued') plan.wakeAt.push(decision.startAfterMs);
        return;
      }
      case 'wait':
        plan.waiting = {
          status: 'True',
          reason: ScheduledUpgradeConfigReason.WaitingForWindow,
          message: `the UpgradeJob for the window at ${formatTime(decision.nextRunMs)} will be created at ${formatTime(decision.createAtMs)}${skippedText(decision.skipped)}`,
        };
        plan.wakeAt.push(decision.createAtMs);
        return;
      case 'error':
        plan.problem = { reason: ScheduledUpgradeConfigReason.NoNextSchedule, message: decision.message };
        return;
      case 'suspend':
        deps.events.event(config, 'Normal', decision.event.reason, decision.event.message);
        log.info(
          { window: formatTime(decision.nextRunMs), skipped: decision.skipped.count },
          `${decision.event.message}; window consumed without an UpgradeJob`,
        );
        plan.lastScheduledUpgradeMs = decision.nextRunMs;
        continue;
      case 'create': {
        const cv = deps.clusterVersion();
        if (!cv) {
          plan.waiting = {
            status: 'True',
            reason: ScheduledUpgradeConfigReason.ClusterVersionMissing,
            message: `the UpgradeJob for the window at ${formatTime(decision.nextRunMs)} is due, but ClusterVersion is missing; the window is missed unless it appears by ${formatTime(decision.createAtMs + policy.maxSchedulingDelayMs)}`,
          };
          plan.waitsForClusterVersion = true;
          // Once the creation window closes, the next decision skips the slot.
          plan.wakeAt.push(decision.createAtMs + policy.maxSchedulingDelayMs + 1);
          return;
        }
        const release = newestAvailableRelease(cv.status?.availableUpdates);
        const job = buildScheduledUpgradeJob(config, {
          startAfterMs: decision.startAfterMs,
          startBeforeMs: decision.startBeforeMs,
          release,
        });
        const name = job.metadata?.name ?? '';
        const what = release ? `version ${release.version}` : 'no update available: a noop job';
        try {
          await deps.client.create(UpgradeJobResource, job, { signal });
          deps.events.event(
            config,
            'Normal',
            ScheduledUpgradeConfigEventReason.UpgradeJobCreated,
            `Created UpgradeJob ${name} for the window at ${formatTime(decision.nextRunMs)} (${what})`,
          );
          log.info(
            {
              upgradeJob: name,
              version: release?.version,
              startAfter: job.spec?.startAfter,
              skipped: decision.skipped.count,
            },
            `UpgradeJob created (${what})`,
          );
        } catch (err) {
          if (!isAlreadyExists(err)) {
            const message = `Could not create UpgradeJob ${name}: ${errorMessage(err)}`;
            deps.events.event(config, 'Warning', ScheduledUpgradeConfigEventReason.UpgradeJobCreateFailed, message);
            plan.waiting = {
              status: 'True',
              reason: ScheduledUpgradeConfigReason.RetryingJobCreation,
              message: `${message}; retrying with backoff until ${formatTime(decision.createAtMs + policy.maxSchedulingDelayMs)}`,
            };
            throw err;
          }
          // The deterministic name makes a repeated creation (a lost status write, a restart) a no-op.
          log.info({ upgradeJob: name }, 'UpgradeJob for this window already exists');
        }
        plan.lastScheduledUpgradeMs = decision.nextRunMs;
        latest = { name, startAfterMs: decision.startAfterMs, finished: false };
        continue;
      }
    }
  }
  // Too many windows due at once: carry on in the next pass.
  plan.wakeAt.push(now + 1);
}

async function deleteSuccessfulJobsBeyondLimit(
  deps: UpgradeConfigPassDeps,
  config: ScheduledUpgradeConfig,
  controlled: UpgradeJob[],
  log: Logger,
  signal: AbortSignal,
): Promise<void> {
  const limit = config.spec.successfulJobsHistoryLimit;
  for (const job of successfulJobsBeyondLimit(controlled, limit)) {
    const name = job.metadata?.name ?? '';
    try {
      await deps.client.delete(UpgradeJobResource, job.metadata?.namespace, name, {
        signal,
        ...(job.metadata?.uid ? { preconditions: { uid: job.metadata.uid } } : {}),
      });
    } catch (err) {
      if (isNotFound(err)) continue;
      throw err;
    }
    log.info(
      { upgradeJob: name, limit: limit ?? ScheduledUpgradeConfigDefaults.successfulJobsHistoryLimit },
      'deleted a succeeded UpgradeJob beyond successfulJobsHistoryLimit',
    );
  }
}

function condition(
  prev: readonly Condition[] | undefined,
  type: string,
  status: 'True' | 'False',
  text: ConditionText,
  generation: number,
  now: string,
): Condition {
  const old = prev?.find((c) => c.type === type);
  return {
    type,
    status,
    reason: text.reason,
    message: text.message,
    observedGeneration: generation,
    lastTransitionTime: old && old.status === status ? old.lastTransitionTime : now,
  };
}

/** The conditions of a plan, given the ones already written. */
function conditionsOf(
  plan: Plan,
  prev: readonly Condition[] | undefined,
  generation: number,
  now: string,
): Condition[] {
  const valid = plan.problem ?? { reason: ScheduledUpgradeConfigReason.Valid, message: '' };
  return [
    condition(
      prev,
      ScheduledUpgradeConfigConditionType.ScheduleValid,
      plan.problem ? 'False' : 'True',
      valid,
      generation,
      now,
    ),
    condition(prev, ScheduledUpgradeConfigConditionType.Waiting, plan.waiting.status, plan.waiting, generation, now),
  ];
}

/** Explains changes (Event + log), then writes the status when it differs. */
async function writeStatus(
  deps: UpgradeConfigPassDeps,
  config: ScheduledUpgradeConfig,
  plan: Plan,
  log: Logger,
  signal: AbortSignal,
): Promise<void> {
  const prev = (config.status as StatusWithConditions | undefined)?.conditions;
  const find = (type: string): Condition | undefined => prev?.find((c) => c.type === type);
  const oldValid = find(ScheduledUpgradeConfigConditionType.ScheduleValid);
  if (plan.problem && (oldValid?.reason !== plan.problem.reason || oldValid.message !== plan.problem.message)) {
    deps.events.event(config, 'Warning', plan.problem.reason, plan.problem.message);
    log.warn({ reason: plan.problem.reason }, `no UpgradeJob can be scheduled: ${plan.problem.message}`);
  } else if (!plan.problem && oldValid?.status === 'False') {
    log.info('the schedule is valid again');
  }
  const oldWaiting = find(ScheduledUpgradeConfigConditionType.Waiting);
  if (
    plan.waiting.status === 'True' &&
    (oldWaiting?.reason !== plan.waiting.reason || oldWaiting.message !== plan.waiting.message)
  ) {
    deps.events.event(config, 'Normal', plan.waiting.reason, plan.waiting.message);
    log.info({ reason: plan.waiting.reason }, plan.waiting.message);
  }
  const now = formatTime(deps.clock.now());
  const generation = config.metadata?.generation ?? 0;
  // Deleted meanwhile: nothing to record.
  await ignoreNotFound(
    updateStatusWithRetry(
      deps.client,
      ScheduledUpgradeConfigResource,
      objectKey(config),
      (fresh: ScheduledUpgradeConfig) => {
        const old = fresh.status as StatusWithConditions | undefined;
        const next: StatusWithConditions = {
          ...old,
          nextPossibleSchedules: plan.nextPossible.map((t) => ({ time: formatTime(t) })),
          conditions: conditionsOf(plan, old?.conditions, generation, now),
        };
        if (plan.lastScheduledUpgradeMs !== undefined)
          next.lastScheduledUpgrade = formatTime(plan.lastScheduledUpgradeMs);
        if (jsonEqual((old ?? null) as JsonValue, next as unknown as JsonValue)) return undefined;
        return { ...fresh, status: next };
      },
      { clock: deps.clock, signal },
    ),
  );
}
