/**
 * Field validation errors, worded exactly as k8s.io/apimachinery/pkg/util/validation/field
 * words them, so that `kubectl` users read the same 422 messages as from a real API server.
 */
import type { JsonValue } from '../lib/json.js';

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/** Marker for an error whose bad value is not printed. */
export const OMIT_VALUE = Symbol('omit');

export interface FieldError {
  type: FieldErrorType;
  /** Dotted path with indexes and keys: spec.containers[0].image, metadata.labels[app]. */
  field: string;
  badValue: JsonValue | undefined | typeof OMIT_VALUE;
  detail: string;
}

const typeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** field.Error.ErrorBody(): the message without the field path. */
export function fieldErrorBody(fieldError: FieldError): string {
  let s: string;
  const t = typeText[fieldError.type];
  if (
    fieldError.type === 'FieldValueRequired' ||
    fieldError.type === 'FieldValueForbidden' ||
    fieldError.type === 'FieldValueTooLong' ||
    fieldError.type === 'InternalError' ||
    fieldError.badValue === OMIT_VALUE
  ) {
    s = t;
  } else {
    const v = fieldError.badValue;
    if (v === null || v === undefined) s = `${t}: "null"`;
    else if (typeof v === 'number' || typeof v === 'boolean') s = `${t}: ${String(v)}`;
    else if (typeof v === 'string') s = `${t}: ${goQuote(v)}`;
    else s = `${t}: ${goSprintfValue(v)}`;
  }
  if (fieldError.detail.length > 0) s += `: ${fieldError.detail}`;
  return s;
}

/** field.Error.Error(): "<field>: <body>". */
export function fieldErrorMessage(fieldError: FieldError): string {
  return `${fieldError.field}: ${fieldErrorBody(fieldError)}`;
}

/** errs.ToAggregate().Error(): one message as is, several in brackets, duplicates removed. */
export function aggregateMessage(errors: FieldError[]): string {
  const msgs = [...new Set(errors.map(fieldErrorMessage))];
  return msgs.length === 1 ? msgs[0]! : `[${msgs.join(', ')}]`;
}

/** Go's %q for a string. */
export function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + '"';
}

/** Approximates Go's %#v for decoded JSON (maps and slices of interface{}). */
function goSprintfValue(value: JsonValue): string {
  if (Array.isArray(value)) return `[]interface {}{${value.map((x) => goInner(x)).join(', ')}}`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `map[string]interface {}{${keys.map((k) => `${goQuote(k)}:${goInner(value[k]!)}`).join(', ')}}`;
  }
  return String(value);
}

function goInner(value: JsonValue): string {
  if (typeof value === 'string') return goQuote(value);
  if (typeof value === 'number') return Number.isInteger(value) ? `${value}` : String(value);
  if (value === null) return 'interface {}(nil)';
  return goSprintfValue(value);
}

/** Helpers that read like apimachinery's constructors. */
export const fieldError = {
  required: (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, badValue: '', detail }),
  invalid: (field: string, value: JsonValue | undefined, detail: string): FieldError => ({
    type: 'FieldValueInvalid',
    field,
    badValue: value,
    detail,
  }),
  notSupported: (field: string, value: JsonValue | undefined, supported: string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    badValue: value,
    detail: supported.length ? `supported values: ${supported.map(goQuote).join(', ')}` : '',
  }),
  forbidden: (field: string, detail: string): FieldError => ({
    type: 'FieldValueForbidden',
    field,
    badValue: '',
    detail,
  }),
  typeInvalid: (field: string, value: JsonValue | undefined, detail: string): FieldError => ({
    type: 'FieldValueTypeInvalid',
    field,
    badValue: value,
    detail,
  }),
  tooLong: (field: string, value: JsonValue | undefined, max: number): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    badValue: value,
    detail: max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long',
  }),
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    badValue: actual,
    detail: `must have at most ${max} items`,
  }),
  duplicate: (field: string, value: JsonValue | undefined): FieldError => ({
    type: 'FieldValueDuplicate',
    field,
    badValue: value,
    detail: '',
  }),
  notFound: (field: string, value: JsonValue | undefined): FieldError => ({
    type: 'FieldValueNotFound',
    field,
    badValue: value,
    detail: '',
  }),
  internal: (field: string, detail: string): FieldError => ({
    type: 'InternalError',
    field,
    badValue: OMIT_VALUE,
    detail,
  }),
};
