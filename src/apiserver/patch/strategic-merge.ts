/**
 * Strategic merge patch (`application/strategic-merge-patch+json`) with the semantics of
 * k8s.io/apimachinery/pkg/util/strategicpatch as kube-apiserver applies it: maps merge, `null`
 * deletes a key, lists with `patchStrategy: merge` merge (by `patchMergeKey` for lists of
 * objects, as a union for primitives) and keep kube's element order, every other list is
 * replaced. Directives: `$patch: replace|delete` in maps and list items, `$retainKeys`,
 * `$deleteFromPrimitiveList/<field>`, `$setElementOrder/<field>`.
 *
 * Written by hand (docs/design/dependencies.md#patches): no JavaScript library implements SMP.
 */
import { cloneJson, isJsonObject, type JsonObject, type JsonValue } from '../../lib/json.js';
import { GENERIC_INVALID_MESSAGE, PatchError } from './errors.js';
import { goValue } from './go-format.js';
import { childMeta, smpMergesList, type FieldMeta, type PatchMeta } from './patch-meta.js';

export { patchMetaFor } from './builtin-patch-meta.js';
export type { PatchMeta } from './patch-meta.js';

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList/';
const SET_ELEMENT_ORDER = '$setElementOrder/';

function badRequest(message: string): PatchError {
  return new PatchError('BadRequest', message);
}

function noMergeKey(item: JsonObject, key: string): PatchError {
  return badRequest(`map: ${goValue(item)} does not contain declared merge key: ${key}`);
}

/** Go's `==` on decoded JSON scalars (maps and lists never match). */
function scalarEq(left: JsonValue | undefined, right: JsonValue | undefined): boolean {
  return left !== undefined && (left === null || typeof left !== 'object') && left === right;
}

function sameItem(left: JsonValue | undefined, right: JsonValue | undefined, key: string | undefined): boolean {
  if (key === undefined) return scalarEq(left, right);
  return isJsonObject(left) && isJsonObject(right) && Object.hasOwn(left, key) && scalarEq(left[key], right[key]);
}

function indexIn(list: readonly JsonValue[], item: JsonValue, key: string | undefined): number {
  return list.findIndex((x) => sameItem(x, item, key));
}

/** strategicpatch's mergeSortedSlice: interleave server-only items into the patch items. */
function mergeSorted(
  left: JsonValue[],
  right: JsonValue[],
  serverOrder: readonly JsonValue[],
  key: string | undefined,
): JsonValue[] {
  const out: JsonValue[] = [];
  let i = 0;
  let j = 0;
  while (i < left.length || j < right.length) {
    const l = left[i];
    const r = right[j];
    if (l === undefined) {
      out.push(r ?? null);
      j++;
    } else if (r === undefined) {
      out.push(l);
      i++;
    } else {
      const li = indexIn(serverOrder, l, key);
      const ri = indexIn(serverOrder, r, key);
      if (li >= 0 && ri >= 0 && li < ri) {
        out.push(l);
        i++;
      } else {
        out.push(r);
        j++;
      }
    }
  }
  return out;
}

function sortBy(items: JsonValue[], order: readonly JsonValue[], key: string | undefined): JsonValue[] {
  return items
    .map((item, pos) => ({ item, pos, at: indexIn(order, item, key) }))
    .sort((a, b) => (a.at >= 0 && b.at >= 0 && a.at !== b.at ? a.at - b.at : a.pos - b.pos))
    .map((x) => x.item);
}

/**
 * strategicpatch's normalizeElementOrder: items named by `order` (the patch list or a
 * $setElementOrder list) take that order, server-only items keep the live order, and the two
 * are interleaved by their positions in the live list.
 */
function reorder(
  merged: JsonValue[],
  order: readonly JsonValue[],
  serverOrder: readonly JsonValue[],
  key: string | undefined,
): JsonValue[] {
  const patchItems: JsonValue[] = [];
  const serverOnly: JsonValue[] = [];
  for (const m of merged) (indexIn(order, m, key) >= 0 ? patchItems : serverOnly).push(m);
  return mergeSorted(sortBy(serverOnly, serverOrder, key), sortBy(patchItems, order, key), serverOrder, key);
}

type ElementKind = 'map' | 'scalar' | 'none';

function elementKind(lists: readonly JsonValue[][]): ElementKind {
  let kind: ElementKind = 'none';
  let scalarType: string | undefined;
  for (const list of lists) {
    for (const v of list) {
      if (Array.isArray(v))
        throw new PatchError('Invalid', GENERIC_INVALID_MESSAGE, 'lists of lists are not supported');
      const k = isJsonObject(v) ? 'map' : 'scalar';
      const t = v === null ? 'null' : typeof v;
      if (kind !== 'none' && (k !== kind || (k === 'scalar' && t !== scalarType))) {
        throw badRequest(`list element types are not identical: ${goValue(lists.map((l) => l))}`);
      }
      kind = k;
      scalarType = t;
    }
  }
  return kind;
}

function mergeList(original: JsonValue[], patch: JsonValue[], meta: FieldMeta | undefined): JsonValue[] {
  if (original.length === 0 && patch.length === 0) return [];
  const kind = elementKind([original, patch]);
  if (kind !== 'map') {
    const merged: JsonValue[] = [];
    for (const v of [...original, ...patch]) if (indexIn(merged, v, undefined) < 0) merged.push(v);
    return reorder(merged, patch, original, undefined);
  }
  const key = meta?.mergeKey;
  if (!key) throw badRequest('cannot merge lists without merge key for type map');
  let live = original.filter(isJsonObject);
  let items: JsonObject[] = [];
  let replace = false;
  for (const item of patch.filter(isJsonObject)) {
    if (!Object.hasOwn(item, DIRECTIVE)) {
      items.push(item);
      continue;
    }
    const directive = item[DIRECTIVE];
    if (directive === 'delete') {
      if (!Object.hasOwn(item, key)) throw noMergeKey(item, key);
      live = live.filter((o) => !sameItem(o, item, key));
    } else if (directive === 'replace') {
      replace = true;
    } else if (directive === 'merge') {
      throw badRequest('merging lists cannot yet be specified in the patch');
    } else {
      throw badRequest(`unknown patch type: ${goValue(directive)} in map: ${goValue(item)}`);
    }
  }
  if (replace) {
    live = items.map((i) => mergeMap(undefined, i, meta?.items));
    items = [];
  }
  const merged: JsonValue[] = [...live];
  for (const item of items) {
    if (!Object.hasOwn(item, key)) throw noMergeKey(item, key);
    const at = indexIn(merged, item, key);
    const current = merged[at];
    if (at >= 0 && isJsonObject(current)) merged[at] = mergeMap(current, item, meta?.items);
    else merged.push(mergeMap(undefined, item, meta?.items));
  }
  return reorder(merged, items, live, key);
}

/** A value the original did not have: applied onto nothing, which drops nulls and directives. */
function fresh(value: JsonValue, meta: FieldMeta | undefined): JsonValue {
  if (isJsonObject(value)) return mergeMap(undefined, value, meta);
  if (Array.isArray(value) && smpMergesList(meta)) return mergeList([], value, meta);
  return value;
}

function validateOrder(patchList: readonly JsonValue[], order: readonly JsonValue[], key: string | undefined): void {
  if (order.length === 0 || patchList.length === 0) return;
  const items =
    key === undefined ? patchList : patchList.filter((x) => !(isJsonObject(x) && x[DIRECTIVE] === 'delete'));
  let p = 0;
  let s = 0;
  while (p < items.length && s < order.length) {
    const item = items[p] ?? null;
    if (isJsonObject(item) && Object.hasOwn(item, DIRECTIVE)) {
      p++;
      continue;
    }
    if (key !== undefined && isJsonObject(item) && !Object.hasOwn(item, key)) throw noMergeKey(item, key);
    if (sameItem(item, order[s], key)) p++;
    s++;
  }
  if (p < items.length && s >= order.length) {
    throw badRequest(
      `The order in patch list:\n${goValue([...patchList])}\n doesn't match $setElementOrder list:\n${goValue([...order])}\n`,
    );
  }
}

function listOrUndefined(value: JsonValue | undefined, what: string): JsonValue[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw badRequest(`expected a []interface {}, but received a ${what}`);
  return value;
}

function applySetElementOrder(result: JsonObject, work: JsonObject, meta: FieldMeta | undefined): void {
  for (const directiveKey of Object.keys(work)) {
    if (!directiveKey.startsWith(SET_ELEMENT_ORDER)) continue;
    const order = work[directiveKey];
    delete work[directiveKey];
    if (!Array.isArray(order)) throw badRequest('invalid patch format of setElementOrder list');
    const field = directiveKey.slice(SET_ELEMENT_ORDER.length);
    const fm = childMeta(meta, field);
    const original = listOrUndefined(Object.hasOwn(result, field) ? result[field] : undefined, 'map');
    const patchList = listOrUndefined(Object.hasOwn(work, field) ? work[field] : undefined, 'map');
    const kind = elementKind([original ?? [], patchList ?? [], order]);
    const key = kind === 'map' ? fm?.mergeKey : undefined;
    if (kind === 'map' && key === undefined) throw badRequest('cannot merge lists without merge key for type map');
    validateOrder(patchList ?? [], order, key);
    let merged: JsonValue[];
    if (original && patchList) merged = smpMergesList(fm) ? mergeList(original, patchList, fm) : patchList;
    else if (original) merged = original;
    else if (patchList) merged = smpMergesList(fm) ? mergeList([], patchList, fm) : patchList;
    else continue;
    delete work[field];
    result[field] = reorder(merged, order, original ?? [], key);
  }
}

function applyRetainKeys(result: JsonObject, work: JsonObject): void {
  if (!Object.hasOwn(work, RETAIN_KEYS)) return;
  const list = work[RETAIN_KEYS];
  delete work[RETAIN_KEYS];
  if (!Array.isArray(list)) throw badRequest('invalid patch format of retainKeys');
  const keep = new Set(list.filter((k): k is string => typeof k === 'string'));
  for (const [k, v] of Object.entries(work)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!keep.has(k))
      throw new PatchError('Invalid', GENERIC_INVALID_MESSAGE, "patch content doesn't match retainKeys list");
  }
  for (const k of Object.keys(result)) if (!keep.has(k)) delete result[k];
}

function mergeMap(original: JsonObject | undefined, patch: JsonObject, meta: FieldMeta | undefined): JsonObject {
  if (Object.hasOwn(patch, DIRECTIVE)) {
    const directive = patch[DIRECTIVE];
    if (directive === 'replace') {
      const rest = { ...patch };
      delete rest[DIRECTIVE];
      return mergeMap(undefined, rest, meta);
    }
    if (directive === 'delete') return {};
    throw badRequest(`unknown patch type: ${goValue(directive)} in map: ${goValue(patch)}`);
  }
  const result: JsonObject = original ? { ...original } : {};
  const work: JsonObject = { ...patch };
  applyRetainKeys(result, work);
  applySetElementOrder(result, work, meta);
  const deletions: [string, JsonValue][] = [];
  for (const [k, v] of Object.entries(work)) {
    if (k.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      deletions.push([k.slice(DELETE_FROM_PRIMITIVE_LIST.length), v]);
      continue;
    }
    if (v === null) {
      delete result[k];
      continue;
    }
    const fm = childMeta(meta, k);
    const current = Object.hasOwn(result, k) ? result[k] : undefined;
    if (isJsonObject(current) && isJsonObject(v))
      result[k] = fm?.strategy === 'replace' ? fresh(v, fm) : mergeMap(current, v, fm);
    else if (Array.isArray(current) && Array.isArray(v)) result[k] = smpMergesList(fm) ? mergeList(current, v, fm) : v;
    else result[k] = fresh(v, fm);
  }
  for (const [field, values] of deletions) {
    if (!Array.isArray(values)) throw badRequest('invalid patch format of primitive list');
    const current = result[field];
    if (Array.isArray(current)) result[field] = current.filter((x) => !values.some((d) => scalarEq(x, d)));
  }
  return result;
}

/**
 * Applies a strategic merge patch to a copy of `doc` (the input is never changed), using the
 * kind's patch metadata (patchMetaFor). Throws PatchError with kube-apiserver's code and text.
 */
export function applyStrategicMergePatch(doc: JsonObject, patch: JsonObject, meta: PatchMeta): JsonObject {
  return mergeMap(cloneJson(doc), cloneJson(patch), meta);
}
