/**
 * Plain OpenAPI schema fragments of Kubernetes types that several hand-written schemas share
 * (the Prometheus Operator CRDs of the simulated cluster, the RBAC kinds of the embedded API
 * server).
 */
import type { JsonObject } from '../lib/json.js';

/** A list of strings. */
export const stringList: JsonObject = { type: 'array', items: { type: 'string' } };

/** A map of strings to strings (labels, annotations). */
export const stringMap: JsonObject = { type: 'object', additionalProperties: { type: 'string' } };

/** metav1.LabelSelector. */
export const labelSelectorSchema: JsonObject = {
  type: 'object',
  properties: {
    matchLabels: stringMap,
    matchExpressions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['key', 'operator'],
        properties: { key: { type: 'string' }, operator: { type: 'string' }, values: stringList },
      },
    },
  },
};
