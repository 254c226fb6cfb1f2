/**
 * OpenShift's Infrastructure (config.openshift.io/v1): cluster-scoped, one object named
 * `cluster`. The operator reads the infrastructure name, platform and topology. Plain JSON.
 */
import type { JsonObject } from '../../../lib/json.js';
import { resource, type KubeObjectLike } from '../../resource.js';

/** Control-plane and infrastructure topologies. */
export const TOPOLOGY_MODES = [
  'HighlyAvailable',
  'HighlyAvailableArbiter',
  'SingleReplica',
  'DualReplica',
  'External',
] as const;
/** A control-plane or infrastructure topology. */
export type TopologyMode = (typeof TOPOLOGY_MODES)[number];

/** `platformStatus.type` / `platformSpec.type`: the infrastructure provider. */
export const PLATFORM_TYPES = [
  '',
  'AWS',
  'Azure',
  'BareMetal',
  'GCP',
  'Libvirt',
  'OpenStack',
  'None',
  'VSphere',
  'oVirt',
  'IBMCloud',
  'KubeVirt',
  'EquinixMetal',
  'PowerVS',
  'AlibabaCloud',
  'Nutanix',
  'External',
] as const;
/** An infrastructure provider. */
export type PlatformType = (typeof PLATFORM_TYPES)[number];

/** Keys of the per-platform blocks of `platformSpec` and `platformStatus` (e.g. `aws: {region}`). */
export const PLATFORM_KEYS = [
  'aws',
  'azure',
  'gcp',
  'baremetal',
  'openstack',
  'ovirt',
  'vsphere',
  'ibmcloud',
  'kubevirt',
  'equinixMetal',
  'powervs',
  'alibabaCloud',
  'nutanix',
  'external',
] as const;
/** A per-platform block key. */
export type PlatformKey = (typeof PLATFORM_KEYS)[number];

/** `status.platformStatus` (and `spec.platformSpec`): the platform type plus its per-platform block. */
export type PlatformStatus = { type: PlatformType } & { [K in PlatformKey]?: JsonObject };

/** `status` of Infrastructure. */
export interface InfrastructureStatus {
  /** The cluster's infrastructure ID, e.g. `mycluster-x7k2p`; MachineSet names start with it. */
  infrastructureName?: string;
  /** Deprecated: use platformStatus.type. */
  platform?: PlatformType;
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
  platformSpec?: PlatformStatus;
}

/** Infrastructure object. */
export interface Infrastructure extends KubeObjectLike {
  spec: InfrastructureSpec;
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
