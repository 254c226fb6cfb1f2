/**
 * Structural defaulting of custom resources, as apiextensions applies it when reading and
 * writing: a property's `default` fills a missing field (or a null one the schema does not
 * allow to be null), also inside array items and map values; a filled default is itself
 * walked, so nested defaults apply. Then, as apiextensions does right after defaulting,
 * null values of non-nullable fields without a default are dropped.
 */
import { cloneJson, type JsonObject, type JsonValue } from '../../lib/json.js';
import { isObject, schemaAdditional, schemaFlag, schemaItems, schemaProperties, type SchemaNode } from './schema-node.js';

function nonNullableNull(x: JsonValue | undefined, s: SchemaNode | undefined): boolean {
  return x === null && s !== undefined && !schemaFlag(s, 'nullable');
}

function fill(x: JsonValue, s: SchemaNode | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    const items = schemaItems(s);
    if (!items) return;
    for (let i = 0; i < x.length; i++) {
      if (nonNullableNull(x[i], items) && items['default'] !== undefined) x[i] = cloneJson(items['default']);
      fill(x[i]!, items);
    }
    return;
  }
  if (!isObject(x)) return;
  const props = schemaProperties(s);
  if (props) {
    for (const [k, ps] of Object.entries(props)) {
      const d = ps['default'];
      if (d === undefined) continue;
      if (!(k in x) || nonNullableNull(x[k], ps)) x[k] = cloneJson(d);
    }
  }
  const additional = schemaAdditional(s);
  for (const k of Object.keys(x)) {
    const ps = props?.[k];
    if (ps) fill(x[k]!, ps);
    else if (additional) {
      if (nonNullableNull(x[k], additional) && additional['default'] !== undefined) x[k] = cloneJson(additional['default']);
      fill(x[k]!, additional);
    }
  }
}

function dropNulls(x: JsonValue, s: SchemaNode | undefined): void {
  if (!s) return;
  if (Array.isArray(x)) {
    const items = schemaItems(s);
    if (items) for (const v of x) dropNulls(v, items);
    return;
  }
  if (!isObject(x)) return;
  const props = schemaProperties(s);
  const additional = schemaAdditional(s);
  for (const k of Object.keys(x)) {
    const sub = props?.[k] ?? (props ? undefined : additional);
    if (!sub) continue;
    if (x[k] === null && !schemaFlag(sub, 'nullable') && sub['default'] === undefined) delete x[k];
    else dropNulls(x[k]!, sub);
  }
}

/** Returns a defaulted copy of a custom resource; the input is not changed. */
export function applySchemaDefaults(obj: JsonObject, schema: JsonObject): JsonObject {
  const copy = cloneJson(obj);
  fill(copy, schema);
  dropNulls(copy, schema);
  return copy;
}
