/**
 * Validation of a custom resource against its CRD version's `openAPIV3Schema`, in the order
 * and with the messages of kube-apiserver: OpenAPI value validation (kube-openapi), embedded
 * resource type meta, list-type set/map uniqueness, then `x-kubernetes-validations` (CEL),
 * which is skipped when an earlier error makes the object unfit for it.
 */
import { fieldError, type FieldError } from '../field-errors.js';
import type { JsonObject, JsonValue } from '../../lib/json.js';
import { validateCelRules } from './cel-validate.js';
import { validateOpenApiValue } from './openapi-validate.js';
import { shownPath } from './schema-node.js';
import { validateStructure } from './structure-validate.js';

/** Options of {@link validateAgainstSchema}. */
export interface SchemaValidateOptions {
  /** The stored object on update: enables transition rules (those using `oldSelf`). */
  oldObject?: JsonValue;
  /**
   * Field path of `obj` ('' for a whole resource; kube prints errors at the root as `<nil>`).
   * With a non-empty path, `obj` is validated as a value below the resource root.
   */
  rootPath?: string;
}

const BLOCKING = new Set([
  'FieldValueNotSupported',
  'FieldValueRequired',
  'FieldValueTooLong',
  'FieldValueTooMany',
  'FieldValueTypeInvalid',
]);

/**
 * Validates `obj` against a structural schema and returns the field errors kube-apiserver
 * would report (empty when valid). Metadata of a root object is not validated here beyond
 * what its schema says.
 */
export function validateAgainstSchema(
  obj: JsonValue,
  schema: JsonObject,
  options: SchemaValidateOptions = {},
): FieldError[] {
  const rootPath = options.rootPath ?? '';
  const errs = [...validateOpenApiValue(obj, schema, rootPath), ...validateStructure(obj, schema, rootPath)];
  if (errs.some((e) => BLOCKING.has(e.type))) {
    if (hasRules(schema)) {
      errs.push(
        fieldError.invalid(
          shownPath(''),
          null,
          'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
        ),
      );
    }
    return errs;
  }
  const celOptions: { old?: JsonValue; rootPath: string; resourceRoot: boolean } = {
    rootPath,
    resourceRoot: rootPath === '',
  };
  if (options.oldObject !== undefined) celOptions.old = options.oldObject;
  errs.push(...validateCelRules(obj, schema, celOptions));
  return errs;
}

function hasRules(value: JsonValue): boolean {
  if (Array.isArray(value)) return value.some(hasRules);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value['x-kubernetes-validations']) && value['x-kubernetes-validations'].length > 0) return true;
  return Object.entries(value).some(([k, x]) => k !== 'default' && k !== 'enum' && k !== 'example' && hasRules(x));
}
