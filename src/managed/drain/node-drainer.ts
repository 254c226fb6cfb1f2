/**
 * Carries out drain actions against the API, and the whole read-plan-act cycle for one node
 * (used by the NodeKeeper controller and by the capacity scale-down step).
 *
 * Deletes are DELETE with `gracePeriodSeconds: 0` and a `uid` precondition, so a pod re-created
 * under the same name (a StatefulSet pod) is never hit by a decision made about its
 * predecessor. Finalizers are cleared with a JSON merge patch `metadata.finalizers: null` that
 * carries `metadata.resourceVersion`: the API server answers 409 Conflict if the pod changed
 * since it was read. We prefer that to a JSON-patch `test` op because a failed test is a
 * generic 422 Invalid that cannot be told apart from other rejections, while 409 is exactly
 * "stale read". The resourceVersion a delete answers with (the pod, while finalizers hold it)
 * is carried to the next action on the same pod, so "delete, then clear finalizers" in one
 * pass does not conflict with itself. NotFound is success; a Conflict re-reads the pod and
 * retries once.
 */
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import { NodeResource, PodDisruptionBudgetResource, PodResource } from '../../api/builtin.js';
import type { KubeClient } from '../../kube/client.js';
import { isConflict, isNotFound } from '../../kube/status-error.js';
import { isJsonObject } from '../../lib/json.js';
import { cordonOf, planNodeDrain, type DrainAction, type DrainPlan, type DrainSettings } from './drain-strategies.js';

/** An action that could not be carried out. */
export interface DrainActionFailure {
  action: DrainAction;
  error: Error;
}

/** What executeDrainActions did. */
export interface DrainExecution {
  /** Actions that changed the pod (it was deleted / its finalizers were cleared). */
  applied: DrainAction[];
  /** Actions whose pod was already gone (or replaced, or already without finalizers). */
  skipped: DrainAction[];
  failures: DrainActionFailure[];
}

/** Executes the actions in order; one failing action does not stop the others. */
export async function executeDrainActions(
  client: KubeClient,
  actions: readonly DrainAction[],
  signal?: AbortSignal,
): Promise<DrainExecution> {
  const out: DrainExecution = { applied: [], skipped: [], failures: [] };
  const latestVersion = new Map<string, string>();
  for (const action of actions) {
    signal?.throwIfAborted();
    try {
      const result =
        action.type === 'delete'
          ? await deletePod(client, action, latestVersion, signal)
          : await clearFinalizers(client, action, latestVersion, signal);
      (result === 'applied' ? out.applied : out.skipped).push(action);
    } catch (err) {
      if (signal?.aborted) throw err;
      out.failures.push({ action, error: err instanceof Error ? err : new Error(String(err)) });
    }
  }
  return out;
}

type Result = 'applied' | 'skipped';

async function deletePod(
  client: KubeClient,
  drainAction: DrainAction,
  versions: Map<string, string>,
  signal: AbortSignal | undefined,
): Promise<Result> {
  const attempt = async (): Promise<Result> => {
    const answer = await client.delete(PodResource, drainAction.pod.namespace, drainAction.pod.name, {
      gracePeriodSeconds: 0,
      ...(drainAction.pod.uid !== '' ? { preconditions: { uid: drainAction.pod.uid } } : {}),
      ...(signal ? { signal } : {}),
    });
    // While finalizers hold it, the answer is the pod with its new resourceVersion.
    const meta = answer.kind === 'Pod' && isJsonObject(answer.metadata) ? answer.metadata : undefined;
    if (meta && typeof meta.resourceVersion === 'string') versions.set(drainAction.pod.uid, meta.resourceVersion);
    return 'applied';
  };
  try {
    return await attempt();
  } catch (err) {
    if (isNotFound(err)) return 'skipped';
    if (!isConflict(err)) throw err;
  }
  const current = await readSamePod(client, drainAction, signal);
  if (!current) return 'skipped';
  try {
    return await attempt();
  } catch (err) {
    if (isNotFound(err)) return 'skipped';
    throw err;
  }
}

async function clearFinalizers(
  client: KubeClient,
  drainAction: DrainAction,
  versions: Map<string, string>,
  signal: AbortSignal | undefined,
): Promise<Result> {
  const attempt = async (resourceVersion: string): Promise<Result> => {
    const metadata = resourceVersion !== '' ? { finalizers: null, resourceVersion } : { finalizers: null };
    const patched = await client.patch(
      PodResource,
      drainAction.pod.namespace,
      drainAction.pod.name,
      { metadata },
      { type: 'merge', ...(signal ? { signal } : {}) },
    );
    const rv = patched.metadata?.resourceVersion;
    if (rv !== undefined) versions.set(drainAction.pod.uid, rv);
    return 'applied';
  };
  try {
    return await attempt(versions.get(drainAction.pod.uid) ?? drainAction.pod.resourceVersion);
  } catch (err) {
    if (isNotFound(err)) return 'skipped';
    if (!isConflict(err)) throw err;
  }
  const current = await readSamePod(client, drainAction, signal);
  if (!current || (current.metadata?.finalizers ?? []).length === 0) return 'skipped';
  try {
    return await attempt(current.metadata?.resourceVersion ?? '');
  } catch (err) {
    if (isNotFound(err)) return 'skipped';
    throw err;
  }
}

/** The pod again, if it still exists and is the same pod (same uid). */
async function readSamePod(
  client: KubeClient,
  drainAction: DrainAction,
  signal: AbortSignal | undefined,
): Promise<Pod | undefined> {
  try {
    const pod = await client.get(
      PodResource,
      drainAction.pod.namespace,
      drainAction.pod.name,
      signal ? { signal } : {},
    );
    return drainAction.pod.uid === '' || pod.metadata?.uid === drainAction.pod.uid ? pod : undefined;
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

/** The outcome of one drain pass over a node. */
export interface NodeDrainOutcome {
  node: Node;
  plan: DrainPlan;
  /** MUO's HasFailed. */
  failed: boolean;
  /** When the plan next changes by time alone (epoch ms). */
  nextDueAt: number | undefined;
  /** Actions that changed a pod. */
  actionsTaken: DrainAction[];
  /** Actions that failed (the pass should be retried). */
  failures: DrainActionFailure[];
}

/**
 * Reads the node (a NotFound KubeApiError propagates), its pods (field selector
 * `spec.nodeName`) and every PodDisruptionBudget, plans the drain at `now` and executes it.
 * Pods and PDBs are listed only for a cordoned node with strategies enabled.
 */
export async function drainNodeWithStrategies(
  client: KubeClient,
  nodeName: string,
  settings: DrainSettings,
  now: number,
  signal?: AbortSignal,
): Promise<NodeDrainOutcome> {
  const opts = signal ? { signal } : {};
  const node = await client.get(NodeResource, undefined, nodeName, opts);
  const cordon = cordonOf(node);
  let plan: DrainPlan;
  if (!cordon.cordoned || cordon.since === undefined || settings.disableDrainStrategies) {
    plan = planNodeDrain(node, [], [], now, settings);
  } else {
    const [pods, pdbs] = await Promise.all([
      client.list(PodResource, { fieldSelector: `spec.nodeName=${nodeName}`, ...opts }),
      client.list(PodDisruptionBudgetResource, opts),
    ]);
    plan = planNodeDrain(node, pods.items, pdbs.items, now, settings);
  }
  const execution =
    plan.actions.length > 0
      ? await executeDrainActions(client, plan.actions, signal)
      : { applied: [], skipped: [], failures: [] };
  return {
    node,
    plan,
    failed: plan.failed,
    nextDueAt: plan.nextDueAt,
    actionsTaken: execution.applied,
    failures: execution.failures,
  };
}
