/**
 * The permissions `upgrade-operator run` needs, derived from the requests its code makes, each
 * with the reason and the code that makes it. Least privilege: cluster-wide only what the
 * cluster-wide informers and the drain need; writes are limited to a namespace (a Role) or to
 * object names (`resourceNames`) wherever Kubernetes RBAC can express it. `create` cannot be
 * limited by name (the name is not known when it is authorised); `list`/`watch` can be, when
 * the request carries the field selector `metadata.name=<name>` (the ConfigMap informer does).
 */
import { CLUSTER_VERSION_NAME } from '../openshift/config-v1/cluster-version.js';
import { MACHINE_API_NAMESPACE } from '../openshift/machine-v1beta1/machine.js';
import {
  MANAGED_UPGRADE_CONFIG_NAME,
  MANAGED_UPGRADE_CONFIGMAP_NAME,
  MANAGED_UPGRADE_GROUP,
} from '../upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { notificationPermissions } from './notification-rbac.js';
import { policyRule, type GrantScope, type PermissionGrant } from './operator-objects.js';

/** The FileIntegrity that the FedRAMP post-upgrade step re-initialises (`managed/steps/post-upgrade-step.ts`). */
export const OSD_FILE_INTEGRITY_OBJECT = 'osd-fileintegrity';
/** Namespace that receives the Events about cluster-scoped objects (Nodes), as client-go does. */
export const CLUSTER_SCOPED_EVENTS_NAMESPACE = 'default';

/** Options of {@link managedOperatorPermissions}. */
export interface PermissionOptions {
  /** The Lease of leader election (`--leader-election-id`). */
  leaseName: string;
}

const CLUSTER: GrantScope = { kind: 'cluster' };
const OPERATOR_NS: GrantScope = { kind: 'operator-namespace' };

/** Every permission of the managed-upgrade operator, cluster-wide first. */
export function managedOperatorPermissions(options: PermissionOptions): PermissionGrant[] {
  return [
    {
      scope: CLUSTER,
      rule: policyRule([''], ['nodes'], ['get', 'list', 'watch']),
      reason:
        'Node cache (NodeKeeper, node health checks, worker rollout); reads one Node before draining it and for the Machines of extra capacity',
      code: [
        'managed/controllers/node-keeper-controller.ts',
        'managed/controllers/upgrade-config-controller.ts',
        'managed/drain/node-drainer.ts',
        'managed/capacity/machine-set-scaler.ts',
      ],
    },
    {
      scope: CLUSTER,
      rule: policyRule([''], ['pods'], ['list', 'watch']),
      reason:
        'cluster-wide compact Pod cache of the NodeKeeper; lists the pods of a node being drained (field selector spec.nodeName)',
      code: ['managed/controllers/node-keeper-controller.ts', 'managed/drain/node-drainer.ts'],
    },
    {
      scope: CLUSTER,
      rule: policyRule([''], ['pods'], ['get', 'patch', 'delete']),
      reason:
        'drain strategies on a stuck worker: delete a pod with grace period 0, remove its finalizers (merge patch), re-read it after a conflict',
      code: ['managed/drain/node-drainer.ts'],
    },
    {
      scope: CLUSTER,
      rule: policyRule(['policy'], ['poddisruptionbudgets'], ['list', 'watch']),
      reason: 'PodDisruptionBudget health check and drain planning (which pods a PDB protects)',
      code: ['managed/controllers/upgrade-config-controller.ts', 'managed/drain/node-drainer.ts'],
    },
    {
      scope: CLUSTER,
      rule: policyRule(['config.openshift.io'], ['clusterversions'], ['list', 'watch']),
      reason: 'ClusterVersion cache: current version, history, upgrade progress',
      code: ['managed/controllers/upgrade-config-controller.ts'],
    },
    {
      scope: CLUSTER,
      rule: policyRule(['config.openshift.io'], ['clusterversions'], ['get', 'patch'], [CLUSTER_VERSION_NAME]),
      reason:
        "commence the upgrade: read, then merge-patch spec.channel and spec.desiredUpdate of ClusterVersion version; configManager.source OCM reads its spec.clusterID (the cluster's OCM identity)",
      code: ['managed/cluster-version/commence-upgrade.ts', 'managed/providers/ocm-credentials.ts'],
    },
    {
      scope: CLUSTER,
      rule: policyRule(['config.openshift.io'], ['clusteroperators'], ['list', 'watch']),
      reason: 'ClusterOperator health check (degraded or unavailable operators)',
      code: ['managed/controllers/upgrade-config-controller.ts'],
    },
    {
      scope: CLUSTER,
      rule: policyRule(['machineconfiguration.openshift.io'], ['machineconfigpools'], ['list', 'watch']),
      reason: 'worker rollout progress and the worker start and completion times',
      code: [
        'managed/controllers/upgrade-config-controller.ts',
        'managed/controllers/machine-config-pool-controller.ts',
      ],
    },
    {
      scope: CLUSTER,
      rule: policyRule(['machine.openshift.io'], ['machinesets', 'machines'], ['list', 'watch']),
      reason:
        'MachineSet and Machine caches; capacity reservation lists the worker MachineSets and the Machines of its clones',
      code: ['managed/controllers/upgrade-config-controller.ts', 'managed/capacity/machine-set-scaler.ts'],
    },
    {
      scope: CLUSTER,
      rule: policyRule(['fileintegrity.openshift.io'], ['fileintegrities'], ['patch'], [OSD_FILE_INTEGRITY_OBJECT]),
      reason:
        'FedRAMP post-upgrade step: add the re-init annotation to openshift-file-integrity/osd-fileintegrity (a ClusterRole rule limited by name, because the namespace exists only where the File Integrity Operator is installed)',
      code: ['managed/steps/post-upgrade-step.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: policyRule([MANAGED_UPGRADE_GROUP], ['upgradeconfigs'], ['get', 'list', 'watch', 'patch']),
      reason:
        'UpgradeConfig cache and reconcile; merge-patches spec.desired.version (image mode), the policy refresh and the notifications-sent annotation',
      code: [
        'managed/controllers/upgrade-config-controller.ts',
        'managed/controllers/upgrade-config-pass.ts',
        'managed/controllers/machine-config-pool-controller.ts',
      ],
    },
    {
      scope: OPERATOR_NS,
      rule: policyRule([MANAGED_UPGRADE_GROUP], ['upgradeconfigs'], ['create']),
      reason:
        'configManager.source OCM (the OCM API or the OCM agent): the policy sync creates the UpgradeConfig from the upgrade policy (create cannot be limited by name)',
      code: ['managed/providers/upgrade-config-manager.ts', 'managed/providers/upgrade-config-sync.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: policyRule(
        [MANAGED_UPGRADE_GROUP],
        ['upgradeconfigs'],
        ['update', 'delete'],
        [MANAGED_UPGRADE_CONFIG_NAME],
      ),
      reason:
        'configManager.source OCM: the policy sync replaces the spec when the policy changed (PUT with resourceVersion, status kept) and deletes the UpgradeConfig (uid precondition) when no policy asks for an upgrade',
      code: ['managed/providers/upgrade-config-manager.ts', 'managed/providers/upgrade-config-sync.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: policyRule([MANAGED_UPGRADE_GROUP], ['upgradeconfigs/status'], ['update']),
      reason: 'writes status.history and status.conditions (PUT …/status with resourceVersion)',
      code: [
        'managed/controllers/upgrade-config-pass.ts',
        'managed/controllers/machine-config-pool-controller.ts',
        'kube/status-writer.ts',
      ],
    },
    {
      scope: OPERATOR_NS,
      rule: policyRule([''], ['configmaps'], ['list', 'watch'], [MANAGED_UPGRADE_CONFIGMAP_NAME]),
      reason: 'the operator ConfigMap, watched with the field selector metadata.name=managed-upgrade-operator-config',
      code: ['managed/controllers/upgrade-config-controller.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: policyRule(['coordination.k8s.io'], ['leases'], ['create']),
      reason: 'leader election creates its Lease the first time',
      code: ['kube/leader-election.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: policyRule(['coordination.k8s.io'], ['leases'], ['get', 'update'], [options.leaseName]),
      reason: 'leader election reads, renews and releases its Lease',
      code: ['kube/leader-election.ts'],
    },
    {
      scope: OPERATOR_NS,
      rule: policyRule([''], ['events'], ['create', 'patch']),
      reason: 'Events about UpgradeConfigs (every wait, refusal and action); patch aggregates repeats',
      code: ['kube/event-recorder.ts', 'managed/controllers/upgrade-config-pass.ts'],
    },
    ...notificationPermissions(OPERATOR_NS),
    {
      scope: CLUSTER,
      rule: policyRule([''], ['services'], ['get'], ['deployment-validation-operator-metrics']),
      reason:
        'finds the Deployment Validation Operator by its metrics Service before each health check (cluster scope because the DVO namespace may not exist; limited to that Service name)',
      code: ['managed/health/dvo-metrics-source.ts'],
    },
    {
      scope: { kind: 'namespace', namespace: 'openshift-config' },
      rule: policyRule([''], ['secrets'], ['get'], ['pull-secret']),
      reason:
        "configManager.source OCM (the OCM API or the OCM agent): the cluster's OCM token is the cloud.openshift.com auth of the pull-secret",
      code: ['managed/providers/ocm-credentials.ts'],
    },
    {
      scope: { kind: 'namespace', namespace: MACHINE_API_NAMESPACE },
      rule: policyRule(['machine.openshift.io'], ['machinesets'], ['create', 'delete']),
      reason: 'capacity reservation: creates one clone per worker MachineSet and deletes the clones after the upgrade',
      code: ['managed/capacity/machine-set-scaler.ts'],
    },
    {
      scope: { kind: 'namespace', namespace: CLUSTER_SCOPED_EVENTS_NAMESPACE },
      rule: policyRule([''], ['events'], ['create', 'patch']),
      reason: 'Events about Nodes (drain strategies, drain timeouts); Events of cluster-scoped objects live in default',
      code: ['kube/event-recorder.ts', 'managed/controllers/node-keeper-controller.ts'],
    },
  ];
}
