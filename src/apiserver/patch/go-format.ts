/**
 * Go's `%v` rendering of decoded JSON (map[string]interface{} and friends), for error messages
 * that kube-apiserver builds with fmt and that clients see verbatim.
 */
import type { JsonValue } from '../../lib/json.js';

/** `fmt.Sprintf("%v", v)` for a value decoded by encoding/json. */
export function goValue(v: JsonValue | undefined): string {
  if (v === undefined || v === null) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goValue).join(' ')}]`;
  if (typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `map[${keys.map((k) => `${k}:${goValue(v[k])}`).join(' ')}]`;
  }
  return String(v);
}

/** The JSON type word encoding/json uses in "cannot unmarshal X into Go value of type Y". */
export function goJsonType(v: JsonValue): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'object') return 'object';
  if (typeof v === 'boolean') return 'bool';
  return typeof v;
}
