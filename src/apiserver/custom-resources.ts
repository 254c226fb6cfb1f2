/**
 * The write path of custom resources after decoding: prune unknown fields (failing or warning
 * per fieldValidation), apply schema defaults, validate (422).
 */
import { strategyFor } from './builtin/kinds.js';
import { applySchemaDefaults } from './crd/defaults.js';
import { pruneUnknownFields } from './crd/prune.js';
import { validateAgainstSchema } from './crd/schema-validate.js';
import { goQuote } from './field-errors.js';
import { apiErrors } from './status.js';
import { validateObjectName } from './storage/object-meta.js';
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
 * Where the object being written came from, for kube-apiserver's wording of a strict-validation
 * refusal: a request body decoded as the kind (POST, PUT), a server-side apply patch, or another
 * patch.
 */
export type WriteOrigin = 'body' | 'apply' | 'patch';

/** The 400 of fieldValidation=Strict for unknown fields, worded as kube-apiserver words it for `origin`. */
export function strictValidationMessage(
  rt: Pick<ServedType, 'group' | 'kind'>,
  version: string,
  unknownFields: readonly string[],
  origin: WriteOrigin,
): string {
  if (origin === 'apply') {
    // structured-merge-diff's typed conversion: one error as is, several as a list.
    const errors = unknownFields.map((f) => `.${f}: field not declared in schema`);
    const text = errors.length === 1 ? errors[0]! : `errors:\n${errors.map((e) => `  ${e}`).join('\n')}`;
    const gv = rt.group === '' ? version : `${rt.group}/${version}`;
    return `failed to create typed patch object (${gv}, Kind=${rt.kind}): ${text}`;
  }
  const decoding = `strict decoding error: ${unknownFields.map((f) => `unknown field ${goQuote(f)}`).join(', ')}`;
  // The create and update handlers' transformDecodeError.
  if (origin === 'body')
    return `${rt.kind} in version ${goQuote(version)} cannot be handled as a ${rt.kind}: ${decoding}`;
  return decoding;
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
  origin: WriteOrigin = 'patch',
): PreparedObject {
  const schema = rt.schemas?.[version];
  if (!schema) return { object: obj, warnings: [] };
  const { object: pruned, unknownFields } = pruneUnknownFields(obj, schema);
  const warnings: string[] = [];
  if (unknownFields.length > 0) {
    if (validation === 'Strict')
      throw apiErrors.badRequest(strictValidationMessage(rt, version, unknownFields, origin));
    if (validation === 'Warn') warnings.push(...unknownFields.map((f) => `unknown field ${goQuote(f)}`));
  }
  const defaulted = applySchemaDefaults(pruned, schema) as KubeObject;
  const errs = validateAgainstSchema(defaulted, schema, old ? { oldObject: old } : {});
  if (errs.length > 0) {
    // kube-apiserver validates the metadata and the schema in one pass: a create reports both.
    const nameErrs = old ? [] : validateObjectName(obj.metadata, strategyFor(rt).nameRule, rt.namespaced);
    throw apiErrors.invalid(rt.group, rt.kind, typeof obj.metadata.name === 'string' ? obj.metadata.name : '', [
      ...nameErrs,
      ...errs,
    ]);
  }
  return { object: defaulted, warnings };
}

/** The Warning header value for a list of warning texts. */
export function warningHeader(warnings: string[]): Record<string, string> {
  if (warnings.length === 0) return {};
  return { Warning: warnings.map((w) => `299 - ${goQuote(w)}`).join(', ') };
}
