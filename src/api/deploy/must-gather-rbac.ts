/**
 * What `upgrade-operator must-gather` reads (docs/must-gather.md), and the ClusterRole that lets
 * it: get and list only, `pods/log`, and `pods/proxy` for the metrics outside a cluster. No verb
 * writes, and `secrets` are not named at all. Not part of the generated install manifests: a
 * support engineer binds it to whoever collects (OpenShift's `oc adm must-gather` runs its pod as
 * cluster-admin anyway).
 */
import type { ClusterRole, PolicyRule } from 'kubernetes-types/rbac/v1.js';
import {
  ConfigMapResource,
  DeploymentResource,
  EventResource,
  NodeResource,
  PodDisruptionBudgetResource,
  PodResource,
} from '../builtin.js';
import { ClusterOperatorResource } from '../openshift/config-v1/cluster-operator.js';
import { ClusterVersionResource } from '../openshift/config-v1/cluster-version.js';
import { MachineSetResource } from '../openshift/machine-v1beta1/machine-set.js';
import { MachineConfigPoolResource } from '../openshift/machineconfiguration-v1/machine-config-pool.js';
import type { ResourceDescriptor } from '../resource.js';
import { ManagedUpgradeConfigResource } from '../upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { OPERATOR_NAME } from './operator-objects.js';
import { APPUIO_KINDS } from './scheduled-operator-manifests.js';

/** The cluster's kinds an upgrade is about, every object of each. */
export const MUST_GATHER_CLUSTER_KINDS: readonly ResourceDescriptor[] = [
  ClusterVersionResource,
  ClusterOperatorResource,
  MachineConfigPoolResource,
  NodeResource,
  MachineSetResource,
  PodDisruptionBudgetResource,
];

/** Both flows' kinds, every object of each. */
export const MUST_GATHER_FLOW_KINDS: readonly ResourceDescriptor[] = [ManagedUpgradeConfigResource, ...APPUIO_KINDS];

/** Read in the operator's namespaces (and Events in the upgrade's namespaces too). */
export const MUST_GATHER_NAMESPACED_KINDS: readonly ResourceDescriptor[] = [
  DeploymentResource,
  ConfigMapResource,
  PodResource,
  EventResource,
];

/** The ClusterRole name. */
export const MUST_GATHER_CLUSTER_ROLE = `${OPERATOR_NAME}-must-gather`;

/** get and list of every kind, one rule per API group. */
export function readRules(kinds: readonly ResourceDescriptor[]): PolicyRule[] {
  const byGroup = new Map<string, string[]>();
  for (const k of kinds) byGroup.set(k.group, [...(byGroup.get(k.group) ?? []), k.plural]);
  return [...byGroup].map(([group, resources]) => ({
    apiGroups: [group],
    resources: [...new Set(resources)].sort(),
    verbs: ['get', 'list'],
  }));
}

/** The ClusterRole of `must-gather`: get and list of what it reads, `pods/log`, `pods/proxy`. */
export function mustGatherClusterRole(): ClusterRole {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: MUST_GATHER_CLUSTER_ROLE, labels: { 'app.kubernetes.io/name': OPERATOR_NAME } },
    rules: [
      ...readRules([...MUST_GATHER_CLUSTER_KINDS, ...MUST_GATHER_FLOW_KINDS, ...MUST_GATHER_NAMESPACED_KINDS]),
      { apiGroups: [''], resources: ['pods/log', 'pods/proxy'], verbs: ['get'] },
    ],
  };
}
