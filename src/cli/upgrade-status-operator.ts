/**
 * The upgrade operator's part of `upgrade-operator status`
 * (docs/configuration.md#upgrade-operator-status): its own objects of both flows —
 * `upgrade.managed.openshift.io` UpgradeConfigs, and `managedupgrade.appuio.io` UpgradeConfigs,
 * UpgradeJobs and their hook Jobs. Pure: time is an argument.
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { Condition } from 'kubernetes-types/meta/v1.js';
import type { UpgradeJob } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { HookJobLabel } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import type { ManagedUpgradeConfig } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { historyFor } from '../managed/history/upgrade-history.js';
import {
  byName,
  conditionView,
  oneLine,
  partProblem,
  partValue,
  time,
  type FlowReadState,
  type HookJobView,
  type ManagedUpgradeView,
  type ScheduledConfigView,
  type SnapshotPart,
  type UpgradeJobState,
  type UpgradeJobView,
  type UpgradeOperatorStatus,
  type UpgradeStatusSnapshot,
} from './upgrade-status-model.js';

function flowState(parts: ReadonlyArray<SnapshotPart<unknown>>): { state: FlowReadState; reason: string } {
  const failed = parts.find((p) => p.state === 'error');
  if (failed) return { state: 'unknown', reason: partProblem(failed) };
  if (parts.every((p) => p.state === 'absent')) return { state: 'absent', reason: partProblem(parts[0]!) };
  return { state: 'ok', reason: '' };
}

function ref(options: { metadata?: { namespace?: string; name?: string } | undefined }): {
  namespace: string;
  name: string;
} {
  return { namespace: options.metadata?.namespace ?? '', name: options.metadata?.name ?? '' };
}

function byRef(left: { namespace: string; name: string }, right: { namespace: string; name: string }): number {
  return byName(left.namespace, right.namespace) || byName(left.name, right.name);
}

/**
 * A managed UpgradeConfig: the history entry of `spec.desired.version` (MUO keys history by
 * version), else the newest; its step = `conditions[0]` (MUO prepends each step's condition, so
 * the first is the step that started last — its printer columns show the same); time in step from
 * the step's startTime.
 */
export function managedUpgradeView(uc: ManagedUpgradeConfig, nowMs: number): ManagedUpgradeView {
  const desired = uc.spec?.desired;
  const history = uc.status?.history ?? [];
  const entry = (desired?.version !== undefined ? historyFor(history, desired.version) : undefined) ?? history[0];
  const step = entry?.conditions?.[0];
  const since = step?.startTime ?? step?.lastTransitionTime ?? null;
  const at = time(uc.spec?.upgradeAt);
  const sinceMs = time(since);
  return {
    ...ref(uc),
    desiredVersion: desired?.version ?? desired?.image ?? null,
    channel: desired?.channel ?? null,
    upgradeAt: uc.spec?.upgradeAt ?? null,
    startsInMs: at !== undefined && at > nowMs ? at - nowMs : null,
    type: uc.spec?.type ?? null,
    phase: entry?.phase ?? null,
    startedAt: entry?.startTime ?? null,
    completedAt: entry?.completeTime ?? null,
    step: step
      ? {
          type: step.type,
          status: step.status,
          reason: step.reason ?? '',
          message: oneLine(step.message ?? ''),
          since,
          inStepMs: sinceMs === undefined ? null : Math.max(0, nowMs - sinceMs),
        }
      : null,
    waiting: conditionView(uc.status?.conditions?.find((c) => c.type === 'Waiting')),
  };
}

function hookJobView(job: Job): HookJobView {
  const l = job.metadata?.labels ?? {};
  const c = job.status?.conditions ?? [];
  const failed = c.find((x) => x.type === 'Failed' && x.status === 'True');
  const complete = c.find((x) => x.type === 'Complete' && x.status === 'True');
  const state: HookJobView['state'] = failed
    ? 'Failed'
    : complete
      ? 'Complete'
      : (job.status?.active ?? 0) > 0
        ? 'Running'
        : 'Pending';
  return {
    name: job.metadata?.name ?? '',
    hook: l[HookJobLabel.UpgradeJobHook] ?? '',
    event: l[HookJobLabel.Event] ?? '',
    trackingKey: l[HookJobLabel.TrackingKey] ?? null,
    state,
    startedAt: job.status?.startTime ?? null,
    message: oneLine(failed ? `${failed.reason ?? ''}: ${failed.message ?? ''}` : ''),
  };
}

/**
 * An UpgradeJob's state: `Failed` (Failed=True), `Succeeded`, `Paused` (Paused=True), `Running`
 * (Started=True), `Scheduled` before startAfter, else `Pending` (due, not started yet). Message:
 * the Failed condition's reason and message, else the condition that changed last.
 */
export function upgradeJobView(job: UpgradeJob, hookJobs: readonly Job[], nowMs: number): UpgradeJobView {
  const conditions = job.status?.conditions ?? [];
  const isTrue = (type: string): Condition | undefined =>
    conditions.find((c) => c.type === type && c.status === 'True');
  const failed = isTrue('Failed');
  let state: UpgradeJobState;
  if (failed) state = 'Failed';
  else if (isTrue('Succeeded')) state = 'Succeeded';
  else if (isTrue('Paused')) state = 'Paused';
  else if (isTrue('Started')) state = 'Running';
  else state = (time(job.spec?.startAfter) ?? 0) > nowMs ? 'Scheduled' : 'Pending';
  const latest = [...conditions].sort(
    (a, b) => byName(b.lastTransitionTime ?? '', a.lastTransitionTime ?? '') || byName(a.type, b.type),
  )[0];
  const shown = failed ?? latest;
  const { namespace, name } = ref(job);
  return {
    namespace,
    name,
    desiredVersion: job.spec?.desiredVersion?.version ?? job.spec?.desiredVersion?.image ?? null,
    startAfter: job.spec?.startAfter ?? null,
    startBefore: job.spec?.startBefore ?? null,
    state,
    message: shown
      ? oneLine(`${shown.type}=${shown.status} ${shown.reason ?? ''}${shown.message ? `: ${shown.message}` : ''}`)
      : '',
    conditions: [...conditions].sort((a, b) => byName(a.type, b.type)).map((c) => conditionView(c)!),
    hooks: hookJobs
      .filter((j) => j.metadata?.namespace === namespace && j.metadata.labels?.[HookJobLabel.UpgradeJob] === name)
      .map(hookJobView)
      .sort((a, b) => byName(a.startedAt ?? '', b.startedAt ?? '') || byName(a.name, b.name)),
  };
}

/** The upgrade operator's objects of both flows (each flow `absent` when its kinds are not installed). */
export function assessUpgradeOperator(snapshot: UpgradeStatusSnapshot, nowMs: number): UpgradeOperatorStatus {
  const managedConfigs = (partValue(snapshot.managedUpgradeConfigs) ?? [])
    .map((uc) => managedUpgradeView(uc, nowMs))
    .sort(byRef);
  const scheduledConfigs = (partValue(snapshot.scheduledUpgradeConfigs) ?? [])
    .map((c): ScheduledConfigView => ({
      ...ref(c),
      cron: c.spec.schedule.cron,
      isoWeek: c.spec.schedule.isoWeek ?? null,
      location: c.spec.schedule.location,
      suspended: c.spec.schedule.suspend === true,
      nextWindow: c.status?.nextPossibleSchedules[0]?.time ?? null,
      lastScheduledUpgrade: c.status?.lastScheduledUpgrade ?? null,
      waiting: conditionView(c.status?.conditions?.find((x) => x.type === 'Waiting')),
    }))
    .sort(byRef);
  const hookJobs = partValue(snapshot.hookJobs) ?? [];
  const jobs = (partValue(snapshot.upgradeJobs) ?? []).map((j) => upgradeJobView(j, hookJobs, nowMs));
  const byStart = (a: UpgradeJobView, b: UpgradeJobView): number =>
    byName(a.startAfter ?? '', b.startAfter ?? '') || byRef(a, b);
  const finished = jobs.filter((j) => j.state === 'Succeeded' || j.state === 'Failed').sort(byStart);
  return {
    managed: { ...flowState([snapshot.managedUpgradeConfigs]), upgradeConfigs: managedConfigs },
    scheduled: {
      ...flowState([snapshot.scheduledUpgradeConfigs, snapshot.upgradeJobs]),
      upgradeConfigs: scheduledConfigs,
      activeJobs: jobs.filter((j) => j.state !== 'Succeeded' && j.state !== 'Failed').sort(byStart),
      lastFinishedJob: finished[finished.length - 1] ?? null,
      hookJobsUnknown: snapshot.hookJobs.state === 'error' ? snapshot.hookJobs.error : null,
    },
  };
}
