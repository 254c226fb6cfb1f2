/**
 * Test support for the daemon and drain controller: nodes as an installed cluster has them
 * (MCO annotations, Ready), pods on them, budgets, a tiny stand-in for the MCO node controller
 * (it only writes desiredConfig), and a timeline of node snapshots with their virtual times.
 */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import {
  DaemonSetResource,
  EventResource,
  NamespaceResource,
  NodeResource,
  PodDisruptionBudgetResource,
  PodResource,
} from '../../../api/builtin.js';
import { MachineConfigNodeAnnotation as A } from '../../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { KubeClient } from '../../../kube/client.js';
import { formatTime } from '../../../lib/clock.js';
import type { TestCluster } from '../../test-support/cluster.test-support.js';

export const OLD_WORKER = 'rendered-worker-3b8f0c6d1e2a4957b8c0d9e1f2a3b4c5';
export const NEW_WORKER = 'rendered-worker-9c1d7e52b0a44f3e8d6a21b7c5f0e3a9';

/** Creates the MCO namespace (events of the drain controller land there). */
export async function createMcoNamespace(client: KubeClient): Promise<void> {
  await client.create(NamespaceResource, {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: { name: 'openshift-machine-config-operator' },
  });
}

/** A Ready node on `config` (currentConfig = desiredConfig, state Done). */
export async function createNode(
  client: KubeClient,
  name: string,
  options: { role?: string; config?: string; topology?: string; now: number },
): Promise<Node> {
  const config = options.config ?? OLD_WORKER;
  const created = await client.create(NodeResource, {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { [`node-role.kubernetes.io/${options.role ?? 'worker'}`]: '', 'kubernetes.io/hostname': name },
      annotations: {
        [A.CurrentConfig]: config,
        [A.DesiredConfig]: config,
        [A.State]: 'Done',
        [A.Reason]: '',
        [A.DesiredDrain]: `uncordon-${config}`,
        [A.LastAppliedDrain]: `uncordon-${config}`,
        [A.ControlPlaneTopology]: options.topology ?? 'HighlyAvailable',
      },
    },
    spec: {},
  });
  const at = formatTime(options.now);
  const status = {
    conditions: [
      {
        type: 'Ready',
        status: 'True',
        reason: 'KubeletReady',
        message: 'kubelet is posting ready status',
        lastHeartbeatTime: at,
        lastTransitionTime: at,
      },
    ],
  };
  return client.patch(
    NodeResource,
    undefined,
    created.metadata?.name ?? name,
    { status },
    { type: 'merge', subresource: 'status' },
  );
}

/** A running, ready pod on a node (optionally controlled by an owner). */
export async function createPod(
  client: KubeClient,
  name: string,
  nodeName: string,
  options: {
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    owner?: { kind: string; name: string; uid: string; apiVersion: string };
    namespace?: string;
  } = {},
): Promise<Pod> {
  const namespace = options.namespace ?? 'default';
  const owner = options.owner
    ? { ownerReferences: [{ ...options.owner, controller: true, blockOwnerDeletion: true }] }
    : {};
  const created = await client.create(PodResource, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: options.labels ?? { app: 'web' },
      ...(options.annotations ? { annotations: options.annotations } : {}),
      ...owner,
    },
    spec: { nodeName, containers: [{ name: 'app', image: 'registry.example/app:1' }] },
  });
  const status = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
  return client.patch(
    PodResource,
    namespace,
    created.metadata?.name ?? name,
    { status },
    { type: 'merge', subresource: 'status' },
  );
}

/** A DaemonSet to own pods that drains leave alone. */
export async function createDaemonSet(
  client: KubeClient,
  name: string,
): Promise<{ kind: string; name: string; uid: string; apiVersion: string }> {
  const ds = await client.create(DaemonSetResource, {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'agent', image: 'registry.example/agent:1' }] },
      },
    },
  });
  return { kind: 'DaemonSet', name, uid: ds.metadata?.uid ?? '', apiVersion: 'apps/v1' };
}

/** A budget over `app=<app>` pods. */
export async function createPdb(
  client: KubeClient,
  name: string,
  app: string,
  minAvailable: number,
): Promise<PodDisruptionBudget> {
  return client.create(PodDisruptionBudgetResource, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec: { minAvailable, selector: { matchLabels: { app } } },
  });
}

/** The in-test node controller: targets a node at a rendered config. */
export async function setDesiredConfig(client: KubeClient, nodeName: string, config: string): Promise<void> {
  await client.patch(
    NodeResource,
    undefined,
    nodeName,
    { metadata: { annotations: { [A.DesiredConfig]: config } } },
    { type: 'merge' },
  );
}

/** One observed version of a node. */
export interface Snapshot {
  at: number;
  node: Node;
}

/** Records every version of every node the shared informer delivers. */
export function recordNodes(cluster: TestCluster): Snapshot[] {
  const out: Snapshot[] = [];
  cluster.ctx.informers.informerFor(NodeResource).addHandlers({
    onAdd: (n) => out.push({ at: cluster.clock.now(), node: n }),
    onUpdate: (_o, n) => out.push({ at: cluster.clock.now(), node: n }),
  });
  return out;
}

/** The latest cached node. */
export function cachedNode(cluster: TestCluster, name: string): Node | undefined {
  return cluster.ctx.informers.informerFor(NodeResource).get(undefined, name);
}

/** An annotation of the cached node. */
export function annotation(cluster: TestCluster, name: string, key: string): string | undefined {
  return cachedNode(cluster, name)?.metadata?.annotations?.[key];
}

/** Events about a node, oldest first, as `reason: message` (all namespaces). */
export async function nodeEvents(
  client: KubeClient,
  nodeName: string,
): Promise<Array<{ reason: string; message: string; component: string; namespace: string; type: string }>> {
  const list = await client.list(EventResource, {});
  return list.items
    .filter((e) => e.involvedObject.kind === 'Node' && e.involvedObject.name === nodeName)
    .sort(
      (x, y) =>
        (x.firstTimestamp ?? '').localeCompare(y.firstTimestamp ?? '') ||
        (x.metadata?.name ?? '').localeCompare(y.metadata?.name ?? ''),
    )
    .map((e) => ({
      reason: e.reason ?? '',
      message: e.message ?? '',
      component: e.source?.component ?? '',
      namespace: e.metadata?.namespace ?? '',
      type: e.type ?? '',
    }));
}

/** True when the pod exists (and is not terminating). */
export async function podAlive(client: KubeClient, name: string): Promise<boolean> {
  try {
    const p = await client.get(PodResource, 'default', name);
    return p.metadata?.deletionTimestamp === undefined;
  } catch {
    return false;
  }
}
