/**
 * OpenShift's ClusterVersion (config.openshift.io/v1), as the operator reads and writes it
 * (docs/design/cluster-model.md#clusterversion). Plain JSON shapes; timestamps are RFC 3339 text.
 */
import type { Condition } from 'kubernetes-types/meta/v1.js';
import { resource, type KubeObjectLike } from '../../resource.js';

/** `spec.desiredUpdate`: an administrator's update request. All four fields are always serialized. */
export interface Update {
  /** `Multi` or ''. Must not be set with image; needs version. */
  architecture?: '' | 'Multi';
  version?: string;
  image?: string;
  force?: boolean;
  /** [gated: ClusterUpdateAcceptRisks] */
  acceptRisks?: { name: string }[];
  /** [gated: ClusterUpdatePreflight] */
  mode?: string;
}

/** Names of the capability sets of `spec.capabilities.baselineCapabilitySet`. */
export const CAPABILITY_SETS = [
  'None',
  'v4.11',
  'v4.12',
  'v4.13',
  'v4.14',
  'v4.15',
  'v4.16',
  'v4.17',
  'v4.18',
  'vCurrent',
] as const;
/** A capability set name. */
export type CapabilitySet = (typeof CAPABILITY_SETS)[number];

/** Optional cluster capabilities known to the API. */
export const CAPABILITIES = [
  'openshift-samples',
  'baremetal',
  'marketplace',
  'Console',
  'Insights',
  'Storage',
  'CSISnapshot',
  'NodeTuning',
  'MachineAPI',
  'Build',
  'DeploymentConfig',
  'ImageRegistry',
  'OperatorLifecycleManager',
  'CloudCredential',
  'Ingress',
  'CloudControllerManager',
  'OperatorLifecycleManagerV1',
] as const;
/** An optional cluster capability. */
export type Capability = (typeof CAPABILITIES)[number];

/** `spec.capabilities`. */
export interface ClusterVersionCapabilitiesSpec {
  baselineCapabilitySet?: CapabilitySet;
  additionalEnabledCapabilities?: Capability[];
}

/** One entry of `spec.overrides`. */
export interface ComponentOverride {
  kind: string;
  group: string;
  namespace: string;
  name: string;
  unmanaged: boolean;
}

/** One entry of `spec.signatureStores`. */
export interface SignatureStore {
  url: string;
  ca?: { name: string };
}

/** `spec` of ClusterVersion. */
export interface ClusterVersionSpec {
  clusterID: string;
  desiredUpdate?: Update;
  upstream?: string;
  channel?: string;
  capabilities?: ClusterVersionCapabilitiesSpec;
  signatureStores?: SignatureStore[];
  overrides?: ComponentOverride[];
}

/** A release: `status.desired`, `availableUpdates[]`, `conditionalUpdates[].release`. */
export interface Release {
  version: string;
  image: string;
  url?: string;
  channels?: string[];
  architecture?: '' | 'Multi';
}

/** `history[].state`. */
export type UpdateState = 'Completed' | 'Partial';

/** One entry of `status.history`, newest first. */
export interface UpdateHistory {
  state: UpdateState;
  startedTime: string;
  /** null while the update is in progress. */
  completionTime: string | null;
  version: string;
  image: string;
  verified: boolean;
  acceptedRisks?: string;
}

/** A condition of ClusterVersion or ClusterOperator (no observedGeneration). */
export interface ClusterOperatorStatusCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastTransitionTime: string;
  reason?: string;
  message?: string;
}

/** One rule of a conditional-update risk. */
export interface ClusterCondition {
  type: 'Always' | 'PromQL';
  promql?: { promql: string };
}

/** A known risk of a conditional update. */
export interface ConditionalUpdateRisk {
  url: string;
  name: string;
  message: string;
  matchingRules: ClusterCondition[];
  conditions?: Condition[];
}

/** An update recommended only to some clusters. */
export interface ConditionalUpdate {
  release: Release;
  risks: ConditionalUpdateRisk[];
  conditions?: Condition[];
  riskNames?: string[];
}

/** `status` of ClusterVersion. */
export interface ClusterVersionStatus {
  desired: Release;
  history?: UpdateHistory[];
  observedGeneration: number;
  versionHash: string;
  capabilities?: { enabledCapabilities?: Capability[]; knownCapabilities?: Capability[] };
  conditions?: ClusterOperatorStatusCondition[];
  /** null when empty (no omitempty). */
  availableUpdates: Release[] | null;
  conditionalUpdates?: ConditionalUpdate[];
  conditionalUpdateRisks?: ConditionalUpdateRisk[];
}

/** ClusterVersion: cluster-scoped, one object named `version`. */
export interface ClusterVersion extends KubeObjectLike {
  spec: ClusterVersionSpec;
  status?: ClusterVersionStatus;
}

/** Descriptor of config.openshift.io/v1 ClusterVersion. */
export const ClusterVersionResource = resource<ClusterVersion>({
  group: 'config.openshift.io',
  version: 'v1',
  kind: 'ClusterVersion',
  plural: 'clusterversions',
  namespaced: false,
});

/** The name of the one ClusterVersion. */
export const CLUSTER_VERSION_NAME = 'version';

/** Condition types the CVO publishes on ClusterVersion. */
export const ClusterVersionConditionType = {
  Available: 'Available',
  Progressing: 'Progressing',
  Failing: 'Failing',
  Degraded: 'Degraded',
  RetrievedUpdates: 'RetrievedUpdates',
  ReleaseAccepted: 'ReleaseAccepted',
  Upgradeable: 'Upgradeable',
  ImplicitlyEnabledCapabilities: 'ImplicitlyEnabledCapabilities',
  Invalid: 'Invalid',
} as const;

/** The default update service. */
export const DEFAULT_UPSTREAM = 'https://api.openshift.com/api/upgrades_info/v1/graph';
