/** The run-time settings of an UpgradeJob's `spec.config` that fall back to defaults, as `validate` reports them. */
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { poolDelays } from '../../scheduled/steps/upgrade-job-cluster.js';
import { jobTiming } from '../../scheduled/steps/upgrade-job-gate.js';
import { effectiveHealthCheckTimeout } from '../../scheduled/health/health-check-timeout.js';
import type { ValidationProblem } from '../validate-objects.js';
import { leadingField, operatorProblem } from './findings.js';

/**
 * What the controller logs about an UpgradeJob's settings (and refuses, for its timing);
 * `fieldPrefix` rewrites the paths, for a job template.
 */
export function jobConfigProblems(job: UpgradeJob, fieldPrefix: (field: string) => string): ValidationProblem[] {
  const out: ValidationProblem[] = [];
  const timing = jobTiming(job);
  if (!timing.ok) {
    out.push(operatorProblem('error', timing.error, { field: leadingField(timing.error), reason: 'InvalidSpec' }));
  } else {
    for (const p of timing.timing.problems)
      out.push(operatorProblem('warning', fieldPrefix(p), { field: fieldPrefix(leadingField(p) ?? 'spec.config') }));
  }
  for (const phase of ['preUpgradeHealthChecks', 'postUpgradeHealthChecks'] as const) {
    const t = effectiveHealthCheckTimeout(job.spec?.config[phase] ?? {});
    if (t.problem !== undefined)
      out.push(operatorProblem('warning', t.problem, { field: fieldPrefix(`spec.config.${phase}.timeout`) }));
  }
  for (const p of poolDelays(job).problems)
    out.push(
      operatorProblem('warning', fieldPrefix(p), {
        field: fieldPrefix(leadingField(p) ?? 'spec.config.machineConfigPools'),
      }),
    );
  return out;
}
