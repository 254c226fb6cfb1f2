/**
 * Offline check of an object against a CRD's openAPIV3Schema, through TypeBox's validator:
 * defaults applied first (as the API server does), then JSON Schema validation with the
 * API server's `duration` format. It ignores CEL rules and list-map uniqueness, and its
 * messages are TypeBox's; the API server has its own Kubernetes-exact validator
 * (`apiserver/crd/`). Used by tests and samples; never by the operator's runtime.
 */
import { Value } from 'typebox/value';
import { Format } from 'typebox/format';
import type { TSchema } from 'typebox';
import { cloneJson, type JsonObject, type JsonValue } from '../lib/json.js';

// Go duration text as kube-openapi's `duration` format accepts it (Go units plus d and w).
const DURATION = /^[-+]?(\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h|d|w)((\d+(\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h|d|w))*$/;

/** True for a duration the API server's `duration` format accepts. */
export function isKubeDuration(text: string): boolean {
  return text === '0' || DURATION.test(text);
}

let formatsInstalled = false;
function installFormats(): void {
  if (formatsInstalled) return;
  Format.Set('duration', isKubeDuration);
  formatsInstalled = true;
}

/** Rewrites Kubernetes-only keywords (`nullable`) into plain JSON Schema TypeBox understands. */
function toValidatorSchema(node: JsonValue): JsonValue {
  if (Array.isArray(node)) return node.map(toValidatorSchema);
  if (node === null || typeof node !== 'object') return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'enum' || k === 'default' ? v : toValidatorSchema(v);
  if (out['nullable'] === true) {
    delete out['nullable'];
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/** Fills missing properties that have a `default`, in every object present (the API server's rule). */
function applyDefaults(value: JsonValue, schema: JsonValue): void {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return;
  if (Array.isArray(value)) {
    for (const item of value) applyDefaults(item, schema['items'] ?? null);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const props = schema['properties'];
  if (props !== null && typeof props === 'object' && !Array.isArray(props)) {
    for (const [k, sub] of Object.entries(props)) {
      const def = sub !== null && typeof sub === 'object' && !Array.isArray(sub) ? sub['default'] : undefined;
      if (!(k in value) && def !== undefined) value[k] = cloneJson(def);
      if (k in value) applyDefaults(value[k]!, sub);
    }
  }
  const extra = schema['additionalProperties'];
  if (extra !== undefined && typeof extra === 'object') for (const v of Object.values(value)) applyDefaults(v, extra);
}

/** A problem found by `checkAgainstSchema`: the JSON pointer of the value and the message. */
export interface SchemaProblem {
  path: string;
  message: string;
}

/**
 * Validates `value` against `schema` (an openAPIV3Schema) after applying the schema's
 * defaults to a copy. Returns the defaulted copy and the problems found (none when valid).
 */
export function checkAgainstSchema(
  schema: JsonObject,
  value: JsonValue,
): { value: JsonValue; problems: SchemaProblem[] } {
  installFormats();
  const s = toValidatorSchema(schema) as unknown as TSchema;
  const defaulted = cloneJson(value);
  applyDefaults(defaulted, schema);
  const problems = [...Value.Errors(s, defaulted)].map((e) => ({ path: e.instancePath, message: e.message }));
  return { value: defaulted, problems };
}
