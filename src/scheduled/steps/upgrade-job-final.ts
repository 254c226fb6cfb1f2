/**
 * What happens on every pass of a final UpgradeJob (docs/design/scheduled-flow.md#pass-order steps
 * 3–4, docs/design/scheduled-flow.md#pausing-pools-on-failure), idempotent so it may run any number
 * of times:
 * - Succeeded: the Success then Finish hooks (fire-and-forget, reason = the Succeeded reason, no
 *   hook created after the job ended); every pool carrying this job's lock annotation loses it, and
 *   is unpaused after its MachineConfigPoolUnpause hooks (reason `Completed`) if still paused;
 *   then the ClusterVersion lock is released if it is ours.
 * - Failed: the Failure then Finish hooks; with `pauseMachineConfigPoolsOnFailure` the matching
 *   pools still updating are paused once (guard: `MachineConfigPoolsPaused=True/PausedOnFailure`);
 *   then the lock is released. Pools paused by `delayUpgrade` stay paused (as upstream).
 * The status changes (the guard condition) are made on `ctx.job`; the caller writes them.
 */
import {
  ANNOTATION_UPGRADE_JOB,
  UpgradeJobConditionType,
  UpgradeJobReason,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import type { WaitFor } from '../../engine/step.js';
import { jobCondition, setJobCondition } from './upgrade-job-conditions.js';
import { lockHolder, lockValue, poolsLockedBy, poolsToPauseOnFailure } from './upgrade-job-cluster.js';
import { WatchedKind, type StepContext } from './step-context.js';
import { runHooks } from './upgrade-job-hooks.js';
import { unpauseHooks, writePool } from './upgrade-job-pool-steps.js';

/** What a final pass still waits for. */
export interface FinalPassResult {
  /** Kinds to wake on (unpause hooks still running); undefined when nothing is left to do. */
  waitFor: WaitFor | undefined;
  /** Why it waits, for the explanation. */
  why?: string;
}

/** Releases the ClusterVersion lock when it names this job (docs/design/scheduled-flow.md#pass-order, `cleanupLock`). */
export async function releaseClusterVersionLock(ctx: StepContext, signal: AbortSignal): Promise<void> {
  const cv = ctx.cluster.clusterVersion();
  if (!cv || lockHolder(cv) !== lockValue(ctx.job)) return;
  await ctx.client.patch(
    ClusterVersionResource,
    undefined,
    cv.metadata?.name ?? 'version',
    {
      metadata: {
        resourceVersion: cv.metadata?.resourceVersion ?? null,
        annotations: { [ANNOTATION_UPGRADE_JOB]: null },
      },
    },
    { type: 'merge', signal },
  );
  ctx.log.info('released the ClusterVersion lock');
}

async function succeededCleanup(ctx: StepContext, signal: AbortSignal): Promise<FinalPassResult> {
  const waiting: string[] = [];
  for (const pool of poolsLockedBy(ctx.job, ctx.cluster.pools())) {
    const name = pool.metadata?.name ?? '';
    if (pool.spec.paused === true) {
      const stop = await unpauseHooks(ctx, name, UpgradeJobReason.Completed, signal);
      if (stop) {
        waiting.push(name);
        continue;
      }
      await writePool(ctx, name, false, null, signal);
      ctx.event('Normal', 'MachineConfigPoolUnpaused', `unpaused MachineConfigPool ${name}: the upgrade succeeded`);
    } else {
      await writePool(ctx, name, false, null, signal);
    }
  }
  await releaseClusterVersionLock(ctx, signal);
  if (waiting.length === 0) return { waitFor: undefined };
  return {
    waitFor: { kinds: [WatchedKind.Job] },
    why: `waiting for the MachineConfigPoolUnpause hooks of ${waiting.join(', ')} before unpausing`,
  };
}

async function failedCleanup(ctx: StepContext, signal: AbortSignal): Promise<FinalPassResult> {
  const cfg = ctx.job.spec?.config.pauseMachineConfigPoolsOnFailure;
  const guarded =
    jobCondition(ctx.job, UpgradeJobConditionType.MachineConfigPoolsPaused)?.reason ===
    UpgradeJobReason.PausedOnFailure;
  if (cfg?.enabled === true && !guarded) {
    for (const pool of poolsToPauseOnFailure(ctx.job, ctx.cluster.pools())) {
      await writePool(ctx, pool, true, undefined, signal);
      ctx.event(
        'Warning',
        'MachineConfigPoolPausedOnFailure',
        `paused MachineConfigPool ${pool}: the upgrade failed while it was updating`,
      );
    }
    setJobCondition(
      ctx.job,
      {
        type: UpgradeJobConditionType.MachineConfigPoolsPaused,
        status: 'True',
        reason: UpgradeJobReason.PausedOnFailure,
        message: '',
      },
      ctx.clock.now(),
    );
  }
  await releaseClusterVersionLock(ctx, signal);
  return { waitFor: undefined };
}

/** One pass over a final job. */
export async function finalStatePass(ctx: StepContext, signal: AbortSignal): Promise<FinalPassResult> {
  const succeeded = jobCondition(ctx.job, UpgradeJobConditionType.Succeeded);
  if (succeeded?.status === 'True') {
    await runHooks(ctx, 'Success', { reason: succeeded.reason }, signal);
    await runHooks(ctx, 'Finish', { reason: succeeded.reason }, signal);
    return succeededCleanup(ctx, signal);
  }
  const failed = jobCondition(ctx.job, UpgradeJobConditionType.Failed);
  await runHooks(ctx, 'Failure', { reason: failed?.reason ?? '' }, signal);
  await runHooks(ctx, 'Finish', { reason: failed?.reason ?? '' }, signal);
  return failedCleanup(ctx, signal);
}
