/**
 * The pre- and post-upgrade health check steps of an UpgradeJob
 * (docs/design/scheduled-flow.md#health-checks): the recorder writes
 * `…HealthCheckDone=False/InProgress` when the step is first reached, which starts the window; each
 * pass runs the check once (bounded by what is left of the window, at most a minute); healthy →
 * `True/Completed`; unhealthy → retry in a minute or on a change of
 * ClusterVersion/ClusterOperators; unhealthy after `timeout` → Failed with
 * `PreHealthCheckFailed`/`PostHealthCheckFailed` and `Health checks timed out after <dur>`. Once
 * True, a check is not run again.
 */
import {
  UpgradeJobConditionType,
  UpgradeJobReason,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { outcome, type Step, type StepOutcome } from '../../engine/step.js';
import { effectiveHealthCheckTimeout } from '../health/health-check-timeout.js';
import { healthCheckTimedOutMessage, runScheduledHealthCheck } from '../health/scheduled-health-check.js';
import { jobCondition, jobConditionTrue } from './upgrade-job-conditions.js';
import { WatchedKind, type StepContext } from './step-context.js';
import { endJob } from './upgrade-job-recorder.js';

/** How often an unhealthy cluster is checked again (clock time), besides ClusterVersion/ClusterOperator changes. */
export const HEALTH_RETRY_MS = 60_000;
/** The shortest bound of one run (so the last run of a passed window still gets an answer). */
const MIN_RUN_MS = 5_000;

/** The window of a health check that started at `startedAt`: until when, and the bound of a run at `now`. Pure. */
export function healthWindow(
  startedAt: number,
  timeoutMs: number,
  now: number,
): { endsAt: number; runTimeoutMs: number; passed: boolean } {
  const endsAt = startedAt + timeoutMs;
  return { endsAt, runTimeoutMs: Math.min(Math.max(endsAt - now, MIN_RUN_MS), HEALTH_RETRY_MS), passed: now > endsAt };
}

function healthStep(phase: 'pre' | 'post'): Step<StepContext> {
  const condition =
    phase === 'pre' ? UpgradeJobConditionType.PreHealthCheckDone : UpgradeJobConditionType.PostHealthCheckDone;
  const failReason = phase === 'pre' ? UpgradeJobReason.PreHealthCheckFailed : UpgradeJobReason.PostHealthCheckFailed;
  return {
    name: phase === 'pre' ? 'PreUpgradeHealthCheck' : 'PostUpgradeHealthCheck',
    condition,
    async run(ctx, signal): Promise<StepOutcome> {
      if (jobConditionTrue(ctx.job, condition)) return outcome.done();
      const config = ctx.job.spec?.config;
      const settings = (phase === 'pre' ? config?.preUpgradeHealthChecks : config?.postUpgradeHealthChecks) ?? {};
      const timeout = effectiveHealthCheckTimeout(settings);
      if (timeout.problem !== undefined) ctx.log.warn({ phase }, timeout.problem);
      const timeoutMs = timeout.ms;
      const now = ctx.clock.now();
      const startedAt = Date.parse(jobCondition(ctx.job, condition)?.lastTransitionTime ?? '');
      const window = healthWindow(Number.isNaN(startedAt) ? now : startedAt, timeoutMs, now);
      const result = await runScheduledHealthCheck(
        {
          clusterVersion: ctx.cluster.clusterVersion(),
          clusterOperators: ctx.cluster.clusterOperators(),
          ...(ctx.prometheus ? { prometheus: ctx.prometheus } : {}),
        },
        { ...settings, clock: ctx.clock, timeoutMs: window.runTimeoutMs, signal },
      );
      if (result.healthy) return outcome.done();
      if (window.passed) {
        ctx.log.warn({ phase, reasons: result.message }, 'health check window passed');
        return endJob.failed(failReason, healthCheckTimedOutMessage(timeoutMs));
      }
      const until = Math.min(ctx.clock.now() + HEALTH_RETRY_MS, window.endsAt + 1);
      return outcome.pending(
        { until, kinds: [WatchedKind.ClusterVersion, WatchedKind.ClusterOperator] },
        `${phase}-upgrade ${result.message}`,
        'HealthCheckFailed',
      );
    },
  };
}

/** The pre-upgrade health check step. */
export function preUpgradeHealthCheckStep(): Step<StepContext> {
  return healthStep('pre');
}

/** The post-upgrade health check step. */
export function postUpgradeHealthCheckStep(): Step<StepContext> {
  return healthStep('post');
}
