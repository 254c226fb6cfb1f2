/**
 * The parts of kubectl's drain helper (k8s.io/kubectl/pkg/drain) the MCO drain controller
 * relies on, as pure functions: which pods a drain removes, the Eviction body, and the error
 * texts of a drain attempt that ran out of time. Written here because the helper is Go only.
 */
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { JsonObject } from '../../../lib/json.js';

/** Annotation of a static pod's mirror on the API server. */
export const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

/**
 * The pods a drain with `Force: true, IgnoreAllDaemonSets: true, DeleteEmptyDirData: true`
 * removes: everything on the node except mirror pods and pods controlled by a DaemonSet.
 */
export function podsToDrain(pods: readonly Pod[]): Pod[] {
  return pods.filter((pod) => {
    if (pod.metadata?.annotations?.[MIRROR_POD_ANNOTATION] !== undefined) return false;
    const controller = pod.metadata?.ownerReferences?.find((r) => r.controller === true);
    return controller?.kind !== 'DaemonSet';
  });
}

/** The policy/v1 Eviction for a pod. */
export function evictionFor(pod: Pod): JsonObject {
  return {
    apiVersion: 'policy/v1',
    kind: 'Eviction',
    metadata: { name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? '' },
  };
}

/** The eviction path of a pod. */
export function evictionPath(pod: Pod): string {
  return `/api/v1/namespaces/${encodeURIComponent(pod.metadata?.namespace ?? '')}/pods/${encodeURIComponent(pod.metadata?.name ?? '')}/eviction`;
}

/** Go's time.Duration.String() for whole milliseconds: `1h0m0s`, `1m30s`, `5s`, `1.5s`, `0s`. */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  const secs = `${Number.isInteger(s) ? s : String(Number(s.toFixed(3)))}s`;
  if (h > 0) return `${sign}${h}h${m}m${secs}`;
  if (m > 0) return `${sign}${m}m${secs}`;
  return `${sign}${secs}`;
}

/** A pod that still blocks the drain when the attempt's time is up, and why. */
export interface BlockedPod {
  namespace: string;
  name: string;
  /** Evictions refused (429: disruption budget) or the pod still terminating. */
  cause: 'eviction' | 'terminating';
}

/** The drain helper's error for pods still there when its global timeout ran out. */
export function attemptTimeoutMessage(blocked: readonly BlockedPod[], timeoutMs: number): string {
  const t = formatGoDuration(timeoutMs);
  const errors = blocked.map((b) =>
    b.cause === 'eviction'
      ? `error when evicting pods/"${b.name}" -n "${b.namespace}": global timeout reached: ${t}`
      : `error when waiting for pod "${b.name}" in namespace "${b.namespace}" to terminate: global timeout reached: ${t}`,
  );
  return aggregateErrors(errors);
}

/** utilerrors.NewAggregate(...).Error(): one error as is, several as `[a, b]`. */
export function aggregateErrors(errors: readonly string[]): string {
  if (errors.length === 1) return errors[0] ?? '';
  return `[${errors.join(', ')}]`;
}

/** The Warning event after 10 minutes of failing drains (`DrainThresholdExceeded`). */
export function drainThresholdMessage(thresholdMs: number, requeueMs: number, error: string): string {
  return `Drain failed. Drain has been failing for more than ${thresholdMs / 60_000} minutes. Waiting ${requeueMs / 60_000} minutes then retrying. Error message from drain: ${error}`;
}

/** The Warning event once a drain has been failing for longer than the timeout (`DrainFailed`). */
export function drainFailedMessage(nodeName: string, timeoutMs: number): string {
  return `node ${nodeName}: drain exceeded timeout: ${formatGoDuration(timeoutMs)}. Will continue to retry.`;
}
