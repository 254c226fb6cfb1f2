/**
 * The StepRecorder of the scheduled flow: turns the engine's step outcomes into the UpgradeJob's
 * `status.conditions` with the shipped types, reasons and messages
 * (docs/design/scheduled-flow.md#upgradejob-conditions), by apimachinery `SetStatusCondition`
 * semantics on the job's working copy:
 *
 * | step condition | begin (only when absent) | done |
 * |---|---|---|
 * | Started | — | True/Started "Upgrade started at <now>" (once) |
 * | PreHealthCheckDone, PostHealthCheckDone | False/InProgress "Health checks started" | True/Completed "Health checks ok" |
 * | UpgradeCompleted | False/InProgress "Upgrade in progress" | True/Completed "Upgrade completed" |
 * | Succeeded | — | True/Succeeded "Upgrade succeeded" |
 *
 * A step ends the job by answering `failed` with a final reason (see {@link endJob}): `Skipped`
 * becomes Succeeded=True/Skipped, the reasons of {@link FAILED_REASONS} Failed=True/<reason>, both
 * with the outcome's error as message. Other failures (an API error, a conflict) are transient:
 * no condition, the controller retries. Pending answers change no condition (the controller
 * explains waits with Events and log lines). Nothing is recorded once the job is final.
 */
import type { StepIdentity, StepRecorder } from '../../engine/runner.js';
import { outcome, type StepFailed, type StepPending } from '../../engine/step.js';
import {
  UpgradeJobConditionType as T,
  UpgradeJobReason,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { HEALTH_CHECKS_OK_MESSAGE } from '../health/scheduled-health-check.js';
import {
  FAILED_REASONS,
  isJobFinal,
  jobCondition,
  jobConditionTrue,
  setJobCondition,
  UpgradeJobMessage,
} from './upgrade-job-conditions.js';
import type { ActiveWindow } from './upgrade-job-gate.js';

/** Outcomes that end the job (the recorder writes the final condition). */
export const endJob = {
  /** Failed=True with a final reason (Expired, TimedOut, HookFailed, …). */
  failed(reason: string, message: string): StepFailed {
    return outcome.failed(message, { reason, waitFor: {} });
  },
  /** Succeeded=True/Skipped: a suspension window matched. */
  skipped(window: ActiveWindow): StepFailed {
    return outcome.failed(UpgradeJobMessage.skipped(window.name, window.reason), {
      reason: UpgradeJobReason.Skipped,
      waitFor: {},
    });
  },
} as const;

/** True when a failed outcome ends the job rather than asking for a retry. */
export function endsJob(stepFailed: StepFailed): boolean {
  return (
    stepFailed.reason === UpgradeJobReason.Skipped ||
    (stepFailed.reason !== undefined && FAILED_REASONS.includes(stepFailed.reason))
  );
}

const HEALTH = new Set<string>([T.PreHealthCheckDone, T.PostHealthCheckDone]);

/** Records UpgradeJob steps into the job's conditions (the working copy is changed in place). */
export class UpgradeJobStepRecorder implements StepRecorder {
  readonly #job: UpgradeJob;

  constructor(job: UpgradeJob) {
    this.#job = job;
  }

  begin(step: StepIdentity, now: number): void {
    if (isJobFinal(this.#job) || jobCondition(this.#job, step.condition)) return;
    if (HEALTH.has(step.condition)) {
      setJobCondition(
        this.#job,
        {
          type: step.condition,
          status: 'False',
          reason: UpgradeJobReason.InProgress,
          message: UpgradeJobMessage.healthChecksStarted,
        },
        now,
      );
    } else if (step.condition === T.UpgradeCompleted) {
      setJobCondition(
        this.#job,
        {
          type: T.UpgradeCompleted,
          status: 'False',
          reason: UpgradeJobReason.InProgress,
          message: UpgradeJobMessage.upgradeInProgress,
        },
        now,
      );
    }
  }

  done(step: StepIdentity, now: number): void {
    if (isJobFinal(this.#job)) return;
    const set = (reason: string, message: string): void =>
      void setJobCondition(this.#job, { type: step.condition, status: 'True', reason, message }, now);
    switch (step.condition) {
      case T.Started:
        if (!jobConditionTrue(this.#job, T.Started)) set(UpgradeJobReason.Started, UpgradeJobMessage.started(now));
        return;
      case T.PreHealthCheckDone:
      case T.PostHealthCheckDone:
        set(UpgradeJobReason.Completed, HEALTH_CHECKS_OK_MESSAGE);
        return;
      case T.UpgradeCompleted:
        set(UpgradeJobReason.Completed, UpgradeJobMessage.upgradeCompleted);
        return;
      case T.Succeeded:
        set(UpgradeJobReason.Succeeded, UpgradeJobMessage.succeeded);
        return;
      default:
        return;
    }
  }

  pending(_step: StepIdentity, _now: number, _outcome: StepPending): void {
    // Waits are explained by the controller (Event and log line), not by a condition.
  }

  failed(_step: StepIdentity, now: number, stepFailed: StepFailed): void {
    if (isJobFinal(this.#job) || !endsJob(stepFailed)) return;
    const type = stepFailed.reason === UpgradeJobReason.Skipped ? T.Succeeded : T.Failed;
    setJobCondition(
      this.#job,
      { type, status: 'True', reason: stepFailed.reason ?? '', message: stepFailed.error },
      now,
    );
  }
}
