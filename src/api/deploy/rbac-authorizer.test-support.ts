/**
 * Kubernetes RBAC authorisation of resource requests, as kube-apiserver's request-info
 * resolver and RBAC authoriser decide it, for the tests that check the shipped roles against
 * the requests the operator really makes. Written here because the embedded API server does no
 * authorisation.
 */
import type { PolicyRule } from 'kubernetes-types/rbac/v1.js';
import type { PermissionGrant } from './operator-objects.js';

/** The attributes RBAC decides on. */
export interface RequestAttributes {
  verb: string;
  apiGroup: string;
  /** `resource` or `resource/subresource`. */
  resource: string;
  namespace: string | undefined;
  /** The object name; for list/watch, the one of a `metadata.name=` field selector. */
  name: string | undefined;
}

/**
 * The attributes of a request (method and path with query), or undefined for a non-resource
 * path. Follows k8s.io/apiserver's RequestInfoFactory: GET on a collection is list, or watch
 * with `watch=true`; DELETE on a collection is deletecollection; a list or watch whose field
 * selector requires `metadata.name=<n>` is authorised as being about `<n>`.
 */
export function requestAttributes(method: string, pathAndQuery: string): RequestAttributes | undefined {
  const url = new URL(pathAndQuery, 'http://x');
  const parts = url.pathname
    .split('/')
    .filter((p) => p !== '')
    .map(decodeURIComponent);
  let apiGroup: string;
  let rest: string[];
  if (parts[0] === 'api' && parts.length >= 3) {
    apiGroup = '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    apiGroup = parts[1] ?? '';
    rest = parts.slice(3);
  } else {
    return undefined;
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const [resource = '', name, subresource] = rest;
  const watch = ['true', '1'].includes(url.searchParams.get('watch') ?? '');
  let verb: string;
  switch (method) {
    case 'GET':
      verb = name !== undefined ? 'get' : watch ? 'watch' : 'list';
      break;
    case 'POST':
      verb = 'create';
      break;
    case 'PUT':
      verb = 'update';
      break;
    case 'PATCH':
      verb = 'patch';
      break;
    case 'DELETE':
      verb = name !== undefined ? 'delete' : 'deletecollection';
      break;
    default:
      verb = method.toLowerCase();
  }
  let objectName = name;
  if (objectName === undefined && (verb === 'list' || verb === 'watch')) {
    const terms = (url.searchParams.get('fieldSelector') ?? '').split(',');
    for (const t of terms) {
      const m = /^metadata\.name==?(.+)$/.exec(t.trim());
      if (m) objectName = m[1];
    }
  }
  return {
    verb,
    apiGroup,
    resource: subresource !== undefined ? `${resource}/${subresource}` : resource,
    namespace,
    name: objectName,
  };
}

function has(list: readonly string[] | undefined, value: string): boolean {
  return (list ?? []).some((v) => v === '*' || v === value);
}

/** True when one rule allows the request (RBAC's RuleAllows). */
export function ruleAllows(rule: PolicyRule, a: RequestAttributes): boolean {
  if (!has(rule.verbs, a.verb) || !has(rule.apiGroups, a.apiGroup) || !has(rule.resources, a.resource)) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (a.name !== undefined && names.includes(a.name));
}

/** Grants with the namespace they apply in resolved: undefined means everywhere (a ClusterRole). */
export interface ResolvedGrant {
  namespace: string | undefined;
  grant: PermissionGrant;
}

/** The grants that allow the request (a Role only in its namespace, a ClusterRole everywhere). */
export function allowingGrants(grants: readonly ResolvedGrant[], a: RequestAttributes): ResolvedGrant[] {
  return grants.filter(
    (g) => (g.namespace === undefined || g.namespace === a.namespace) && ruleAllows(g.grant.rule, a),
  );
}
