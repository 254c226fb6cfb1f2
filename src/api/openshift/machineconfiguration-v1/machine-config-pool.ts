/**
 * The MCO's MachineConfigPool (machineconfiguration.openshift.io/v1, cluster-scoped, short name
 * `mcp`), as the operator reads and patches it (docs/design/cluster-model.md#pools,
 * docs/design/cluster-model.md#node-annotations).
 */
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { resource, type KubeObjectLike } from '../../resource.js';

/** A rendered config (an ObjectReference, usually just its name) and the MachineConfigs it was made of. */
export interface MachineConfigPoolStatusConfiguration extends ObjectReference {
  source?: ObjectReference[];
}

/** `spec` of a MachineConfigPool. */
export interface MachineConfigPoolSpec {
  machineConfigSelector?: LabelSelector;
  nodeSelector?: LabelSelector;
  /** The MCO serializes it even when false; objects written by users may omit it (= false). */
  paused?: boolean;
  /** Int or percent string; default 1. */
  maxUnavailable?: number | string;
  /** The target rendered config. */
  configuration?: MachineConfigPoolStatusConfiguration;
}

/** A condition of a MachineConfigPool: every field is always serialized (reason and message may be ''). */
export interface MachineConfigPoolCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime: string | null;
  reason: string;
  message: string;
}

/** `status` of a MachineConfigPool. */
export interface MachineConfigPoolStatus {
  observedGeneration?: number;
  /** The rendered config every node is on. */
  configuration: MachineConfigPoolStatusConfiguration;
  machineCount: number;
  updatedMachineCount: number;
  readyMachineCount: number;
  unavailableMachineCount: number;
  degradedMachineCount: number;
  conditions?: MachineConfigPoolCondition[];
  certExpirys?: { bundle: string; subject: string; expiry?: string }[];
}

/** MachineConfigPool object. */
export interface MachineConfigPool extends KubeObjectLike {
  spec: MachineConfigPoolSpec;
  status?: MachineConfigPoolStatus;
}

/** Descriptor of machineconfiguration.openshift.io/v1 MachineConfigPool. */
export const MachineConfigPoolResource = resource<MachineConfigPool>({
  group: 'machineconfiguration.openshift.io',
  version: 'v1',
  kind: 'MachineConfigPool',
  plural: 'machineconfigpools',
  namespaced: false,
});

/** Condition types of MachineConfigPools. */
export const MachineConfigPoolConditionType = {
  Updated: 'Updated',
  Updating: 'Updating',
  NodeDegraded: 'NodeDegraded',
  RenderDegraded: 'RenderDegraded',
  Degraded: 'Degraded',
} as const;

/** Node annotations written by the MCO (`pkg/daemon/constants`). */
export const MachineConfigNodeAnnotation = {
  CurrentConfig: 'machineconfiguration.openshift.io/currentConfig',
  DesiredConfig: 'machineconfiguration.openshift.io/desiredConfig',
  State: 'machineconfiguration.openshift.io/state',
  Reason: 'machineconfiguration.openshift.io/reason',
  DesiredDrain: 'machineconfiguration.openshift.io/desiredDrain',
  LastAppliedDrain: 'machineconfiguration.openshift.io/lastAppliedDrain',
  PostConfigAction: 'machineconfiguration.openshift.io/post-config-action',
  ControlPlaneTopology: 'machineconfiguration.openshift.io/controlPlaneTopology',
} as const;

/** Values of the node `state` annotation. */
export const MachineConfigDaemonState = {
  Done: 'Done',
  Working: 'Working',
  Degraded: 'Degraded',
  Unreconcilable: 'Unreconcilable',
} as const;

/** Labels of the built-in pools. */
export const MachineConfigPoolLabel = {
  BuiltIn: 'machineconfiguration.openshift.io/mco-built-in',
  RequiredForUpgrade: 'operator.machineconfiguration.openshift.io/required-for-upgrade',
  MasterPool: 'pools.operator.machineconfiguration.openshift.io/master',
  WorkerPool: 'pools.operator.machineconfiguration.openshift.io/worker',
} as const;
