/** JSON values as the Kubernetes API carries them. Objects stay plain JSON end to end. */
export type JsonPrimitive = string | number | boolean | null;
export type JsonValue = JsonPrimitive | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy of a JSON value. */
export function cloneJson<T extends JsonValue>(value: T): T {
  return structuredClone(value);
}

/** Deep equality of two JSON values (object key order ignored). */
export function jsonEqual(left: JsonValue | undefined, right: JsonValue | undefined): boolean {
  if (left === right) return true;
  if (left === undefined || right === undefined || left === null || right === null) return false;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    for (let i = 0; i < left.length; i++) if (!jsonEqual(left[i], right[i])) return false;
    return true;
  }
  if (typeof left !== 'object' || typeof right !== 'object' || Array.isArray(right)) return false;
  const ka = Object.keys(left);
  if (ka.length !== Object.keys(right).length) return false;
  for (const k of ka) if (!(k in right) || !jsonEqual(left[k], right[k])) return false;
  return true;
}
