/**
 * Step 12 AllWorkersUpgraded (docs/design/managed-flow.md#worker-completion): done only when every
 * unpaused worker pool is fully updated; while they roll, `upgradeoperator_worker_timeout` is 1
 * once no maintenance silence covers the rollout any more.
 */
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { outcome, type Step } from '../../engine/step.js';
import { isIntegrationError } from '../../integrations/integration-error.js';
import { workerRollout } from '../cluster-version/worker-pools.js';
import { isAnyWindowActive } from '../maintenance/maintenance-window.js';
import { WatchedKind, configName, desiredVersion, type StepContext } from './step-context.js';
import { OUTSIDE_API_RETRY_MS, stamp } from './step-support.js';

/** 12 AllWorkersUpgraded. */
export const allWorkersUpgraded: Step<StepContext> = {
  name: 'AllWorkersUpgraded',
  condition: C.WorkerNodesUpgraded,
  async run(ctx, signal) {
    const name = configName(ctx);
    const version = desiredVersion(ctx);
    const rollout = workerRollout(ctx.cluster.pools());
    if (rollout.done) {
      await ctx.notify('StateWorkerPlaneFinishedSL', signal);
      stamp(ctx, 'workernode_upgrade_completed');
      ctx.metrics.setWorkerTimeout(name, version, false);
      return outcome.done();
    }
    let until: number | undefined;
    try {
      const active = await isAnyWindowActive(ctx.alertmanager, { signal });
      ctx.metrics.setWorkerTimeout(name, version, !active);
    } catch (err) {
      if (!isIntegrationError(err)) throw err;
      until = ctx.clock.now() + OUTSIDE_API_RETRY_MS;
    }
    const why = `waiting for worker pool(s) ${rollout.notUpdated.join(', ')} to update (${rollout.pending} machine(s) left)`;
    return outcome.pending(
      { kinds: [WatchedKind.MachineConfigPool], ...(until !== undefined ? { until } : {}) },
      why,
      'WaitingForWorkers',
    );
  },
};
