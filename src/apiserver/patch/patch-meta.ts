/**
 * Patch metadata: what Kubernetes types declare, per field, for strategic merge patch
 * (`patchStrategy`, `patchMergeKey` struct tags) and for server-side apply (`+listType`,
 * `+listMapKey`, `+mapType`, the defaults of list-map keys). One node type describes an object,
 * a list or a map; built-in kinds are tables of such nodes (builtin-patch-meta.ts), custom
 * resources derive theirs from the CRD's structural schema (patchMetaFromSchema).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';

/** The `patchStrategy` struct tag. */
export type PatchStrategy = 'merge' | 'replace' | 'retainKeys' | 'merge,retainKeys';

/** Metadata of one field (or of the root object). Absent parts mean "nothing special". */
export interface FieldMeta {
  /** SMP `patchStrategy`: lists merge only with `merge`; maps are replaced with `replace`. */
  readonly strategy?: PatchStrategy;
  /** SMP `patchMergeKey` of a list of objects. */
  readonly mergeKey?: string;
  /** SSA list type; by default derived from the SMP tags (merge+key: map, merge: set, else atomic). */
  readonly listType?: 'atomic' | 'set' | 'map';
  /** SSA `+listMapKey`s; by default `[mergeKey]`. */
  readonly listMapKeys?: readonly string[];
  /** Defaults of list-map keys an item may omit (`protocol: TCP` of ports). */
  readonly keyDefaults?: Readonly<Record<string, JsonValue>>;
  /** SSA map type of an object: `atomic` maps are owned and replaced as a whole. */
  readonly mapType?: 'atomic' | 'granular';
  /** Known fields of an object. */
  readonly fields?: Readonly<Record<string, FieldMeta>>;
  /** Metadata of every value of a map with arbitrary keys. */
  readonly values?: FieldMeta;
  /** Metadata of the items of a list. */
  readonly items?: FieldMeta;
}

/** The patch metadata of a kind: the node of its root object. */
export type PatchMeta = FieldMeta;

/** How server-side apply treats a list. */
export type ListShape = { type: 'atomic' } | { type: 'set' } | { type: 'map'; keys: readonly string[] };

/** The metadata of field `key` of an object described by `meta`. */
export function childMeta(meta: FieldMeta | undefined, key: string): FieldMeta | undefined {
  if (!meta) return undefined;
  if (meta.fields && Object.hasOwn(meta.fields, key)) return meta.fields[key];
  return meta.values;
}

/** The list shape server-side apply uses for a list field described by `meta`. */
export function listShape(meta: FieldMeta | undefined): ListShape {
  const merges = meta?.strategy === 'merge' || meta?.strategy === 'merge,retainKeys';
  const type = meta?.listType ?? (merges ? (meta?.mergeKey ? 'map' : 'set') : 'atomic');
  if (type !== 'map') return { type };
  const keys = meta?.listMapKeys ?? (meta?.mergeKey ? [meta.mergeKey] : []);
  return keys.length > 0 ? { type: 'map', keys } : { type: 'atomic' };
}

/** True when SMP merges the list (instead of replacing it). */
export function smpMergesList(meta: FieldMeta | undefined): boolean {
  return meta?.strategy === 'merge' || meta?.strategy === 'merge,retainKeys';
}

function str(value: JsonValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Patch metadata already built, by the stored schema object. */
const fromSchema = new WeakMap<JsonObject, PatchMeta>();

/**
 * Patch metadata from a CRD's structural schema (`openAPIV3Schema`): `x-kubernetes-list-type`
 * and `x-kubernetes-list-map-keys` for lists (lists without a type are atomic, as in
 * kube-apiserver), `x-kubernetes-map-type` for objects, and key defaults from the item schema.
 */
export function patchMetaFromSchema(schema: JsonObject): PatchMeta {
  // Every write of a custom resource asks: build once per (immutable) stored schema.
  let meta = fromSchema.get(schema);
  if (!meta) {
    meta = nodeFromSchema(schema, 0);
    fromSchema.set(schema, meta);
  }
  return meta;
}

function nodeFromSchema(schema: JsonObject, depth: number): FieldMeta {
  if (depth > 64) return {};
  const node: { -readonly [K in keyof FieldMeta]: FieldMeta[K] } = {};
  const props = schema.properties;
  if (isJsonObject(props)) {
    const fields: Record<string, FieldMeta> = {};
    for (const [name, sub] of Object.entries(props))
      if (isJsonObject(sub)) fields[name] = nodeFromSchema(sub, depth + 1);
    node.fields = fields;
  }
  const additional = schema.additionalProperties;
  if (isJsonObject(additional)) node.values = nodeFromSchema(additional, depth + 1);
  if (str(schema['x-kubernetes-map-type']) === 'atomic') node.mapType = 'atomic';
  const items = schema.items;
  if (isJsonObject(items)) node.items = nodeFromSchema(items, depth + 1);
  const listType = str(schema['x-kubernetes-list-type']);
  if (listType === 'set' || listType === 'map' || listType === 'atomic') node.listType = listType;
  else if (schema.type === 'array') node.listType = 'atomic';
  const keys = schema['x-kubernetes-list-map-keys'];
  if (Array.isArray(keys)) {
    node.listMapKeys = keys.filter((k): k is string => typeof k === 'string');
    const itemProps = isJsonObject(items) && isJsonObject(items.properties) ? items.properties : {};
    const defaults: Record<string, JsonValue> = {};
    for (const k of node.listMapKeys) {
      const p = itemProps[k];
      if (isJsonObject(p) && p.default !== undefined) defaults[k] = p.default;
    }
    if (Object.keys(defaults).length > 0) node.keyDefaults = defaults;
  }
  return node;
}
