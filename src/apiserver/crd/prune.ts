/**
 * Structural pruning of custom resources, as apiextensions does on every write: fields the
 * schema does not specify are dropped, except below `x-kubernetes-preserve-unknown-fields`
 * (where specified fields are still pruned inside), and apiVersion/kind/metadata of the
 * resource and of embedded resources are kept, metadata cut down to ObjectMeta's fields.
 * Pruned paths are reported like strict field validation names them: `spec.foo`,
 * `spec.list[0].bar`, `metadata.foo`, sorted.
 */
import { cloneJson, type JsonObject, type JsonValue } from '../../lib/json.js';
import { isObject, OBJECT_META_FIELDS, schemaAdditional, schemaFlag, schemaItems, schemaProperties, type SchemaNode } from './schema-node.js';

const META = new Set(['apiVersion', 'kind', 'metadata']);

interface Walk {
  pruned: string[];
}

function join(parent: string, key: string): string {
  return parent === '' ? key : `${parent}.${key}`;
}

function pruneMetadata(meta: JsonValue, path: string, w: Walk): void {
  if (!isObject(meta)) return;
  for (const k of Object.keys(meta)) {
    if (!OBJECT_META_FIELDS.has(k)) {
      w.pruned.push(join(path, k));
      delete meta[k];
    }
  }
}

function prune(x: JsonValue, s: SchemaNode | undefined, path: string, embedded: boolean, w: Walk): void {
  if (s && schemaFlag(s, 'x-kubernetes-preserve-unknown-fields')) {
    skipPrune(x, s, path, embedded, w);
    return;
  }
  if (Array.isArray(x)) {
    const items = schemaItems(s);
    x.forEach((v, i) => prune(v, items, `${path}[${i}]`, items ? schemaFlag(items, 'x-kubernetes-embedded-resource') : false, w));
    return;
  }
  if (!isObject(x)) return;
  const props = schemaProperties(s);
  const additional = schemaAdditional(s);
  for (const k of Object.keys(x)) {
    const v = x[k]!;
    if (embedded && META.has(k)) {
      if (k === 'metadata') pruneMetadata(v, join(path, k), w);
      continue;
    }
    const ps = props?.[k];
    if (s && ps !== undefined) prune(v, ps, join(path, k), schemaFlag(ps, 'x-kubernetes-embedded-resource'), w);
    else if (s && additional) prune(v, additional, join(path, k), schemaFlag(additional, 'x-kubernetes-embedded-resource'), w);
    else {
      w.pruned.push(join(path, k));
      delete x[k];
    }
  }
}

function skipPrune(x: JsonValue, s: SchemaNode, path: string, embedded: boolean, w: Walk): void {
  if (Array.isArray(x)) {
    const items = schemaItems(s);
    if (items) x.forEach((v, i) => prune(v, items, `${path}[${i}]`, schemaFlag(items, 'x-kubernetes-embedded-resource'), w));
    return;
  }
  if (!isObject(x)) return;
  const props = schemaProperties(s);
  const additional = s['additionalProperties'] === undefined ? undefined : schemaAdditional(s);
  for (const [k, v] of Object.entries(x)) {
    if (embedded && META.has(k)) {
      if (k === 'metadata') pruneMetadata(v, join(path, k), w);
      continue;
    }
    const ps = props?.[k];
    if (ps !== undefined) prune(v, ps, join(path, k), schemaFlag(ps, 'x-kubernetes-embedded-resource'), w);
    else if (additional) prune(v, additional, join(path, k), schemaFlag(additional, 'x-kubernetes-embedded-resource'), w);
  }
}

/**
 * Prunes a whole custom resource (treated as an embedded resource at its root) against its
 * version's schema. Returns a pruned copy and the dropped paths; the input is not changed.
 */
export function pruneUnknownFields(obj: JsonObject, schema: JsonObject): { object: JsonObject; unknownFields: string[] } {
  const copy = cloneJson(obj);
  const w: Walk = { pruned: [] };
  prune(copy, schema, '', true, w);
  w.pruned.sort();
  return { object: copy, unknownFields: w.pruned };
}
