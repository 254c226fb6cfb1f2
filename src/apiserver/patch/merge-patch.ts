/**
 * JSON Merge Patch (RFC 7386), as kube-apiserver applies `application/merge-patch+json`: objects
 * merge key by key, `null` deletes a key, arrays and scalars replace, and a patch that is not an
 * object replaces the whole document. Small enough to own (docs/design/dependencies.md#patches).
 */
import { cloneJson, isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../../lib/json.js';

/** Applies a merge patch to a copy of `doc` (the input is never changed) and returns the result. */
export function applyMergePatch(doc: JsonValue, patch: JsonValue): JsonValue {
  if (!isJsonObject(patch)) return cloneJson(patch);
  const result: JsonObject = isJsonObject(doc) ? { ...doc } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else result[key] = applyMergePatch(Object.hasOwn(result, key) ? (result[key] ?? null) : null, value);
  }
  // Keys copied from `doc` and left untouched are shared with it; copy them so callers own the result.
  for (const key of Object.keys(result)) if (!Object.hasOwn(patch, key)) result[key] = cloneJson(result[key] ?? null);
  return result;
}

/**
 * The merge patch that turns `from` into `to` (RFC 7386 §3 in reverse). Values `to` holds as
 * `null` inside objects cannot be expressed by a merge patch and come out as deletions.
 */
export function createMergePatch(from: JsonValue, to: JsonValue): JsonValue {
  if (!isJsonObject(from) || !isJsonObject(to)) return cloneJson(to);
  const patch: JsonObject = {};
  for (const key of Object.keys(from)) if (!Object.hasOwn(to, key)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    const before = Object.hasOwn(from, key) ? from[key] : undefined;
    if (before !== undefined && jsonEqual(before, value)) continue;
    patch[key] =
      before !== undefined && isJsonObject(before) && isJsonObject(value)
        ? createMergePatch(before, value)
        : cloneJson(value);
  }
  return patch;
}
