/**
 * Reading a CRD `openAPIV3Schema` node (plain JSON) and building apimachinery field paths.
 * Shared by validation, pruning, defaulting and the OpenAPI publisher.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';

/** A schema node as stored in a CRD: JSON with the JSONSchemaProps keys. */
export type SchemaNode = JsonObject;

/** The `properties` map of a node, or undefined. */
export function schemaProperties(schemaNode: SchemaNode | undefined): Record<string, SchemaNode> | undefined {
  const p = schemaNode?.['properties'];
  return isJsonObject(p) ? (p as Record<string, SchemaNode>) : undefined;
}

/** The one property schema `name`, or undefined. */
export function schemaProperty(schemaNode: SchemaNode | undefined, name: string): SchemaNode | undefined {
  const p = schemaProperties(schemaNode)?.[name];
  return isJsonObject(p) ? p : undefined;
}

/** `additionalProperties` when it is a schema (a map's value schema); `true` maps to an empty schema. */
export function schemaAdditional(schemaNode: SchemaNode | undefined): SchemaNode | undefined {
  const a = schemaNode?.['additionalProperties'];
  if (isJsonObject(a)) return a;
  if (a === true) return {};
  return undefined;
}

/** `items` when it is a single schema. */
export function schemaItems(schemaNode: SchemaNode | undefined): SchemaNode | undefined {
  const i = schemaNode?.['items'];
  return isJsonObject(i) ? i : undefined;
}

/** A string-valued keyword, or ''. */
export function schemaString(schemaNode: SchemaNode | undefined, key: string): string {
  const v = schemaNode?.[key];
  return typeof v === 'string' ? v : '';
}

/** A boolean keyword that is true. */
export function schemaFlag(schemaNode: SchemaNode | undefined, key: string): boolean {
  return schemaNode?.[key] === true;
}

/** A number keyword, or undefined. */
export function schemaNumber(schemaNode: SchemaNode | undefined, key: string): number | undefined {
  const v = schemaNode?.[key];
  return typeof v === 'number' ? v : undefined;
}

/** A list of schemas (allOf/anyOf/oneOf). */
export function schemaList(schemaNode: SchemaNode | undefined, key: string): SchemaNode[] {
  const v = schemaNode?.[key];
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

/** A list of strings (required, x-kubernetes-list-map-keys). */
export function schemaStrings(schemaNode: SchemaNode | undefined, key: string): string[] {
  const v = schemaNode?.[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** True when the value is a JSON object (not array, not null). */
export function isObject(value: JsonValue | undefined): value is JsonObject {
  return isJsonObject(value);
}

/** field.Path.Child: `a.b`, or `b` at the root. */
export function childPath(parent: string, name: string): string {
  return parent === '' ? name : `${parent}.${name}`;
}

/** field.Path.Index: `a[0]`. */
export function indexPath(parent: string, index: number): string {
  return `${parent}[${index}]`;
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
