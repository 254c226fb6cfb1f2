/**
 * The value validation kube-openapi's SchemaValidator performs on custom resources, with its
 * messages and its way of naming paths (`spec.list[0].name`, map entries as `spec.labels.key`),
 * converted to field errors the way apiextensions' kubeOpenAPIResultToFieldErrors does.
 * Written by hand: JSON Schema libraries word errors differently and know nothing of
 * `nullable` or `x-kubernetes-int-or-string`.
 */
import { goQuote, fieldError, type FieldError } from '../field-errors.js';
import { jsonEqual, type JsonValue } from '../../lib/json.js';
import { compileGoRegexp, type GoRegexp } from '../../lib/go-regexp.js';
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
function jsonTypeOf(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return Array.isArray(value) ? 'array' : 'object';
}

/** Go's %v for a float64 bound (10, 1.5, 1e+21). */
function goNumber(count: number): string {
  if (Number.isInteger(count) && Math.abs(count) < 1e21) return String(count);
  const s = String(count);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

function declaredTypes(schemaNode: SchemaNode): string[] {
  if (schemaFlag(schemaNode, 'x-kubernetes-int-or-string')) return ['integer', 'string'];
  const t = schemaString(schemaNode, 'type');
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
function validateNode(value: JsonValue, schemaNode: SchemaNode, name: string, out: RawError[]): void {
  const types = declaredTypes(schemaNode);
  const format = schemaString(schemaNode, 'format');
  const keptFormat = format !== '' && checkFormat(format, '') !== undefined ? format : '';
  const enumValues = Array.isArray(schemaNode['enum']) ? schemaNode['enum'] : undefined;
  if (value === null) {
    if (types.length > 0 && !schemaFlag(schemaNode, 'nullable')) out.push(invalidType(name, types.join(','), 'null'));
    if (enumValues && !enumValues.some((e) => e === null)) out.push(enumError(name, value, enumValues));
    return;
  }
  const actual = jsonTypeOf(value);
  // type validator
  if (types.length > 0 || keptFormat !== '') {
    const isIntFloat = actual === 'integer' && types.includes('number');
    const typeOk = types.includes(actual) || isIntFloat;
    const stringish = actual === 'string' || actual === 'array';
    if (!stringish && keptFormat !== '' && !typeOk) {
      out.push(invalidType(name, keptFormat, actual === 'integer' ? 'int64' : actual === 'number' ? 'float64' : ''));
    } else if (
      !(keptFormat !== '' && stringish && !types.includes('number') && !types.includes('integer')) &&
      !typeOk
    ) {
      out.push(invalidType(name, types.join(','), actual));
    }
  }
  validateComposition(value, schemaNode, name, out);
  if (typeof value === 'string') validateString(value, schemaNode, name, keptFormat, out);
  if (typeof value === 'number') validateNumber(value, schemaNode, name, out);
  if (Array.isArray(value)) validateArray(value, schemaNode, name, out);
  if (enumValues && !enumValues.some((e) => jsonEqual(e, value))) out.push(enumError(name, value, enumValues));
  if (isObject(value)) validateObject(value, schemaNode, name, out);
}

function enumError(name: string, value: JsonValue, values: JsonValue[]): RawError {
  const supported = values.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
  return { name, make: (p) => fieldError.notSupported(p, value, supported) };
}

function validateString(value: string, schemaNode: SchemaNode, name: string, format: string, out: RawError[]): void {
  const length = [...value].length;
  const maxLength = schemaNumber(schemaNode, 'maxLength');
  const minLength = schemaNumber(schemaNode, 'minLength');
  if (maxLength !== undefined && length > maxLength)
    out.push({ name, make: (p) => fieldError.tooLong(p, value, maxLength) });
  if (minLength !== undefined && length < minLength)
    out.push(invalid(name, value, `${name} in body should be at least ${minLength} chars long`));
  const pattern = schemaString(schemaNode, 'pattern');
  if (pattern !== '' && !patternMatches(pattern, value))
    out.push(invalid(name, value, `${name} in body should match '${pattern}'`));
  if (format !== '' && checkFormat(format, value) === false)
    out.push({ name, make: (p) => fieldError.typeInvalid(p, value, typeMessage(name, format, value)) });
}

/** Compiled `pattern`s (Go syntax, linear time, as kube-apiserver checks them), bounded. */
const patternCache = new Map<string, GoRegexp | null>();
function patternMatches(pattern: string, value: string): boolean {
  let re = patternCache.get(pattern);
  if (re === undefined) {
    const compiled = compileGoRegexp(pattern);
    // A CRD with a bad pattern is refused when it is written; one that got in matches everything.
    re = compiled.ok ? compiled.regexp : null;
    if (patternCache.size >= 1000) patternCache.clear();
    patternCache.set(pattern, re);
  }
  return re === null ? true : re.test(value);
}

function validateNumber(value: number, schemaNode: SchemaNode, name: string, out: RawError[]): void {
  const multipleOf = schemaNumber(schemaNode, 'multipleOf');
  if (multipleOf !== undefined && multipleOf > 0) {
    const q = value / multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9)
      out.push(invalid(name, value, `${name} in body should be a multiple of ${goNumber(multipleOf)}`));
  }
  const maximum = schemaNumber(schemaNode, 'maximum');
  if (maximum !== undefined) {
    const exclusive = schemaFlag(schemaNode, 'exclusiveMaximum');
    if (exclusive ? value >= maximum : value > maximum) {
      out.push(
        invalid(
          name,
          value,
          `${name} in body should be less than ${exclusive ? '' : 'or equal to '}${goNumber(maximum)}`,
        ),
      );
    }
  }
  const minimum = schemaNumber(schemaNode, 'minimum');
  if (minimum !== undefined) {
    const exclusive = schemaFlag(schemaNode, 'exclusiveMinimum');
    if (exclusive ? value <= minimum : value < minimum) {
      out.push(
        invalid(
          name,
          value,
          `${name} in body should be greater than ${exclusive ? '' : 'or equal to '}${goNumber(minimum)}`,
        ),
      );
    }
  }
}

function validateArray(values: JsonValue[], schemaNode: SchemaNode, name: string, out: RawError[]): void {
  const items = schemaItems(schemaNode);
  if (items) values.forEach((x, i) => validateNode(x, items, `${name}[${i}]`, out));
  const minItems = schemaNumber(schemaNode, 'minItems');
  const maxItems = schemaNumber(schemaNode, 'maxItems');
  if (minItems !== undefined && values.length < minItems)
    out.push(invalid(name, values.length, `${name} in body should have at least ${minItems} items`));
  if (maxItems !== undefined && values.length > maxItems)
    out.push({ name, make: (p) => fieldError.tooMany(p, values.length, maxItems) });
}

function validateObject(value: Record<string, JsonValue>, schemaNode: SchemaNode, name: string, out: RawError[]): void {
  const count = Object.keys(value).length;
  const minProperties = schemaNumber(schemaNode, 'minProperties');
  const maxProperties = schemaNumber(schemaNode, 'maxProperties');
  if (minProperties !== undefined && count < minProperties) {
    out.push(invalid(name, count, `${name} in body should have at least ${minProperties} properties`));
    return;
  }
  if (maxProperties !== undefined && count > maxProperties) {
    out.push({ name, make: (p) => fieldError.tooMany(p, count, maxProperties) });
    return;
  }
  const props = schemaProperties(schemaNode) ?? {};
  const additional = schemaAdditional(schemaNode);
  if (additional && schemaNode['additionalProperties'] !== true) {
    for (const [k, x] of Object.entries(value)) if (!(k in props)) validateNode(x, additional, `${name}.${k}`, out);
  }
  for (const [k, ps] of Object.entries(props)) {
    if (k in value && isObject(ps)) validateNode(value[k]!, ps, name === '' ? k : `${name}.${k}`, out);
  }
  for (const k of schemaStrings(schemaNode, 'required')) {
    if (!(k in value)) out.push({ name: `${name}.${k}`, make: (p) => fieldError.required(p) });
  }
}

/** Composite errors carry no field (kube-openapi returns them as plain errors). */
function composite(message: string): RawError {
  return { name: '\u0000', make: (p) => fieldError.invalid(p, '', message) };
}

function validateComposition(value: JsonValue, schemaNode: SchemaNode, name: string, out: RawError[]): void {
  const quoted = goQuote(name);
  const run = (sub: SchemaNode): RawError[] => {
    const errs: RawError[] = [];
    validateNode(value, sub, name, errs);
    return errs;
  };
  const anyOf = schemaList(schemaNode, 'anyOf');
  if (anyOf.length > 0) {
    const results = anyOf.map(run);
    if (!results.some((r) => r.length === 0)) {
      out.push(composite(`${quoted} must validate at least one schema (anyOf)`));
      out.push(...fewest(results));
    }
  }
  const oneOf = schemaList(schemaNode, 'oneOf');
  if (oneOf.length > 0) {
    const results = oneOf.map(run);
    const valid = results.filter((r) => r.length === 0).length;
    if (valid !== 1) {
      const extra = valid === 0 ? 'Found none valid' : `Found ${valid} valid alternatives`;
      out.push(composite(`${quoted} must validate one and only one schema (oneOf). ${extra}`));
      if (valid === 0) out.push(...fewest(results));
    }
  }
  const allOf = schemaList(schemaNode, 'allOf');
  if (allOf.length > 0) {
    const results = allOf.map(run);
    const valid = results.filter((r) => r.length === 0).length;
    for (const r of results) out.push(...r);
    if (valid !== allOf.length)
      out.push(composite(`${quoted} must validate all the schemas (allOf)${valid === 0 ? '. None validated' : ''}`));
  }
  const not = schemaNode['not'];
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
  return raw.map((rawError) => {
    if (rawError.name === '\u0000') return rawError.make(shownPath(rootPath));
    const name = rawError.name.startsWith('.') ? rawError.name.slice(1) : rawError.name;
    const path = name === '' ? rootPath : rootPath === '' ? name : `${rootPath}.${name}`;
    return rawError.make(shownPath(path));
  });
}
