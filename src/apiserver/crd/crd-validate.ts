/**
 * Validation of `apiextensions.k8s.io/v1` CustomResourceDefinitions with apiextensions'
 * messages (names, group, scope, versions, storage version, schemas, printer columns,
 * defaults, immutable fields on update), plus lookups of a version's schema and columns.
 * Metadata beyond the name rule is validated by the generic object-meta checks elsewhere.
 */
import { fieldError, type FieldError } from '../field-errors.js';
import { isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../../lib/json.js';
import { dns1035LabelErrors, dns1123SubdomainErrors } from './names.js';
import { validateOpenApiValue } from './openapi-validate.js';
import { pruneUnknownFields } from './prune.js';
import { childPath, indexPath, keyPath, schemaItems, schemaProperties, type SchemaNode } from './schema-node.js';
import { validateVersionSchema } from './structural-schema.js';

const COLUMN_TYPES = ['boolean', 'date', 'integer', 'number', 'string'];
const COLUMN_FORMATS = ['byte', 'date', 'date-time', 'double', 'float', 'int32', 'int64', 'password'];

function str(value: JsonValue | undefined): string {
  return typeof value === 'string' ? value : '';
}
function obj(value: JsonValue | undefined): JsonObject {
  return isJsonObject(value) ? value : {};
}
function versionsOf(crd: JsonObject): JsonObject[] {
  const v = obj(crd['spec'])['versions'];
  return Array.isArray(v) ? v.filter(isJsonObject) : [];
}

function validateNames(names: JsonObject, path: string, out: FieldError[]): void {
  for (const k of ['plural', 'singular'] as const) {
    const v = str(names[k]);
    const errs = dns1035LabelErrors(v);
    if (v !== '' && errs.length > 0) out.push(fieldError.invalid(childPath(path, k), v, errs.join(',')));
  }
  for (const k of ['kind', 'listKind'] as const) {
    const v = str(names[k]);
    const errs = dns1035LabelErrors(v.toLowerCase());
    if (v !== '' && errs.length > 0)
      out.push(
        fieldError.invalid(childPath(path, k), v, `may have mixed case, but should otherwise match: ${errs.join(',')}`),
      );
  }
  for (const k of ['shortNames', 'categories'] as const) {
    const list = names[k];
    if (!Array.isArray(list)) continue;
    list.forEach((value, index) => {
      const errs = dns1035LabelErrors(str(value));
      if (errs.length > 0) out.push(fieldError.invalid(indexPath(childPath(path, k), index), value, errs.join(',')));
    });
  }
  if (str(names['kind']) !== '' && names['kind'] === names['listKind'])
    out.push(
      fieldError.invalid(childPath(path, 'listKind'), str(names['listKind']), 'kind and listKind may not be the same'),
    );
}

function validateColumn(col: JsonObject, path: string, out: FieldError[]): void {
  if (str(col['name']) === '') out.push(fieldError.required(childPath(path, 'name')));
  const type = str(col['type']);
  if (type === '') out.push(fieldError.required(childPath(path, 'type'), `must be one of ${COLUMN_TYPES.join(',')}`));
  else if (!COLUMN_TYPES.includes(type))
    out.push(fieldError.invalid(childPath(path, 'type'), type, `must be one of ${COLUMN_TYPES.join(',')}`));
  const format = str(col['format']);
  if (format !== '' && !COLUMN_FORMATS.includes(format))
    out.push(fieldError.invalid(childPath(path, 'format'), format, `must be one of ${COLUMN_FORMATS.join(',')}`));
  const jsonPath = str(col['jsonPath']);
  const at = childPath(path, 'JSONPath');
  if (jsonPath === '') out.push(fieldError.required(at));
  else if (!jsonPath.startsWith('.'))
    out.push(fieldError.invalid(at, jsonPath, 'must be a simple json path starting with .'));
}

/** Each `default` must validate against its own schema and carry no unknown fields. */
function validateDefaults(schemaNode: SchemaNode, path: string, out: FieldError[]): void {
  if (schemaNode['default'] !== undefined) {
    const { default: value, ...rest } = schemaNode;
    const at = childPath(path, 'default');
    if (isJsonObject(value)) {
      const pruned = pruneUnknownFields({ v: value }, { type: 'object', properties: { v: rest } });
      if (pruned.unknownFields.length > 0) out.push(fieldError.invalid(at, value, 'must not have unknown fields'));
    }
    out.push(...validateOpenApiValue(value, rest, at));
  }
  for (const [k, p] of Object.entries(schemaProperties(schemaNode) ?? {}))
    validateDefaults(p, keyPath(childPath(path, 'properties'), k), out);
  const items = schemaItems(schemaNode);
  if (items) validateDefaults(items, childPath(path, 'items'), out);
  const additional = schemaNode['additionalProperties'];
  if (isJsonObject(additional)) validateDefaults(additional, childPath(path, 'additionalProperties'), out);
}

function validateSpec(spec: JsonObject, out: FieldError[]): void {
  const group = str(spec['group']);
  if (group === '') out.push(fieldError.required('spec.group'));
  else {
    const errs = dns1123SubdomainErrors(group);
    if (errs.length > 0) out.push(fieldError.invalid('spec.group', group, errs.join(',')));
    else if (group.split('.').length < 2)
      out.push(fieldError.invalid('spec.group', group, 'should be a domain with at least one dot'));
  }
  const scope = str(spec['scope']);
  if (scope === '') out.push(fieldError.required('spec.scope'));
  else if (scope !== 'Cluster' && scope !== 'Namespaced')
    out.push(fieldError.notSupported('spec.scope', scope, ['Cluster', 'Namespaced']));
  const versions = Array.isArray(spec['versions']) ? spec['versions'] : [];
  let storage = 0;
  const seen = new Set<string>();
  let unique = true;
  versions.forEach((raw, index) => {
    const v = obj(raw);
    const path = indexPath('spec.versions', index);
    const name = str(v['name']);
    if (v['storage'] === true) storage++;
    if (seen.has(name)) unique = false;
    seen.add(name);
    const errs = dns1035LabelErrors(name);
    if (errs.length > 0) out.push(fieldError.invalid(childPath(path, 'name'), name, errs.join(',')));
    const schema = obj(v['schema'])['openAPIV3Schema'];
    const schemaPath = childPath(childPath(path, 'schema'), 'openAPIV3Schema');
    const schemaErrs = validateVersionSchema(schema ?? null, schemaPath);
    out.push(...schemaErrs);
    if (schemaErrs.length === 0 && isJsonObject(schema)) validateDefaults(schema, schemaPath, out);
    const columns = v['additionalPrinterColumns'];
    if (Array.isArray(columns))
      columns.forEach((c, j) => validateColumn(obj(c), indexPath(childPath(path, 'additionalPrinterColumns'), j), out));
  });
  if (!unique) out.push(fieldError.invalid('spec.versions', versions, 'must contain unique version names'));
  if (storage !== 1)
    out.push(fieldError.invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));
  const names = obj(spec['names']);
  for (const k of ['plural', 'singular', 'kind', 'listKind'] as const) {
    if (str(names[k]) === '') out.push(fieldError.required(`spec.names.${k}`));
  }
  validateNames(names, 'spec.names', out);
  if (spec['preserveUnknownFields'] === true)
    out.push(fieldError.invalid('spec.preserveUnknownFields', true, 'must be false'));
}

function isEstablished(crd: JsonObject): boolean {
  const conds = obj(crd['status'])['conditions'];
  return (
    Array.isArray(conds) && conds.some((c) => isJsonObject(c) && c['type'] === 'Established' && c['status'] === 'True')
  );
}

/**
 * Validates a CRD (and, with `old`, the update from it). The CRD is expected after defaulting
 * (names.singular and names.listKind filled by the server when absent).
 */
export function validateCustomResourceDefinition(crd: JsonObject, old?: JsonObject): FieldError[] {
  const out: FieldError[] = [];
  const spec = obj(crd['spec']);
  const names = obj(spec['names']);
  const name = str(obj(crd['metadata'])['name']);
  if (name === '') out.push(fieldError.required('metadata.name', 'name or generateName is required'));
  else {
    for (const e of dns1123SubdomainErrors(name)) out.push(fieldError.invalid('metadata.name', name, e));
    if (name !== `${str(names['plural'])}.${str(spec['group'])}`)
      out.push(fieldError.invalid('metadata.name', name, 'must be spec.names.plural+"."+spec.group'));
  }
  validateSpec(spec, out);
  if (old) {
    const oldSpec = obj(old['spec']);
    const oldNames = obj(oldSpec['names']);
    const immutable = (path: string, now: JsonValue | undefined, before: JsonValue | undefined): void => {
      if (!jsonEqual(now ?? null, before ?? null))
        out.push(fieldError.invalid(path, now ?? null, 'field is immutable'));
    };
    if (isEstablished(old)) {
      immutable('spec.scope', spec['scope'], oldSpec['scope']);
      immutable('spec.names.kind', names['kind'], oldNames['kind']);
    }
    immutable('spec.group', spec['group'], oldSpec['group']);
    immutable('spec.names.plural', names['plural'], oldNames['plural']);
  }
  return out;
}

/** The `openAPIV3Schema` of one version, or undefined. */
export function crdVersionSchema(crd: JsonObject, version: string): JsonObject | undefined {
  const v = versionsOf(crd).find((x) => x['name'] === version);
  const schema = obj(v?.['schema'])['openAPIV3Schema'];
  return isJsonObject(schema) ? schema : undefined;
}

/** The `additionalPrinterColumns` of one version (empty when none). */
export function crdPrinterColumns(crd: JsonObject, version: string): JsonObject[] {
  const v = versionsOf(crd).find((x) => x['name'] === version);
  const cols = v?.['additionalPrinterColumns'];
  return Array.isArray(cols) ? cols.filter(isJsonObject) : [];
}
