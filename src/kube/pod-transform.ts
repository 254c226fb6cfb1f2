/**
 * The operator's Pod cache transform. An upgrade operator watches every Pod of the cluster but
 * reads only what node-drain, disruption and health logic needs: identity, labels, owners,
 * deletion state, node, emptyDir volumes (they block a plain eviction), phase and the Ready
 * condition.
 * Keeping just that is what lets the cache of a 10,000-Pod cluster fit the memory budget
 * (docs/benchmarks.md), as client-go users do with a TransformFunc. A controller that needs
 * another Pod field adds it here, where the budget is measured.
 */
import type { Pod } from 'kubernetes-types/core/v1.js';

/** The drain-relevant part of a Pod. */
export function drainPodTransform(pod: Pod): Pod {
  // A compact copy: kept sub-objects would otherwise pin the pages the whole Pod was parsed into.
  return structuredClone(slim(pod));
}

function slim(pod: Pod): Pod {
  const m = pod.metadata ?? {};
  // Disruption budgets count a pod as healthy by its Ready condition; the others are not read.
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
  const mirror = m.annotations?.['kubernetes.io/config.mirror'];
  return {
    ...(pod.apiVersion !== undefined ? { apiVersion: pod.apiVersion } : {}),
    ...(pod.kind !== undefined ? { kind: pod.kind } : {}),
    metadata: {
      ...(m.name !== undefined ? { name: m.name } : {}),
      ...(m.namespace !== undefined ? { namespace: m.namespace } : {}),
      ...(m.uid !== undefined ? { uid: m.uid } : {}),
      ...(m.resourceVersion !== undefined ? { resourceVersion: m.resourceVersion } : {}),
      ...(m.labels ? { labels: m.labels } : {}),
      ...(mirror !== undefined ? { annotations: { 'kubernetes.io/config.mirror': mirror } } : {}),
      ...(m.ownerReferences ? { ownerReferences: m.ownerReferences } : {}),
      ...(m.deletionTimestamp ? { deletionTimestamp: m.deletionTimestamp } : {}),
      ...(m.finalizers ? { finalizers: m.finalizers } : {}),
    },
    spec: {
      containers: [],
      ...(pod.spec?.nodeName ? { nodeName: pod.spec.nodeName } : {}),
      ...(pod.spec?.volumes?.some((v) => v.emptyDir) ? { volumes: pod.spec.volumes.filter((v) => v.emptyDir) } : {}),
    },
    ...(pod.status
      ? {
          status: {
            ...(pod.status.phase ? { phase: pod.status.phase } : {}),
            ...(ready ? { conditions: [ready] } : {}),
          },
        }
      : {}),
  };
}
