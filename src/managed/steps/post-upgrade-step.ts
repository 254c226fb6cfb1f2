/**
 * Step 16 PostUpgradeProcedures (OSD, docs/design/managed-flow.md#post-upgrade-procedures): on
 * FedRAMP clusters, ask the File Integrity Operator to re-initialise its database by adding the
 * re-init annotation to `openshift-file-integrity/osd-fileintegrity`. Unlike MUO, the other
 * annotations are kept (a merge patch adds one key), and it is done once per upgrade.
 */
import {
  FILE_INTEGRITY_NAMESPACE,
  FILE_INTEGRITY_REINIT_ANNOTATION,
  FileIntegrityResource,
} from '../../api/openshift/fileintegrity-v1alpha1/file-integrity.js';
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { outcome, type Step } from '../../engine/step.js';
import { conditionTrue } from '../history/upgrade-history.js';
import type { StepContext } from './step-context.js';

/** The FileIntegrity object OSD re-initialises. */
export const OSD_FILE_INTEGRITY_NAME = 'osd-fileintegrity';

/** 16 PostUpgradeProcedures (OSD). */
export const postUpgradeProcedures: Step<StepContext> = {
  name: 'PostUpgradeProcedures',
  condition: C.PostUpgradeTasksCompleted,
  async run(ctx, signal) {
    if (!ctx.config.environment.fedramp) return outcome.done();
    if (conditionTrue(ctx.history, C.PostUpgradeTasksCompleted)) return outcome.done();
    await ctx.client.patch(
      FileIntegrityResource,
      FILE_INTEGRITY_NAMESPACE,
      OSD_FILE_INTEGRITY_NAME,
      { metadata: { annotations: { [FILE_INTEGRITY_REINIT_ANNOTATION]: '' } } },
      { type: 'merge', signal },
    );
    ctx.event(
      'Normal',
      'FileIntegrityReinitialised',
      `asked FileIntegrity ${FILE_INTEGRITY_NAMESPACE}/${OSD_FILE_INTEGRITY_NAME} to re-initialise`,
    );
    return outcome.done();
  },
};
