/**
 * Shared vocabulary of the embedded API server: objects, resource types and the storage
 * contract that the REST layer, the built-in controllers (garbage collector, namespace
 * lifecycle, disruption) and eviction all work through.
 */
import type { JsonObject } from '../lib/json.js';

export type { JsonObject, JsonValue } from '../lib/json.js';

/** An object as stored and served: plain JSON with apiVersion, kind and metadata. */
export interface KubeObject extends JsonObject {
  apiVersion: string;
  kind: string;
  metadata: JsonObject;
}

/** One served resource (a built-in kind or an established CRD). */
export interface ResourceType {
  /** API group; '' for the core group. */
  group: string;
  /** The version objects are stored in (and served at, for single-version kinds). */
  version: string;
  /** Every served version; for CRDs with several versions conversion is by apiVersion only (strategy None). */
  versions: string[];
  /** Plural, lower case: 'pods', 'upgradeconfigs'. */
  resource: string;
  singular: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  /** Subresources served: 'status', 'scale', 'eviction', 'finalize'. */
  subresources: string[];
  /** True when the resource comes from a CustomResourceDefinition. */
  custom: boolean;
}

/** `group/resource`, the key of a resource type ('' group gives '/pods'). */
export function groupResource(rt: Pick<ResourceType, 'group' | 'resource'>): string {
  return `${rt.group}/${rt.resource}`;
}

/** `group/version` as written in apiVersion ('v1' for the core group). */
export function apiVersionOf(group: string, version: string): string {
  return group === '' ? version : `${group}/${version}`;
}

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
}

export type StoreEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** A change that the store committed, in resourceVersion order. */
export interface StoreEvent {
  type: StoreEventType;
  resourceType: ResourceType;
  object: KubeObject;
  /** The object before the change (MODIFIED and DELETED). */
  oldObject?: KubeObject;
}

export interface WriteOptions {
  /** Field manager recorded in managedFields. */
  fieldManager?: string;
  /** Which part of the object is written: the main resource (default), 'status', or 'finalize' (namespaces). */
  subresource?: 'status' | 'finalize';
}

/**
 * The storage contract, with kube-apiserver's metadata semantics: resourceVersion, uid,
 * creationTimestamp, generateName, generation bumped on spec changes only, status
 * subresource rules, optimistic concurrency, finalizers and deletionTimestamp. An object whose
 * deletionTimestamp is set is removed as soon as it has no metadata.finalizers (and, for a
 * Namespace, no spec.finalizers). Writes throw an ApiError (see status.ts) on failure.
 *
 * Returned objects are shared with the store: treat them as read-only.
 */
export interface Store {
  /** Resource types served now (built-ins and established CRDs). */
  resourceTypes(): ResourceType[];
  /** Looks a resource type up by group and plural resource name. */
  resourceType(group: string, resource: string): ResourceType | undefined;
  /** The current resourceVersion of the whole store. */
  currentResourceVersion(): string;
  get(rt: ResourceType, namespace: string, name: string): KubeObject | undefined;
  /** Every object of the type, in one namespace or (namespace undefined) all of them, sorted by namespace/name. */
  list(rt: ResourceType, namespace?: string): KubeObject[];
  create(rt: ResourceType, obj: KubeObject, options?: WriteOptions): KubeObject;
  /** Replaces an object; when obj.metadata.resourceVersion is set it must match (else 409 Conflict). */
  update(rt: ResourceType, obj: KubeObject, options?: WriteOptions): KubeObject;
  /**
   * Deletes an object. With finalizers present (or added by the propagation policy) the object
   * is only marked (deletionTimestamp) and returned; otherwise it is removed and returned.
   */
  delete(rt: ResourceType, namespace: string, name: string, options?: DeleteOptions): KubeObject;
  /** Receives every committed change, synchronously, in order. Returns an unsubscribe function. */
  subscribe(listener: (event: StoreEvent) => void): () => void;
}
