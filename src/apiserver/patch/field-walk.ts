/**
 * Field sets of JSON objects, as structured-merge-diff computes them: the set of fields an
 * applied configuration specifies (toFieldSet) and the comparison of two versions of an object
 * (compareObjects: added, modified and removed paths). List items are named by their list-map
 * keys (`k:`), set items by value (`v:`); atomic lists and maps are leaves.
 */
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../../lib/json.js';
import {
  emptySet,
  fieldElement,
  indexElement,
  insertPath,
  keyElement,
  pathString,
  valueElement,
  type FieldPath,
  type FieldSet,
} from './field-set.js';
import { childMeta, listShape, type FieldMeta } from './patch-meta.js';

/** What to do with a list-map item that lacks a key field and has no default for it. */
export type MissingKeyPolicy = 'index' | 'throw';

/** A list-map item without one of its keys (only with the 'throw' policy). */
export class MissingKeyError extends Error {
  constructor(path: FieldPath, index: number, key: string) {
    super(
      `${pathString(path)}: element ${index}: associative list with keys has an element that omits key field ${JSON.stringify(key)} (and doesn't have default value)`,
    );
    this.name = 'MissingKeyError';
  }
}

/**
 * The path element of each item of a non-atomic list (undefined for atomic lists). Repeated
 * elements keep their first occurrence only.
 */
export function listItemElements(
  list: readonly JsonValue[],
  meta: FieldMeta | undefined,
  path: FieldPath,
  policy: MissingKeyPolicy,
): Map<string, number> | undefined {
  const shape = listShape(meta);
  if (shape.type === 'atomic') return undefined;
  const out = new Map<string, number>();
  list.forEach((item, index) => {
    let pe: string;
    if (shape.type === 'set') {
      pe = valueElement(item);
    } else {
      const keys: Record<string, JsonValue> = {};
      let missing: string | undefined;
      for (const k of shape.keys) {
        const v = isJsonObject(item) && Object.hasOwn(item, k) ? item[k] : undefined;
        const value = v === undefined || v === null ? meta?.keyDefaults?.[k] : v;
        if (value === undefined) missing ??= k;
        else keys[k] = value;
      }
      if (missing !== undefined && policy === 'throw') throw new MissingKeyError(path, index, missing);
      pe = missing === undefined ? keyElement(keys) : indexElement(index);
    }
    if (!out.has(pe)) out.set(pe, index);
  });
  return out;
}

function isEmptyContainer(value: JsonValue): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (!isJsonObject(value)) return false;
  for (const k in value) if (Object.hasOwn(value, k)) return false;
  return true;
}

/**
 * The fields an applied configuration sets (typed.ToFieldSet): every scalar, every atomic or
 * empty list or map, every list item, and the entries of maps with arbitrary keys.
 */
export function toFieldSet(
  value: JsonObject,
  meta: FieldMeta | undefined,
  policy: MissingKeyPolicy = 'throw',
): FieldSet {
  const set = emptySet();
  collect(value, meta, [], set, policy);
  return set;
}

function collect(
  value: JsonValue,
  meta: FieldMeta | undefined,
  path: string[],
  set: FieldSet,
  policy: MissingKeyPolicy,
): void {
  if (isJsonObject(value)) {
    if (path.length > 0 && (meta?.mapType === 'atomic' || isEmptyContainer(value))) {
      insertPath(set, path);
      return;
    }
    for (const [k, child] of Object.entries(value)) {
      const childPath = [...path, fieldElement(k)];
      if (meta?.values && !(meta.fields && Object.hasOwn(meta.fields, k))) insertPath(set, childPath);
      collect(child, childMeta(meta, k), childPath, set, policy);
    }
    return;
  }
  if (Array.isArray(value)) {
    const elements = value.length === 0 ? undefined : listItemElements(value, meta, path, policy);
    if (!elements) {
      insertPath(set, path);
      return;
    }
    for (const [pe, i] of elements) {
      const itemPath = [...path, pe];
      insertPath(set, itemPath);
      const item = value[i];
      if (isJsonObject(item))
        for (const [k, child] of Object.entries(item))
          collect(child, childMeta(meta?.items, k), [...itemPath, fieldElement(k)], set, policy);
    }
    return;
  }
  insertPath(set, path);
}

/** The difference between two versions of an object, by path. */
export interface Comparison {
  added: FieldSet;
  modified: FieldSet;
  removed: FieldSet;
}

/**
 * Compares two versions of an object (typed.Compare): leaves whose value changed are
 * `modified`; paths, containers included, present on one side only are `added` or `removed`.
 */
export function compareObjects(lhs: JsonObject, rhs: JsonObject, meta: FieldMeta | undefined): Comparison {
  const c: Comparison = { added: emptySet(), modified: emptySet(), removed: emptySet() };
  walk(lhs, rhs, meta, [], c);
  return c;
}

/** The node at `path`, created with its ancestors when missing (not made a member). */
function nodeAt(set: FieldSet, path: FieldPath): FieldSet {
  let node = set;
  for (const pe of path) node = childNode(node, pe);
  return node;
}

function childNode(node: FieldSet, pe: string): FieldSet {
  let next = node.children.get(pe);
  if (!next) {
    next = emptySet();
    node.children.set(pe, next);
  }
  return next;
}

/** Adds `path` and every path below it in `v`. */
function addAll(value: JsonValue, meta: FieldMeta | undefined, path: string[], set: FieldSet): void {
  if (path.length === 0) {
    addBelow(value, meta, set, true);
    return;
  }
  const node = nodeAt(set, path);
  node.member = true;
  addBelow(value, meta, node, false);
}

/** Adds the paths below `path` in `v`. */
function addDescendants(value: JsonValue, meta: FieldMeta | undefined, path: string[], set: FieldSet): void {
  addBelow(value, meta, nodeAt(set, path), path.length === 0);
}

/**
 * Fills `node` with the paths below it in `v`, building the subtree directly: a create adds its
 * whole object this way, so no path array is built and no path is walked again from the root.
 */
function addBelow(value: JsonValue, meta: FieldMeta | undefined, node: FieldSet, root: boolean): void {
  if (isJsonObject(value)) {
    if (meta?.mapType === 'atomic' && !root) return;
    for (const k in value) {
      if (!Object.hasOwn(value, k)) continue;
      const child = childNode(node, fieldElement(k));
      child.member = true;
      addBelow(value[k] ?? null, childMeta(meta, k), child, false);
    }
  } else if (Array.isArray(value)) {
    // The 'index' policy never reports a path, so the items' paths need not be built.
    const elements = listItemElements(value, meta, NO_PATH, 'index');
    if (!elements) return;
    for (const [pe, i] of elements) {
      const child = childNode(node, pe);
      child.member = true;
      addBelow(value[i] ?? null, meta?.items, child, false);
    }
  }
}

const NO_PATH: FieldPath = [];

function walk(
  left: JsonValue | undefined,
  right: JsonValue | undefined,
  meta: FieldMeta | undefined,
  path: string[],
  comparison: Comparison,
): void {
  if (left === undefined) {
    if (right !== undefined) addAll(right, meta, path, comparison.added);
    return;
  }
  if (right === undefined) {
    addAll(left, meta, path, comparison.removed);
    return;
  }
  if (
    isJsonObject(left) &&
    isJsonObject(right) &&
    (path.length === 0 || meta?.mapType !== 'atomic') &&
    !(isEmptyContainer(left) && isEmptyContainer(right))
  ) {
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    for (const k of keys)
      walk(
        Object.hasOwn(left, k) ? left[k] : undefined,
        Object.hasOwn(right, k) ? right[k] : undefined,
        childMeta(meta, k),
        [...path, fieldElement(k)],
        comparison,
      );
    return;
  }
  if (Array.isArray(left) && Array.isArray(right) && !(left.length === 0 && right.length === 0)) {
    const le = listItemElements(left, meta, path, 'index');
    const re = listItemElements(right, meta, path, 'index');
    if (le && re) {
      const pes = new Set([...le.keys(), ...re.keys()]);
      for (const pe of pes) {
        const li = le.get(pe);
        const ri = re.get(pe);
        walk(
          li === undefined ? undefined : left[li],
          ri === undefined ? undefined : right[ri],
          meta?.items,
          [...path, pe],
          comparison,
        );
      }
      return;
    }
  }
  if (jsonEqual(left, right)) return;
  insertPath(comparison.modified, path);
  const lContainer = typeof left === 'object' && left !== null;
  const rContainer = typeof right === 'object' && right !== null;
  if (lContainer && rContainer && Array.isArray(left) === Array.isArray(right)) return;
  if (lContainer) addDescendants(left, meta, path, comparison.removed);
  if (rContainer) addDescendants(right, meta, path, comparison.added);
}
