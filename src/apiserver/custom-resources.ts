/**
 * The write path of custom resources after decoding: prune unknown fields (failing or warning
 * per fieldValidation), apply schema defaults, validate (422).
 */
import { applySchemaDefaults } from './crd/defaults.js';
import { pruneUnknownFields } from './crd/prune.js';
import { validateAgainstSchema } from './crd/schema-validate.js';
import { goQuote } from './field-errors.js';
import { apiErrors } from './status.js';
import type { ServedType } from './storage/served-type.js';
import type { KubeObject } from './types.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

/** Reads fieldValidation from the query; the server default is Warn. */
export function fieldValidationOf(query: URLSearchParams): FieldValidation {
  const v = query.get('fieldValidation') ?? '';
  if (v === '' || v === 'Warn') return 'Warn';
  if (v === 'Strict' || v === 'Ignore') return v;
  throw apiErrors.badRequest(
    `fieldValidation parameter unsupported value: ${v}. Supported values are: Ignore, Warn, Strict`,
  );
}

/** The result of preparing a custom resource for storage. */
export interface PreparedObject {
  object: KubeObject;
  /** Texts for `Warning: 299 - "..."` headers. */
  warnings: string[];
}

/**
 * Prunes, defaults and validates a custom resource against its version's schema; built-in kinds
 * that carry a schema (the RBAC kinds, builtin/rbac.ts) go the same way.
 */
export function prepareCustomResource(
  rt: ServedType,
  version: string,
  obj: KubeObject,
  old: KubeObject | undefined,
  validation: FieldValidation,
): PreparedObject {
  const schema = rt.schemas?.[version];
  if (!schema) return { object: obj, warnings: [] };
  const { object: pruned, unknownFields } = pruneUnknownFields(obj, schema);
  const warnings: string[] = [];
  if (unknownFields.length > 0) {
    const texts = unknownFields.map((f) => `unknown field ${goQuote(f)}`);
    if (validation === 'Strict') throw apiErrors.badRequest(`strict decoding error: ${texts.join(', ')}`);
    if (validation === 'Warn') warnings.push(...texts);
  }
  const defaulted = applySchemaDefaults(pruned, schema) as KubeObject;
  const errs = validateAgainstSchema(defaulted, schema, old ? { oldObject: old } : {});
  if (errs.length > 0)
    throw apiErrors.invalid(rt.group, rt.kind, typeof obj.metadata.name === 'string' ? obj.metadata.name : '', errs);
  return { object: defaulted, warnings };
}

/** The Warning header value for a list of warning texts. */
export function warningHeader(warnings: string[]): Record<string, string> {
  if (warnings.length === 0) return {};
  return { Warning: warnings.map((w) => `299 - ${goQuote(w)}`).join(', ') };
}
