/**
 * OpenShift's Infrastructure (config.openshift.io/v1): cluster-scoped, one object named
 * `cluster`. The operator reads the infrastructure name, platform and topology. Plain JSON.
 */
import type { JsonObject } from '../../../lib/json.js';
import { resource, type KubeObjectLike } from '../../resource.js';

/** Control-plane and infrastructure topologies. */
export type TopologyMode = 'HighlyAvailable' | 'HighlyAvailableArbiter' | 'SingleReplica' | 'DualReplica' | 'External';

/** `status.platformStatus`: the platform type plus a per-platform block (e.g. `aws: {region}`). */
export interface PlatformStatus {
  /** e.g. AWS, Azure, GCP, BareMetal, VSphere, OpenStack, None, External. */
  type: string;
  [platform: string]: string | JsonObject | undefined;
}

/** `status` of Infrastructure. */
export interface InfrastructureStatus {
  /** The cluster's infrastructure ID, e.g. `mycluster-x7k2p`; MachineSet names start with it. */
  infrastructureName?: string;
  /** Deprecated: use platformStatus.type. */
  platform?: string;
  platformStatus?: PlatformStatus;
  etcdDiscoveryDomain?: string;
  apiServerURL?: string;
  apiServerInternalURI?: string;
  controlPlaneTopology?: TopologyMode;
  infrastructureTopology?: TopologyMode;
  cpuPartitioning?: 'None' | 'AllNodes';
}

/** `spec` of Infrastructure. */
export interface InfrastructureSpec {
  cloudConfig?: { key?: string; name?: string };
  platformSpec?: { type?: string; [platform: string]: string | JsonObject | undefined };
}

/** Infrastructure object. */
export interface Infrastructure extends KubeObjectLike {
  spec?: InfrastructureSpec;
  status?: InfrastructureStatus;
}

/** Descriptor of config.openshift.io/v1 Infrastructure. */
export const InfrastructureResource = resource<Infrastructure>({
  group: 'config.openshift.io',
  version: 'v1',
  kind: 'Infrastructure',
  plural: 'infrastructures',
  namespaced: false,
});

/** The name of the one Infrastructure. */
export const INFRASTRUCTURE_NAME = 'cluster';
