/**
 * A file's schema errors in words a user acts on: an unknown key is named with the closest known
 * one (`/cluster: unknown key "profil" (did you mean "profile"?)`), a choice lists what may be
 * chosen, a wrong type says what was given. TypeBox reports an unknown key twice (`/a/x: schema
 * is false` and `/a: must not have additional properties`) and a choice once per alternative;
 * this keeps one line per problem.
 */
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { didYouMean } from '../lib/did-you-mean.js';

type SchemaNode = Record<string, unknown>;

/** The problems of `value` against `schema`, one line each, in document order; empty when it conforms. */
export function schemaProblems(schema: TSchema, value: unknown): string[] {
  const errors = [...Value.Errors(schema, value)];
  const out: string[] = [];
  /** instancePaths already explained by an error about their parent or their whole choice. */
  const explained = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'anyOf') explained.add(error.instancePath);
  }
  for (const error of errors) {
    const path = error.instancePath || '/';
    const node = nodeAt(schema, error.schemaPath);
    const keyword: string = error.keyword;
    // "schema is false": a key the object does not allow, worded by its additionalProperties error.
    if (keyword === 'boolean') continue;
    if (keyword === 'additionalProperties') {
      const known = Object.keys((node?.['properties'] as SchemaNode | undefined) ?? {});
      const keys = (error.params as { additionalProperties?: string[] }).additionalProperties ?? [];
      for (const key of keys) out.push(`${path}: unknown key ${JSON.stringify(key)}${didYouMean(key, known)}`);
    } else if (keyword === 'anyOf') {
      const choices = constChoices(node);
      const given = valueAt(value, error.instancePath);
      out.push(
        choices
          ? `${path}: must be one of ${choices.map((c) => JSON.stringify(c)).join(', ')}, not ${JSON.stringify(given)}${typeof given === 'string' ? didYouMean(given, choices.map(String)) : ''}`
          : `${path}: ${JSON.stringify(given)} matches none of the allowed forms`,
      );
    } else if (keyword === 'required') {
      const missing = (error.params as { requiredProperties?: string[] }).requiredProperties ?? [];
      for (const key of missing) out.push(`${path}: the key ${JSON.stringify(key)} is required`);
      if (missing.length === 0) out.push(`${path}: ${error.message}`);
    } else if (!explained.has(error.instancePath)) {
      out.push(
        keyword === 'type'
          ? `${path}: must be ${article((error.params as { type?: string }).type ?? 'value')}, not ${describe(valueAt(value, error.instancePath))}`
          : `${path}: ${error.message}`,
      );
    }
  }
  return [...new Set(out)];
}

/** The schema node a JSON pointer (`#/properties/a/anyOf/0`) names. */
function nodeAt(schema: TSchema, pointer: string): SchemaNode | undefined {
  let node: unknown = schema;
  for (const part of pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((p) => p !== '')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node !== null && typeof node === 'object' ? (node as SchemaNode) : undefined;
}

/** The part of a value a JSON pointer (`/a/0/b`) names. */
function valueAt(value: unknown, pointer: string): unknown {
  let node = value;
  for (const part of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}

/** The literal values of a union of constants, or undefined when some alternative is not a constant. */
function constChoices(node: SchemaNode | undefined): unknown[] | undefined {
  const alternatives = node?.['anyOf'];
  if (!Array.isArray(alternatives)) return undefined;
  const values = alternatives.map((a) =>
    a !== null && typeof a === 'object' && 'const' in a ? (a as SchemaNode)['const'] : undefined,
  );
  return values.every((v) => v !== undefined) ? values : undefined;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** A short description of what was given. */
function describe(given: unknown): string {
  if (given === null) return 'null';
  if (Array.isArray(given)) return 'a list';
  if (typeof given === 'object') return 'a map';
  return JSON.stringify(given);
}
