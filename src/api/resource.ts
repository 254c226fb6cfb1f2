/**
 * Resource descriptors: how the operator names a kind on the API (group, version, plural,
 * scope), carrying the TypeScript type of its objects. The kube client and informers take a
 * descriptor and give back objects of that type, kept as plain JSON.
 */
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';

/** The minimum every object has. */
export interface KubeObjectLike {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
}

export interface ResourceDescriptor<T extends KubeObjectLike = KubeObjectLike> {
  /** '' for the core group. */
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  /** Lower-case plural: 'pods', 'upgradeconfigs'. */
  readonly plural: string;
  readonly namespaced: boolean;
  /** Phantom field carrying the object type; never set. */
  readonly __type?: T;
}

/** Makes a descriptor for the object type T. */
export function resource<T extends KubeObjectLike>(omit: Omit<ResourceDescriptor<T>, '__type'>): ResourceDescriptor<T> {
  return omit;
}

/** apiVersion as written in objects: 'v1' or 'group/version'. */
export function apiVersion(resourceDescriptor: Pick<ResourceDescriptor, 'group' | 'version'>): string {
  return resourceDescriptor.group === ''
    ? resourceDescriptor.version
    : `${resourceDescriptor.group}/${resourceDescriptor.version}`;
}

/** The group and version of an apiVersion ('v1' is the core group, ''). */
export function splitApiVersion(value: string): { group: string; version: string } {
  const slash = value.indexOf('/');
  return slash < 0 ? { group: '', version: value } : { group: value.slice(0, slash), version: value.slice(slash + 1) };
}

/** The object type a descriptor carries. */
export type ObjectOf<D> = D extends ResourceDescriptor<infer T> ? T : never;
