/**
 * Reading a CRD `openAPIV3Schema` node (plain JSON) and building apimachinery field paths.
 * Shared by validation, pruning, defaulting and the OpenAPI publisher.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';

/** A schema node as stored in a CRD: JSON with the JSONSchemaProps keys. */
export type SchemaNode = JsonObject;

/** The `properties` map of a node, or undefined. */
export function schemaProperties(s: SchemaNode | undefined): Record<string, SchemaNode> | undefined {
  const p = s?.['properties'];
  return isJsonObject(p) ? (p as Record<string, SchemaNode>) : undefined;
}

/** The one property schema `name`, or undefined. */
export function schemaProperty(s: SchemaNode | undefined, name: string): SchemaNode | undefined {
  const p = schemaProperties(s)?.[name];
  return isJsonObject(p) ? p : undefined;
}

/** `additionalProperties` when it is a schema (a map's value schema); `true` maps to an empty schema. */
export function schemaAdditional(s: SchemaNode | undefined): SchemaNode | undefined {
  const a = s?.['additionalProperties'];
  if (isJsonObject(a)) return a;
  if (a === true) return {};
  return undefined;
}

/** `items` when it is a single schema. */
export function schemaItems(s: SchemaNode | undefined): SchemaNode | undefined {
  const i = s?.['items'];
  return isJsonObject(i) ? i : undefined;
}

/** A string-valued keyword, or ''. */
export function schemaString(s: SchemaNode | undefined, key: string): string {
  const v = s?.[key];
  return typeof v === 'string' ? v : '';
}

/** A boolean keyword that is true. */
export function schemaFlag(s: SchemaNode | undefined, key: string): boolean {
  return s?.[key] === true;
}

/** A number keyword, or undefined. */
export function schemaNumber(s: SchemaNode | undefined, key: string): number | undefined {
  const v = s?.[key];
  return typeof v === 'number' ? v : undefined;
}

/** A list of schemas (allOf/anyOf/oneOf). */
export function schemaList(s: SchemaNode | undefined, key: string): SchemaNode[] {
  const v = s?.[key];
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

/** A list of strings (required, x-kubernetes-list-map-keys). */
export function schemaStrings(s: SchemaNode | undefined, key: string): string[] {
  const v = s?.[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** True when the value is a JSON object (not array, not null). */
export function isObject(v: JsonValue | undefined): v is JsonObject {
  return isJsonObject(v);
}

/** field.Path.Child: `a.b`, or `b` at the root. */
export function childPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}.${name}`;
}

/** field.Path.Index: `a[0]`. */
export function indexPath(parent: string, i: number): string {
  return `${parent}[${i}]`;
}

/** field.Path.Key: `a[key]`. */
export function keyPath(parent: string, key: string): string {
  return `${parent}[${key}]`;
}

/** How a nil field.Path prints. */
export function shownPath(path: string): string {
  return path === '' ? '<nil>' : path;
}

/** The fields of metav1.ObjectMeta, which is what metadata is pruned to in embedded resources. */
export const OBJECT_META_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
]);
