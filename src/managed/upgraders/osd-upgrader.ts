/**
 * The OSD upgrader (muo.md §3.2, §3.4): MUO's 17 steps in order, and the failure policy — an
 * upgrade not yet commanded to the CVO when the upgrade window has passed fails: the extra
 * capacity is removed, the maintenance silences are ended (MUO left them), the failed
 * notification goes out, and the history entry is marked Failed with condition FailedUpgrade.
 */
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { Step } from '../../engine/step.js';
import { deleteCloneMachineSets } from '../capacity/machine-set-scaler.js';
import { endWindows } from '../maintenance/maintenance-window.js';
import { formatTime } from '../../lib/clock.js';
import { configName, type StepContext } from '../steps/step-context.js';
import { ensureExtraUpgradeWorkers, removeExtraScaledNodes } from '../steps/capacity-steps.js';
import { commenceUpgradeStep, controlPlaneUpgraded } from '../steps/control-plane-steps.js';
import { externalDependencyCheck, type UrlProbe } from '../steps/external-dependency-step.js';
import { postUpgradeHealthCheckStep, preUpgradeHealthCheckStep } from '../steps/health-check-steps.js';
import {
  createControlPlaneMaintWindow,
  createWorkerMaintWindow,
  removeControlPlaneMaintWindow,
  removeMaintWindow,
} from '../steps/maintenance-steps.js';
import {
  sendCompletedNotification,
  sendStartedNotification,
  upgradeDelayedCheck,
} from '../steps/notification-steps.js';
import { postUpgradeProcedures } from '../steps/post-upgrade-step.js';
import { commenced } from '../steps/step-support.js';
import { isUpgradeable } from '../steps/upgradeable-step.js';
import { allWorkersUpgraded as workerStep } from '../steps/worker-step.js';
import { setCondition } from '../history/upgrade-history.js';
import { errorMessage } from '../../lib/errors.js';

/** MUO's 17 OSD steps, in order. */
export function osdSteps(probe: UrlProbe): Array<Step<StepContext>> {
  return [
    sendStartedNotification,
    upgradeDelayedCheck,
    isUpgradeable,
    preUpgradeHealthCheckStep,
    externalDependencyCheck(probe),
    ensureExtraUpgradeWorkers,
    createControlPlaneMaintWindow,
    commenceUpgradeStep,
    controlPlaneUpgraded,
    removeControlPlaneMaintWindow,
    createWorkerMaintWindow,
    workerStep,
    removeExtraScaledNodes,
    removeMaintWindow,
    postUpgradeHealthCheckStep,
    postUpgradeProcedures,
    sendCompletedNotification,
  ];
}

/**
 * When the OSD upgrade window closes (epoch ms): `upgradeAt` + `upgradeWindow.timeOut`. MUO
 * counted from the moment it moved to Upgrading, so an operator that picked the upgrade up late
 * still started it; we count from the scheduled time. Undefined when the window is disabled.
 */
export function upgradeWindowClosesAt(ctx: Pick<StepContext, 'upgradeConfig' | 'config'>): number | undefined {
  const timeout = ctx.config.upgradeWindow.timeOutMs;
  const at = Date.parse(ctx.upgradeConfig.spec?.upgradeAt ?? '');
  return timeout > 0 && !Number.isNaN(at) ? at + timeout : undefined;
}

/** MUO's `shouldFailUpgrade`: not commanded yet, and the window has closed. */
export function shouldFailUpgrade(ctx: StepContext): boolean {
  const closes = upgradeWindowClosesAt(ctx);
  return closes !== undefined && ctx.clock.now() > closes && !commenced(ctx);
}

/**
 * MUO's `performUpgradeFailure`: returns true when the upgrade is now Failed; false when a part
 * failed (the condition FailedUpgrade says which) and it is to be retried.
 */
export async function performUpgradeFailure(ctx: StepContext, signal: AbortSignal): Promise<boolean> {
  const now = ctx.clock.now();
  const fail = (message: string): false => {
    ctx.history.conditions = setCondition(
      ctx.history.conditions,
      { type: C.FailedUpgrade, status: 'False', reason: 'Upgrade failed', message },
      now,
    );
    return false;
  };
  try {
    await deleteCloneMachineSets(ctx.client, { signal });
  } catch (err) {
    return fail(`failed to remove the extra capacity: ${errorMessage(err)}`);
  }
  try {
    await endWindows(ctx.alertmanager, 'all', { signal });
  } catch (err) {
    // Our silences exist only once a maintenance window was created; before that, an
    // unreachable Alertmanager holds nothing of ours and must not keep the upgrade from failing.
    const created = (ctx.history.conditions ?? []).some(
      (c) =>
        (c.type === C.ControlPlaneMaintenanceWindowCreated || c.type === C.WorkersMaintenanceWindowCreated) &&
        c.status === 'True',
    );
    if (created) return fail(`failed to end the maintenance silences: ${errorMessage(err)}`);
    ctx.log.warn(
      { err: errorMessage(err) },
      'Alertmanager unreachable while failing the upgrade; no maintenance silence was created, so none is left behind',
    );
  }
  try {
    await ctx.notify('StateFailed', signal);
  } catch (err) {
    return fail(`failed to send the FailedUpgrade notification: ${errorMessage(err)}`);
  }
  ctx.metrics.setUpgradeWindowBreached(configName(ctx), true);
  ctx.metrics.resetFailureMetrics();
  ctx.history.conditions = setCondition(
    ctx.history.conditions,
    {
      type: C.FailedUpgrade,
      status: 'True',
      reason: 'Upgrade failed',
      message: 'FailedUpgrade notification sent',
      completeTime: formatTime(now),
    },
    now,
  );
  ctx.history.phase = 'Failed';
  return true;
}
