/**
 * Cluster profiles of the simulation as data: the nodes an installed cluster starts with (names,
 * labels, roles, zones, taints, addresses), the MachineSets owning them, the MachineConfigPools,
 * the platform and topology the Infrastructure object reports, the duration column of
 * docs/design/cluster-model.md#durations the components draw from, and the starting version and
 * channel. `createSimulatedCluster` turns a profile into API objects. The shapes live in
 * `profiles/ha-cloud.ts`, `profiles/bare-metal.ts` and `profiles/single-node.ts`.
 */
import type { Taint } from 'kubernetes-types/core/v1.js';
import type { PlatformType, TopologyMode } from '../api/openshift/config-v1/infrastructure.js';
import type { CvoDurations } from './cvo/durations.js';
import type { MachineApiDurations } from './machineapi/machine-controller.js';
import type { DaemonDurations, DrainDurations } from './mco/daemon/durations.js';
import type { MachineConfigOperatorDurations } from './mco/operator.js';
import type { OperatorDurations } from './operators/durations.js';
import { bareMetalProfile } from './profiles/bare-metal.js';
import { haCloudProfile } from './profiles/ha-cloud.js';
import { singleNodeProfile } from './profiles/single-node.js';

/** The pool role of a node: the `node-role.kubernetes.io/<role>` label its pool selects. */
export type NodeRole = 'master' | 'worker' | 'infra';

/** One node of a profile. */
export interface NodeProfile {
  name: string;
  role: NodeRole;
  /** `topology.kubernetes.io/zone`; undefined where the platform has no zones (bare metal, none). */
  zone: string | undefined;
  /** Every label the node carries (roles, topology, hostname, OS). */
  labels: Record<string, string>;
  /** `spec.taints` (the master NoSchedule taint unless masters are schedulable). */
  taints: Taint[];
  /** `spec.providerID`; undefined for hosts no cloud provider knows. */
  providerID: string | undefined;
  internalIP: string;
  /** Capacity as the kubelet reports it. */
  resources: { cpu: string; allocatableCpu: string; memory: string };
  /** Nodes of a MachineSet: the MachineSet and the name of the Machine owning this node. */
  machine?: { machineSet: string; name: string };
}

/** A MachineSet of a profile (one Machine per node naming it). */
export interface MachineSetProfile {
  name: string;
  /** The role of its machines (`worker` or `infra`). */
  role: 'worker' | 'infra';
  zone: string;
  instanceType: string;
}

/** A MachineConfigPool of a profile. */
export interface PoolProfile {
  name: string;
  maxUnavailable?: number | string;
  /** `spec.paused` at install (default false). */
  paused?: boolean;
}

/** The duration column (docs/design/cluster-model.md#durations) the components of a profile draw from. */
export interface ProfileDurations {
  cvo: CvoDurations;
  operators: OperatorDurations;
  machineConfigOperator: MachineConfigOperatorDurations;
  daemon: DaemonDurations;
  drain: DrainDurations;
  machineApi: MachineApiDurations;
}

/** A cluster shape. */
export interface ClusterProfile {
  name: string;
  /** The infrastructure name (`<cluster>-<random>`), prefix of MachineSet and Machine names. */
  infrastructureName: string;
  /** The cluster's DNS name: the API server is `https://api.<clusterDomain>:6443`. */
  clusterDomain: string;
  /** Infrastructure `status.platformStatus.type`. */
  platform: PlatformType;
  /** Cloud region (AWS); undefined elsewhere. */
  region: string | undefined;
  controlPlaneTopology: TopologyMode;
  infrastructureTopology: TopologyMode;
  nodes: NodeProfile[];
  machineSets: MachineSetProfile[];
  pools: PoolProfile[];
  durations: ProfileDurations;
  /** The version installed and the channel set at install time. */
  version: string;
  channel: string;
}

/** Options every profile accepts. */
export interface ProfileOptions {
  version?: string | undefined;
  channel?: string | undefined;
  /** Worker nodes (default 3; single-node: 0 only). On a cloud, spread over the zones, one MachineSet per zone. */
  workers?: number | undefined;
  /** Nodes of an `infra` pool (`node-role.kubernetes.io/infra`), with their own MachineSets on a cloud (default 0). */
  infraNodes?: number | undefined;
}

/** The names {@link profileByName} knows. */
export const PROFILE_NAMES = ['ha-cloud', 'bare-metal', 'single-node'] as const;

/** Profiles by name (see {@link PROFILE_NAMES}); throws on an unknown name or invalid options. */
export function profileByName(name: string, options: ProfileOptions = {}): ClusterProfile {
  switch (name) {
    case 'ha-cloud':
      return haCloudProfile(options);
    case 'bare-metal':
      return bareMetalProfile(options);
    case 'single-node':
      return singleNodeProfile(options);
    default:
      throw new Error(`unknown cluster profile ${JSON.stringify(name)}; profiles: ${PROFILE_NAMES.join(', ')}`);
  }
}
