/**
 * Reads a live cluster for `upgrade-operator snapshot`, with get and list only (the ClusterRole of
 * `deploy/snapshot/`): the kinds of {@link SNAPSHOT_CLUSTER_KINDS} and {@link SNAPSHOT_FLOW_KINDS},
 * the operator's ConfigMap by name, and firing alerts from Prometheus when a URL is given. Never a
 * Secret, never another ConfigMap. A server without ClusterVersion or MachineConfigPools is not an
 * OpenShift cluster: {@link NotOpenShiftError} names what is missing.
 */
import type { Infrastructure } from '../../api/openshift/config-v1/infrastructure.js';
import {
  ConfigMapResource,
  DaemonSetResource,
  DeploymentResource,
  NodeResource,
  PodDisruptionBudgetResource,
  PodResource,
  StatefulSetResource,
} from '../../api/builtin.js';
import { ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { InfrastructureResource } from '../../api/openshift/config-v1/infrastructure.js';
import { MachineSetResource } from '../../api/openshift/machine-v1beta1/machine-set.js';
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { KubeObjectLike, ResourceDescriptor } from '../../api/resource.js';
import {
  MANAGED_UPGRADE_CONFIGMAP_NAME,
  MANAGED_UPGRADE_OPERATOR_NAMESPACE,
  ManagedUpgradeConfigResource,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { ScheduledUpgradeConfigResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { UpgradeJobHookResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { UpgradeSuspensionWindowResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window-contract.js';
import { NodeForceDrainResource } from '../../api/managedupgrade.appuio.io/v1beta1/node-force-drain-contract.js';
import type { KubeClient } from '../../kube/client.js';
import { isNotFound } from '../../kube/status-error.js';
import type { PrometheusApi } from '../../integrations/prometheus-api.js';
import type { ClusterSnapshot, SnapshotAlert } from './snapshot-scenario.js';

/** The server is no OpenShift cluster: what it lacks, in one line. */
export class NotOpenShiftError extends Error {}

/** Every object of a kind; `undefined` when the server does not serve the kind. */
async function listOrAbsent<T extends KubeObjectLike>(
  client: KubeClient,
  descriptor: ResourceDescriptor<T>,
  signal?: AbortSignal,
): Promise<T[] | undefined> {
  try {
    return (await client.list(descriptor, signal ? { signal } : {})).items;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

function kindName(descriptor: ResourceDescriptor): string {
  return `${descriptor.plural}.${descriptor.group}`;
}

/** Firing alerts: `ALERTS{alertstate="firing"}`. */
export async function firingAlerts(prometheus: PrometheusApi, signal?: AbortSignal): Promise<SnapshotAlert[]> {
  const samples = await prometheus.query('ALERTS{alertstate="firing"}', signal ? { signal } : {});
  return samples.map((s) => ({ labels: { ...s.metric } }));
}

/** Reads the cluster. `takenAt` is the snapshot's time (RFC 3339). */
export async function readCluster(
  client: KubeClient,
  options: { takenAt: string; prometheus?: PrometheusApi | undefined; signal?: AbortSignal },
): Promise<ClusterSnapshot> {
  const { signal } = options;
  const [versions, pools] = await Promise.all([
    listOrAbsent(client, ClusterVersionResource, signal),
    listOrAbsent(client, MachineConfigPoolResource, signal),
  ]);
  const missing = [
    ...(versions === undefined ? [kindName(ClusterVersionResource)] : []),
    ...(pools === undefined ? [kindName(MachineConfigPoolResource)] : []),
  ];
  if (missing.length > 0)
    throw new NotOpenShiftError(`not an OpenShift cluster: the server serves no ${missing.join(' and no ')}`);
  const clusterVersion = versions?.find((v) => v.metadata?.name === 'version');
  if (!clusterVersion) throw new NotOpenShiftError('not an OpenShift cluster: there is no ClusterVersion "version"');
  const list = async <T extends KubeObjectLike>(d: ResourceDescriptor<T>): Promise<T[]> =>
    (await listOrAbsent(client, d, signal)) ?? [];
  const infrastructure = (await list<Infrastructure>(InfrastructureResource)).find(
    (i) => i.metadata?.name === 'cluster',
  );
  let managedConfigMap: { data?: Record<string, string> } | undefined;
  try {
    const cm = await client.get(
      ConfigMapResource,
      MANAGED_UPGRADE_OPERATOR_NAMESPACE,
      MANAGED_UPGRADE_CONFIGMAP_NAME,
      signal ? { signal } : {},
    );
    managedConfigMap = cm.data ? { data: cm.data } : {};
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  return {
    takenAt: options.takenAt,
    clusterVersion,
    infrastructure,
    pools: pools ?? [],
    nodes: await list(NodeResource),
    machineSets: await list(MachineSetResource),
    deployments: await list(DeploymentResource),
    statefulSets: await list(StatefulSetResource),
    daemonSets: await list(DaemonSetResource),
    pods: await list(PodResource),
    podDisruptionBudgets: await list(PodDisruptionBudgetResource),
    alerts: options.prometheus ? await firingAlerts(options.prometheus, signal) : undefined,
    operator: {
      managedUpgradeConfigs: await list(ManagedUpgradeConfigResource),
      managedConfigMap,
      upgradeConfigs: await list(ScheduledUpgradeConfigResource),
      upgradeJobs: await list(UpgradeJobResource),
      upgradeJobHooks: await list(UpgradeJobHookResource),
      upgradeSuspensionWindows: await list(UpgradeSuspensionWindowResource),
      nodeForceDrains: await list(NodeForceDrainResource),
    },
  };
}
