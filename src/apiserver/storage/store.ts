/**
 * The in-memory object store with kube-apiserver's metadata semantics (see the Store contract
 * in ../types.ts). One global, monotonically increasing resourceVersion orders every change.
 */
import { randomInt, randomUUID } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import { formatTime } from '../../lib/clock.js';
import { cloneJson, isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../../lib/json.js';
import type { Random } from '../../lib/random.js';
import { apiErrors } from '../status.js';
import {
  apiVersionOf,
  type DeleteOptions,
  type KubeObject,
  type ResourceType,
  type Store,
  type StoreEvent,
  type StoreEventType,
  type WriteOptions,
} from '../types.js';
import { builtinTypes, strategyFor } from '../builtin/kinds.js';
import {
  applyPropagationPolicy,
  initialGracePeriod,
  isPodType,
  markDeleting,
  newFinalizersWhileDeleting,
  removableNow,
  shortenGracePeriod,
  shouldRemove,
} from './deletion.js';
import { coreEventToV1, v1EventToCore } from './event-conversion.js';
import { nextGeneration } from './generation.js';
import { generatedName, randomUuid, validateObjectName } from './object-meta.js';
import { PodTerminationTimers } from './pod-termination.js';
import { updatedObject } from './update-rules.js';
import { isEventsV1, storageKey, type ServedType } from './served-type.js';

export type PodTermination = 'expire' | 'kubelet';

export interface MemoryStoreOptions {
  clock: Clock;
  /** Source of uids and generated names; crypto when unset. */
  random?: Random;
  /** 'expire' removes a gracefully deleted pod when its grace period ends; 'kubelet' waits for a grace-0 delete. */
  podTermination?: PodTermination;
  /** Register the built-in kinds (default true). */
  builtins?: boolean;
  /** Computes metadata.managedFields for a write that names a field manager (the server wires patch/managed-fields.ts). */
  managedFields?: ManagedFieldsFn;
  /** Receives an exception thrown by a subscriber (default: rethrown on a microtask, so it is not lost). */
  onListenerError?: (err: unknown) => void;
}

/** Arguments of a managedFields computation, as patch/managed-fields.ts takes them. */
export interface ManagedFieldsArgs {
  old: KubeObject | undefined;
  updated: KubeObject;
  manager: string;
  operation: 'Update';
  subresource?: string;
  time: string;
}

export type ManagedFieldsFn = (args: ManagedFieldsArgs) => JsonValue[];

/** WriteOptions plus dry run (nothing is stored, the would-be result is returned). */
export interface MemoryWriteOptions extends WriteOptions {
  dryRun?: boolean;
  /**
   * The input is the caller's to give away (parsed from a request body and referenced by
   * nothing else): the store keeps and changes it instead of a deep copy.
   */
  owned?: boolean;
}

/** DeleteOptions plus dry run. */
export interface MemoryDeleteOptions extends DeleteOptions {
  dryRun?: boolean;
}

/** What persistence saves and restores. */
export interface StoreSnapshot {
  resourceVersion: string;
  buckets: Record<string, KubeObject[]>;
}

interface Bucket {
  objects: Map<string, KubeObject>;
  sorted: string[] | undefined;
}

const cryptoRandom: Random = { next: () => randomInt(2 ** 32) / 2 ** 32 };

/** A metadata value as text ('' when absent or not a string). */
function text(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function meta(kubeObject: KubeObject): JsonObject {
  return kubeObject.metadata;
}

/**
 * A copy of a stored object whose top level and metadata are its own, sharing everything else
 * (stored objects are never changed): what a delete changes is metadata and top-level fields
 * only, and a deleted object's last state stays in the watch window without a deep copy.
 */
function withOwnMetadata(kubeObject: KubeObject): KubeObject {
  return { ...kubeObject, metadata: { ...kubeObject.metadata } };
}

function gr(rt: ResourceType): { group: string; resource: string } {
  return { group: rt.group, resource: rt.resource };
}

/** The in-memory Store; see the contract in ../types.ts. */
export class MemoryStore implements Store {
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #podTermination: PodTermination;
  readonly #types = new Map<string, ServedType>();
  /** group/kind → served type, rebuilt after the served types change. */
  #byKind: Map<string, ServedType> | undefined;
  readonly #buckets = new Map<string, Bucket>();
  readonly #listeners = new Set<(storeEvent: StoreEvent) => void>();
  readonly #typeListeners = new Set<() => void>();
  readonly #podTimers: PodTerminationTimers;
  readonly #managedFieldsFn: ManagedFieldsFn | undefined;
  readonly #onListenerError: (err: unknown) => void;
  #rv = 0;

  constructor(options: MemoryStoreOptions) {
    this.#clock = options.clock;
    this.#random = options.random ?? cryptoRandom;
    this.#podTermination = options.podTermination ?? 'expire';
    this.#podTimers = new PodTerminationTimers(options.clock);
    this.#managedFieldsFn = options.managedFields;
    this.#onListenerError =
      options.onListenerError ??
      ((err) =>
        queueMicrotask(() => {
          throw err;
        }));
    if (options.builtins !== false) for (const t of builtinTypes) this.registerResourceType(t);
  }

  resourceTypes(): ResourceType[] {
    return [...this.#types.values()];
  }

  resourceType(group: string, resource: string): ServedType | undefined {
    return this.#types.get(`${group}/${resource}`);
  }

  /** The served type of a group and kind (every write asks, for its patch metadata). */
  resourceTypeOfKind(group: string, kind: string): ServedType | undefined {
    if (!this.#byKind) {
      this.#byKind = new Map();
      for (const t of this.#types.values())
        if (!this.#byKind.has(`${t.group}/${t.kind}`)) this.#byKind.set(`${t.group}/${t.kind}`, t);
    }
    return this.#byKind.get(`${group}/${kind}`);
  }

  /** Adds or replaces a served type (CRDs at runtime). */
  registerResourceType(type: ServedType): void {
    this.#types.set(`${type.group}/${type.resource}`, type);
    this.#byKind = undefined;
    for (const l of [...this.#typeListeners]) l();
  }

  /** Stops serving a type and drops its objects (without events). */
  unregisterResourceType(group: string, resource: string): void {
    const key = `${group}/${resource}`;
    if (!this.#types.delete(key)) return;
    this.#byKind = undefined;
    this.#buckets.delete(storageKey({ group, resource }));
    for (const l of [...this.#typeListeners]) l();
  }

  /** Called after every change of the served types. Returns an unsubscribe function. */
  onTypesChanged(listener: () => void): () => void {
    this.#typeListeners.add(listener);
    return () => this.#typeListeners.delete(listener);
  }

  currentResourceVersion(): string {
    return String(this.#rv);
  }

  get(rt: ResourceType, namespace: string, name: string): KubeObject | undefined {
    const o = this.#bucket(rt).objects.get(this.#key(rt, namespace, name));
    return o && this.#view(rt, o);
  }

  list(rt: ResourceType, namespace?: string): KubeObject[] {
    const b = this.#bucket(rt);
    b.sorted ??= [...b.objects.keys()].sort();
    const out: KubeObject[] = [];
    const prefix = namespace === undefined || !rt.namespaced ? undefined : `${namespace}/`;
    for (const k of b.sorted) {
      if (prefix !== undefined && !k.startsWith(prefix)) continue;
      const o = b.objects.get(k);
      if (o) out.push(this.#view(rt, o));
    }
    return out;
  }

  create(rt: ResourceType, input: KubeObject, options: MemoryWriteOptions = {}): KubeObject {
    const obj = this.#toStorage(rt, options.owned === true ? input : cloneJson(input));
    if (!isJsonObject(obj.metadata)) obj.metadata = {};
    const m = meta(obj);
    if (!rt.namespaced) delete m.namespace;
    const strategy = strategyFor(rt);
    if ((typeof m.name !== 'string' || m.name === '') && typeof m.generateName === 'string' && m.generateName !== '') {
      m.name = generatedName(m.generateName, this.#random);
    }
    const errs = validateObjectName(m, strategy.nameRule, rt.namespaced);
    if (errs.length > 0) throw apiErrors.invalid(rt.group, rt.kind, typeof m.name === 'string' ? m.name : '', errs);
    const name = m.name as string;
    const ns = rt.namespaced ? (m.namespace as string) : '';
    const bucket = this.#bucket(rt);
    const key = this.#key(rt, ns, name);
    if (bucket.objects.has(key)) throw apiErrors.alreadyExists(gr(rt), name);
    // Crypto's own UUIDs unless a seeded source must make them (one random draw per byte is slow).
    m.uid = this.#random === cryptoRandom ? randomUUID() : randomUuid(this.#random);
    m.creationTimestamp = formatTime(this.#clock.now());
    if (strategy.generation !== undefined) m.generation = 1;
    else delete m.generation;
    delete m.deletionTimestamp;
    delete m.deletionGracePeriodSeconds;
    delete m.selfLink;
    delete m.resourceVersion;
    if (strategy.statusOnCreate) obj.status = strategy.statusOnCreate(obj);
    if (strategy.dropStatusOnCreate === true) delete obj.status;
    strategy.defaults?.(obj);
    this.#managedFields(undefined, obj, options);
    if (options.dryRun === true) return this.#view(rt, obj);
    this.#commit(rt, 'ADDED', obj, undefined);
    return this.#view(rt, obj);
  }

  update(rt: ResourceType, input: KubeObject, options: MemoryWriteOptions = {}): KubeObject {
    const incoming = this.#toStorage(rt, options.owned === true ? input : cloneJson(input));
    if (!isJsonObject(incoming.metadata)) incoming.metadata = {};
    const im = meta(incoming);
    const name = typeof im.name === 'string' ? im.name : '';
    const ns = rt.namespaced && typeof im.namespace === 'string' ? im.namespace : '';
    const old = this.#bucket(rt).objects.get(this.#key(rt, ns, name));
    if (!old) throw apiErrors.notFound(gr(rt), name);
    const om = meta(old);
    if (
      typeof im.resourceVersion === 'string' &&
      im.resourceVersion !== '' &&
      im.resourceVersion !== om.resourceVersion
    ) {
      throw apiErrors.staleConflict(gr(rt), name);
    }
    if (typeof im.uid === 'string' && im.uid !== '' && im.uid !== om.uid) {
      throw apiErrors.conflict(
        gr(rt),
        name,
        `Precondition failed: UID in precondition: ${im.uid}, UID in object meta: ${text(om.uid)}`,
      );
    }
    const hasStatus = rt.subresources.includes('status');
    const next = updatedObject(rt, old, incoming, options.subresource);
    next.apiVersion = old.apiVersion;
    next.kind = old.kind;
    const nm = meta(next);
    nm.resourceVersion = om.resourceVersion ?? '0';
    const finalizerErr = newFinalizersWhileDeleting(old, next);
    if (finalizerErr) throw apiErrors.invalid(rt.group, rt.kind, name, [finalizerErr]);
    const generation = nextGeneration(strategyFor(rt).generation, old, next, hasStatus);
    if (generation === undefined) delete nm.generation;
    else nm.generation = generation;
    if (jsonEqual(next, old)) return this.#view(rt, old);
    this.#managedFields(old, next, options);
    if (options.dryRun === true) return this.#view(rt, next);
    this.#commit(rt, shouldRemove(rt, next) ? 'DELETED' : 'MODIFIED', next, old);
    return this.#view(rt, next);
  }

  delete(rt: ResourceType, namespace: string, name: string, options: MemoryDeleteOptions = {}): KubeObject {
    const ns = rt.namespaced ? namespace : '';
    const old = this.#bucket(rt).objects.get(this.#key(rt, ns, name));
    if (!old) throw apiErrors.notFound(gr(rt), name);
    const om = meta(old);
    const pre = options.preconditions;
    if (pre?.uid !== undefined && pre.uid !== om.uid) {
      throw apiErrors.conflict(
        gr(rt),
        name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${text(om.uid)}`,
      );
    }
    if (pre?.resourceVersion !== undefined && pre.resourceVersion !== om.resourceVersion) {
      throw apiErrors.conflict(
        gr(rt),
        name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${text(om.resourceVersion)}`,
      );
    }
    const next = withOwnMetadata(old);
    applyPropagationPolicy(next, options.propagationPolicy);
    const now = this.#clock.now();
    if (om.deletionTimestamp !== undefined) {
      // Already being deleted: only a shorter pod grace period or a new propagation policy changes it.
      shortenGracePeriod(rt, next, options.gracePeriodSeconds, now);
      if (jsonEqual(next, old) || options.dryRun === true) return this.#view(rt, jsonEqual(next, old) ? old : next);
      this.#commit(rt, shouldRemove(rt, next) ? 'DELETED' : 'MODIFIED', next, old);
      this.#armPodTimer(rt, next);
      return this.#view(rt, next);
    }
    const grace = initialGracePeriod(rt, next, options.gracePeriodSeconds);
    if (removableNow(rt, next, grace)) {
      if (options.dryRun === true) return this.#view(rt, next);
      this.#commit(rt, 'DELETED', next, old);
      return this.#view(rt, next);
    }
    markDeleting(rt, next, now, grace);
    if (options.dryRun === true) return this.#view(rt, next);
    this.#commit(rt, 'MODIFIED', next, old);
    this.#armPodTimer(rt, next);
    return this.#view(rt, next);
  }

  subscribe(listener: (event: StoreEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** A deep copy of everything stored, for persistence. */
  snapshot(): StoreSnapshot {
    const buckets: Record<string, KubeObject[]> = {};
    for (const [k, b] of this.#buckets)
      if (b.objects.size > 0) buckets[k] = [...b.objects.values()].map((o) => cloneJson(o));
    return { resourceVersion: String(this.#rv), buckets };
  }

  /** Replaces the contents with a snapshot (no events). Types must be registered separately. */
  restore(snapshot: StoreSnapshot): void {
    this.#buckets.clear();
    this.#podTimers.cancelAll();
    this.#rv = Number(snapshot.resourceVersion) || 0;
    for (const [key, objects] of Object.entries(snapshot.buckets)) {
      const b: Bucket = { objects: new Map(), sorted: undefined };
      for (const o of objects) {
        const m = meta(o);
        b.objects.set(`${typeof m.namespace === 'string' ? m.namespace : ''}/${text(m.name)}`, o);
      }
      this.#buckets.set(key, b);
    }
    const pods = this.resourceType('', 'pods');
    if (pods) for (const p of this.list(pods)) this.#armPodTimer(pods, p);
  }

  /** Cancels the store's timers. */
  close(): void {
    this.#podTimers.cancelAll();
  }

  #bucket(rt: ResourceType): Bucket {
    const key = storageKey(rt);
    let b = this.#buckets.get(key);
    if (!b) {
      b = { objects: new Map(), sorted: undefined };
      this.#buckets.set(key, b);
    }
    return b;
  }

  #key(rt: ResourceType, namespace: string, name: string): string {
    return `${rt.namespaced ? namespace : ''}/${name}`;
  }

  #toStorage(rt: ResourceType, kubeObject: KubeObject): KubeObject {
    if (isEventsV1(rt)) return v1EventToCore(kubeObject);
    const storage = this.resourceType(rt.group, rt.resource) ?? rt;
    kubeObject.apiVersion = apiVersionOf(storage.group, storage.version);
    kubeObject.kind = storage.kind;
    return kubeObject;
  }

  #view(rt: ResourceType, kubeObject: KubeObject): KubeObject {
    return isEventsV1(rt) ? coreEventToV1(kubeObject) : kubeObject;
  }

  #managedFields(old: KubeObject | undefined, next: KubeObject, options: WriteOptions): void {
    if (options.fieldManager === undefined || this.#managedFieldsFn === undefined) return;
    next.metadata.managedFields = this.#managedFieldsFn({
      old,
      updated: next,
      manager: options.fieldManager,
      operation: 'Update',
      ...(options.subresource !== undefined ? { subresource: options.subresource } : {}),
      time: formatTime(this.#clock.now()),
    });
  }

  #armPodTimer(rt: ResourceType, pod: KubeObject): void {
    if (this.#podTermination !== 'expire' || !isPodType(rt)) return;
    const key = `${text(pod.metadata.namespace)}/${text(pod.metadata.name)}`;
    const uid = pod.metadata.uid;
    this.#podTimers.arm(key, pod, () => {
      const cur = this.#bucket(rt).objects.get(key);
      if (!cur || cur.metadata.uid !== uid) return;
      const next = withOwnMetadata(cur);
      next.metadata.deletionGracePeriodSeconds = 0;
      this.#commit(rt, shouldRemove(rt, next) ? 'DELETED' : 'MODIFIED', next, cur);
    });
  }

  #commit(rt: ResourceType, type: StoreEventType, obj: KubeObject, old: KubeObject | undefined): void {
    const storageType = this.resourceType(rt.group === 'events.k8s.io' ? '' : rt.group, rt.resource) ?? rt;
    this.#rv++;
    obj.metadata.resourceVersion = String(this.#rv);
    const bucket = this.#bucket(rt);
    const m = meta(obj);
    const key = this.#key(rt, typeof m.namespace === 'string' ? m.namespace : '', text(m.name));
    if (type === 'DELETED') {
      bucket.objects.delete(key);
      bucket.sorted = undefined;
      if (isPodType(storageType)) this.#podTimers.cancel(key);
    } else {
      if (!bucket.objects.has(key)) bucket.sorted = undefined;
      bucket.objects.set(key, obj);
    }
    const event: StoreEvent = old
      ? { type, resourceType: storageType, object: obj, oldObject: old }
      : { type, resourceType: storageType, object: obj };
    for (const l of [...this.#listeners]) {
      try {
        l(event);
      } catch (err) {
        this.#onListenerError(err);
      }
    }
  }
}
