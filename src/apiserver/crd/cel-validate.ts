/**
 * Evaluates `x-kubernetes-validations` over a custom resource as apiextensions' CEL
 * validator does: every non-null value with rules, `oldSelf` only where the old object has a
 * correlatable value (object properties, map entries, list-type=map items), field errors at
 * the rule's node (or its `fieldPath`), value printed as the schema type name.
 */
import { fieldError, type FieldError } from '../field-errors.js';
import type { JsonValue } from '../../lib/json.js';
import { compileRule, toCel } from './cel-rules.js';
import {
  childPath,
  indexPath,
  isObject,
  keyPath,
  schemaAdditional,
  schemaItems,
  schemaList,
  schemaProperties,
  schemaString,
  schemaStrings,
  shownPath,
  type SchemaNode,
} from './schema-node.js';

interface Rule {
  rule: string;
  message: string;
  messageExpression: string;
  fieldPath: string;
  reason: string;
}

function rulesOf(schemaNode: SchemaNode): Rule[] {
  const list = schemaNode['x-kubernetes-validations'];
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).map((r) => ({
    rule: typeof r['rule'] === 'string' ? r['rule'] : '',
    message: typeof r['message'] === 'string' ? r['message'] : '',
    messageExpression: typeof r['messageExpression'] === 'string' ? r['messageExpression'] : '',
    fieldPath: typeof r['fieldPath'] === 'string' ? r['fieldPath'] : '',
    reason: typeof r['reason'] === 'string' ? r['reason'] : '',
  }));
}

function ruleErrorString(rule: Rule): string {
  return rule.message.trim() !== '' ? rule.message.trim() : rule.rule.trim();
}

function ruleMessageOrDefault(rule: Rule): string {
  return rule.message.trim() === '' ? `failed rule: ${ruleErrorString(rule)}` : rule.message.trim();
}

/** A rule's fieldPath (`.spec.x`, `['a.b']`) as a field path suffix: `x`, `a.b`, `m[key]`. */
function normalizeFieldPath(fieldPath: string, schema: SchemaNode): string {
  let out = '';
  let node: SchemaNode | undefined = schema;
  const re = /\.([^.[\]]+)|\['((?:[^'\\]|\\.)*)'\]/g;
  for (const m of fieldPath.trim().matchAll(re)) {
    const name = m[1] ?? m[2]!.replace(/\\(.)/g, '$1');
    const props = schemaProperties(node);
    if (props && name in props) {
      out = childPath(out, name);
      node = props[name];
    } else {
      out = keyPath(out, name);
      node = schemaAdditional(node);
    }
  }
  return out;
}

function reasonError(reason: string, path: string, value: JsonValue, detail: string): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldError.forbidden(path, detail);
    case 'FieldValueRequired':
      return fieldError.required(path, detail);
    case 'FieldValueDuplicate':
      return fieldError.duplicate(path, value);
    default:
      return fieldError.invalid(path, value, detail);
  }
}

function runRules(
  current: JsonValue,
  old: JsonValue | undefined,
  schemaNode: SchemaNode,
  path: string,
  root: boolean,
  out: FieldError[],
): void {
  const rules = rulesOf(schemaNode);
  if (rules.length === 0) return;
  const typeName = schemaString(schemaNode, 'type');
  const shown = shownPath(path);
  const self = toCel(current, schemaNode, root);
  const oldSelf = old === undefined || old === null ? undefined : toCel(old, schemaNode, root);
  for (const r of rules) {
    if (r.rule.trim() === '') continue;
    const compiled = compileRule(r.rule);
    if ('compileError' in compiled) {
      out.push(fieldError.invalid(shown, typeName, `rule compile error: ${compiled.compileError}`));
      continue;
    }
    if (compiled.usesOldSelf && oldSelf === undefined) continue;
    const bindings = oldSelf === undefined ? { self } : { self, oldSelf };
    const result = compiled.run(bindings);
    if ('error' in result) {
      const prefix = result.error.startsWith('no such overload')
        ? `'${result.error}': call arguments did not match a supported operator, function or macro signature for rule: `
        : '';
      out.push(
        fieldError.invalid(
          shown,
          typeName,
          prefix ? `${prefix}${ruleErrorString(r)}` : `${result.error} evaluating rule: ${ruleErrorString(r)}`,
        ),
      );
      continue;
    }
    if (result.value === true) continue;
    let detail = ruleMessageOrDefault(r);
    if (r.messageExpression.trim() !== '') {
      const msg = compileRule(r.messageExpression);
      if (!('compileError' in msg)) {
        const m = msg.run(bindings);
        if ('value' in m && typeof m.value === 'string' && m.value.trim() !== '') detail = m.value.trim();
      }
    }
    const at =
      r.fieldPath.trim() === ''
        ? shown
        : shownPath(
            path === ''
              ? normalizeFieldPath(r.fieldPath, schemaNode)
              : `${path}.${normalizeFieldPath(r.fieldPath, schemaNode)}`.replace(/\.\[/g, '['),
          );
    out.push(reasonError(r.reason, at, typeName, detail));
  }
}

function listMapKey(item: JsonValue, keys: string[]): string | undefined {
  if (!isObject(item)) return undefined;
  return JSON.stringify(keys.map((k) => item[k] ?? null));
}

function walk(
  value: JsonValue,
  old: JsonValue | undefined,
  schemaNode: SchemaNode,
  path: string,
  root: boolean,
  out: FieldError[],
): void {
  if (value === null) return;
  runRules(value, old, schemaNode, path, root, out);
  for (const sub of schemaList(schemaNode, 'allOf')) runRules(value, old, sub, path, root, out);
  if (Array.isArray(value)) {
    const items = schemaItems(schemaNode);
    if (!items) return;
    const keys =
      schemaString(schemaNode, 'x-kubernetes-list-type') === 'map'
        ? schemaStrings(schemaNode, 'x-kubernetes-list-map-keys')
        : [];
    const oldByKey = new Map<string, JsonValue>();
    if (keys.length > 0 && Array.isArray(old)) {
      for (const o of old) {
        const k = listMapKey(o, keys);
        if (k !== undefined) oldByKey.set(k, o);
      }
    }
    value.forEach((value, index) => {
      const k = keys.length > 0 ? listMapKey(value, keys) : undefined;
      walk(value, k === undefined ? undefined : oldByKey.get(k), items, indexPath(path, index), false, out);
    });
    return;
  }
  if (!isObject(value)) return;
  const oldObj = isObject(old) ? old : undefined;
  const props = schemaProperties(schemaNode);
  if (props) {
    for (const [k, ps] of Object.entries(props)) {
      if (k in value && isObject(ps)) walk(value[k]!, oldObj?.[k], ps, childPath(path, k), false, out);
    }
    return;
  }
  const additional = schemaAdditional(schemaNode);
  if (additional) {
    const atomic = schemaString(schemaNode, 'x-kubernetes-map-type') === 'atomic';
    for (const [k, x] of Object.entries(value))
      walk(x, atomic ? undefined : oldObj?.[k], additional, keyPath(path, k), false, out);
  }
}

/**
 * Evaluates every `x-kubernetes-validations` rule in `schema` over `value` (a whole custom
 * resource when `resourceRoot`). `old` is the previous object on update; transition rules
 * (those using oldSelf) run only where it has a correlated value.
 */
export function validateCelRules(
  value: JsonValue,
  schema: SchemaNode,
  options: { old?: JsonValue; rootPath?: string; resourceRoot?: boolean } = {},
): FieldError[] {
  const out: FieldError[] = [];
  walk(value, options.old, schema, options.rootPath ?? '', options.resourceRoot ?? true, out);
  return out;
}
