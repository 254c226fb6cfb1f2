/**
 * Structural pruning of custom resources, as apiextensions does on every write: fields the
 * schema does not specify are dropped, except below `x-kubernetes-preserve-unknown-fields`
 * (where specified fields are still pruned inside), and apiVersion/kind/metadata of the
 * resource and of embedded resources are kept, metadata cut down to ObjectMeta's fields.
 * Pruned paths are reported like strict field validation names them: `spec.foo`,
 * `spec.list[0].bar`, `metadata.foo`, sorted.
 */
import { cloneJson, type JsonObject, type JsonValue } from '../../lib/json.js';
import {
  isObject,
  OBJECT_META_FIELDS,
  schemaAdditional,
  schemaFlag,
  schemaItems,
  schemaProperties,
  type SchemaNode,
} from './schema-node.js';

const META = new Set(['apiVersion', 'kind', 'metadata']);

interface Walk {
  pruned: string[];
}

function join(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

function pruneMetadata(meta: JsonValue, path: string, walk: Walk): void {
  if (!isObject(meta)) return;
  for (const k of Object.keys(meta)) {
    if (!OBJECT_META_FIELDS.has(k)) {
      walk.pruned.push(join(path, k));
      delete meta[k];
    }
  }
}

function prune(
  value: JsonValue,
  schemaNode: SchemaNode | undefined,
  path: string,
  embedded: boolean,
  walk: Walk,
): void {
  if (schemaNode && schemaFlag(schemaNode, 'x-kubernetes-preserve-unknown-fields')) {
    skipPrune(value, schemaNode, path, embedded, walk);
    return;
  }
  if (Array.isArray(value)) {
    const items = schemaItems(schemaNode);
    value.forEach((v, i) =>
      prune(v, items, `${path}[${i}]`, items ? schemaFlag(items, 'x-kubernetes-embedded-resource') : false, walk),
    );
    return;
  }
  if (!isObject(value)) return;
  const props = schemaProperties(schemaNode);
  const additional = schemaAdditional(schemaNode);
  for (const k of Object.keys(value)) {
    const v = value[k]!;
    if (embedded && META.has(k)) {
      if (k === 'metadata') pruneMetadata(v, join(path, k), walk);
      continue;
    }
    const ps = props?.[k];
    if (schemaNode && ps !== undefined)
      prune(v, ps, join(path, k), schemaFlag(ps, 'x-kubernetes-embedded-resource'), walk);
    else if (schemaNode && additional)
      prune(v, additional, join(path, k), schemaFlag(additional, 'x-kubernetes-embedded-resource'), walk);
    else {
      walk.pruned.push(join(path, k));
      delete value[k];
    }
  }
}

function skipPrune(value: JsonValue, schemaNode: SchemaNode, path: string, embedded: boolean, walk: Walk): void {
  if (Array.isArray(value)) {
    const items = schemaItems(schemaNode);
    if (items)
      value.forEach((v, i) =>
        prune(v, items, `${path}[${i}]`, schemaFlag(items, 'x-kubernetes-embedded-resource'), walk),
      );
    return;
  }
  if (!isObject(value)) return;
  const props = schemaProperties(schemaNode);
  const additional = schemaNode['additionalProperties'] === undefined ? undefined : schemaAdditional(schemaNode);
  for (const [k, v] of Object.entries(value)) {
    if (embedded && META.has(k)) {
      if (k === 'metadata') pruneMetadata(v, join(path, k), walk);
      continue;
    }
    const ps = props?.[k];
    if (ps !== undefined) prune(v, ps, join(path, k), schemaFlag(ps, 'x-kubernetes-embedded-resource'), walk);
    else if (additional)
      prune(v, additional, join(path, k), schemaFlag(additional, 'x-kubernetes-embedded-resource'), walk);
  }
}

/**
 * Prunes a whole custom resource (treated as an embedded resource at its root) against its
 * version's schema. Returns a pruned copy and the dropped paths; the input is not changed.
 */
export function pruneUnknownFields(
  obj: JsonObject,
  schema: JsonObject,
): { object: JsonObject; unknownFields: string[] } {
  const copy = cloneJson(obj);
  const w: Walk = { pruned: [] };
  prune(copy, schema, '', true, w);
  w.pruned.sort();
  return { object: copy, unknownFields: w.pruned };
}
