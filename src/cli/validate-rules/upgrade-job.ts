/** `validate`'s rules for managedupgrade.appuio.io/v1beta1 UpgradeJobs. */
import { UpgradeJobReason } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { JsonObject } from '../../lib/json.js';
import {
  desiredUpdateOf,
  isDesiredReleaseAvailable,
  sameDesiredUpdate,
} from '../../scheduled/steps/upgrade-job-cluster.js';
import { UpgradeJobMessage } from '../../scheduled/steps/upgrade-job-conditions.js';
import { CRD } from '../crds/upgrade-job.generated.js';
import { CHECK_NEEDS_CLUSTER, operatorProblem, type Findings, type KindRules, type RunContext } from './findings.js';
import { jobConfigProblems } from './job-config.js';

function upgradeJobRules(object: JsonObject, ctx: RunContext): Findings {
  const job = object as unknown as UpgradeJob;
  const out: Findings = { problems: jobConfigProblems(job, (text) => text), skipped: [] };
  const desired = desiredUpdateOf(job);
  if (desired && job.spec?.desiredVersionCheckAvailability !== false) {
    const cv = ctx.clusterVersion;
    if (cv === undefined) {
      out.skipped.push(
        `the desired release among the ClusterVersion’s available updates when the job starts (${CHECK_NEEDS_CLUSTER})`,
      );
    } else if (!sameDesiredUpdate(cv.spec.desiredUpdate, desired) && !isDesiredReleaseAvailable(cv, desired)) {
      out.problems.push(
        operatorProblem('warning', UpgradeJobMessage.withdrawn(desired.version ?? ''), {
          field: 'spec.desiredVersion',
          reason: UpgradeJobReason.UpgradeWithdrawn,
        }),
      );
    }
  }
  return out;
}

/** The UpgradeJob. */
export const kindRules: KindRules = { crd: CRD, rules: upgradeJobRules };
