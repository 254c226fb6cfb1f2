/**
 * Go's `%v` rendering of decoded JSON (map[string]interface{} and friends), for error messages
 * that kube-apiserver builds with fmt and that clients see verbatim.
 */
import type { JsonValue } from '../../lib/json.js';

/** `fmt.Sprintf("%v", v)` for a value decoded by encoding/json. */
export function goValue(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `map[${keys.map((k) => `${k}:${goValue(value[k])}`).join(' ')}]`;
  }
  return String(value);
}

/** The JSON type word encoding/json uses in "cannot unmarshal X into Go value of type Y". */
export function goJsonType(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  return typeof value;
}
