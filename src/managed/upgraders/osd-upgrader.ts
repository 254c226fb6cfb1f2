/**
 * The OSD upgrader: MUO's 17 steps in order (docs/design/managed-flow.md#the-step-lists), and the
 * failure policy (docs/design/managed-flow.md#the-failure-window) — an upgrade not yet commanded to
 * the CVO when the upgrade window has passed fails: the extra capacity is removed, the maintenance
 * silences are ended (MUO left them), the failed notification goes out, and the history entry is
 * marked Failed with condition FailedUpgrade. Until the upgrade has commenced it is also woken when
 * the delayed notification falls due and when the window closes, whatever the step it stopped at
 * waits for.
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
  delayDueAt,
  sendCompletedNotification,
  sendStartedNotification,
  upgradeDelayedCheck,
} from '../steps/notification-steps.js';
import { postUpgradeProcedures } from '../steps/post-upgrade-step.js';
import { commenced } from '../steps/step-support.js';
import { isUpgradeable } from '../steps/upgradeable-step.js';
import { allWorkersUpgraded as workerStep } from '../steps/worker-step.js';
import { conditionTrue, setCondition } from '../history/upgrade-history.js';
import { errorMessage } from '../../lib/errors.js';
import type { FailureOutcome, Upgrader } from './upgrader.js';

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

/** The message of the `UpgradeFailed` Event of an OSD upgrade whose window passed before it started. */
export function upgradeWindowMissedMessage(windowTimeOutMs: number, upgradeAt: string): string {
  return `the upgrade did not start within the upgrade window (${Math.round(windowTimeOutMs / 60_000)} min after ${upgradeAt})`;
}

/** {@link upgradeWindowMissedMessage} for this UpgradeConfig and configuration. */
function windowMissedMessage(ctx: Pick<StepContext, 'upgradeConfig' | 'config'>): string {
  return upgradeWindowMissedMessage(ctx.config.upgradeWindow.timeOutMs, ctx.upgradeConfig.spec?.upgradeAt ?? '');
}

/**
 * The failure message once the window has closed by `now` (strictly after it closes); undefined
 * while it is open, and always with the window disabled.
 */
function windowMissed(ctx: Pick<StepContext, 'upgradeConfig' | 'config'>, now: number): string | undefined {
  const closes = upgradeWindowClosesAt(ctx);
  return closes !== undefined && now > closes ? windowMissedMessage(ctx) : undefined;
}

/** MUO's `shouldFailUpgrade`: not commanded yet, and the window has closed. */
function shouldFailUpgrade(ctx: StepContext): boolean {
  return windowMissed(ctx, ctx.clock.now()) !== undefined && !commenced(ctx);
}

/**
 * MUO's `performUpgradeFailure`: returns true when the upgrade is now Failed; false when a part
 * failed (the condition FailedUpgrade says which) and it is to be retried.
 */
async function performUpgradeFailure(ctx: StepContext, signal: AbortSignal): Promise<boolean> {
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
    const created =
      conditionTrue(ctx.history, C.ControlPlaneMaintenanceWindowCreated) ||
      conditionTrue(ctx.history, C.WorkersMaintenanceWindowCreated);
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

/** Retry of a failure a part of which could not be carried out. */
const FAILURE_RETRY_MS = 30_000;

/** Carries the window failure out, emits `UpgradeFailed` once it is done, and explains either outcome. */
async function failUpgrade(ctx: StepContext, signal: AbortSignal): Promise<FailureOutcome> {
  if (await performUpgradeFailure(ctx, signal)) {
    ctx.event('Warning', 'UpgradeFailed', windowMissedMessage(ctx));
    return { failed: true, reason: 'Failed', message: 'the upgrade window passed before the upgrade could start' };
  }
  return {
    failed: false,
    reason: 'FailingUpgrade',
    message: `the upgrade window passed; cleaning up: ${ctx.history.conditions?.find((c) => c.type === C.FailedUpgrade)?.message ?? 'in progress'}`,
    retryInMs: FAILURE_RETRY_MS,
  };
}

/** MUO's `HasUpgradeCommenced`, false where it would throw (the spec names no target). */
function commencedSafe(ctx: StepContext): boolean {
  try {
    return commenced(ctx);
  } catch {
    return false;
  }
}

/**
 * Until the upgrade has commenced: 1 ms after the delayed notification falls due and after the
 * window closes (both are checked as strictly after), for those still ahead.
 */
function wakeUps(ctx: StepContext): number[] {
  if (commencedSafe(ctx)) return [];
  const now = ctx.clock.now();
  return [delayDueAt(ctx), upgradeWindowClosesAt(ctx)]
    .filter((t): t is number => t !== undefined && t > now)
    .map((t) => t + 1);
}

/** The OSD upgrader over a URL probe (for the external dependency check). */
export function osdUpgrader(probe: UrlProbe): Upgrader {
  return {
    steps: osdSteps(probe),
    failurePolicy: { failsUnlessCommenced: windowMissed, hasFailed: shouldFailUpgrade, fail: failUpgrade },
    wakeUps,
  };
}
