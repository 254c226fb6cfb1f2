/**
 * Steps 7, 10, 11 and 14 (muo.md §3.3, §3.6): the Alertmanager silences of the control-plane
 * and worker maintenance windows, with MUO's exact matchers and comments.
 */
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { outcome, type Step, type StepOutcome } from '../../engine/step.js';
import { isIntegrationError } from '../../integrations/integration-error.js';
import { workerRollout } from '../../steps/cluster-version/worker-pools.js';
import { endWindows, ensureControlPlaneWindow, ensureWorkerWindow, workerWindowMs } from '../../steps/maintenance/maintenance-window.js';
import { desiredVersion, type ManagedStepContext } from '../managed-context.js';
import { errorMessage } from '../../lib/errors.js';
import { OUTSIDE_API_RETRY_MS } from './step-support.js';

/** Alertmanager failures become a failed step retried shortly, with the reason named. */
async function withAlertmanager(ctx: ManagedStepContext, action: () => Promise<StepOutcome>): Promise<StepOutcome> {
  try {
    return await action();
  } catch (err) {
    if (!isIntegrationError(err)) throw err;
    return outcome.failed(`Alertmanager unavailable: ${errorMessage(err)}`, { reason: 'AlertmanagerUnavailable', waitFor: { until: ctx.clock.now() + OUTSIDE_API_RETRY_MS } });
  }
}

function conditionTrue(ctx: ManagedStepContext, type: string): boolean {
  return ctx.history.conditions?.some((c) => c.type === type && c.status === 'True') === true;
}

/** 7 CreateControlPlaneMaintWindow: runs until the window was removed (the status is the lasting record). */
export const createControlPlaneMaintWindow: Step<ManagedStepContext> = {
  name: 'CreateControlPlaneMaintWindow',
  condition: C.ControlPlaneMaintenanceWindowCreated,
  async run(ctx, signal) {
    if (conditionTrue(ctx, C.ControlPlaneMaintenanceWindowRemoved)) return outcome.done();
    return withAlertmanager(ctx, async () => {
      const now = ctx.clock.now();
      const changes = await ensureControlPlaneWindow(ctx.alertmanager, {
        version: desiredVersion(ctx),
        endsAt: now + ctx.config.maintenance.controlPlaneTimeMs,
        criticals: ctx.config.maintenance.ignoredAlerts.controlPlaneCriticals,
        now,
        signal,
      });
      for (const c of changes.filter((x) => x.action === 'created')) ctx.event('Normal', 'MaintenanceWindowCreated', `silence ${c.id}: ${c.comment}`);
      return outcome.done();
    });
  },
};

/** 10 RemoveControlPlaneMaintWindow. */
export const removeControlPlaneMaintWindow: Step<ManagedStepContext> = {
  name: 'RemoveControlPlaneMaintWindow',
  condition: C.ControlPlaneMaintenanceWindowRemoved,
  async run(ctx, signal) {
    return withAlertmanager(ctx, async () => {
      for (const c of await endWindows(ctx.alertmanager, 'control-plane', { signal })) {
        if (c.action === 'expired') ctx.event('Normal', 'MaintenanceWindowRemoved', `silence ${c.id}: ${c.comment}`);
      }
      return outcome.done();
    });
  },
};

/** 11 CreateWorkerMaintWindow: re-evaluated every pass, re-created when the pending count changes. */
export const createWorkerMaintWindow: Step<ManagedStepContext> = {
  name: 'CreateWorkerMaintWindow',
  condition: C.WorkersMaintenanceWindowCreated,
  async run(ctx, signal) {
    const rollout = workerRollout(ctx.cluster.pools());
    if (rollout.done || rollout.pending < 1) return outcome.done();
    return withAlertmanager(ctx, async () => {
      const now = ctx.clock.now();
      const spec = ctx.upgradeConfig.spec;
      const windowMs = workerWindowMs(rollout.pending, {
        pdbForceDrainTimeoutMs: (spec?.PDBForceDrainTimeout ?? 0) * 60_000,
        nodeDrainTimeoutMs: ctx.config.nodeDrain.timeOutMs,
        expectedNodeDrainTimeMs: ctx.config.nodeDrain.expectedNodeDrainTimeMs,
      });
      const change = await ensureWorkerWindow(ctx.alertmanager, { version: desiredVersion(ctx), pending: rollout.pending, endsAt: now + windowMs, now, signal });
      if (change.action !== 'kept') ctx.event('Normal', 'MaintenanceWindowCreated', `silence ${change.id}: ${change.comment}`);
      return outcome.done();
    });
  },
};

/** 14 RemoveMaintWindow. */
export const removeMaintWindow: Step<ManagedStepContext> = {
  name: 'RemoveMaintWindow',
  condition: C.WorkersMaintenanceWindowRemoved,
  async run(ctx, signal) {
    return withAlertmanager(ctx, async () => {
      for (const c of await endWindows(ctx.alertmanager, 'worker', { signal })) {
        if (c.action === 'expired') ctx.event('Normal', 'MaintenanceWindowRemoved', `silence ${c.id}: ${c.comment}`);
      }
      return outcome.done();
    });
  },
};
