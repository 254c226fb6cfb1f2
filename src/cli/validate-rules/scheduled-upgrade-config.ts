/** `validate`'s rules for managedupgrade.appuio.io/v1beta1 UpgradeConfigs (the scheduled flow). */
import type { ScheduledUpgradeConfig } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import type { JsonObject } from '../../lib/json.js';
import { nextScheduleTime } from '../../scheduled/schedule/maintenance-schedule.js';
import { compileSchedulingPolicy } from '../../scheduled/schedule/next-job.js';
import { buildScheduledUpgradeJob } from '../../scheduled/steps/scheduled-upgrade-job.js';
import { CRD } from '../crds/scheduled-upgrade-config.generated.js';
import { operatorProblem, type Findings, type KindRules, type RunContext } from './findings.js';
import { jobConfigProblems } from './job-config.js';

function scheduledUpgradeConfigRules(object: JsonObject, ctx: RunContext): Findings {
  const config = object as unknown as ScheduledUpgradeConfig;
  const out: Findings = { problems: [], skipped: [] };
  const compiled = compileSchedulingPolicy(config.spec, ctx.localZoneId);
  if (!compiled.ok) {
    const p = compiled.problem;
    out.problems.push(operatorProblem('error', `${p.field}: ${p.message}`, { field: p.field, reason: p.reason }));
  } else {
    // The operator reports a schedule with no next time (its first one); the later times of
    // status.nextPossibleSchedules change no verdict.
    const next = nextScheduleTime(compiled.policy.schedule, ctx.nowMs);
    if (!next.ok)
      out.problems.push(operatorProblem('error', next.error, { field: 'spec.schedule', reason: 'NoNextSchedule' }));
  }
  // The template's settings as each UpgradeJob made from it will carry them.
  const job = buildScheduledUpgradeJob(config, { startAfterMs: ctx.nowMs, startBeforeMs: ctx.nowMs });
  out.problems.push(
    ...jobConfigProblems(job, (text) => text.replace(/^spec\.config\b/, 'spec.jobTemplate.spec.config')),
  );
  return out;
}

/** The scheduled flow's UpgradeConfig. */
export const kindRules: KindRules = { crd: CRD, rules: scheduledUpgradeConfigRules };
