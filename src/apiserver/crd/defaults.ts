/**
 * Structural defaulting of custom resources, as apiextensions applies it when reading and
 * writing: a property's `default` fills a missing field (or a null one the schema does not
 * allow to be null), also inside array items and map values; a filled default is itself
 * walked, so nested defaults apply. Then, as apiextensions does right after defaulting,
 * null values of non-nullable fields without a default are dropped.
 */
import { cloneJson, type JsonObject, type JsonValue } from '../../lib/json.js';
import {
  isObject,
  schemaAdditional,
  schemaFlag,
  schemaItems,
  schemaProperties,
  type SchemaNode,
} from './schema-node.js';

function nonNullableNull(value: JsonValue | undefined, schemaNode: SchemaNode | undefined): boolean {
  return value === null && schemaNode !== undefined && !schemaFlag(schemaNode, 'nullable');
}

function fill(value: JsonValue, schemaNode: SchemaNode | undefined): void {
  if (!schemaNode) return;
  if (Array.isArray(value)) {
    const items = schemaItems(schemaNode);
    if (!items) return;
    for (let i = 0; i < value.length; i++) {
      if (nonNullableNull(value[i], items) && items['default'] !== undefined) value[i] = cloneJson(items['default']);
      fill(value[i]!, items);
    }
    return;
  }
  if (!isObject(value)) return;
  const props = schemaProperties(schemaNode);
  if (props) {
    for (const [k, ps] of Object.entries(props)) {
      const d = ps['default'];
      if (d === undefined) continue;
      if (!(k in value) || nonNullableNull(value[k], ps)) value[k] = cloneJson(d);
    }
  }
  const additional = schemaAdditional(schemaNode);
  for (const k of Object.keys(value)) {
    const ps = props?.[k];
    if (ps) fill(value[k]!, ps);
    else if (additional) {
      if (nonNullableNull(value[k], additional) && additional['default'] !== undefined)
        value[k] = cloneJson(additional['default']);
      fill(value[k]!, additional);
    }
  }
}

function dropNulls(value: JsonValue, schemaNode: SchemaNode | undefined): void {
  if (!schemaNode) return;
  if (Array.isArray(value)) {
    const items = schemaItems(schemaNode);
    if (items) for (const v of value) dropNulls(v, items);
    return;
  }
  if (!isObject(value)) return;
  const props = schemaProperties(schemaNode);
  const additional = schemaAdditional(schemaNode);
  for (const k of Object.keys(value)) {
    const sub = props?.[k] ?? (props ? undefined : additional);
    if (!sub) continue;
    if (value[k] === null && !schemaFlag(sub, 'nullable') && sub['default'] === undefined) delete value[k];
    else dropNulls(value[k]!, sub);
  }
}

/** Returns a defaulted copy of a custom resource; the input is not changed. */
export function applySchemaDefaults(obj: JsonObject, schema: JsonObject): JsonObject {
  const copy = cloneJson(obj);
  fill(copy, schema);
  dropNulls(copy, schema);
  return copy;
}
