/**
 * Steps 1, 2 and 17 of the OSD upgrader
 * (docs/design/managed-flow.md#started-delayed-and-completed-notifications): the started
 * notification, the delayed check (OSD only; recorded under the same condition as step 1, as MUO
 * does) and the completed notification.
 */
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { outcome, type Step } from '../../engine/step.js';
import type { StepContext } from './step-context.js';
import { commenced, stamp } from './step-support.js';

/** 1 SendStartedNotification. */
export const sendStartedNotification: Step<StepContext> = {
  name: 'SendStartedNotification',
  condition: C.StartedNotificationSent,
  async run(ctx, signal) {
    if (commenced(ctx)) return outcome.done();
    await ctx.notify('StateStarted', signal);
    stamp(ctx, 'upgrade_started');
    return outcome.done();
  },
};

/** When the delayed notification becomes due (epoch ms), if the trigger is on. */
export function delayDueAt(ctx: StepContext): number | undefined {
  const start = ctx.history.startTime ? Date.parse(ctx.history.startTime) : undefined;
  const delay = ctx.config.upgradeWindow.delayTriggerMs;
  return start === undefined || delay <= 0 ? undefined : start + delay;
}

/** 2 UpgradeDelayedCheck (OSD): never blocks; notifies once when the upgrade is late to start. */
export const upgradeDelayedCheck: Step<StepContext> = {
  name: 'UpgradeDelayedCheck',
  condition: C.StartedNotificationSent,
  async run(ctx, signal) {
    if (commenced(ctx)) return outcome.done();
    if (!ctx.history.startTime) return outcome.pending({}, 'the upgrade has no start time yet');
    const due = delayDueAt(ctx);
    if (due !== undefined && ctx.clock.now() > due) await ctx.notify('StateDelayed', signal);
    return outcome.done();
  },
};

/** 17 SendCompletedNotification. */
export const sendCompletedNotification: Step<StepContext> = {
  name: 'SendCompletedNotification',
  condition: C.CompletedNotificationSent,
  async run(ctx, signal) {
    await ctx.notify('StateCompleted', signal);
    stamp(ctx, 'upgrade_completed');
    return outcome.done();
  },
};
