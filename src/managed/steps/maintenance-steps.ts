/**
 * Steps 7, 10, 11 and 14 (docs/design/managed-flow.md#maintenance-windows): the Alertmanager
 * silences of the control-plane and worker maintenance windows, with MUO's exact matchers and
 * comments; and keeping the control-plane window open while step 9 waits for the control plane (a
 * fixed MUO bug).
 */
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { outcome, type Step, type StepOutcome } from '../../engine/step.js';
import { isIntegrationError } from '../../integrations/integration-error.js';
import { workerRollout } from '../cluster-version/worker-pools.js';
import { conditionTrue } from '../history/upgrade-history.js';
import {
  endWindows,
  ensureControlPlaneWindow,
  ensureWorkerWindow,
  keepControlPlaneWindowOpen,
  workerWindowMs,
} from '../maintenance/maintenance-window.js';
import { desiredVersion, type StepContext } from './step-context.js';
import { formatTime } from '../../lib/clock.js';
import { errorMessage } from '../../lib/errors.js';
import { OUTSIDE_API_RETRY_MS } from './step-support.js';

/** Alertmanager failures become a failed step retried shortly, with the reason named. */
async function withAlertmanager(ctx: StepContext, action: () => Promise<StepOutcome>): Promise<StepOutcome> {
  try {
    return await action();
  } catch (err) {
    if (!isIntegrationError(err)) throw err;
    return outcome.failed(`Alertmanager unavailable: ${errorMessage(err)}`, {
      reason: 'AlertmanagerUnavailable',
      waitFor: { until: ctx.clock.now() + OUTSIDE_API_RETRY_MS },
    });
  }
}

/** 7 CreateControlPlaneMaintWindow: runs until the window was removed (the status is the lasting record). */
export const createControlPlaneMaintWindow: Step<StepContext> = {
  name: 'CreateControlPlaneMaintWindow',
  condition: C.ControlPlaneMaintenanceWindowCreated,
  async run(ctx, signal) {
    if (conditionTrue(ctx.history, C.ControlPlaneMaintenanceWindowRemoved)) return outcome.done();
    return withAlertmanager(ctx, async () => {
      const now = ctx.clock.now();
      const changes = await ensureControlPlaneWindow(ctx.alertmanager, {
        version: desiredVersion(ctx),
        endsAt: now + ctx.config.maintenance.controlPlaneTimeMs,
        criticals: ctx.config.maintenance.ignoredAlerts.controlPlaneCriticals,
        now,
        signal,
      });
      for (const c of changes.filter((x) => x.action === 'created'))
        ctx.event('Normal', 'MaintenanceWindowCreated', `silence ${c.id}: ${c.comment}`);
      return outcome.done();
    });
  },
};

/** What keeping the control-plane window open asks of the waiting step. */
export interface WindowKeeping {
  /** When to look again (the next renewal, or a retry after Alertmanager failed). */
  nextAt?: number;
  /** Why the window could not be kept open, for the Waiting condition. */
  problem?: string;
}

/**
 * While ControlPlaneUpgraded waits, keeps the control-plane silences in force: renews each before
 * it runs out (MUO let it end `controlPlaneTime` after its creation, however long the control plane
 * took; docs/design/cluster-model.md#behaviour-9-silences-and-alerts). Step 10 removes them as
 * before. An Alertmanager failure never fails the wait: it is named and retried shortly.
 */
export async function keepControlPlaneWindow(ctx: StepContext, signal: AbortSignal): Promise<WindowKeeping> {
  if (conditionTrue(ctx.history, C.ControlPlaneMaintenanceWindowRemoved)) return {};
  const now = ctx.clock.now();
  try {
    const kept = await keepControlPlaneWindowOpen(ctx.alertmanager, {
      version: desiredVersion(ctx),
      now,
      windowMs: ctx.config.maintenance.controlPlaneTimeMs,
      signal,
    });
    for (const c of kept.changes) {
      ctx.event(
        'Normal',
        'MaintenanceWindowExtended',
        `silence ${c.id}: ${c.comment}, now until ${formatTime(c.endsAt ?? now)}${c.previous ? ` (replacing ${c.previous.join(', ')})` : ''}`,
      );
    }
    return kept.nextAt !== undefined ? { nextAt: kept.nextAt } : {};
  } catch (err) {
    if (!isIntegrationError(err)) throw err;
    ctx.log.warn({ err: errorMessage(err) }, 'could not keep the control-plane maintenance silence open');
    return {
      nextAt: now + OUTSIDE_API_RETRY_MS,
      problem: `the control-plane maintenance silence could not be extended (Alertmanager unavailable: ${errorMessage(err)})`,
    };
  }
}

/** 10 RemoveControlPlaneMaintWindow. */
export const removeControlPlaneMaintWindow: Step<StepContext> = {
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
export const createWorkerMaintWindow: Step<StepContext> = {
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
      const change = await ensureWorkerWindow(ctx.alertmanager, {
        version: desiredVersion(ctx),
        pending: rollout.pending,
        endsAt: now + windowMs,
        now,
        signal,
      });
      if (change.action !== 'kept')
        ctx.event('Normal', 'MaintenanceWindowCreated', `silence ${change.id}: ${change.comment}`);
      return outcome.done();
    });
  },
};

/** 14 RemoveMaintWindow. */
export const removeMaintWindow: Step<StepContext> = {
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
