/**
 * CustomResourceDefinitions that stand in, in tests only, for kinds the embedded API server does
 * not serve but the operator manifests use: the four RBAC kinds (rbac.authorization.k8s.io/v1,
 * built into every real cluster) and the Prometheus Operator's ServiceMonitor
 * (monitoring.coreos.com/v1, part of OpenShift monitoring). Their schemas carry the fields and
 * the required ones of the real APIs, so that `kubectl apply --validate=strict` rejects what a
 * real API server would reject for unknown or missing fields and wrong types.
 */
import type { JsonObject } from '../../lib/json.js';

const strings: JsonObject = { type: 'array', items: { type: 'string' } };
const stringMap: JsonObject = { type: 'object', additionalProperties: { type: 'string' } };

const policyRule: JsonObject = {
  type: 'object',
  required: ['verbs'],
  properties: {
    apiGroups: strings,
    resources: strings,
    resourceNames: strings,
    nonResourceURLs: strings,
    verbs: strings,
  },
};
const roleRef: JsonObject = {
  type: 'object',
  required: ['apiGroup', 'kind', 'name'],
  properties: { apiGroup: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' } },
};
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
const labelSelector: JsonObject = {
  type: 'object',
  properties: {
    matchLabels: stringMap,
    matchExpressions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'operator'],
        properties: { key: { type: 'string' }, operator: { type: 'string' }, values: strings },
      },
    },
  },
};

function crd(
  group: string,
  kind: string,
  plural: string,
  scope: 'Namespaced' | 'Cluster',
  version: string,
  properties: JsonObject,
  required: string[] = [],
): JsonObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${plural}.${group}`,
      // Real servers want this for *.k8s.io groups; these definitions exist only in tests.
      ...(group.endsWith('.k8s.io')
        ? { annotations: { 'api-approved.kubernetes.io': 'unapproved, test-only stand-in for a built-in API' } }
        : {}),
    },
    spec: {
      group,
      scope,
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase() },
      versions: [
        {
          name: version,
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              ...(required.length > 0 ? { required } : {}),
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                ...properties,
              },
            },
          },
        },
      ],
    },
  };
}

/** Role, ClusterRole, RoleBinding and ClusterRoleBinding as CRDs with the real fields. */
export function rbacStandInCrds(): JsonObject[] {
  const g = 'rbac.authorization.k8s.io';
  const rules: JsonObject = { type: 'array', items: policyRule };
  const aggregationRule: JsonObject = {
    type: 'object',
    properties: { clusterRoleSelectors: { type: 'array', items: labelSelector } },
  };
  const binding: JsonObject = { roleRef, subjects: { type: 'array', items: subject } };
  return [
    crd(g, 'Role', 'roles', 'Namespaced', 'v1', { rules }),
    crd(g, 'ClusterRole', 'clusterroles', 'Cluster', 'v1', { rules, aggregationRule }),
    crd(g, 'RoleBinding', 'rolebindings', 'Namespaced', 'v1', binding, ['roleRef']),
    crd(g, 'ClusterRoleBinding', 'clusterrolebindings', 'Cluster', 'v1', binding, ['roleRef']),
  ];
}

/** The ServiceMonitor fields the manifests use (and their siblings), as the Prometheus Operator defines them. */
export function serviceMonitorStandInCrd(): JsonObject {
  const endpoint: JsonObject = {
    type: 'object',
    properties: {
      port: { type: 'string' },
      targetPort: { 'x-kubernetes-int-or-string': true },
      path: { type: 'string' },
      scheme: { type: 'string', enum: ['http', 'https', 'HTTP', 'HTTPS'] },
      interval: {
        type: 'string',
        pattern: '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$',
      },
      scrapeTimeout: { type: 'string' },
      honorLabels: { type: 'boolean' },
      bearerTokenFile: { type: 'string' },
      tlsConfig: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      relabelings: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      metricRelabelings: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    },
  };
  const spec: JsonObject = {
    type: 'object',
    required: ['selector'],
    properties: {
      endpoints: { type: 'array', items: endpoint },
      jobLabel: { type: 'string' },
      namespaceSelector: { type: 'object', properties: { any: { type: 'boolean' }, matchNames: strings } },
      selector: labelSelector,
      targetLabels: strings,
      podTargetLabels: strings,
      sampleLimit: { type: 'integer', format: 'int64' },
    },
  };
  return crd('monitoring.coreos.com', 'ServiceMonitor', 'servicemonitors', 'Namespaced', 'v1', { spec }, ['spec']);
}
