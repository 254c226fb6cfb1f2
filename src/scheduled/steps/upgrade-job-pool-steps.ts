/**
 * The MachineConfigPool parts of an UpgradeJob (docs/design/scheduled-flow.md#the-started-path step
 * 9, docs/design/scheduled-flow.md#pool-delays,
 * docs/design/scheduled-flow.md#pausing-pools-on-failure): the `delayMin`/`delayMax` step of every
 * started pass (pause, or run the MachineConfigPoolUnpause hooks and unpause;
 * `MachineConfigPoolsPaused`; UnpausingPoolsExpired), the `Paused` step after the UpgradeComplete
 * hooks, and the pool writes of the final states (unpause what this job paused, pause on failure).
 */
import {
  ANNOTATION_UPGRADE_JOB,
  UpgradeJobConditionType,
  UpgradeJobReason,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { outcome, type Step, type StepOutcome } from '../../engine/step.js';
import type { JsonObject } from '../../lib/json.js';
import { UpgradeJobMessage, setJobCondition } from './upgrade-job-conditions.js';
import {
  isPausedState,
  lockValue,
  pausedWakeAt,
  poolDelayPlan,
  poolDelays,
  updatingPools,
} from './upgrade-job-cluster.js';
import { WatchedKind, type StepContext } from './step-context.js';
import { runHooks } from './upgrade-job-hooks.js';
import { endJob } from './upgrade-job-recorder.js';

/** Writes `spec.paused` on a pool and sets (string), removes (null) or leaves (undefined) the lock annotation. */
export async function writePool(
  ctx: StepContext,
  pool: string,
  paused: boolean,
  annotation: string | null | undefined,
  signal: AbortSignal,
): Promise<void> {
  const patch: JsonObject = { spec: { paused } };
  if (annotation !== undefined) patch['metadata'] = { annotations: { [ANNOTATION_UPGRADE_JOB]: annotation } };
  await ctx.client.patch(MachineConfigPoolResource, undefined, pool, patch, { type: 'merge', signal });
}

/** Runs the MachineConfigPoolUnpause hooks of one pool: undefined to go on, else the outcome to stop with. */
export async function unpauseHooks(
  ctx: StepContext,
  pool: string,
  reason: string,
  signal: AbortSignal,
): Promise<StepOutcome | undefined> {
  const o = await runHooks(ctx, 'MachineConfigPoolUnpause', { reason, pool }, signal);
  if (o.kind === 'fail') return endJob.failed(o.reason, o.message);
  if (o.kind === 'wait')
    return outcome.pending(
      { kinds: [WatchedKind.Job] },
      `waiting for the MachineConfigPoolUnpause hooks of pool ${pool}: ${o.active.join(', ')}`,
      'WaitingForHooks',
    );
  return undefined;
}

/** docs/design/scheduled-flow.md#pool-delays: the delay step of every started pass. */
export function poolDelayStep(): Step<StepContext> {
  return {
    name: 'MachineConfigPoolDelay',
    condition: UpgradeJobConditionType.MachineConfigPoolsPaused,
    async run(ctx, signal): Promise<StepOutcome> {
      const { delays, problems } = poolDelays(ctx.job);
      for (const p of problems) ctx.log.warn(p);
      const now = ctx.clock.now();
      const plan = poolDelayPlan(now, ctx.timing.startAfter, delays, ctx.cluster.pools());
      for (const at of plan.wakes) ctx.wakeAt(at);
      setJobCondition(
        ctx.job,
        {
          type: UpgradeJobConditionType.MachineConfigPoolsPaused,
          status: plan.shouldBePaused ? 'True' : 'False',
          reason: plan.matched ? UpgradeJobReason.DelaySet : UpgradeJobReason.NoManagedPools,
          message: '',
        },
        now,
      );
      if (plan.expired !== undefined)
        return endJob.failed(UpgradeJobReason.UnpausingPoolsExpired, UpgradeJobMessage.unpausingExpired(plan.expired));
      for (const a of plan.actions) {
        if (a.action === 'unpause') {
          const stop = await unpauseHooks(ctx, a.pool, UpgradeJobReason.DelayReached, signal);
          if (stop) return stop;
        }
        await writePool(ctx, a.pool, a.action === 'pause', lockValue(ctx.job), signal);
        ctx.log.info(
          { pool: a.pool },
          a.action === 'pause'
            ? 'paused MachineConfigPool for its delayUpgrade'
            : 'unpaused MachineConfigPool: delayMin reached',
        );
        ctx.event(
          'Normal',
          a.action === 'pause' ? 'MachineConfigPoolPaused' : 'MachineConfigPoolUnpaused',
          `${a.action === 'pause' ? 'paused' : 'unpaused'} MachineConfigPool ${a.pool} (delayUpgrade)`,
        );
      }
      return outcome.done();
    },
  };
}

/**
 * docs/design/scheduled-flow.md#the-started-path step 9: `Paused` while every updating pool is
 * paused; wait while an unpaused pool updates.
 */
export function pausedStep(): Step<StepContext> {
  return {
    name: 'MachineConfigPoolsUpdated',
    condition: UpgradeJobConditionType.Paused,
    async run(ctx): Promise<StepOutcome> {
      const pools = ctx.cluster.pools();
      const now = ctx.clock.now();
      const paused = isPausedState(pools);
      setJobCondition(
        ctx.job,
        {
          type: UpgradeJobConditionType.Paused,
          status: paused ? 'True' : 'False',
          reason: UpgradeJobReason.DelaySet,
          message: '',
        },
        now,
      );
      const updating = updatingPools(pools);
      const list = updating.map((p) => (p.paused ? `${p.name} (paused)` : p.name)).join(', ');
      if (paused) {
        const at = pausedWakeAt(now, ctx.timing.startAfter, poolDelays(ctx.job).delays, ctx.timing.timeoutAt);
        return outcome.pending(
          { ...(at !== undefined ? { until: at } : {}), kinds: [WatchedKind.MachineConfigPool] },
          `paused MachineConfigPools still have machines to update: ${list}`,
          'PoolsPaused',
        );
      }
      if (updating.length > 0)
        return outcome.pending(
          { kinds: [WatchedKind.MachineConfigPool] },
          `waiting for MachineConfigPools to finish updating: ${list}`,
          'PoolsUpdating',
        );
      return outcome.done();
    },
  };
}
