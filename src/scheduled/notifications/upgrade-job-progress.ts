/**
 * What an UpgradeJob says of its upgrade, for the notifications of both flows
 * (docs/configuration.md#notification-events): its creation and `startAfter`, the Started, Succeeded and Failed
 * conditions, failed hook Jobs (`status.hookTracker`), and the step it waits on (a health check,
 * the upgrade itself, a pool delay). Pure.
 */
import {
  UpgradeJobConditionType as T,
  UpgradeJobReason,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { subjectOf, type StepProblem, type UpgradeProgress } from '../../engine/notifications/upgrade-event.js';
import { formatTime } from '../../lib/clock.js';
import { jobCondition, jobConditionTrue } from '../steps/upgrade-job-conditions.js';

/** The steps that record a condition while they run, in order. */
const STEP_CONDITIONS = [T.PreHealthCheckDone, T.UpgradeCompleted, T.PostHealthCheckDone] as const;

/** The progress of `job`'s upgrade (`now`: the time of what the status does not date). */
export function upgradeJobProgress(job: UpgradeJob, now: number): UpgradeProgress {
  const version = job.spec?.desiredVersion?.version ?? '';
  const stamp = (time: string | undefined): string => time ?? formatTime(now);
  const progress: UpgradeProgress = {
    subject: subjectOf('scheduled', {
      apiVersion: 'managedupgrade.appuio.io/v1beta1',
      kind: 'UpgradeJob',
      metadata: job.metadata,
    }),
    version,
    scheduled: { at: stamp(job.metadata?.creationTimestamp), for: job.spec?.startAfter ?? '' },
    problems: [],
  };
  const started = jobCondition(job, T.Started);
  if (started?.status === 'True')
    progress.started = { at: stamp(started.lastTransitionTime), message: started.message };
  const problems: StepProblem[] = [];
  for (const h of job.status?.hookTracker ?? []) {
    if (h.status !== 'failed') continue;
    const hook = h.upgradeJobHook ?? '';
    const event = h.hookEvent ?? '';
    problems.push({
      key: `hook/${event}/${hook}/${h.trackingKey ?? ''}`,
      at: formatTime(now),
      reason: UpgradeJobReason.HookFailed,
      message: `hook ${hook} failed on ${event}${h.trackingKey ? ` (${h.trackingKey})` : ''}${h.message ? `: ${h.message}` : ''}`,
    });
  }
  progress.problems = problems;
  const succeeded = jobCondition(job, T.Succeeded);
  const failed = jobCondition(job, T.Failed);
  if (succeeded?.status === 'True')
    progress.completed = {
      at: stamp(succeeded.lastTransitionTime),
      reason: succeeded.reason,
      message: succeeded.message,
    };
  else if (failed?.status === 'True')
    progress.failed = { at: stamp(failed.lastTransitionTime), reason: failed.reason, message: failed.message };
  else if (started?.status === 'True') {
    const paused = jobCondition(job, T.Paused);
    const current = jobConditionTrue(job, T.Paused)
      ? paused
      : STEP_CONDITIONS.map((type) => jobCondition(job, type)).find((c) => c?.status === 'False');
    if (current?.lastTransitionTime)
      progress.wait = {
        step: current.type,
        reason: current.reason,
        message: current.message,
        since: current.lastTransitionTime,
      };
  }
  return progress;
}
