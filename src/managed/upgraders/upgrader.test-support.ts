/**
 * Test support specific to the managed upgraders: MUO's step list, which both upgraders' tests
 * check theirs against. The step context, the cluster and the outside APIs are the steps' fakes
 * (src/managed/steps/step-context.test-support.ts).
 */

/** MUO's 17 OSD steps, in MUO's order (docs/design/managed-flow.md#the-step-lists). */
export const OSD_STEP_NAMES: readonly string[] = [
  'SendStartedNotification',
  'UpgradeDelayedCheck',
  'IsUpgradeable',
  'PreUpgradeHealthCheck',
  'ExternalDependencyAvailabilityCheck',
  'EnsureExtraUpgradeWorkers',
  'CreateControlPlaneMaintWindow',
  'CommenceUpgrade',
  'ControlPlaneUpgraded',
  'RemoveControlPlaneMaintWindow',
  'CreateWorkerMaintWindow',
  'AllWorkersUpgraded',
  'RemoveExtraScaledNodes',
  'RemoveMaintWindow',
  'PostUpgradeHealthCheck',
  'PostUpgradeProcedures',
  'SendCompletedNotification',
];
