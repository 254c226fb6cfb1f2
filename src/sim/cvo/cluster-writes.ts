/**
 * The simulated CVO's writes besides Deployments: namespaces and ClusterOperators it creates
 * when missing, Job barriers it creates and waits for, and its conflict-retried status write.
 */
import { JobResource } from '../../api/builtin.js';
import { ClusterOperatorResource } from '../../api/openshift/config-v1/cluster-operator.js';
import {
  CLUSTER_VERSION_NAME,
  ClusterVersionResource,
  type ClusterVersion,
  type ClusterVersionStatus,
} from '../../api/openshift/config-v1/cluster-version.js';
import type { KubeClient } from '../../kube/client.js';
import { ensureNamespace as ensureNamespaceOf } from '../../kube/ensure-namespace.js';
import { isAlreadyExists, isConflict } from '../../kube/status-error.js';
import type { SimContext } from '../context.js';
import { CVO_FIELD_MANAGER, RELEASE_VERSION_ANNOTATION } from '../releases/operator-deployment.js';
import type { SyncError } from './errors.js';

/** Creates a namespace unless it exists, as the CVO. */
export function ensureNamespace(client: KubeClient, name: string, signal: AbortSignal): Promise<void> {
  return ensureNamespaceOf(client, name, { signal, fieldManager: CVO_FIELD_MANAGER });
}

/** Creates these ClusterOperators (`spec: {}`, no status), ignoring any that appeared meanwhile. */
export async function ensureOperators(
  client: KubeClient,
  names: readonly string[],
  signal: AbortSignal,
): Promise<void> {
  for (const name of names) {
    try {
      await client.create(
        ClusterOperatorResource,
        { apiVersion: 'config.openshift.io/v1', kind: 'ClusterOperator', metadata: { name }, spec: {} },
        { fieldManager: CVO_FIELD_MANAGER, signal },
      );
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }
}

/** A Job barrier: created if missing, then polled until Complete (undefined) or Failed (an error). */
export async function runJobBarrier(
  ctx: SimContext,
  job: { namespace: string; name: string; version: string; image: string; pollMs: number },
  signal: AbortSignal,
): Promise<SyncError | undefined> {
  try {
    await ctx.client.create(
      JobResource,
      {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: {
          name: job.name,
          namespace: job.namespace,
          annotations: { [RELEASE_VERSION_ANNOTATION]: job.version },
        },
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: job.name, image: job.image }] } } },
      },
      { fieldManager: CVO_FIELD_MANAGER, signal },
    );
  } catch (err) {
    if (!isAlreadyExists(err)) throw err;
  }
  for (;;) {
    const current = await ctx.client.get(JobResource, job.namespace, job.name, { signal });
    const conds = current.status?.conditions ?? [];
    if (conds.some((c) => c.type === 'Complete' && c.status === 'True')) return undefined;
    if (conds.some((c) => c.type === 'Failed' && c.status === 'True')) {
      return { reason: 'JobFailed', message: `Job ${job.namespace}/${job.name} failed`, effect: 'Fail', names: [] };
    }
    await ctx.clock.sleep(job.pollMs, signal);
  }
}

/**
 * GET, rebuild, PUT …/status (nothing when unchanged). A conflict (the spec was written
 * meanwhile) is retried at once: the write counts as work in flight, so it must not wait on
 * the clock.
 */
export async function writeClusterVersionStatus(
  client: KubeClient,
  build: (cv: ClusterVersion) => ClusterVersionStatus,
  signal: AbortSignal | undefined,
): Promise<void> {
  const opts = signal ? { signal } : {};
  for (let attempt = 1; ; attempt++) {
    const cv = await client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, opts);
    const status = build(cv);
    if (JSON.stringify(status) === JSON.stringify(cv.status)) return;
    cv.status = status;
    try {
      await client.updateStatus(ClusterVersionResource, cv, opts);
      return;
    } catch (err) {
      if (!isConflict(err) || attempt >= 5) throw err;
    }
  }
}
