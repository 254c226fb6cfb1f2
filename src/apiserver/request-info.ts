/**
 * Resolves a resource URL (`/api/v1/namespaces/ns/pods/name/status`,
 * `/apis/group/version/plural`) to the served type and the addressed object.
 */
import type { Store } from './types.js';
import type { ServedType } from './storage/served-type.js';

/** A request for a resource, a collection or a subresource. */
export interface ResourceTarget {
  rt: ServedType;
  /** The version in the URL. */
  version: string;
  /** Namespace in the URL (undefined: all namespaces or cluster scope). */
  namespace: string | undefined;
  name: string | undefined;
  subresource: string | undefined;
}

/** The group/version part of an API path, and what follows. */
export interface GroupVersionPath {
  group: string;
  version: string;
  rest: string[];
}

/**
 * A path segment's escapes decoded as Go decodes them: to bytes, read as UTF-8 with invalid
 * sequences replaced (`%E2%82` alone is a well-formed escape of bytes that are not UTF-8, which
 * Go's server accepts and JavaScript's decodeURIComponent refuses). Malformed escapes such as
 * `%zz` never get here: the router refuses them first, as Go's server does.
 */
export function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    const bytes: number[] = [];
    for (let i = 0; i < segment.length; i++) {
      const hex = segment[i] === '%' ? segment.slice(i + 1, i + 3) : '';
      if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
        bytes.push(Number.parseInt(hex, 16));
        i += 2;
      } else bytes.push(...Buffer.from(segment[i] ?? '', 'utf8'));
    }
    return Buffer.from(bytes).toString('utf8');
  }
}

/** Splits `/api/v1/...` or `/apis/g/v/...`; undefined for other paths. */
export function groupVersionPath(pathname: string): GroupVersionPath | undefined {
  const segs = pathname
    .split('/')
    .filter((s) => s !== '')
    .map(decodePathSegment);
  if (segs[0] === 'api' && segs.length >= 2) return { group: '', version: segs[1]!, rest: segs.slice(2) };
  if (segs[0] === 'apis' && segs.length >= 3) return { group: segs[1]!, version: segs[2]!, rest: segs.slice(3) };
  return undefined;
}

function served(store: Store, group: string, version: string, plural: string): ServedType | undefined {
  const rt = store.resourceType(group, plural) as ServedType | undefined;
  return rt && rt.versions.includes(version) ? rt : undefined;
}

/** The resource addressed by the path's remaining segments, or undefined when none is served. */
export function resolveTarget(store: Store, gv: GroupVersionPath): ResourceTarget | undefined {
  const { group, version, rest } = gv;
  if (rest.length === 0) return undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    const nsType = served(store, group, version, rest[2]!);
    if (nsType?.namespaced) {
      if (rest.length > 5) return undefined;
      return { rt: nsType, version, namespace: rest[1], name: rest[3], subresource: rest[4] };
    }
  }
  const rt = served(store, group, version, rest[0]!);
  if (!rt || rest.length > 3) return undefined;
  if (rt.namespaced && rest.length > 1) return undefined;
  return { rt, version, namespace: undefined, name: rest[1], subresource: rest[2] };
}
