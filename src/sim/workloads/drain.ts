/**
 * Cordon and drain as `kubectl drain` (k8s.io/kubectl/pkg/drain) does it for the Machine API and
 * the MCO: cordon sets `spec.unschedulable` with the `node.kubernetes.io/unschedulable:NoSchedule`
 * taint (the simulation writes the taint itself, as the node lifecycle controller would); pods
 * are evicted through the real `pods/eviction` subresource, so PodDisruptionBudgets apply
 * (HTTP 429). DaemonSet pods and mirror pods are skipped (`IgnoreAllDaemonSets`); pods without a
 * controller are evicted too (`Force`).
 */
import type { Node, Pod, Taint } from 'kubernetes-types/core/v1.js';
import type { KubeClient } from '../../kube/client.js';
import { KubeApiError, isNotFound } from '../../kube/status-error.js';
import { formatTime } from '../../lib/clock.js';
import type { JsonObject } from '../../lib/json.js';
import { NodeResource } from '../../api/builtin.js';
import { controllerOf } from './scheduling.js';

/** The taint of a cordoned node. */
export const UNSCHEDULABLE_TAINT_KEY = 'node.kubernetes.io/unschedulable';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/** The node is cordoned: `spec.unschedulable` and the unschedulable taint. */
export function isCordoned(node: Node): boolean {
  return (
    node.spec?.unschedulable === true &&
    (node.spec.taints ?? []).some((t) => t.key === UNSCHEDULABLE_TAINT_KEY && t.effect === 'NoSchedule')
  );
}

/** The merge patch that cordons (true) or uncordons (false) the node, or undefined when nothing changes. Conditional on resourceVersion. */
export function cordonPatch(node: Node, unschedulable: boolean, now: number): JsonObject | undefined {
  const taints = node.spec?.taints ?? [];
  const hasTaint = taints.some((t) => t.key === UNSCHEDULABLE_TAINT_KEY && t.effect === 'NoSchedule');
  if (unschedulable === (node.spec?.unschedulable === true) && unschedulable === hasTaint) return undefined;
  const others = taints.filter((t) => t.key !== UNSCHEDULABLE_TAINT_KEY);
  const next: Taint[] = unschedulable
    ? [...others, { key: UNSCHEDULABLE_TAINT_KEY, effect: 'NoSchedule', timeAdded: formatTime(now) }]
    : others;
  return {
    metadata: { resourceVersion: node.metadata?.resourceVersion ?? null },
    spec: {
      unschedulable: unschedulable ? true : null,
      taints: next.length > 0 ? (next as unknown as JsonObject[]) : null,
    },
  };
}

/** Cordons or uncordons a node (a conflict throws; the caller retries from a fresh cache). */
export async function setUnschedulable(
  client: KubeClient,
  node: Node,
  unschedulable: boolean,
  now: number,
): Promise<Node> {
  const patch = cordonPatch(node, unschedulable, now);
  if (patch === undefined) return node;
  return client.patch(NodeResource, undefined, node.metadata?.name ?? '', patch, { type: 'merge' });
}

/** Pods that a drain must remove from the node (terminating ones included: the drain waits for them). */
export function podsToDrain(pods: readonly Pod[]): Pod[] {
  return pods.filter(
    (p) => controllerOf(p)?.kind !== 'DaemonSet' && p.metadata?.annotations?.[MIRROR_POD_ANNOTATION] === undefined,
  );
}

/** What one eviction did. */
export interface EvictionOutcome {
  pod: string;
  result: 'evicted' | 'gone' | 'blocked' | 'error';
  /** The API's message (for a PDB: the DisruptionBudget cause). */
  message?: string;
}

/** POSTs a policy/v1 Eviction for the pod. */
export async function evictPod(client: KubeClient, pod: Pod, signal?: AbortSignal): Promise<EvictionOutcome> {
  const name = pod.metadata?.name ?? '';
  const namespace = pod.metadata?.namespace ?? '';
  try {
    await client.request({
      method: 'POST',
      path: `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(name)}/eviction`,
      body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace } },
      ...(signal ? { signal } : {}),
    });
    return { pod: `${namespace}/${name}`, result: 'evicted' };
  } catch (err) {
    if (isNotFound(err)) return { pod: `${namespace}/${name}`, result: 'gone' };
    if (err instanceof KubeApiError) {
      const cause = err.status.details?.causes?.find((c) => c.reason === 'DisruptionBudget')?.message;
      const message = cause === undefined ? err.message : `${err.message} ${cause}`;
      return { pod: `${namespace}/${name}`, result: err.code === 429 ? 'blocked' : 'error', message };
    }
    return { pod: `${namespace}/${name}`, result: 'error', message: err instanceof Error ? err.message : String(err) };
  }
}
