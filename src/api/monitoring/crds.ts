/**
 * The CustomResourceDefinitions of the two Prometheus Operator kinds the install manifests use,
 * ServiceMonitor and PrometheusRule (monitoring.coreos.com/v1), which OpenShift monitoring
 * installs on every cluster. The simulated cluster installs them too, so that the install
 * (`kubectl apply -k deploy/managed`) applies as on OpenShift. The schemas carry the fields of
 * prometheus-operator's CRDs that the manifests use and their siblings, with the real types,
 * enums, patterns and required fields (not every field of the upstream schema: objects we never
 * write, like TLS and authorization settings, keep their unknown fields).
 */
import type { JsonObject } from '../../lib/json.js';
import { labelSelectorSchema, stringList, stringMap } from '../json-schema-fragments.js';

const open: JsonObject = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
/** prometheus-operator's `monitoringv1.Duration`. */
const duration: JsonObject = {
  type: 'string',
  pattern: '^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$',
};

const relabelConfig: JsonObject = {
  type: 'object',
  properties: {
    action: {
      type: 'string',
      enum: [
        'replace',
        'Replace',
        'keep',
        'Keep',
        'drop',
        'Drop',
        'hashmod',
        'HashMod',
        'labelmap',
        'LabelMap',
        'labeldrop',
        'LabelDrop',
        'labelkeep',
        'LabelKeep',
        'lowercase',
        'Lowercase',
        'uppercase',
        'Uppercase',
        'keepequal',
        'KeepEqual',
        'dropequal',
        'DropEqual',
      ],
    },
    modulus: { type: 'integer', format: 'int64' },
    regex: { type: 'string' },
    replacement: { type: 'string' },
    separator: { type: 'string' },
    sourceLabels: { type: 'array', items: { type: 'string', pattern: '^[a-zA-Z_][a-zA-Z0-9_]*$' } },
    targetLabel: { type: 'string' },
  },
};

function crd(kind: string, plural: string, categories: string[], spec: JsonObject): JsonObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.monitoring.coreos.com` },
    spec: {
      group: 'monitoring.coreos.com',
      scope: 'Namespaced',
      names: { kind, listKind: `${kind}List`, plural, singular: kind.toLowerCase(), categories },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              required: ['spec'],
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec,
              },
            },
          },
        },
      ],
    },
  };
}

/** ServiceMonitor: which Services' endpoints Prometheus scrapes, and how. */
export function serviceMonitorCrd(): JsonObject {
  const endpoint: JsonObject = {
    type: 'object',
    properties: {
      port: { type: 'string' },
      targetPort: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      path: { type: 'string' },
      scheme: { type: 'string', enum: ['http', 'https', 'HTTP', 'HTTPS'] },
      interval: duration,
      scrapeTimeout: duration,
      honorLabels: { type: 'boolean' },
      honorTimestamps: { type: 'boolean' },
      bearerTokenFile: { type: 'string' },
      params: { type: 'object', additionalProperties: stringList },
      tlsConfig: open,
      authorization: open,
      relabelings: { type: 'array', items: relabelConfig },
      metricRelabelings: { type: 'array', items: relabelConfig },
    },
  };
  return crd('ServiceMonitor', 'servicemonitors', ['prometheus-operator'], {
    type: 'object',
    required: ['selector'],
    properties: {
      endpoints: { type: 'array', items: endpoint },
      jobLabel: { type: 'string' },
      namespaceSelector: { type: 'object', properties: { any: { type: 'boolean' }, matchNames: stringList } },
      selector: labelSelectorSchema,
      targetLabels: stringList,
      podTargetLabels: stringList,
      sampleLimit: { type: 'integer', format: 'int64' },
      labelLimit: { type: 'integer', format: 'int64' },
    },
  });
}

/** PrometheusRule: recording and alerting rules Prometheus loads. */
export function prometheusRuleCrd(): JsonObject {
  const rule: JsonObject = {
    type: 'object',
    required: ['expr'],
    properties: {
      record: { type: 'string' },
      alert: { type: 'string' },
      expr: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
      for: duration,
      keep_firing_for: { type: 'string', minLength: 1, pattern: duration['pattern'] as string },
      labels: stringMap,
      annotations: stringMap,
    },
  };
  const group: JsonObject = {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 1 },
      interval: duration,
      query_offset: duration,
      limit: { type: 'integer' },
      partial_response_strategy: { type: 'string' },
      labels: stringMap,
      rules: { type: 'array', items: rule },
    },
  };
  return crd('PrometheusRule', 'prometheusrules', ['prometheus-operator'], {
    type: 'object',
    properties: {
      groups: { type: 'array', items: group, 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] },
    },
  });
}

/** The two monitoring CRDs, ServiceMonitor first. */
export function monitoringCustomResourceDefinitions(): JsonObject[] {
  return [serviceMonitorCrd(), prometheusRuleCrd()];
}
