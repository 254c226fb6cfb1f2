/**
 * The ARO upgrader (muo.md §3.2): MUO's 14 steps — the OSD list without the delayed check,
 * IsUpgradeable and the post-upgrade procedures — and no failure window.
 */
import type { Step } from '../engine/step.js';
import type { ManagedStepContext } from './managed-context.js';
import { ensureExtraUpgradeWorkers, removeExtraScaledNodes } from './managed-steps/capacity-steps.js';
import { commenceUpgradeStep, controlPlaneUpgraded } from './managed-steps/control-plane-steps.js';
import { externalDependencyCheck, type UrlProbe } from './managed-steps/external-dependency-step.js';
import { postUpgradeHealthCheckStep, preUpgradeHealthCheckStep } from './managed-steps/health-check-steps.js';
import { createControlPlaneMaintWindow, createWorkerMaintWindow, removeControlPlaneMaintWindow, removeMaintWindow } from './managed-steps/maintenance-steps.js';
import { sendCompletedNotification, sendStartedNotification } from './managed-steps/notification-steps.js';
import { allWorkersUpgraded } from './managed-steps/worker-step.js';

/** MUO's 14 ARO steps, in order. */
export function aroSteps(probe: UrlProbe): Array<Step<ManagedStepContext>> {
  return [
    sendStartedNotification,
    preUpgradeHealthCheckStep,
    externalDependencyCheck(probe),
    ensureExtraUpgradeWorkers,
    createControlPlaneMaintWindow,
    commenceUpgradeStep,
    controlPlaneUpgraded,
    removeControlPlaneMaintWindow,
    createWorkerMaintWindow,
    allWorkersUpgraded,
    removeExtraScaledNodes,
    removeMaintWindow,
    postUpgradeHealthCheckStep,
    sendCompletedNotification,
  ];
}
