/**
 * Steps 6 and 13 (docs/design/managed-flow.md#capacity-reservation): capacity reservation
 * (`<machineset>-upgrade` clones, one extra worker per pool, timeout ⇒ continue without) and its
 * removal (delete the clones, drain their nodes with the drain strategies, wait until their
 * Machines are gone).
 */
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { globMatches } from '../../lib/glob.js';
import { outcome, type Step } from '../../engine/step.js';
import { ensureScaleDown, ensureScaleUp, isCloneMachineSet } from '../capacity/machine-set-scaler.js';
import { WatchedKind, configName, type StepContext } from './step-context.js';
import { commenced } from './step-support.js';

const CAPACITY_WAIT = [WatchedKind.MachineSet, WatchedKind.Machine, WatchedKind.Node];

function extraPoolMatcher(ctx: StepContext): ((pool: string) => boolean) | undefined {
  const patterns = ctx.config.scale.extraMachinePools;
  return patterns.length === 0 ? undefined : (pool) => patterns.some((p) => globMatches(p, pool));
}

/** When the oldest clone's readiness times out (each clone's timeout runs from its creation). */
function firstCloneTimeout(ctx: StepContext, timeoutMs: number): number | undefined {
  const created = ctx.cluster
    .machineSets()
    .filter(isCloneMachineSet)
    .map((ms) => Date.parse(ms.metadata?.creationTimestamp ?? ''))
    .filter((t) => !Number.isNaN(t));
  return created.length === 0 ? undefined : Math.min(...created) + timeoutMs + 1;
}

/** 6 EnsureExtraUpgradeWorkers. */
export const ensureExtraUpgradeWorkers: Step<StepContext> = {
  name: 'EnsureExtraUpgradeWorkers',
  condition: C.ComputeCapacityReserved,
  async run(ctx, signal) {
    if (ctx.upgradeConfig.spec?.capacityReservation !== true) return outcome.done();
    if (commenced(ctx)) return outcome.done();
    const now = ctx.clock.now();
    const timeoutMs = ctx.config.scale.timeOutMs;
    const result = await ensureScaleUp(ctx.client, { now, timeoutMs, extraPoolMatcher: extraPoolMatcher(ctx), signal });
    switch (result.state) {
      case 'noWorkerPool':
        await ctx.notify('StateScaleSkipped', signal);
        ctx.event('Normal', 'CapacityReservationSkipped', `${result.message}; upgrading without extra capacity`);
        return outcome.done();
      case 'noMachineSets':
        return outcome.failed(result.message, {
          reason: 'CapacityReservationFailed',
          waitFor: { kinds: [WatchedKind.MachineSet] },
        });
      case 'created':
        ctx.event('Normal', 'CapacityReserved', result.message);
        return outcome.pending({ kinds: CAPACITY_WAIT, until: now + timeoutMs }, result.message, 'WaitingForCapacity');
      case 'waiting':
        return outcome.pending(
          { kinds: CAPACITY_WAIT, until: firstCloneTimeout(ctx, timeoutMs) ?? now + timeoutMs },
          result.message,
          'WaitingForCapacity',
        );
      case 'timedOut':
        ctx.metrics.setScalingFailed(configName(ctx), true);
        await ctx.notify('StateSkipped', signal);
        ctx.event('Warning', 'CapacityReservationTimedOut', `${result.message}; continuing without extra capacity`);
        return outcome.done();
      case 'ready':
        ctx.metrics.setScalingFailed(configName(ctx), false);
        return outcome.done();
    }
  },
};

/** 13 RemoveExtraScaledNodes. */
export const removeExtraScaledNodes: Step<StepContext> = {
  name: 'RemoveExtraScaledNodes',
  condition: C.ComputeCapacityRemoved,
  async run(ctx, signal) {
    if (ctx.upgradeConfig.spec?.capacityReservation !== true) return outcome.done();
    let nextDue: number | undefined;
    const result = await ensureScaleDown(ctx.client, {
      signal,
      drainNode: async (node) => {
        const r = await ctx.drainNode(node, signal);
        if (r.nextDueAt !== undefined) nextDue = nextDue === undefined ? r.nextDueAt : Math.min(nextDue, r.nextDueAt);
        return r;
      },
    });
    for (const node of result.failedNodes) ctx.metrics.setNodeDrainTimeout(node, true);
    if (result.failedNodes.length > 0) {
      return outcome.failed(`failed to drain node(s) ${result.failedNodes.join(', ')} of the extra capacity`, {
        reason: 'NodeDrainFailed',
        waitFor: { kinds: CAPACITY_WAIT, ...(nextDue !== undefined ? { until: nextDue } : {}) },
      });
    }
    if (result.state === 'deleting') {
      return outcome.pending(
        { kinds: [...CAPACITY_WAIT, 'Pod'], ...(nextDue !== undefined ? { until: nextDue } : {}) },
        `waiting for the extra Machine(s) ${result.machines.join(', ')} to go away`,
        'RemovingCapacity',
      );
    }
    ctx.metrics.resetNodeDrainTimeouts();
    return outcome.done();
  },
};
