/**
 * The Machine API's Machine (machine.openshift.io/v1beta1, namespace `openshift-machine-api`),
 * as the operator reads it (docs/design/cluster-model.md#machines). Plain JSON shapes.
 */
import type { ObjectReference, Taint } from 'kubernetes-types/core/v1.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import type { JsonObject } from '../../../lib/json.js';
import { resource, type KubeObjectLike } from '../../resource.js';

/** A lifecycle hook that blocks drain or termination until removed. */
export interface LifecycleHook {
  name: string;
  owner: string;
}

/** The Machine API's own ObjectMeta (Machine templates and the Node metadata of a Machine). */
export interface MachineObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
}

/** `spec` of a Machine. */
export interface MachineSpec {
  /** Labels and annotations to put on the Node. */
  metadata?: MachineObjectMeta;
  lifecycleHooks?: { preDrain?: LifecycleHook[]; preTerminate?: LifecycleHook[] };
  taints?: Taint[];
  providerSpec?: { value?: JsonObject };
  providerID?: string;
  authoritativeAPI?: string;
}

/** Machine phases. */
export type MachinePhase = 'Provisioning' | 'Provisioned' | 'Running' | 'Deleting' | 'Failed';

/** A condition of a Machine or MachineSet. */
export interface MachineCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  severity?: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** `status` of a Machine. */
export interface MachineStatus {
  nodeRef?: ObjectReference;
  lastUpdated?: string;
  errorReason?: string;
  errorMessage?: string;
  providerStatus?: JsonObject;
  addresses?: { type: string; address: string }[];
  lastOperation?: { description?: string; lastUpdated?: string; state?: string; type?: string };
  phase?: MachinePhase;
  conditions?: MachineCondition[];
}

/** Machine object. */
export interface Machine extends KubeObjectLike {
  spec?: MachineSpec;
  status?: MachineStatus;
}

/** Descriptor of machine.openshift.io/v1beta1 Machine. */
export const MachineResource = resource<Machine>({
  group: 'machine.openshift.io',
  version: 'v1beta1',
  kind: 'Machine',
  plural: 'machines',
  namespaced: true,
});

/** Namespace of the Machine API objects. */
export const MACHINE_API_NAMESPACE = 'openshift-machine-api';

/** Labels and annotations of the Machine API. */
export const MachineLabel = {
  Cluster: 'machine.openshift.io/cluster-api-cluster',
  MachineRole: 'machine.openshift.io/cluster-api-machine-role',
  MachineType: 'machine.openshift.io/cluster-api-machine-type',
  MachineSet: 'machine.openshift.io/cluster-api-machineset',
} as const;

/** Annotations of the Machine API. */
export const MachineAnnotation = {
  InstanceState: 'machine.openshift.io/instance-state',
  DeleteMachine: 'machine.openshift.io/delete-machine',
  ExcludeNodeDraining: 'machine.openshift.io/exclude-node-draining',
  /** On the Node: `openshift-machine-api/<machine>`. */
  NodeMachine: 'machine.openshift.io/machine',
} as const;

/** The Machine finalizer. */
export const MACHINE_FINALIZER = 'machine.machine.openshift.io';
