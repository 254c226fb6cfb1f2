/** REST paths of the Kubernetes API, built from a resource descriptor. */
import type { ResourceDescriptor } from '../api/resource.js';

/** Query parameters: undefined values are left out; arrays repeat the key. */
export type Query = Record<string, string | number | boolean | undefined | ReadonlyArray<string>>;

export interface ResourcePathOptions {
  /** Namespace of a namespaced kind; empty or undefined lists across all namespaces. */
  namespace?: string | undefined;
  name?: string | undefined;
  /** 'status', 'scale', 'eviction', … */
  subresource?: string | undefined;
  query?: Query | undefined;
}

/**
 * `/api/v1/namespaces/ns/pods/name/status?x=y` for the core group, `/apis/<group>/<version>/…`
 * otherwise. A namespace given for a cluster-scoped kind is ignored.
 */
export function resourcePath(
  resourceDescriptor: Pick<ResourceDescriptor, 'group' | 'version' | 'plural' | 'namespaced'>,
  options: ResourcePathOptions = {},
): string {
  let path =
    resourceDescriptor.group === ''
      ? `/api/${seg(resourceDescriptor.version)}`
      : `/apis/${seg(resourceDescriptor.group)}/${seg(resourceDescriptor.version)}`;
  if (resourceDescriptor.namespaced && options.namespace !== undefined && options.namespace !== '')
    path += `/namespaces/${seg(options.namespace)}`;
  path += `/${seg(resourceDescriptor.plural)}`;
  if (options.name !== undefined) {
    if (options.name === '') throw new Error(`resource name may not be empty (${resourceDescriptor.plural})`);
    path += `/${seg(options.name)}`;
    if (options.subresource !== undefined && options.subresource !== '') path += `/${seg(options.subresource)}`;
  } else if (options.subresource !== undefined && options.subresource !== '') {
    throw new Error(`a subresource needs a name (${resourceDescriptor.plural}/${options.subresource})`);
  }
  return path + queryString(options.query);
}

/** `?a=1&b=x` (or '') from a query object, keys in insertion order. */
export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v as ReadonlyArray<string>) params.append(k, item);
    else params.append(k, String(v));
  }
  const s = params.toString();
  return s === '' ? '' : `?${s}`;
}

function seg(text: string): string {
  if (text === '.' || text === '..') throw new Error(`invalid path segment ${JSON.stringify(text)}`);
  return encodeURIComponent(text);
}
