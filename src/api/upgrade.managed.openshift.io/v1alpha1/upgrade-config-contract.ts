/**
 * Contract of MUO's UpgradeConfig (upgrade.managed.openshift.io/v1alpha1): its resource descriptor
 * and the exact strings of the anchor (docs/design/managed-flow.md#the-upgradeconfig,
 * docs/design/managed-flow.md#the-operator-configmap). No TypeBox here: the operator's runtime
 * imports this module cheaply.
 */
import { resource } from '../../resource.js';
import type { ManagedUpgradeConfig } from './upgrade-config.js';

/** API group of MUO's kinds. */
export const MANAGED_UPGRADE_GROUP = 'upgrade.managed.openshift.io';
/** The one version MUO serves. */
export const MANAGED_UPGRADE_VERSION = 'v1alpha1';

/** Descriptor of MUO's UpgradeConfig (namespaced, plural `upgradeconfigs`). */
export const ManagedUpgradeConfigResource = resource<ManagedUpgradeConfig>({
  group: MANAGED_UPGRADE_GROUP,
  version: MANAGED_UPGRADE_VERSION,
  kind: 'UpgradeConfig',
  plural: 'upgradeconfigs',
  namespaced: true,
});

/** `spec.type`: which upgrader runs the upgrade. */
export const UPGRADE_TYPES = ['OSD', 'ARO'] as const;
/** A value of `spec.type`. */
export type UpgradeType = (typeof UPGRADE_TYPES)[number];

/** `status.history[].phase` values the CRD accepts. */
export const UPGRADE_PHASES = ['New', 'Pending', 'Upgrading', 'Upgraded', 'Failed'] as const;
/** A phase of an upgrade history entry. */
export type UpgradePhase = (typeof UPGRADE_PHASES)[number];
/** The Go-only phase `Unknown`: not in the CRD enum; the controller treats it as a no-op. */
export const UPGRADE_PHASE_UNKNOWN = 'Unknown';

/** Condition types of `status.history[].conditions[]`, one per upgrade step, in step order. */
export const UpgradeConditionType = {
  StartedNotificationSent: 'StartedNotificationSent',
  IsClusterUpgradable: 'IsClusterUpgradable',
  ClusterHealthyBeforeUpgrade: 'ClusterHealthyBeforeUpgrade',
  ExternalDependenciesAvailable: 'ExternalDependenciesAvailable',
  ComputeCapacityReserved: 'ComputeCapacityReserved',
  ControlPlaneMaintenanceWindowCreated: 'ControlPlaneMaintenanceWindowCreated',
  UpgradeCommenced: 'UpgradeCommenced',
  ControlPlaneUpgraded: 'ControlPlaneUpgraded',
  ControlPlaneMaintenanceWindowRemoved: 'ControlPlaneMaintenanceWindowRemoved',
  WorkersMaintenanceWindowCreated: 'WorkersMaintenanceWindowCreated',
  WorkerNodesUpgraded: 'WorkerNodesUpgraded',
  ComputeCapacityRemoved: 'ComputeCapacityRemoved',
  WorkersMaintenanceWindowRemoved: 'WorkersMaintenanceWindowRemoved',
  ClusterHealthyAfterUpgrade: 'ClusterHealthyAfterUpgrade',
  PostUpgradeTasksCompleted: 'PostUpgradeTasksCompleted',
  CompletedNotificationSent: 'CompletedNotificationSent',
  /** Written ad hoc when the OSD upgrade window is exceeded. */
  FailedUpgrade: 'FailedUpgrade',
} as const;
/** A condition type of an upgrade step. */
export type UpgradeConditionTypeName = (typeof UpgradeConditionType)[keyof typeof UpgradeConditionType];

/** Feature gates read from `featureGate.enabled` in the operator ConfigMap. */
export const FeatureGate = {
  PreHealthCheck: 'PreHealthCheck',
  ServiceLogNotification: 'ServiceLogNotification',
} as const;
/** A MUO feature gate name. */
export type FeatureGateName = (typeof FeatureGate)[keyof typeof FeatureGate];

/** The only UpgradeConfig name the controller acts on. */
export const MANAGED_UPGRADE_CONFIG_NAME = 'managed-upgrade-config';
/** MUO's operator name. */
export const MANAGED_UPGRADE_OPERATOR_NAME = 'managed-upgrade-operator';
/** MUO's namespace. */
export const MANAGED_UPGRADE_OPERATOR_NAMESPACE = 'openshift-managed-upgrade-operator';
/** The operator ConfigMap and its key. */
export const MANAGED_UPGRADE_CONFIGMAP_NAME = 'managed-upgrade-operator-config';
/** The key of the operator ConfigMap that holds the YAML configuration. */
export const MANAGED_UPGRADE_CONFIGMAP_KEY = 'config.yaml';

/** Label put on the extra MachineSets/Machines of capacity reservation (value `true`). */
export const LABEL_UPGRADE = 'upgrade.managed.openshift.io';
/** Label naming a MachineSet's Hive machine pool (the workers': {@link WORKER_MACHINE_POOL}). */
export const LABEL_HIVE_MACHINE_POOL = 'hive.openshift.io/machine-pool';
/**
 * The Hive machine pool of the workers: the {@link LABEL_HIVE_MACHINE_POOL} value of the worker
 * MachineSets that capacity reservation clones. Not a MachineConfigPool (that one is
 * `WORKER_MACHINE_CONFIG_POOL` in src/managed/cluster-version/worker-pools.ts), though both are
 * named `worker`.
 */
export const WORKER_MACHINE_POOL = 'worker';
/** Suffix of a capacity-reservation MachineSet clone: `<original>-upgrade`. */
export const UPGRADE_MACHINESET_SUFFIX = '-upgrade';
