/**
 * kube-apiserver's deletion rules, as pure decisions over one object: propagation-policy
 * finalizers, a pod's grace period, marking an object as being deleted (deletionTimestamp,
 * generation bump, a Namespace's Terminating phase), and when a marked object is removed.
 */
import { formatTime } from '../../lib/clock.js';
import { isJsonObject, type JsonObject } from '../../lib/json.js';
import { fieldError, type FieldError } from '../field-errors.js';
import type { KubeObject, PropagationPolicy, ResourceType } from '../types.js';

/** metadata.finalizers (strings only). */
export function finalizersOf(kubeObject: KubeObject): string[] {
  const f = kubeObject.metadata.finalizers;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

/** spec.finalizers of a Namespace (strings only). */
export function specFinalizers(kubeObject: KubeObject): string[] {
  const spec = kubeObject.spec;
  const f = isJsonObject(spec) ? spec.finalizers : undefined;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

/** True for core Pods. */
export function isPodType(rt: Pick<ResourceType, 'group' | 'resource'>): boolean {
  return rt.group === '' && rt.resource === 'pods';
}

/** True for core Namespaces. */
export function isNamespaceType(rt: Pick<ResourceType, 'group' | 'resource'>): boolean {
  return rt.group === '' && rt.resource === 'namespaces';
}

/** Replaces the `orphan`/`foregroundDeletion` finalizers with the ones a propagation policy asks for (mutates obj). */
export function applyPropagationPolicy(obj: KubeObject, policy: PropagationPolicy | undefined): void {
  if (policy === undefined) return;
  const finalizers = finalizersOf(obj);
  const keep = finalizers.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
  if (policy === 'Orphan') keep.push('orphan');
  if (policy === 'Foreground') keep.push('foregroundDeletion');
  if (keep.length > 0) obj.metadata.finalizers = keep;
  else delete obj.metadata.finalizers;
}

/**
 * The grace period a first delete gives: a pod that is bound and not finished gets the requested
 * period (else its terminationGracePeriodSeconds, else 30 s); everything else is deleted at once.
 */
export function initialGracePeriod(rt: ResourceType, obj: KubeObject, requested: number | undefined): number {
  if (!isPodType(rt)) return 0;
  const spec: JsonObject = isJsonObject(obj.spec) ? obj.spec : {};
  const bound = typeof spec.nodeName === 'string' && spec.nodeName !== '';
  const phase = isJsonObject(obj.status) ? obj.status.phase : undefined;
  const fallback = typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30;
  return bound && phase !== 'Succeeded' && phase !== 'Failed' ? Math.max(0, requested ?? fallback) : 0;
}

/** A repeated delete of a pod being deleted may only shorten its grace period (mutates obj). */
export function shortenGracePeriod(
  rt: ResourceType,
  obj: KubeObject,
  requested: number | undefined,
  now: number,
): void {
  const current = obj.metadata.deletionGracePeriodSeconds;
  if (!isPodType(rt) || requested === undefined || requested >= (typeof current === 'number' ? current : 0)) return;
  const grace = Math.max(0, requested);
  obj.metadata.deletionGracePeriodSeconds = grace;
  obj.metadata.deletionTimestamp = formatTime(now + grace * 1000);
}

/** True when a delete can remove the object at once (no grace period, nothing to finalize). */
export function removableNow(rt: ResourceType, obj: KubeObject, grace: number): boolean {
  return grace === 0 && finalizersOf(obj).length === 0 && !(isNamespaceType(rt) && specFinalizers(obj).length > 0);
}

/**
 * Marks an object as being deleted (mutates obj): deletionTimestamp (now + grace),
 * deletionGracePeriodSeconds, a generation bump for kinds that keep one (as BeforeDelete and
 * markAsDeleting do), and phase Terminating for a Namespace.
 */
export function markDeleting(rt: ResourceType, obj: KubeObject, now: number, grace: number): void {
  const m = obj.metadata;
  if (typeof m.generation === 'number' && m.generation > 0) m.generation += 1;
  m.deletionTimestamp = formatTime(now + grace * 1000);
  m.deletionGracePeriodSeconds = grace;
  if (isNamespaceType(rt)) obj.status = { ...(isJsonObject(obj.status) ? obj.status : {}), phase: 'Terminating' };
}

/**
 * True when an object being deleted is to be removed: no finalizers left (nor a Namespace's
 * spec.finalizers) and, for a pod, its grace period over.
 */
export function shouldRemove(rt: ResourceType, kubeObject: KubeObject): boolean {
  const m = kubeObject.metadata;
  if (m.deletionTimestamp === undefined || finalizersOf(kubeObject).length > 0) return false;
  if (isNamespaceType(rt) && specFinalizers(kubeObject).length > 0) return false;
  if (isPodType(rt) && typeof m.deletionGracePeriodSeconds === 'number' && m.deletionGracePeriodSeconds > 0)
    return false;
  return true;
}

/** The 422 field error for finalizers added to an object that is being deleted, if any were. */
export function newFinalizersWhileDeleting(old: KubeObject, next: KubeObject): FieldError | undefined {
  if (old.metadata.deletionTimestamp === undefined) return undefined;
  const before = new Set(finalizersOf(old));
  const added = finalizersOf(next).filter((f) => !before.has(f));
  if (added.length === 0) return undefined;
  const list = added.map((f) => JSON.stringify(f)).join(', ');
  return fieldError.forbidden(
    'metadata.finalizers',
    `no new finalizers can be added if the object is being deleted, found new finalizers []string{${list}}`,
  );
}
