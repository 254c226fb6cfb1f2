/**
 * JSON text exactly as Go's `encoding/json.Marshal` writes a generic value (`map[string]any`,
 * `[]any`, float64, string, bool, nil), which is what APPUiO's controller puts in hook Job
 * environment variables (docs/design/scheduled-flow.md#the-hook-environment) and kube-apiserver in
 * a string printer column over an array or object (apiserver/crd/table.ts). Written by hand
 * because `JSON.stringify` differs in three ways that hooks can see: Go escapes `<`, `>`, `&`,
 * U+2028 and U+2029; Go sorts object keys (byte order of their UTF-8, i.e. code point order); and
 * Go writes `-0` for negative zero. Go also replaces invalid UTF-16 (a lone surrogate cannot
 * survive Go's decoder) with U+FFFD.
 */
import type { JsonValue } from './json.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const HTML_UNSAFE = /[<>&\u2028\u2029]/g;

/** A JSON string literal as Go writes it, HTML-safe escapes included (`<` → `\u003c`). */
export function goJsonString(text: string): string {
  return JSON.stringify(text.replace(LONE_SURROGATE, '\uFFFD')).replace(
    HTML_UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * A float64 as Go's JSON encoder writes it: the shortest round-trip digits, plain notation for
 * magnitudes in [1e-6, 1e21), exponent notation (`1e+21`, `1e-7`) outside it, `-0` kept.
 */
export function goJsonNumber(count: number): string {
  if (!Number.isFinite(count)) throw new RangeError(`json: unsupported value: ${String(count)}`);
  if (Object.is(count, -0)) return '-0';
  const abs = Math.abs(count);
  // Go: 'e' format below 1e-6 and from 1e21, then "e-07" cleaned to "e-7"; JS writes the same digits.
  if (abs !== 0 && (abs < 1e-6 || abs >= 1e21)) return count.toExponential();
  return String(count);
}

/** Orders strings by code point, as Go's byte-wise comparison of UTF-8 does. */
export function compareCodePoints(left: string, right: string): number {
  const ia = left[Symbol.iterator]();
  const ib = right[Symbol.iterator]();
  for (;;) {
    const ca = ia.next();
    const cb = ib.next();
    if (ca.done === true) return cb.done === true ? 0 : -1;
    if (cb.done === true) return 1;
    const d = (ca.value.codePointAt(0) ?? 0) - (cb.value.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
}

/** The compact JSON text Go's `json.Marshal` produces for a generic JSON value. */
export function goJsonMarshal(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return goJsonString(value);
  if (typeof value === 'number') return goJsonNumber(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Array.isArray(value)) return `[${value.map(goJsonMarshal).join(',')}]`;
  const keys = Object.keys(value).sort(compareCodePoints);
  return `{${keys.map((k) => `${goJsonString(k)}:${goJsonMarshal(value[k] ?? null)}`).join(',')}}`;
}
