/**
 * The structural checks apiextensions runs on a custom resource besides OpenAPI validation:
 * `x-kubernetes-list-type` set/map uniqueness (structurallisttype) and the type meta of
 * `x-kubernetes-embedded-resource` objects (schema objectmeta validation).
 */
import { fieldError, type FieldError } from '../field-errors.js';
import { jsonEqual, type JsonObject, type JsonValue } from '../../lib/json.js';
import { dns1035LabelErrors } from './names.js';
import {
  childPath,
  indexPath,
  isObject,
  keyPath,
  schemaAdditional,
  schemaFlag,
  schemaItems,
  schemaProperties,
  schemaString,
  schemaStrings,
  shownPath,
  type SchemaNode,
} from './schema-node.js';

function validateList(values: JsonValue[], schemaNode: SchemaNode, path: string, out: FieldError[]): void {
  const listType = schemaString(schemaNode, 'x-kubernetes-list-type');
  if (listType === 'set') {
    values.forEach((value, index) => {
      if (values.slice(0, index).some((y) => jsonEqual(value, y)))
        out.push(fieldError.duplicate(shownPath(indexPath(path, index)), value));
    });
  } else if (listType === 'map') {
    const keys = schemaStrings(schemaNode, 'x-kubernetes-list-map-keys');
    const seen: JsonObject[] = [];
    values.forEach((value, index) => {
      if (!isObject(value)) return;
      const key: JsonObject = {};
      for (const k of keys) if (k in value) key[k] = value[k]!;
      if (seen.some((y) => jsonEqual(y, key))) out.push(fieldError.duplicate(shownPath(indexPath(path, index)), key));
      else seen.push(key);
    });
  }
}

function validateEmbedded(value: JsonObject, path: string, out: FieldError[]): void {
  const at = (name: string): string => shownPath(childPath(path, name));
  if (!('apiVersion' in value)) out.push(fieldError.required(at('apiVersion'), 'must not be empty'));
  if (!('kind' in value)) out.push(fieldError.required(at('kind'), 'must not be empty'));
  const apiVersion = value['apiVersion'];
  if (apiVersion !== undefined) {
    if (typeof apiVersion !== 'string') out.push(fieldError.invalid(at('apiVersion'), apiVersion, 'must be a string'));
    else if (apiVersion === '') out.push(fieldError.invalid(at('apiVersion'), apiVersion, 'must not be empty'));
    else if (apiVersion.split('/').length > 2)
      out.push(fieldError.invalid(at('apiVersion'), apiVersion, `unexpected GroupVersion string: ${apiVersion}`));
  }
  const kind = value['kind'];
  if (kind !== undefined) {
    if (typeof kind !== 'string') out.push(fieldError.invalid(at('kind'), kind, 'must be a string'));
    else if (kind === '') out.push(fieldError.invalid(at('kind'), kind, 'must not be empty'));
    else {
      const errs = dns1035LabelErrors(kind.toLowerCase());
      if (errs.length > 0)
        out.push(
          fieldError.invalid(at('kind'), kind, `may have mixed case, but should otherwise match: ${errs.join(',')}`),
        );
    }
  }
  const metadata = value['metadata'];
  if (metadata !== undefined && metadata !== null && !isObject(metadata))
    out.push(fieldError.invalid(at('metadata'), metadata, 'must be an object'));
}

function walk(value: JsonValue, schemaNode: SchemaNode, path: string, root: boolean, out: FieldError[]): void {
  if (Array.isArray(value)) {
    validateList(value, schemaNode, path, out);
    const items = schemaItems(schemaNode);
    if (items) value.forEach((x, i) => walk(x, items, indexPath(path, i), false, out));
    return;
  }
  if (!isObject(value)) return;
  if (!root && schemaFlag(schemaNode, 'x-kubernetes-embedded-resource')) validateEmbedded(value, path, out);
  const props = schemaProperties(schemaNode);
  const additional = schemaAdditional(schemaNode);
  for (const [k, x] of Object.entries(value)) {
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
