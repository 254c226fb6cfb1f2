/**
 * The structural checks apiextensions runs on a custom resource besides OpenAPI validation:
 * `x-kubernetes-list-type` set/map uniqueness (structurallisttype) and the type meta of
 * `x-kubernetes-embedded-resource` objects (schema objectmeta validation).
 */
import { fieldError, type FieldError } from '../field-errors.js';
import { jsonEqual, type JsonObject, type JsonValue } from '../../lib/json.js';
import { dns1035LabelErrors } from './names.js';
import { childPath, indexPath, isObject, keyPath, schemaAdditional, schemaFlag, schemaItems, schemaProperties, schemaString, schemaStrings, shownPath, type SchemaNode } from './schema-node.js';

function validateList(v: JsonValue[], s: SchemaNode, path: string, out: FieldError[]): void {
  const listType = schemaString(s, 'x-kubernetes-list-type');
  if (listType === 'set') {
    v.forEach((x, i) => {
      if (v.slice(0, i).some((y) => jsonEqual(x, y))) out.push(fieldError.duplicate(shownPath(indexPath(path, i)), x));
    });
  } else if (listType === 'map') {
    const keys = schemaStrings(s, 'x-kubernetes-list-map-keys');
    const seen: JsonObject[] = [];
    v.forEach((x, i) => {
      if (!isObject(x)) return;
      const key: JsonObject = {};
      for (const k of keys) if (k in x) key[k] = x[k]!;
      if (seen.some((y) => jsonEqual(y, key))) out.push(fieldError.duplicate(shownPath(indexPath(path, i)), key));
      else seen.push(key);
    });
  }
}

function validateEmbedded(v: JsonObject, path: string, out: FieldError[]): void {
  const at = (name: string): string => shownPath(childPath(path, name));
  if (!('apiVersion' in v)) out.push(fieldError.required(at('apiVersion'), 'must not be empty'));
  if (!('kind' in v)) out.push(fieldError.required(at('kind'), 'must not be empty'));
  const apiVersion = v['apiVersion'];
  if (apiVersion !== undefined) {
    if (typeof apiVersion !== 'string') out.push(fieldError.invalid(at('apiVersion'), apiVersion, 'must be a string'));
    else if (apiVersion === '') out.push(fieldError.invalid(at('apiVersion'), apiVersion, 'must not be empty'));
    else if (apiVersion.split('/').length > 2) out.push(fieldError.invalid(at('apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  }
  const kind = v['kind'];
  if (kind !== undefined) {
    if (typeof kind !== 'string') out.push(fieldError.invalid(at('kind'), kind, 'must be a string'));
    else if (kind === '') out.push(fieldError.invalid(at('kind'), kind, 'must not be empty'));
    else {
      const errs = dns1035LabelErrors(kind.toLowerCase());
      if (errs.length > 0) out.push(fieldError.invalid(at('kind'), kind, `may have mixed case, but should otherwise match: ${errs.join(',')}`));
    }
  }
  const metadata = v['metadata'];
  if (metadata !== undefined && metadata !== null && !isObject(metadata)) out.push(fieldError.invalid(at('metadata'), metadata, 'must be an object'));
}

function walk(v: JsonValue, s: SchemaNode, path: string, root: boolean, out: FieldError[]): void {
  if (Array.isArray(v)) {
    validateList(v, s, path, out);
    const items = schemaItems(s);
    if (items) v.forEach((x, i) => walk(x, items, indexPath(path, i), false, out));
    return;
  }
  if (!isObject(v)) return;
  if (!root && schemaFlag(s, 'x-kubernetes-embedded-resource')) validateEmbedded(v, path, out);
  const props = schemaProperties(s);
  const additional = schemaAdditional(s);
  for (const [k, x] of Object.entries(v)) {
    const ps = props?.[k];
    if (isObject(ps)) walk(x, ps, childPath(path, k), false, out);
    else if (!props && additional) walk(x, additional, keyPath(path, k), false, out);
  }
}

/** List-set/list-map uniqueness and embedded-resource type meta over a whole value. */
export function validateStructure(value: JsonValue, schema: SchemaNode, rootPath = ''): FieldError[] {
  const out: FieldError[] = [];
  walk(value, schema, rootPath, rootPath === '', out);
  return out;
}
