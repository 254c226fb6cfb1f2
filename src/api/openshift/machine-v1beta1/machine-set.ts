/**
 * The Machine API's MachineSet (machine.openshift.io/v1beta1, namespace
 * `openshift-machine-api`, with a `scale` subresource), as the operator reads and clones it
 * (docs/design/cluster-model.md#machinesets). Plain JSON shapes.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import { resource, type KubeObjectLike } from '../../resource.js';
import type { MachineCondition, MachineObjectMeta, MachineSpec } from './machine.js';

/** `spec` of a MachineSet. */
export interface MachineSetSpec {
  replicas?: number;
  minReadySeconds?: number;
  deletePolicy?: 'Random' | 'Newest' | 'Oldest';
  selector: LabelSelector;
  template?: {
    metadata?: MachineObjectMeta;
    spec?: MachineSpec;
  };
  authoritativeAPI?: string;
}

/** `status` of a MachineSet. */
export interface MachineSetStatus {
  /** Always serialized (no omitempty). */
  replicas: number;
  fullyLabeledReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  observedGeneration?: number;
  errorReason?: string;
  errorMessage?: string;
  conditions?: MachineCondition[];
}

/** MachineSet object. */
export interface MachineSet extends KubeObjectLike {
  spec?: MachineSetSpec;
  status?: MachineSetStatus;
}

/** Descriptor of machine.openshift.io/v1beta1 MachineSet. */
export const MachineSetResource = resource<MachineSet>({
  group: 'machine.openshift.io',
  version: 'v1beta1',
  kind: 'MachineSet',
  plural: 'machinesets',
  namespaced: true,
});
