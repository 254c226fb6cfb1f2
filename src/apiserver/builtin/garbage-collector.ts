/**
 * The garbage collector of kube-controller-manager (pkg/controller/garbagecollector), in process:
 * it follows metadata.ownerReferences across every served resource type and
 *  - deletes (Background) a dependent once none of its owners exists any more (owner deleted,
 *    or a reference whose uid/name does not resolve: kube's "virtual delete" of dangling owners);
 *  - drops references to absent owners from a dependent that still has a live owner;
 *  - Orphan propagation: removes an owner's references from its dependents, then the `orphan`
 *    finalizer from the owner;
 *  - Foreground propagation: deletes all dependents (those with dependents of their own in
 *    foreground too) and removes the `foregroundDeletion` finalizer once no dependent with
 *    `blockOwnerDeletion: true` remains.
 * It reads the Store synchronously (no informer lag), so the owner lookups kube does against the
 * API server are plain `store.get` calls here.
 */
import { splitApiVersion } from '../../api/resource.js';
import type { Logger } from '../../lib/log.js';
import { cloneJson, isJsonObject, type JsonObject } from '../../lib/json.js';
import { ApiError } from '../status.js';
import type { KubeObject, PropagationPolicy, ResourceType, Store, StoreEvent } from '../types.js';
import { StoreDrivenQueue, type BuiltinControllerOptions, type DeferredQueue } from './deferred-queue.js';

/** An ownerReference as the garbage collector reads it. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** Where an object lives, plus the uid that identifies this incarnation. */
interface ObjectKey {
  rt: ResourceType;
  namespace: string;
  name: string;
  uid: string;
}

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

/** metadata.ownerReferences, well-formed entries only. */
export function ownerReferencesOf(obj: KubeObject): OwnerReference[] {
  const refs = obj.metadata.ownerReferences;
  if (!Array.isArray(refs)) return [];
  const out: OwnerReference[] = [];
  for (const r of refs) {
    if (!isJsonObject(r)) continue;
    const { apiVersion, kind, name, uid, controller, blockOwnerDeletion } = r;
    if (
      typeof apiVersion !== 'string' ||
      typeof kind !== 'string' ||
      typeof name !== 'string' ||
      typeof uid !== 'string'
    )
      continue;
    const ref: OwnerReference = { apiVersion, kind, name, uid };
    if (typeof controller === 'boolean') ref.controller = controller;
    if (typeof blockOwnerDeletion === 'boolean') ref.blockOwnerDeletion = blockOwnerDeletion;
    out.push(ref);
  }
  return out;
}

/** metadata.finalizers as strings. */
export function finalizersOf(obj: KubeObject): string[] {
  const f = obj.metadata.finalizers;
  return Array.isArray(f) ? f.filter((x): x is string => typeof x === 'string') : [];
}

/** A string field of metadata ('' when absent). */
export function metaString(obj: KubeObject, field: string): string {
  const v = obj.metadata[field];
  return typeof v === 'string' ? v : '';
}

/** The served type of an apiVersion/kind, matched on group and kind (any served version). */
export function resourceTypeForKind(store: Store, apiVersion: string, kind: string): ResourceType | undefined {
  const { group } = splitApiVersion(apiVersion);
  return store.resourceTypes().find((rt) => rt.group === group && rt.kind === kind);
}

/** True for an ApiError with the given HTTP code. */
export function isApiError(err: unknown, code: number): boolean {
  return err instanceof ApiError && err.code === code;
}

function isDeletingDependents(obj: KubeObject): boolean {
  return obj.metadata.deletionTimestamp !== undefined && finalizersOf(obj).includes(FINALIZER_FOREGROUND);
}

function refsSignature(refs: OwnerReference[]): string {
  return refs.map((r) => `${r.uid}:${r.apiVersion}:${r.kind}:${r.name}:${String(r.blockOwnerDeletion)}`).join(',');
}

const CONFLICT_RETRIES = 10;

/** The garbage collector; see the module comment. */
export class GarbageCollector {
  readonly #store: Store;
  readonly #log: Logger;
  readonly #queue: DeferredQueue<ObjectKey>;
  /** owner uid → dependent uid → dependent. */
  readonly #dependents = new Map<string, Map<string, ObjectKey>>();
  /** dependent uid → owner uids it references. */
  readonly #ownersOf = new Map<string, string[]>();
  /** Items whose owner kind is not served (yet): retried when a CRD changes. */
  readonly #parked = new Map<string, ObjectKey>();
  readonly #runner: StoreDrivenQueue<ObjectKey>;

  constructor(options: BuiltinControllerOptions) {
    this.#store = options.store;
    this.#runner = new StoreDrivenQueue<ObjectKey>(options, 'garbage-collector', (key) => this.#process(key));
    this.#log = this.#runner.log;
    this.#queue = this.#runner.queue;
  }

  /** Builds the owner index from the store, subscribes, and queues whatever needs attention. */
  start(): void {
    if (this.#runner.running) return;
    this.#dependents.clear();
    this.#ownersOf.clear();
    this.#parked.clear();
    this.#runner.start((e) => this.#onEvent(e));
    for (const rt of this.#store.resourceTypes()) {
      if (rt.group === 'events.k8s.io') continue; // a view of core Events
      for (const obj of this.#store.list(rt)) {
        const key = this.#keyOf(rt, obj);
        const refs = ownerReferencesOf(obj);
        this.#index(key, refs);
        if (refs.length > 0 || this.#needsFinalizerWork(obj)) this.#enqueue(key);
      }
    }
  }

  /** Unsubscribes and drops queued and delayed work. */
  stop(): void {
    this.#runner.stop();
  }

  /** Resolves when no work is queued. */
  idle(): Promise<void> {
    return this.#runner.idle();
  }

  #keyOf(rt: ResourceType, obj: KubeObject): ObjectKey {
    return {
      rt,
      namespace: rt.namespaced ? metaString(obj, 'namespace') : '',
      name: metaString(obj, 'name'),
      uid: metaString(obj, 'uid'),
    };
  }

  #enqueue(key: ObjectKey): void {
    this.#queue.add(key.uid, key);
  }

  #needsFinalizerWork(obj: KubeObject): boolean {
    if (obj.metadata.deletionTimestamp === undefined) return false;
    const f = finalizersOf(obj);
    return f.includes(FINALIZER_ORPHAN) || f.includes(FINALIZER_FOREGROUND);
  }

  #onEvent(storeEvent: StoreEvent): void {
    const rt = storeEvent.resourceType;
    if (rt.group === 'events.k8s.io') return;
    if (rt.group === 'apiextensions.k8s.io' && rt.resource === 'customresourcedefinitions') {
      for (const k of this.#parked.values()) this.#enqueue(k);
      this.#parked.clear();
    }
    const obj = storeEvent.object;
    const key = this.#keyOf(rt, obj);
    if (storeEvent.type === 'DELETED') {
      for (const dep of this.#dependents.get(key.uid)?.values() ?? []) this.#enqueue(dep);
      // An owner waiting in foreground for this dependent may now be free.
      for (const ref of ownerReferencesOf(obj)) {
        const ownerRt = resourceTypeForKind(this.#store, ref.apiVersion, ref.kind);
        if (ownerRt)
          this.#enqueue({
            rt: ownerRt,
            namespace: ownerRt.namespaced ? key.namespace : '',
            name: ref.name,
            uid: ref.uid,
          });
      }
      this.#index(key, []);
      this.#dependents.delete(key.uid);
      this.#parked.delete(key.uid);
      return;
    }
    const refs = ownerReferencesOf(obj);
    const oldRefs = storeEvent.oldObject ? ownerReferencesOf(storeEvent.oldObject) : [];
    this.#index(key, refs);
    if (refs.length > 0 && (storeEvent.type === 'ADDED' || refsSignature(refs) !== refsSignature(oldRefs)))
      this.#enqueue(key);
    if (this.#needsFinalizerWork(obj)) {
      this.#enqueue(key);
      if (isDeletingDependents(obj) && !(storeEvent.oldObject && isDeletingDependents(storeEvent.oldObject))) {
        for (const dep of this.#dependents.get(key.uid)?.values() ?? []) this.#enqueue(dep);
      }
    }
  }

  /** Records the owners of an object (replacing what was known). */
  #index(key: ObjectKey, refs: OwnerReference[]): void {
    for (const ownerUid of this.#ownersOf.get(key.uid) ?? []) {
      const deps = this.#dependents.get(ownerUid);
      deps?.delete(key.uid);
      if (deps?.size === 0) this.#dependents.delete(ownerUid);
    }
    if (refs.length === 0) {
      this.#ownersOf.delete(key.uid);
      return;
    }
    const owners = [...new Set(refs.map((r) => r.uid))];
    this.#ownersOf.set(key.uid, owners);
    for (const ownerUid of owners) {
      let deps = this.#dependents.get(ownerUid);
      if (!deps) {
        deps = new Map();
        this.#dependents.set(ownerUid, deps);
      }
      deps.set(key.uid, key);
    }
  }

  /** The live object of a key, if this incarnation still exists. */
  #live(key: ObjectKey): KubeObject | undefined {
    const obj = this.#store.get(key.rt, key.namespace, key.name);
    return obj && metaString(obj, 'uid') === key.uid ? obj : undefined;
  }

  #process(key: ObjectKey): void {
    const obj = this.#live(key);
    if (!obj) return;
    if (obj.metadata.deletionTimestamp !== undefined) {
      const finalizers = finalizersOf(obj);
      if (finalizers.includes(FINALIZER_ORPHAN)) this.#orphanDependents(key);
      else if (finalizers.includes(FINALIZER_FOREGROUND)) this.#processDeletingDependents(key);
      // Otherwise "being deleted" is a one-way trip: the DELETED event brings the dependents here.
      return;
    }
    const refs = ownerReferencesOf(obj);
    if (refs.length === 0) return;
    const solid: OwnerReference[] = [];
    const dangling: OwnerReference[] = [];
    const waiting: OwnerReference[] = [];
    for (const ref of refs) {
      const ownerRt = resourceTypeForKind(this.#store, ref.apiVersion, ref.kind);
      if (!ownerRt) {
        // kube retries a reference to an unknown kind forever rather than deleting: so do we.
        this.#log.debug(
          { item: `${key.namespace}/${key.name}`, owner: ref },
          'owner kind is not served; waiting for it',
        );
        this.#parked.set(key.uid, key);
        return;
      }
      if (!key.rt.namespaced && ownerRt.namespaced) {
        this.#log.warn({ item: key.name, owner: ref }, 'cluster-scoped object refers to a namespaced owner; ignored');
        return;
      }
      const owner = this.#store.get(ownerRt, ownerRt.namespaced ? key.namespace : '', ref.name);
      if (!owner || metaString(owner, 'uid') !== ref.uid) dangling.push(ref);
      else if (isDeletingDependents(owner)) waiting.push(ref);
      else solid.push(ref);
    }
    if (solid.length > 0) {
      if (dangling.length === 0 && waiting.length === 0) return;
      const drop = new Set([...dangling, ...waiting].map((r) => r.uid));
      this.#log.debug(
        { item: `${key.namespace}/${key.name}`, drop: [...drop] },
        'removing references to absent or deleting owners',
      );
      this.#mutate(key, (o) =>
        setOwnerReferences(
          o,
          ownerReferencesOf(o).filter((r) => !drop.has(r.uid)),
        ),
      );
      return;
    }
    const dependents = [...(this.#dependents.get(key.uid)?.values() ?? [])];
    if (waiting.length > 0 && dependents.length > 0) {
      const cycle = dependents.some((objectKey) => {
        const dep = this.#live(objectKey);
        return dep !== undefined && isDeletingDependents(dep);
      });
      if (cycle) {
        // As kube does to break a possible cycle: make this item's references non-blocking first.
        this.#mutate(key, (o) =>
          setOwnerReferences(
            o,
            ownerReferencesOf(o).map((r) => (r.blockOwnerDeletion === true ? { ...r, blockOwnerDeletion: false } : r)),
          ),
        );
      }
      this.#delete(key, 'Foreground');
      return;
    }
    const finalizers = finalizersOf(obj);
    const policy: PropagationPolicy = finalizers.includes(FINALIZER_ORPHAN)
      ? 'Orphan'
      : finalizers.includes(FINALIZER_FOREGROUND)
        ? 'Foreground'
        : 'Background';
    this.#log.debug(
      { item: `${key.rt.resource}/${key.namespace}/${key.name}`, policy },
      'deleting object whose owners are all gone',
    );
    this.#delete(key, policy);
  }

  #orphanDependents(owner: ObjectKey): void {
    for (const dep of [...(this.#dependents.get(owner.uid)?.values() ?? [])]) {
      this.#mutate(dep, (o) =>
        setOwnerReferences(
          o,
          ownerReferencesOf(o).filter((r) => r.uid !== owner.uid),
        ),
      );
    }
    this.#removeFinalizer(owner, FINALIZER_ORPHAN);
  }

  #processDeletingDependents(owner: ObjectKey): void {
    const blocking: ObjectKey[] = [];
    for (const dep of this.#dependents.get(owner.uid)?.values() ?? []) {
      const obj = this.#live(dep);
      if (!obj) continue;
      if (ownerReferencesOf(obj).some((r) => r.uid === owner.uid && r.blockOwnerDeletion === true)) blocking.push(dep);
    }
    if (blocking.length === 0) {
      this.#removeFinalizer(owner, FINALIZER_FOREGROUND);
      return;
    }
    for (const dep of blocking) {
      const obj = this.#live(dep);
      if (obj && !isDeletingDependents(obj)) this.#enqueue(dep);
    }
  }

  #removeFinalizer(key: ObjectKey, finalizer: string): void {
    this.#mutate(key, (kubeObject) => {
      const f = finalizersOf(kubeObject);
      if (!f.includes(finalizer)) return false;
      const rest = f.filter((x) => x !== finalizer);
      if (rest.length > 0) kubeObject.metadata.finalizers = rest;
      else delete kubeObject.metadata.finalizers;
      return true;
    });
  }

  /**
   * Read-modify-write of an object with optimistic concurrency, retried on conflict. `change`
   * edits a copy and returns false when nothing needs writing.
   */
  #mutate(key: ObjectKey, change: (kubeObject: KubeObject) => boolean): void {
    for (let attempt = 0; ; attempt++) {
      const cur = this.#live(key);
      if (!cur) return;
      const next = cloneJson(cur);
      if (!change(next)) return;
      try {
        this.#store.update(key.rt, next);
        return;
      } catch (err) {
        if (isApiError(err, 404)) return;
        if (!isApiError(err, 409) || attempt >= CONFLICT_RETRIES) throw err;
      }
    }
  }

  #delete(key: ObjectKey, policy: PropagationPolicy): void {
    try {
      this.#store.delete(key.rt, key.namespace, key.name, {
        propagationPolicy: policy,
        preconditions: { uid: key.uid },
      });
    } catch (err) {
      // Gone already, or replaced by a new incarnation (uid precondition): nothing to collect.
      if (isApiError(err, 404) || isApiError(err, 409)) return;
      throw err;
    }
  }
}

/** Sets metadata.ownerReferences (removing the field when empty); false when unchanged. */
function setOwnerReferences(kubeObject: KubeObject, refs: OwnerReference[]): boolean {
  const before = JSON.stringify(kubeObject.metadata.ownerReferences ?? []);
  const raw = Array.isArray(kubeObject.metadata.ownerReferences) ? kubeObject.metadata.ownerReferences : [];
  // Keep each kept reference's original JSON (extra fields included), in order.
  const byUid = new Map(refs.map((r) => [r.uid, r]));
  const next: JsonObject[] = [];
  for (const r of raw) {
    if (!isJsonObject(r) || typeof r.uid !== 'string') continue;
    const kept = byUid.get(r.uid);
    if (!kept) continue;
    const copy = { ...r };
    if (kept.blockOwnerDeletion !== undefined) copy.blockOwnerDeletion = kept.blockOwnerDeletion;
    next.push(copy);
  }
  if (next.length > 0) kubeObject.metadata.ownerReferences = next;
  else delete kubeObject.metadata.ownerReferences;
  return JSON.stringify(kubeObject.metadata.ownerReferences ?? []) !== before;
}
