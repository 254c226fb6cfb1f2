/**
 * The `pods/eviction` subresource, as kube-apiserver implements it
 * (pkg/registry/core/pod/storage/eviction.go): a pod delete that honours the PodDisruptionBudget
 * selecting the pod.
 *  - Pending, Succeeded or Failed pods and pods already terminating are deleted without a PDB
 *    check (with a resourceVersion precondition for Pending pods, so a pod that became ready in
 *    between is not deleted behind the budget's back).
 *  - More than one matching PDB: a 500 Status (returned, not thrown, exactly as kube does).
 *  - An unready pod is deleted without using the budget when the PDB's
 *    unhealthyPodEvictionPolicy is AlwaysAllow, or (IfHealthyBudget, the default) when the
 *    budget is currently met.
 *  - Otherwise the PDB's status must be current (observedGeneration) and allow a disruption:
 *    disruptionsAllowed is decremented and the pod recorded in status.disruptedPods (one status
 *    write, retried on conflict), then the pod gets the DisruptionTarget condition and is deleted.
 */
import type { Clock } from '../../lib/clock.js';
import { formatTime } from '../../lib/clock.js';
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';
import { apiErrors, type ApiError } from '../status.js';
import type { DeleteOptions, KubeObject, PropagationPolicy, ResourceType, Store } from '../types.js';
import { isPodReady, labelSelectorMatcher, labelsOf, updateDisruptionAllowedCondition } from './disruption.js';
import { isApiError, metaString } from './garbage-collector.js';

/** The most status.disruptedPods entries an eviction will add to (kube's MaxDisruptedPodSize). */
export const MAX_DISRUPTED_POD_SIZE = 2000;
/** Attempts at the PDB status write when it conflicts (kube's EvictionsRetry steps). */
const EVICTION_RETRIES = 20;

/** A parsed metav1.DeleteOptions of an Eviction. */
interface EvictionDeleteOptions {
  store: DeleteOptions;
  dryRun: boolean;
}

function parseDeleteOptions(raw: JsonValue | undefined): EvictionDeleteOptions {
  const o = isJsonObject(raw) ? raw : {};
  const out: DeleteOptions = {};
  if (typeof o.gracePeriodSeconds === 'number') out.gracePeriodSeconds = o.gracePeriodSeconds;
  const policy = o.propagationPolicy;
  if (policy === 'Background' || policy === 'Foreground' || policy === 'Orphan')
    out.propagationPolicy = policy satisfies PropagationPolicy;
  else if (typeof o.orphanDependents === 'boolean')
    out.propagationPolicy = o.orphanDependents ? 'Orphan' : 'Background';
  if (isJsonObject(o.preconditions)) {
    const pre: NonNullable<DeleteOptions['preconditions']> = {};
    if (typeof o.preconditions.uid === 'string') pre.uid = o.preconditions.uid;
    if (typeof o.preconditions.resourceVersion === 'string') pre.resourceVersion = o.preconditions.resourceVersion;
    out.preconditions = pre;
  }
  const dryRun = Array.isArray(o.dryRun) && o.dryRun.includes('All');
  return { store: out, dryRun };
}

function withResourceVersion(options: DeleteOptions, resourceVersion: string): DeleteOptions {
  return { ...options, preconditions: { ...options.preconditions, resourceVersion } };
}

function phaseOf(pod: KubeObject): string {
  return isJsonObject(pod.status) && typeof pod.status.phase === 'string' ? pod.status.phase : '';
}

/** Terminal, pending or terminating pods: deleting them disrupts nothing a PDB guards. */
function canIgnorePDB(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return (
    phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || pod.metadata.deletionTimestamp !== undefined
  );
}

function shouldEnforceResourceVersion(pod: KubeObject): boolean {
  const phase = phaseOf(pod);
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata.deletionTimestamp !== undefined);
}

/** The 429 for a PDB the controller has not caught up with (or a pod that changed under us). */
function stillProcessing(pdbName: string): ApiError {
  return apiErrors.tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10, [
    { reason: 'DisruptionBudget', message: `The disruption budget ${pdbName} is still being processed by the server.` },
  ]);
}

function num(value: JsonValue | undefined): number {
  return typeof value === 'number' ? value : 0;
}

function requireType(store: Store, group: string, resource: string): ResourceType {
  const rt = store.resourceType(group, resource);
  if (!rt) throw apiErrors.internal(`resource ${resource}.${group} is not served`);
  return rt;
}

/**
 * Evicts a pod (POST .../pods/<name>/eviction). `eviction` is the policy/v1 or policy/v1beta1
 * Eviction body; a request's `?dryRun=All` should be merged into its deleteOptions.dryRun by the
 * caller. Returns the Status to send, with its HTTP code in `code` (201 on success; 500 when
 * several budgets select the pod); throws an ApiError for the other failures (404, 409, 429, ...).
 */
export function evictPod(
  store: Store,
  clock: Clock,
  namespace: string,
  name: string,
  eviction: JsonObject,
): JsonObject {
  const meta = isJsonObject(eviction.metadata) ? eviction.metadata : {};
  if (meta.name !== name) throw apiErrors.badRequest('name in URL does not match name in Eviction object');
  if (typeof meta.namespace === 'string' && meta.namespace !== '' && meta.namespace !== namespace) {
    throw apiErrors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  }
  const podType = requireType(store, '', 'pods');
  const original = parseDeleteOptions(eviction.deleteOptions);
  const userSetResourceVersion = original.store.preconditions?.resourceVersion !== undefined;

  const pod = store.get(podType, namespace, name);
  if (!pod) throw apiErrors.notFound({ group: '', resource: 'pods' }, name);

  if (canIgnorePDB(pod)) {
    let options = original.store;
    if (shouldEnforceResourceVersion(pod) && !userSetResourceVersion)
      options = withResourceVersion(options, metaString(pod, 'resourceVersion'));
    addConditionAndDeletePod(store, clock, podType, pod, options, original.dryRun);
    return success();
  }

  const pdbType = requireType(store, 'policy', 'poddisruptionbudgets');
  const podLabels = labelsOf(pod);
  const pdbs = store.list(pdbType, namespace).filter((pdb) => {
    try {
      return labelSelectorMatcher(isJsonObject(pdb.spec) ? pdb.spec.selector : undefined)(podLabels);
    } catch {
      return false; // an invalid selector matches nothing
    }
  });
  if (pdbs.length > 1) {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
      code: 500,
    };
  }

  let options = original.store;
  const pdb = pdbs[0];
  if (pdb) {
    const pdbName = metaString(pdb, 'name');
    const spec = isJsonObject(pdb.spec) ? pdb.spec : {};
    const status = isJsonObject(pdb.status) ? pdb.status : {};
    const unready = !isPodReady(pod);
    const skipBudget =
      unready &&
      (spec.unhealthyPodEvictionPolicy === 'AlwaysAllow' ||
        (num(status.currentHealthy) >= num(status.desiredHealthy) && num(status.desiredHealthy) > 0));
    if (skipBudget) {
      // Delete only if the pod is still the unready one we looked at.
      options = withResourceVersion(options, metaString(pod, 'resourceVersion'));
      try {
        addConditionAndDeletePod(store, clock, podType, pod, options, original.dryRun);
      } catch (err) {
        if (isApiError(err, 409) && !userSetResourceVersion) throw stillProcessing(pdbName);
        throw err;
      }
      return success();
    }
    checkAndDecrementWithRetry(store, clock, pdbType, pdb, name, original.dryRun);
  }
  addConditionAndDeletePod(store, clock, podType, pod, options, original.dryRun);
  return success();
}

function success(): JsonObject {
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };
}

function checkAndDecrementWithRetry(
  store: Store,
  clock: Clock,
  pdbType: ResourceType,
  first: KubeObject,
  podName: string,
  dryRun: boolean,
): void {
  const ns = metaString(first, 'namespace');
  const pdbName = metaString(first, 'name');
  let pdb: KubeObject | undefined = first;
  for (let attempt = 0; attempt < EVICTION_RETRIES; attempt++) {
    if (attempt > 0) pdb = store.get(pdbType, ns, pdbName);
    if (!pdb) throw apiErrors.notFound({ group: 'policy', resource: 'poddisruptionbudgets' }, pdbName);
    try {
      checkAndDecrement(store, clock, pdbType, pdb, podName, dryRun);
      return;
    } catch (err) {
      if (!isApiError(err, 409)) throw err;
    }
  }
  throw apiErrors.timeout(`couldn't update PodDisruptionBudget "${pdbName}" due to conflicts`, 10);
}

/** kube's checkAndDecrement: verifies the budget allows one more disruption and records it. */
function checkAndDecrement(
  store: Store,
  clock: Clock,
  pdbType: ResourceType,
  pdb: KubeObject,
  podName: string,
  dryRun: boolean,
): void {
  const name = metaString(pdb, 'name');
  const status = isJsonObject(pdb.status) ? pdb.status : {};
  if (num(status.observedGeneration) < num(pdb.metadata.generation)) throw stillProcessing(name);
  const allowed = num(status.disruptionsAllowed);
  const gr = { group: 'policy', resource: 'poddisruptionbudget' };
  if (allowed < 0) throw apiErrors.forbidden(gr, name, 'pdb disruptions allowed is negative');
  const disrupted = isJsonObject(status.disruptedPods) ? status.disruptedPods : {};
  if (Object.keys(disrupted).length > MAX_DISRUPTED_POD_SIZE) {
    throw apiErrors.forbidden(
      gr,
      name,
      'DisruptedPods map too big - too many evictions not confirmed by PDB controller',
    );
  }
  if (allowed === 0) {
    throw apiErrors.tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 0, [
      {
        reason: 'DisruptionBudget',
        message: `The disruption budget ${name} needs ${num(status.desiredHealthy)} healthy pods and has ${num(status.currentHealthy)} currently`,
      },
    ]);
  }
  if (dryRun) return;
  const next = cloneJson(pdb);
  const nextStatus: JsonObject = {
    ...status,
    disruptionsAllowed: allowed - 1,
    disruptedPods: { ...disrupted, [podName]: formatTime(clock.now()) },
  };
  if (allowed - 1 === 0) updateDisruptionAllowedCondition(nextStatus, clock.now());
  next.status = nextStatus;
  store.update(pdbType, next, { subresource: 'status' });
}

/**
 * Marks the pod with the DisruptionTarget condition (reason EvictionByEvictionAPI) and deletes
 * it, honouring the delete preconditions against the latest pod as kube does.
 */
function addConditionAndDeletePod(
  store: Store,
  clock: Clock,
  podType: ResourceType,
  pod: KubeObject,
  options: DeleteOptions,
  dryRun: boolean,
): void {
  const ns = metaString(pod, 'namespace');
  const name = metaString(pod, 'name');
  const latest = store.get(podType, ns, name);
  if (!latest) throw apiErrors.notFound({ group: '', resource: 'pods' }, name);
  const pre = options.preconditions;
  const uid = metaString(latest, 'uid');
  const rv = metaString(latest, 'resourceVersion');
  // kube's own wording here, resource "Pod" included.
  if (pre?.uid !== undefined && pre.uid !== '' && pre.uid !== uid) {
    throw apiErrors.conflict(
      { group: '', resource: 'Pod' },
      name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
    );
  }
  if (pre?.resourceVersion !== undefined && pre.resourceVersion !== '' && pre.resourceVersion !== rv) {
    throw apiErrors.conflict(
      { group: '', resource: 'Pod' },
      name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
    );
  }
  if (dryRun) return;
  const next = cloneJson(latest);
  const status: JsonObject = isJsonObject(next.status) ? next.status : {};
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isJsonObject) : [];
  const existing = conditions.find((c) => c.type === 'DisruptionTarget');
  const now = formatTime(clock.now());
  const wanted: JsonObject = {
    type: 'DisruptionTarget',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: now,
    reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting',
  };
  if (existing) {
    if (existing.status === 'True') wanted.lastTransitionTime = existing.lastTransitionTime ?? now;
    Object.assign(existing, wanted);
  } else {
    conditions.push(wanted);
  }
  status.conditions = conditions;
  next.status = status;
  const updated = store.update(podType, next, { subresource: 'status' });
  let deleteOptions = options;
  if (pre?.resourceVersion !== undefined)
    deleteOptions = withResourceVersion(options, metaString(updated, 'resourceVersion'));
  store.delete(podType, ns, name, deleteOptions);
}
