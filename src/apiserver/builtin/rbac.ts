/**
 * The four kinds of rbac.authorization.k8s.io/v1 (Role, ClusterRole, RoleBinding,
 * ClusterRoleBinding), served as built-ins so that install manifests apply as on a real cluster.
 * Unlike the other built-ins they carry a schema: the fields of k8s.io/api/rbac/v1 with their
 * required ones, so that unknown fields fail `--validate=strict` (and are pruned otherwise) and
 * missing `verbs` or `roleRef` are rejected, as kube-apiserver's validation does; `roleRef` cannot
 * change on update ("cannot change roleRef"). The server stores these objects; it does not
 * authorize requests with them (src/api/deploy/rbac-authorizer.test-support.ts does, in tests).
 */
import type { JsonObject } from '../../lib/json.js';
import { labelSelectorSchema, stringList } from '../../api/json-schema-fragments.js';
import type { ServedType } from '../storage/served-type.js';

/** rbacv1.PolicyRule. */
const policyRule: JsonObject = {
  type: 'object',
  required: ['verbs'],
  properties: {
    apiGroups: stringList,
    resources: stringList,
    resourceNames: stringList,
    nonResourceURLs: stringList,
    verbs: stringList,
  },
};

/** rbacv1.RoleRef: every field required, and immutable (kube: "cannot change roleRef"). */
const roleRef: JsonObject = {
  type: 'object',
  required: ['apiGroup', 'kind', 'name'],
  properties: { apiGroup: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' } },
  'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'cannot change roleRef' }],
};

/** rbacv1.Subject. */
const subject: JsonObject = {
  type: 'object',
  required: ['kind', 'name'],
  properties: {
    apiGroup: { type: 'string' },
    kind: { type: 'string' },
    name: { type: 'string' },
    namespace: { type: 'string' },
  },
};

function objectSchema(properties: JsonObject, required: string[] = []): JsonObject {
  return {
    type: 'object',
    ...(required.length > 0 ? { required } : {}),
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      ...properties,
    },
  };
}

const rules: JsonObject = { type: 'array', items: policyRule };
const bindingProperties: JsonObject = { roleRef, subjects: { type: 'array', items: subject } };

function rbacType(kind: string, resource: string, namespaced: boolean, schema: JsonObject): ServedType {
  return {
    group: 'rbac.authorization.k8s.io',
    version: 'v1',
    versions: ['v1'],
    resource,
    singular: kind.toLowerCase(),
    kind,
    listKind: `${kind}List`,
    namespaced,
    shortNames: [],
    categories: [],
    subresources: [],
    custom: false,
    schemas: { v1: schema },
  };
}

export const roleType = rbacType('Role', 'roles', true, objectSchema({ rules }));
export const clusterRoleType = rbacType(
  'ClusterRole',
  'clusterroles',
  false,
  objectSchema({
    rules,
    aggregationRule: {
      type: 'object',
      properties: { clusterRoleSelectors: { type: 'array', items: labelSelectorSchema } },
    },
  }),
);
export const roleBindingType = rbacType(
  'RoleBinding',
  'rolebindings',
  true,
  objectSchema(bindingProperties, ['roleRef']),
);
export const clusterRoleBindingType = rbacType(
  'ClusterRoleBinding',
  'clusterrolebindings',
  false,
  objectSchema(bindingProperties, ['roleRef']),
);

/** The four RBAC types, in kube's discovery order. */
export const rbacTypes: readonly ServedType[] = [clusterRoleBindingType, clusterRoleType, roleBindingType, roleType];
