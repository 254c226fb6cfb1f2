/**
 * The permissions `upgrade-operator run --flows scheduled` needs, derived from the requests its
 * code makes, each with the reason and the code that makes it. Least privilege, tighter than
 * APPUiO's `manager-role` (one ClusterRole with full access to the six kinds and to Jobs): the
 * six managedupgrade.appuio.io kinds, the hook Jobs and the Events about them are granted by a
 * Role in the operator's namespace, which is where the shipped Deployment points `--namespace`
 * and `--managed-cluster-version-namespace` (POD_NAMESPACE); Machines by a Role in
 * `--machine-namespace`; writes to the ClusterVersion only by name. Cluster-wide remain the
 * informers of cluster-scoped kinds, the MachineConfigPool pause and unpause (any pool may be
 * delayed) and NodeForceDrain's per-node Pod list, Pod deletes, Namespace and DaemonSet reads
 * (pods of any namespace may be on a draining node).
 */
import {
  DaemonSetResource,
  EventResource,
  JobResource,
  LeaseResource,
  NamespaceResource,
  NodeResource,
  PodResource,
} from '../builtin.js';
import { ManagedClusterVersionResource } from '../managedupgrade.appuio.io/v1beta1/cluster-version-contract.js';
import { NodeForceDrainResource } from '../managedupgrade.appuio.io/v1beta1/node-force-drain-contract.js';
import { ScheduledUpgradeConfigResource } from '../managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import { UpgradeJobResource } from '../managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { UpgradeJobHookResource } from '../managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { UpgradeSuspensionWindowResource } from '../managedupgrade.appuio.io/v1beta1/upgrade-suspension-window-contract.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../openshift/config-v1/cluster-version.js';
import { ClusterOperatorResource } from '../openshift/config-v1/cluster-operator.js';
import { MACHINE_API_NAMESPACE, MachineResource } from '../openshift/machine-v1beta1/machine.js';
import { MachineConfigPoolResource } from '../openshift/machineconfiguration-v1/machine-config-pool.js';
import type { ResourceDescriptor } from '../resource.js';
import { policyRule, type GrantScope, type PermissionGrant } from './operator-objects.js';
import { CLUSTER_SCOPED_EVENTS_NAMESPACE } from './managed-operator-rbac.js';
import { notificationPermissions } from './notification-rbac.js';

/** Options of {@link scheduledOperatorPermissions}. */
export interface ScheduledPermissionOptions {
  /** The Lease of leader election (`--leader-election-id`). */
  leaseName: string;
  /** `--managed-upstream-cluster-version-name` (default `version`). */
  clusterVersionName?: string;
  /** `--machine-namespace` (default `openshift-machine-api`). */
  machineNamespace?: string;
}

const CLUSTER: GrantScope = { kind: 'cluster' };
const OPERATOR_NS: GrantScope = { kind: 'operator-namespace' };

function on(
  resourceDescriptor: ResourceDescriptor,
  verbs: string[],
  resourceNames?: string[],
): ReturnType<typeof policyRule> {
  return policyRule([resourceDescriptor.group], [resourceDescriptor.plural], verbs, resourceNames);
}

function statusOf(resourceDescriptor: ResourceDescriptor, verbs: string[]): ReturnType<typeof policyRule> {
  return policyRule([resourceDescriptor.group], [`${resourceDescriptor.plural}/status`], verbs);
}

const JOB_CODE = ['scheduled/controllers/upgrade-job-controller.ts', 'scheduled/controllers/upgrade-job-pass.ts'];
const CONFIG_CODE = [
  'scheduled/controllers/upgrade-config-controller.ts',
  'scheduled/controllers/upgrade-config-pass.ts',
];
const DRAIN_CODE = ['scheduled/controllers/node-force-drain-controller.ts'];
const SYNC_CODE = ['scheduled/controllers/cluster-version-sync-controller.ts'];
const WINDOW_CODE = ['scheduled/controllers/upgrade-suspension-window-controller.ts'];

/** Every permission of the scheduled-flow operator but leader election's, cluster-wide first. */
export function scheduledOperatorPermissions(options: ScheduledPermissionOptions): PermissionGrant[] {
  const clusterVersion = options.clusterVersionName ?? CLUSTER_VERSION_NAME;
  const machines: GrantScope = { kind: 'namespace', namespace: options.machineNamespace ?? MACHINE_API_NAMESPACE };
  return [
    {
      scope: CLUSTER,
      rule: on(NodeResource, ['list', 'watch']),
      reason:
        'Node cache: NodeForceDrain finds draining nodes, the UpgradeJob counts pool nodes, the cluster-state metrics',
      code: [...DRAIN_CODE, 'cli/scheduled-operator.ts'],
    },
    {
      scope: CLUSTER,
      rule: on(PodResource, ['list', 'delete']),
      reason:
        'NodeForceDrain lists the pods of a draining node uncached (field selector spec.nodeName) and deletes those left after the grace periods',
      code: DRAIN_CODE,
    },
    {
      scope: CLUSTER,
      rule: on(NamespaceResource, ['get']),
      reason: 'NodeForceDrain reads the namespace of a pod to match spec.namespaceSelector',
      code: DRAIN_CODE,
    },
    {
      scope: CLUSTER,
      rule: on(DaemonSetResource, ['get']),
      reason:
        'NodeForceDrain skips the pods of an existing DaemonSet (an orphaned DaemonSet pod is deleted, as kubectl drain does)',
      code: DRAIN_CODE,
    },
    {
      scope: CLUSTER,
      rule: on(ClusterVersionResource, ['list', 'watch']),
      reason: 'ClusterVersion cache: available updates, version history, upgrade progress',
      code: [...CONFIG_CODE, ...JOB_CODE, ...SYNC_CODE],
    },
    {
      scope: CLUSTER,
      rule: on(ClusterVersionResource, ['get', 'update', 'patch'], [clusterVersion]),
      reason:
        'the UpgradeJob merge-patches the lock annotation and spec.desiredUpdate; the ClusterVersion sync reads and replaces the spec it owns',
      code: ['scheduled/steps/upgrade-job-steps.ts', 'scheduled/steps/upgrade-job-final.ts', ...SYNC_CODE],
    },
    {
      scope: CLUSTER,
      rule: on(ClusterOperatorResource, ['list', 'watch']),
      reason: 'ClusterOperator health checks before and after the upgrade',
      code: JOB_CODE,
    },
    {
      scope: CLUSTER,
      rule: on(MachineConfigPoolResource, ['list', 'watch', 'patch']),
      reason: 'pool progress and metrics; merge-patches spec.paused of delayed pools (any pool a job names)',
      code: [...JOB_CODE, 'scheduled/steps/upgrade-job-pool-steps.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: on(ScheduledUpgradeConfigResource, ['get', 'list', 'watch']),
      reason: 'UpgradeConfig cache; reads the config fresh before acting and before each status write',
      code: CONFIG_CODE,
    },
    {
      scope: OPERATOR_NS,
      rule: statusOf(ScheduledUpgradeConfigResource, ['update']),
      reason: 'status.lastScheduledUpgrade and conditions',
      code: [...CONFIG_CODE, 'kube/status-writer.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: on(UpgradeJobResource, ['get', 'list', 'watch', 'create', 'delete']),
      reason:
        'creates the UpgradeJob of each maintenance window, deletes succeeded ones beyond successfulJobsHistoryLimit; the job controller re-reads its job',
      code: [...CONFIG_CODE, ...JOB_CODE, 'scheduled/steps/upgrade-job-steps.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: statusOf(UpgradeJobResource, ['update']),
      reason: 'conditions and the hook job tracker of UpgradeJobs',
      code: [...JOB_CODE, 'scheduled/steps/upgrade-job-hooks.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: on(UpgradeJobHookResource, ['list', 'watch']),
      reason: 'UpgradeJobHook cache: the hooks of each event',
      code: [...JOB_CODE, 'cli/scheduled-operator.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: statusOf(UpgradeJobHookResource, ['update']),
      reason: 'claims a `run: Next` hook for the job that runs it (status.claimedBy)',
      code: ['scheduled/steps/upgrade-job-hooks.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: on(UpgradeSuspensionWindowResource, ['get', 'list', 'watch']),
      reason: 'suspension windows hold back job creation and job start; re-read before each status write',
      code: [...CONFIG_CODE, ...JOB_CODE, ...WINDOW_CODE],
    },
    {
      scope: OPERATOR_NS,
      rule: statusOf(UpgradeSuspensionWindowResource, ['update']),
      reason: 'status.matchingConfigs and status.matchingJobs',
      code: WINDOW_CODE,
    },
    {
      scope: OPERATOR_NS,
      rule: on(ManagedClusterVersionResource, ['get', 'list', 'watch']),
      reason:
        'the managed ClusterVersion (--managed-cluster-version-namespace is the operator namespace); re-read before each status write',
      code: SYNC_CODE,
    },
    {
      scope: OPERATOR_NS,
      rule: statusOf(ManagedClusterVersionResource, ['update']),
      reason: 'status.current, status.overlayApplied and status.overlays',
      code: SYNC_CODE,
    },
    {
      scope: OPERATOR_NS,
      rule: on(NodeForceDrainResource, ['get', 'list', 'watch']),
      reason: 'NodeForceDrain cache; re-read before each status write',
      code: DRAIN_CODE,
    },
    {
      scope: OPERATOR_NS,
      rule: statusOf(NodeForceDrainResource, ['update']),
      reason: 'status.lastObservedNodeDrain',
      code: DRAIN_CODE,
    },
    {
      scope: OPERATOR_NS,
      rule: on(JobResource, ['list', 'watch', 'create', 'patch']),
      reason:
        'hook Jobs: creates them, watches their outcome (label selector), merge-patches the tracker finalizer away',
      code: [...JOB_CODE, 'scheduled/steps/upgrade-job-hooks.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: on(EventResource, ['create', 'patch']),
      reason:
        'Events about UpgradeConfigs, UpgradeJobs, managed ClusterVersions, suspension windows and NodeForceDrains; patch aggregates repeats',
      code: ['kube/event-recorder.ts', ...CONFIG_CODE, ...JOB_CODE],
    },
    ...notificationPermissions(OPERATOR_NS),
    {
      scope: machines,
      rule: on(MachineResource, ['list', 'watch']),
      reason: 'Machine cache of openshift_upgrade_controller_machine_info (--machine-namespace)',
      code: ['cli/scheduled-operator.ts', 'scheduled/metrics/cluster-state-metrics.ts'],
    },
    {
      scope: { kind: 'namespace', namespace: CLUSTER_SCOPED_EVENTS_NAMESPACE },
      rule: on(EventResource, ['create', 'patch']),
      reason:
        "NodeForceDrain's Events about Nodes (DeletePod, ForcingPodTermination); Events of cluster-scoped objects live in default",
      code: ['kube/event-recorder.ts', ...DRAIN_CODE],
    },
  ];
}

/** Leader election's permissions, in the operator namespace (APPUiO's `leader-election-role`, limited to the one Lease). */
export function scheduledLeaderElectionPermissions(
  options: Pick<ScheduledPermissionOptions, 'leaseName'>,
): PermissionGrant[] {
  return [
    {
      scope: OPERATOR_NS,
      rule: on(LeaseResource, ['create']),
      reason: 'leader election creates its Lease the first time',
      code: ['kube/leader-election.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: on(LeaseResource, ['get', 'update'], [options.leaseName]),
      reason: 'leader election reads, renews and releases its Lease',
      code: ['kube/leader-election.ts'],
    },
  ];
}
