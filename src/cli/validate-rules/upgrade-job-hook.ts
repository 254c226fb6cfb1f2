/** `validate`'s rules for managedupgrade.appuio.io/v1beta1 UpgradeJobHooks. */
import type { UpgradeJobHook } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { JsonObject } from '../../lib/json.js';
import { selectorMatches } from '../../scheduled/hooks/hook-selection.js';
import type { ValidationProblem } from '../validate-objects.js';
import { CRD } from '../crds/upgrade-job-hook.generated.js';
import { operatorProblem, type Findings, type KindRules } from './findings.js';

function upgradeJobHookRules(object: JsonObject): Findings {
  const hook = object as unknown as UpgradeJobHook;
  const problems: ValidationProblem[] = [];
  const anyJob: UpgradeJob = { metadata: { labels: {} } };
  (hook.spec?.selector?.matchExpressions ?? []).forEach((labelSelectorRequirement, index) => {
    // One requirement at a time: the selector's verdict on a job is "invalid" whatever its labels.
    const alone: UpgradeJobHook = {
      ...hook,
      spec: { ...hook.spec, selector: { matchExpressions: [labelSelectorRequirement] } },
    };
    if (selectorMatches(alone, anyJob) === 'invalid') {
      problems.push(
        operatorProblem('error', 'hook skipped: its selector is invalid', {
          field: `spec.selector.matchExpressions[${index}]`,
          reason: 'invalidSelector',
        }),
      );
    }
  });
  return { problems, skipped: [] };
}

/** The UpgradeJobHook. */
export const kindRules: KindRules = { crd: CRD, rules: upgradeJobHookRules };
