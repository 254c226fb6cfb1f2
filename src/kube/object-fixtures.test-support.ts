/** Test fixtures: worker Nodes, Namespaces, Pods and PodDisruptionBudgets written to an API server. */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { NamespaceResource, NodeResource, PodDisruptionBudgetResource, PodResource } from '../api/builtin.js';
import { formatTime } from '../lib/clock.js';
import type { KubeClient } from './client.js';

/** Creates a node; `cordonedAt` cordons it with the taint's timeAdded. */
export async function createNode(
  client: KubeClient,
  name: string,
  o: { cordonedAt?: number; labels?: Record<string, string>; annotations?: Record<string, string> } = {},
): Promise<Node> {
  const node: Node = {
    metadata: {
      name,
      labels: { 'node-role.kubernetes.io/worker': '', ...o.labels },
      annotations: { ...o.annotations },
    },
    spec:
      o.cordonedAt === undefined
        ? {}
        : {
            unschedulable: true,
            taints: [
              { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: formatTime(o.cordonedAt) },
            ],
          },
  };
  return client.create(NodeResource, node);
}

export async function createNamespace(client: KubeClient, name: string): Promise<void> {
  await client.create(NamespaceResource, { metadata: { name } });
}

/** Creates a pod bound to a node. */
export async function createPod(
  client: KubeClient,
  ns: string,
  name: string,
  nodeName: string,
  o: { labels?: Record<string, string>; finalizers?: string[] } = {},
): Promise<Pod> {
  return client.create(PodResource, {
    metadata: { name, namespace: ns, labels: { ...o.labels }, ...(o.finalizers ? { finalizers: o.finalizers } : {}) },
    spec: { nodeName, containers: [{ name: 'main', image: 'registry.example/app:1' }] },
  });
}

/** Creates a policy/v1 PDB with maxUnavailable 0 (blocks every eviction). */
export async function createBlockingPdb(
  client: KubeClient,
  ns: string,
  name: string,
  matchLabels: Record<string, string>,
): Promise<PodDisruptionBudget> {
  return client.create(PodDisruptionBudgetResource, {
    metadata: { name, namespace: ns },
    spec: { maxUnavailable: 0, selector: { matchLabels } },
  });
}
