/**
 * The value validation kube-openapi's SchemaValidator performs on custom resources, with its
 * messages and its way of naming paths (`spec.list[0].name`, map entries as `spec.labels.key`),
 * converted to field errors the way apiextensions' kubeOpenAPIResultToFieldErrors does.
 * Written by hand: JSON Schema libraries word errors differently and know nothing of
 * `nullable` or `x-kubernetes-int-or-string`.
 */
import { goQuote, fieldError, type FieldError } from '../field-errors.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import { checkFormat } from './formats.js';
import {
  isObject,
  schemaAdditional,
  schemaFlag,
  schemaItems,
  schemaList,
  schemaNumber,
  schemaProperties,
  schemaString,
  schemaStrings,
  shownPath,
  type SchemaNode,
} from './schema-node.js';

/** One kube-openapi result error before conversion: `name` is kube-openapi's path text. */
interface RawError {
  make: (path: string) => FieldError;
  name: string;
}

/** kube-openapi's JSON type name for a value. */
function jsonTypeOf(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'boolean';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return Array.isArray(v) ? 'array' : 'object';
}

/** Go's %v for a float64 bound (10, 1.5, 1e+21). */
function goNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return String(n);
  const s = String(n);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

function declaredTypes(s: SchemaNode): string[] {
  if (schemaFlag(s, 'x-kubernetes-int-or-string')) return ['integer', 'string'];
  const t = schemaString(s, 'type');
  return t ? [t] : [];
}

function typeMessage(name: string, expected: string, actual: string): string {
  return `${name} in body must be of type ${expected}: ${goQuote(actual)}`;
}

function invalidType(name: string, expected: string, actual: string): RawError {
  return { name, make: (p) => fieldError.typeInvalid(p, actual, typeMessage(name, expected, actual)) };
}

function invalid(name: string, value: JsonValue, message: string): RawError {
  return { name, make: (p) => fieldError.invalid(p, value, message) };
}

/** Runs one schema node over a value; appends errors in kube-openapi's validator order. */
function validateNode(v: JsonValue, s: SchemaNode, name: string, out: RawError[]): void {
  const types = declaredTypes(s);
  const format = schemaString(s, 'format');
  const keptFormat = format !== '' && checkFormat(format, '') !== undefined ? format : '';
  const enumValues = Array.isArray(s['enum']) ? s['enum'] : undefined;
  if (v === null) {
    if (types.length > 0 && !schemaFlag(s, 'nullable')) out.push(invalidType(name, types.join(','), 'null'));
    if (enumValues && !enumValues.some((e) => e === null)) out.push(enumError(name, v, enumValues));
    return;
  }
  const actual = jsonTypeOf(v);
  // type validator
  if (types.length > 0 || keptFormat !== '') {
    const isIntFloat = actual === 'integer' && types.includes('number');
    const typeOk = types.includes(actual) || isIntFloat;
    const stringish = actual === 'string' || actual === 'array';
    if (!stringish && keptFormat !== '' && !typeOk) {
      out.push(invalidType(name, keptFormat, actual === 'integer' ? 'int64' : actual === 'number' ? 'float64' : ''));
    } else if (!(keptFormat !== '' && stringish && !types.includes('number') && !types.includes('integer')) && !typeOk) {
      out.push(invalidType(name, types.join(','), actual));
    }
  }
  validateComposition(v, s, name, out);
  if (typeof v === 'string') validateString(v, s, name, keptFormat, out);
  if (typeof v === 'number') validateNumber(v, s, name, out);
  if (Array.isArray(v)) validateArray(v, s, name, out);
  if (enumValues && !enumValues.some((e) => jsonEqual(e, v))) out.push(enumError(name, v, enumValues));
  if (isObject(v)) validateObject(v, s, name, out);
}

function enumError(name: string, v: JsonValue, values: JsonValue[]): RawError {
  const supported = values.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
  return { name, make: (p) => fieldError.notSupported(p, v, supported) };
}

function validateString(v: string, s: SchemaNode, name: string, format: string, out: RawError[]): void {
  const length = [...v].length;
  const maxLength = schemaNumber(s, 'maxLength');
  const minLength = schemaNumber(s, 'minLength');
  if (maxLength !== undefined && length > maxLength) out.push({ name, make: (p) => fieldError.tooLong(p, v, maxLength) });
  if (minLength !== undefined && length < minLength) out.push(invalid(name, v, `${name} in body should be at least ${minLength} chars long`));
  const pattern = schemaString(s, 'pattern');
  if (pattern !== '' && !patternMatches(pattern, v)) out.push(invalid(name, v, `${name} in body should match '${pattern}'`));
  if (format !== '' && checkFormat(format, v) === false) out.push({ name, make: (p) => fieldError.typeInvalid(p, v, typeMessage(name, format, v)) });
}

const patternCache = new Map<string, RegExp | null>();
function patternMatches(pattern: string, v: string): boolean {
  let re = patternCache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern, 'u');
    } catch {
      re = null;
    }
    patternCache.set(pattern, re);
  }
  return re === null ? true : re.test(v);
}

function validateNumber(v: number, s: SchemaNode, name: string, out: RawError[]): void {
  const multipleOf = schemaNumber(s, 'multipleOf');
  if (multipleOf !== undefined && multipleOf > 0) {
    const q = v / multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9) out.push(invalid(name, v, `${name} in body should be a multiple of ${goNumber(multipleOf)}`));
  }
  const maximum = schemaNumber(s, 'maximum');
  if (maximum !== undefined) {
    const exclusive = schemaFlag(s, 'exclusiveMaximum');
    if (exclusive ? v >= maximum : v > maximum) {
      out.push(invalid(name, v, `${name} in body should be less than ${exclusive ? '' : 'or equal to '}${goNumber(maximum)}`));
    }
  }
  const minimum = schemaNumber(s, 'minimum');
  if (minimum !== undefined) {
    const exclusive = schemaFlag(s, 'exclusiveMinimum');
    if (exclusive ? v <= minimum : v < minimum) {
      out.push(invalid(name, v, `${name} in body should be greater than ${exclusive ? '' : 'or equal to '}${goNumber(minimum)}`));
    }
  }
}

function validateArray(v: JsonValue[], s: SchemaNode, name: string, out: RawError[]): void {
  const items = schemaItems(s);
  if (items) v.forEach((x, i) => validateNode(x, items, `${name}[${i}]`, out));
  const minItems = schemaNumber(s, 'minItems');
  const maxItems = schemaNumber(s, 'maxItems');
  if (minItems !== undefined && v.length < minItems) out.push(invalid(name, v.length, `${name} in body should have at least ${minItems} items`));
  if (maxItems !== undefined && v.length > maxItems) out.push({ name, make: (p) => fieldError.tooMany(p, v.length, maxItems) });
}

function validateObject(v: Record<string, JsonValue>, s: SchemaNode, name: string, out: RawError[]): void {
  const count = Object.keys(v).length;
  const minProperties = schemaNumber(s, 'minProperties');
  const maxProperties = schemaNumber(s, 'maxProperties');
  if (minProperties !== undefined && count < minProperties) {
    out.push(invalid(name, count, `${name} in body should have at least ${minProperties} properties`));
    return;
  }
  if (maxProperties !== undefined && count > maxProperties) {
    out.push({ name, make: (p) => fieldError.tooMany(p, count, maxProperties) });
    return;
  }
  const props = schemaProperties(s) ?? {};
  const additional = schemaAdditional(s);
  if (additional && s['additionalProperties'] !== true) {
    for (const [k, x] of Object.entries(v)) if (!(k in props)) validateNode(x, additional, `${name}.${k}`, out);
  }
  for (const [k, ps] of Object.entries(props)) {
    if (k in v && isObject(ps)) validateNode(v[k]!, ps, name === '' ? k : `${name}.${k}`, out);
  }
  for (const k of schemaStrings(s, 'required')) {
    if (!(k in v)) out.push({ name: `${name}.${k}`, make: (p) => fieldError.required(p) });
  }
}

/** Composite errors carry no field (kube-openapi returns them as plain errors). */
function composite(message: string): RawError {
  return { name: '\u0000', make: (p) => fieldError.invalid(p, '', message) };
}

function validateComposition(v: JsonValue, s: SchemaNode, name: string, out: RawError[]): void {
  const quoted = goQuote(name);
  const run = (sub: SchemaNode): RawError[] => {
    const errs: RawError[] = [];
    validateNode(v, sub, name, errs);
    return errs;
  };
  const anyOf = schemaList(s, 'anyOf');
  if (anyOf.length > 0) {
    const results = anyOf.map(run);
    if (!results.some((r) => r.length === 0)) {
      out.push(composite(`${quoted} must validate at least one schema (anyOf)`));
      out.push(...fewest(results));
    }
  }
  const oneOf = schemaList(s, 'oneOf');
  if (oneOf.length > 0) {
    const results = oneOf.map(run);
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== 1) {
      const extra = valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`;
      out.push(composite(`${quoted} must validate one and only one schema (oneOf). ${extra}`));
      if (valid === 0) out.push(...fewest(results));
    }
  }
  const allOf = schemaList(s, 'allOf');
  if (allOf.length > 0) {
    const results = allOf.map(run);
    const valid = results.filter((r) => r.length === 0).length;
    for (const r of results) out.push(...r);
    if (valid !== allOf.length) out.push(composite(`${quoted} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
  }
  const not = s['not'];
  if (isObject(not) && run(not).length === 0) out.push(composite(`${quoted} must not validate the schema (not)`));
}

function fewest(results: RawError[][]): RawError[] {
  let best: RawError[] | undefined;
  for (const r of results) if (best === undefined || r.length < best.length) best = r;
  return best ?? [];
}

/**
 * Validates a value against an OpenAPI v3 structural schema the way kube-openapi does and
 * returns apimachinery field errors. `rootPath` is the field path of the value ('' for a
 * whole object, which kube prints as `<nil>` for errors at the root).
 */
export function validateOpenApiValue(value: JsonValue, schema: SchemaNode, rootPath = ''): FieldError[] {
  const raw: RawError[] = [];
  validateNode(value, schema, '', raw);
  return raw.map((e) => {
    if (e.name === '\u0000') return e.make(shownPath(rootPath));
    const name = e.name.startsWith('.') ? e.name.slice(1) : e.name;
    const path = name === '' ? rootPath : rootPath === '' ? name : `${rootPath}.${name}`;
    return e.make(shownPath(path));
  });
}
