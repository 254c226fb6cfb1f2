/**
 * Static checks of a CRD version's `openAPIV3Schema`, worded like apiextensions: the OpenAPI
 * keywords CRDs forbid, the structural-schema invariants (every node typed, metadata at the
 * root, embedded resources), nested value validation under anyOf/allOf/oneOf/not, list and
 * map type extensions, and `x-kubernetes-validations` rule syntax. Not checked: structural
 * completeness (fields in value validations also specified outside) and CEL cost limits.
 */
import { fieldError, type FieldError } from '../field-errors.js';
import { isJsonObject, type JsonValue } from '../../lib/json.js';
import { compileGoRegexp } from '../../lib/go-regexp.js';
import { compileRule } from './cel-rules.js';
import {
  childPath,
  indexPath,
  keyPath,
  schemaItems,
  schemaList,
  schemaProperties,
  schemaString,
  schemaStrings,
  type SchemaNode,
} from './schema-node.js';

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const REASONS = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];
type Level = 'root' | 'item' | 'field';

function forbiddenKeywords(schemaNode: SchemaNode, path: string, out: FieldError[], insideMeta: boolean): void {
  const t = schemaString(schemaNode, 'type');
  if (t !== '' && !TYPES.includes(t) && t !== 'null')
    out.push(fieldError.notSupported(childPath(path, 'type'), t, TYPES));
  if (schemaNode['id'] !== undefined) out.push(fieldError.forbidden(childPath(path, 'id'), 'id is not supported'));
  if (schemaNode['additionalItems'] !== undefined)
    out.push(fieldError.forbidden(childPath(path, 'additionalItems'), 'additionalItems is not supported'));
  if (isJsonObject(schemaNode['patternProperties']))
    out.push(fieldError.forbidden(childPath(path, 'patternProperties'), 'patternProperties is not supported'));
  if (isJsonObject(schemaNode['definitions']))
    out.push(fieldError.forbidden(childPath(path, 'definitions'), 'definitions is not supported'));
  if (schemaNode['dependencies'] !== undefined)
    out.push(fieldError.forbidden(childPath(path, 'dependencies'), 'dependencies is not supported'));
  if (schemaNode['$ref'] !== undefined)
    out.push(fieldError.forbidden(childPath(path, '$ref'), '$ref is not supported'));
  if (t === 'null')
    out.push(
      fieldError.forbidden(childPath(path, 'type'), 'type cannot be set to null, use nullable as an alternative'),
    );
  if (Array.isArray(schemaNode['items']))
    out.push(fieldError.forbidden(childPath(path, 'items'), 'items must be a schema object and not an array'));
  if (insideMeta && schemaNode['x-kubernetes-embedded-resource'] === true)
    out.push(
      fieldError.forbidden(
        childPath(path, 'x-kubernetes-embedded-resource'),
        'must not be used inside of resource meta',
      ),
    );
  if (schemaNode['uniqueItems'] === true)
    out.push(
      fieldError.forbidden(
        childPath(path, 'uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  const additional = schemaNode['additionalProperties'];
  if (
    additional !== undefined &&
    Object.keys(schemaProperties(schemaNode) ?? {}).length > 0 &&
    (additional === false || isJsonObject(additional))
  ) {
    out.push(
      fieldError.forbidden(
        childPath(path, 'additionalProperties'),
        'additionalProperties and properties are mutual exclusive',
      ),
    );
  }
  if (schemaNode['x-kubernetes-preserve-unknown-fields'] === false)
    out.push(
      fieldError.invalid(childPath(path, 'x-kubernetes-preserve-unknown-fields'), false, 'must be true or undefined'),
    );
}

function listAndMapTypes(schemaNode: SchemaNode, path: string, out: FieldError[]): void {
  const t = schemaString(schemaNode, 'type');
  const mapType = schemaNode['x-kubernetes-map-type'];
  if (typeof mapType === 'string') {
    if (t !== 'object')
      out.push(
        t === ''
          ? fieldError.required(childPath(path, 'type'), 'must be object if x-kubernetes-map-type is specified')
          : fieldError.invalid(childPath(path, 'type'), t, 'must be object if x-kubernetes-map-type is specified'),
      );
    if (mapType !== 'atomic' && mapType !== 'granular')
      out.push(fieldError.notSupported(childPath(path, 'x-kubernetes-map-type'), mapType, ['atomic', 'granular']));
  }
  const listType = schemaNode['x-kubernetes-list-type'];
  const keys = schemaStrings(schemaNode, 'x-kubernetes-list-map-keys');
  const items = schemaItems(schemaNode);
  if (typeof listType === 'string') {
    if (t !== 'array')
      out.push(
        t === ''
          ? fieldError.required(childPath(path, 'type'), 'must be array if x-kubernetes-list-type is specified')
          : fieldError.invalid(childPath(path, 'type'), t, 'must be array if x-kubernetes-list-type is specified'),
      );
    if (!['atomic', 'set', 'map'].includes(listType))
      out.push(fieldError.notSupported(childPath(path, 'x-kubernetes-list-type'), listType, ['atomic', 'set', 'map']));
    if ((listType === 'set' || listType === 'map') && items?.['nullable'] === true)
      out.push(
        fieldError.forbidden(
          childPath(childPath(path, 'items'), 'nullable'),
          `cannot be nullable when x-kubernetes-list-type is ${listType}`,
        ),
      );
  }
  if (keys.length > 0 && listType === undefined)
    out.push(
      fieldError.required(
        childPath(path, 'x-kubernetes-list-type'),
        'must be map if x-kubernetes-list-map-keys is non-empty',
      ),
    );
  else if (keys.length > 0 && listType !== 'map')
    out.push(
      fieldError.invalid(
        childPath(path, 'x-kubernetes-list-type'),
        listType ?? null,
        'must be map if x-kubernetes-list-map-keys is non-empty',
      ),
    );
  if (listType !== 'map') return;
  if (keys.length === 0)
    out.push(
      fieldError.required(
        childPath(path, 'x-kubernetes-list-map-keys'),
        'must not be empty if x-kubernetes-list-type is map',
      ),
    );
  if (!items) {
    out.push(fieldError.required(childPath(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'));
    return;
  }
  if (schemaString(items, 'type') !== 'object') {
    out.push(
      fieldError.invalid(
        childPath(childPath(path, 'items'), 'type'),
        schemaString(items, 'type'),
        "must be object if parent array's x-kubernetes-list-type is map",
      ),
    );
    return;
  }
  const props = schemaProperties(items) ?? {};
  const required = new Set(schemaStrings(items, 'required'));
  const itemProps = childPath(childPath(path, 'items'), 'properties');
  for (const k of keys) {
    const p = props[k];
    if (!p) {
      out.push(
        fieldError.invalid(
          childPath(path, 'x-kubernetes-list-map-keys'),
          keys,
          'entries must all be names of item properties',
        ),
      );
      continue;
    }
    const pt = schemaString(p, 'type');
    if (pt === 'array' || pt === 'object')
      out.push(
        fieldError.invalid(
          childPath(keyPath(itemProps, k), 'type'),
          'object',
          "must be a scalar type if parent array's x-kubernetes-list-type is map",
        ),
      );
    if (!required.has(k) && p['default'] === undefined) {
      out.push(
        fieldError.required(
          childPath(keyPath(itemProps, k), 'default'),
          'this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property',
        ),
      );
    }
    if (p['nullable'] === true)
      out.push(
        fieldError.forbidden(
          childPath(keyPath(itemProps, k), 'nullable'),
          'this property is in x-kubernetes-list-map-keys, so it cannot be nullable',
        ),
      );
  }
}

function rules(schemaNode: SchemaNode, path: string, out: FieldError[]): void {
  const list = schemaNode['x-kubernetes-validations'];
  if (!Array.isArray(list)) return;
  list.forEach((value, index) => {
    if (!isJsonObject(value)) return;
    const at = (k: string): string => childPath(indexPath(childPath(path, 'x-kubernetes-validations'), index), k);
    const rule = typeof value['rule'] === 'string' ? value['rule'].trim() : '';
    const message = typeof value['message'] === 'string' ? value['message'] : '';
    if (rule === '') out.push(fieldError.required(at('rule'), 'rule is not specified'));
    else if (message.length > 0 && message.trim() === '')
      out.push(fieldError.invalid(at('message'), message, 'message must be non-empty if specified'));
    else if (/[\n\r]/.test(message.trim()))
      out.push(fieldError.invalid(at('message'), message, 'message must not contain line breaks'));
    else if (/[\n\r]/.test(rule) && message.trim() === '')
      out.push(fieldError.required(at('message'), 'message must be specified if rule contains line breaks'));
    const reason = value['reason'];
    if (typeof reason === 'string' && !REASONS.includes(reason))
      out.push(fieldError.notSupported(at('reason'), reason, REASONS));
    if (rule !== '') {
      const compiled = compileRule(rule);
      if ('compileError' in compiled)
        out.push(fieldError.invalid(at('rule'), value, `compilation failed: ${compiled.compileError}`));
    }
  });
}

function nested(schemaNode: SchemaNode, path: string, out: FieldError[]): void {
  const forbid = (key: string, detail: string): void => {
    out.push(fieldError.forbidden(childPath(path, key), detail));
  };
  if (schemaString(schemaNode, 'type') !== '') forbid('type', 'must be empty to be structural');
  if (schemaNode['additionalProperties'] !== undefined)
    forbid('additionalProperties', 'must be undefined to be structural');
  if (schemaNode['default'] !== undefined) forbid('default', 'must be undefined to be structural');
  if (schemaString(schemaNode, 'title') !== '') forbid('title', 'must be empty to be structural');
  if (schemaString(schemaNode, 'description') !== '') forbid('description', 'must be empty to be structural');
  if (schemaNode['nullable'] === true) forbid('nullable', 'must be false to be structural');
  if (schemaNode['x-kubernetes-preserve-unknown-fields'] === true)
    forbid('x-kubernetes-preserve-unknown-fields', 'must be false to be structural');
  if (schemaNode['x-kubernetes-embedded-resource'] === true)
    forbid('x-kubernetes-embedded-resource', 'must be false to be structural');
  if (schemaNode['x-kubernetes-int-or-string'] === true)
    forbid('x-kubernetes-int-or-string', 'must be false to be structural');
  if (schemaStrings(schemaNode, 'x-kubernetes-list-map-keys').length > 0)
    forbid('x-kubernetes-list-map-keys', 'must be empty to be structural');
  if (schemaNode['x-kubernetes-list-type'] !== undefined)
    forbid('x-kubernetes-list-type', 'must be undefined to be structural');
  if (schemaNode['x-kubernetes-validations'] !== undefined)
    forbid('x-kubernetes-validations', 'must be empty to be structural');
  const props = schemaProperties(schemaNode) ?? {};
  if ('metadata' in props)
    out.push(
      fieldError.forbidden(
        keyPath(childPath(path, 'properties'), 'metadata'),
        'must not be specified in a nested context',
      ),
    );
  for (const [k, p] of Object.entries(props)) nested(p, keyPath(childPath(path, 'properties'), k), out);
  const items = schemaItems(schemaNode);
  if (items) nested(items, childPath(path, 'items'), out);
  junctors(schemaNode, path, out);
}

function isIntOrStringPair(list: SchemaNode[]): boolean {
  return (
    list.length === 2 &&
    list[0]?.['type'] === 'integer' &&
    list[1]?.['type'] === 'string' &&
    Object.keys(list[0]).length === 1 &&
    Object.keys(list[1]).length === 1
  );
}

function junctors(schemaNode: SchemaNode, path: string, out: FieldError[]): void {
  const anyOf = schemaList(schemaNode, 'anyOf');
  if (!isIntOrStringPair(anyOf)) anyOf.forEach((x, i) => nested(x, indexPath(childPath(path, 'anyOf'), i), out));
  schemaList(schemaNode, 'allOf').forEach((value, index) => {
    if (index === 0 && isIntOrStringPair(schemaList(value, 'anyOf'))) {
      const { anyOf: _skip, ...rest } = value;
      nested(rest, indexPath(childPath(path, 'allOf'), index), out);
    } else nested(value, indexPath(childPath(path, 'allOf'), index), out);
  });
  schemaList(schemaNode, 'oneOf').forEach((x, i) => nested(x, indexPath(childPath(path, 'oneOf'), i), out));
  const not = schemaNode['not'];
  if (isJsonObject(not)) nested(not, childPath(path, 'not'), out);
}

function structural(
  schemaNode: SchemaNode,
  path: string,
  level: Level,
  embeddedOrRoot: boolean,
  out: FieldError[],
): void {
  const t = schemaString(schemaNode, 'type');
  const intOrString = schemaNode['x-kubernetes-int-or-string'] === true;
  const preserve = schemaNode['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = schemaNode['x-kubernetes-embedded-resource'] === true;
  if (t === 'array' && schemaNode['items'] === undefined)
    out.push(fieldError.required(childPath(path, 'items'), 'must be specified'));
  if (embedded && t !== 'object') {
    out.push(
      t === ''
        ? fieldError.required(childPath(path, 'type'), 'must be object if x-kubernetes-embedded-resource is true')
        : fieldError.invalid(childPath(path, 'type'), t, 'must be object if x-kubernetes-embedded-resource is true'),
    );
  } else if (t === '' && !intOrString && !preserve) {
    const where =
      level === 'root' ? 'at the root' : level === 'item' ? 'for specified array items' : 'for specified object fields';
    out.push(fieldError.required(childPath(path, 'type'), `must not be empty ${where}`));
  }
  if (schemaNode['additionalProperties'] !== undefined && level === 'root')
    out.push(fieldError.forbidden(childPath(path, 'additionalProperties'), 'must not be used at the root'));
  if (embedded && schemaNode['additionalProperties'] !== undefined)
    out.push(
      fieldError.forbidden(
        childPath(path, 'additionalProperties'),
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    );
  if (level === 'root' && t !== '' && t !== 'object')
    out.push(fieldError.invalid(childPath(path, 'type'), t, 'must be object at the root'));
  if (intOrString && preserve)
    out.push(
      fieldError.invalid(
        childPath(path, 'x-kubernetes-preserve-unknown-fields'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  if (intOrString && embedded)
    out.push(
      fieldError.invalid(
        childPath(path, 'x-kubernetes-embedded-resource'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  const props = schemaProperties(schemaNode) ?? {};
  const propPath = (k: string): string => keyPath(childPath(path, 'properties'), k);
  if (embeddedOrRoot) {
    for (const [k, want] of [
      ['kind', 'string'],
      ['apiVersion', 'string'],
      ['metadata', 'object'],
    ] as const) {
      const p = props[k];
      if (p && schemaString(p, 'type') !== want)
        out.push(fieldError.invalid(childPath(propPath(k), 'type'), schemaString(p, 'type'), `must be ${want}`));
    }
  }
  const meta = props['metadata'];
  if (meta && level === 'root') {
    const { type: _t, default: _d, properties, ...rest } = meta;
    const names = isJsonObject(properties) ? Object.keys(properties) : [];
    const onlyNames = names.every((n) => n === 'name' || n === 'generateName');
    if (!onlyNames || Object.keys(rest).some((k) => k !== 'description')) {
      out.push(
        fieldError.forbidden(
          propPath('metadata'),
          'must not specify anything other than name and generateName, but metadata is implicitly specified',
        ),
      );
    }
  }
  if (embedded && !preserve && Object.keys(props).length === 0)
    out.push(
      fieldError.required(
        childPath(path, 'properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  junctors(schemaNode, path, out);
  const pattern = schemaString(schemaNode, 'pattern');
  if (pattern !== '') {
    const compiled = compileGoRegexp(pattern);
    if (!compiled.ok)
      out.push(
        fieldError.invalid(
          childPath(path, 'pattern'),
          pattern,
          `must be a valid regular expression, but isn't: ${compiled.error}`,
        ),
      );
  }
  const items = schemaItems(schemaNode);
  if (items) structural(items, childPath(path, 'items'), 'item', items['x-kubernetes-embedded-resource'] === true, out);
  for (const [k, p] of Object.entries(props))
    structural(p, propPath(k), 'field', p['x-kubernetes-embedded-resource'] === true, out);
  const additional = schemaNode['additionalProperties'];
  if (isJsonObject(additional)) structural(additional, childPath(path, 'additionalProperties'), 'field', false, out);
}

function openApi(schemaNode: SchemaNode, path: string, root: boolean, insideMeta: boolean, out: FieldError[]): void {
  forbiddenKeywords(schemaNode, path, out, insideMeta);
  listAndMapTypes(schemaNode, path, out);
  rules(schemaNode, path, out);
  const embedded = schemaNode['x-kubernetes-embedded-resource'] === true;
  for (const [k, p] of Object.entries(schemaProperties(schemaNode) ?? {})) {
    openApi(
      p,
      keyPath(childPath(path, 'properties'), k),
      false,
      insideMeta || ((root || embedded) && ['metadata', 'kind', 'apiVersion'].includes(k)),
      out,
    );
  }
  const additional = schemaNode['additionalProperties'];
  if (isJsonObject(additional)) openApi(additional, childPath(path, 'additionalProperties'), false, insideMeta, out);
  const items = schemaNode['items'];
  if (isJsonObject(items)) openApi(items, childPath(path, 'items'), false, insideMeta, out);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const)
    schemaList(schemaNode, key).forEach((x, i) =>
      openApi(x, indexPath(childPath(path, key), i), false, insideMeta, out),
    );
  if (isJsonObject(schemaNode['not'])) openApi(schemaNode['not'], childPath(path, 'not'), false, insideMeta, out);
}

/** Validates one version's schema at `path` (`spec.versions[0].schema.openAPIV3Schema`). */
export function validateVersionSchema(schema: JsonValue, path: string): FieldError[] {
  if (!isJsonObject(schema)) return [fieldError.required(path, 'schemas are required')];
  const out: FieldError[] = [];
  if (schema['nullable'] === true)
    out.push(fieldError.forbidden(childPath(path, 'nullable'), 'nullable cannot be true at the root'));
  const structuralErrs: FieldError[] = [];
  structural(schema, path, 'root', true, structuralErrs);
  structuralErrs.sort((a, b) => (a.field + a.detail < b.field + b.detail ? -1 : 1));
  out.push(...structuralErrs);
  openApi(schema, path, true, false, out);
  return out;
}
