/**
 * Query parameters of list and watch: label and field selectors (as one object filter), limit
 * and continue tokens (opaque base64 of the last key and the list's resourceVersion).
 */
import type { KubeObject, ResourceType } from './types.js';
import { apiErrors } from './status.js';
import { eventType, fieldLabelsOf } from './builtin/kinds.js';
import { isEventsV1, type ServedType } from './storage/served-type.js';
import { v1EventToCore } from './storage/event-conversion.js';
import { labelsOf, matchesLabels, parseLabelSelector, LabelSelectorError } from './selectors/label-selector.js';
import {
  checkFieldsSupported,
  matchesFields,
  parseFieldSelector,
  FieldSelectorError,
} from './selectors/field-selector.js';
import { isJsonObject, type JsonValue } from '../lib/json.js';

/** The field labels an object offers for field selectors, per its type. */
export function fieldLabels(rt: ServedType, kubeObject: KubeObject): Record<string, string> {
  if (isEventsV1(rt)) return fieldLabelsOf(eventType, v1EventToCore(kubeObject));
  const out = fieldLabelsOf(rt, kubeObject);
  for (const path of rt.selectableFields ?? []) out[path] = selectableValue(kubeObject, path);
  return out;
}

function selectableValue(kubeObject: KubeObject, path: string): string {
  let cur: JsonValue | undefined = kubeObject;
  for (const seg of path.replace(/^\./, '').split('.')) cur = isJsonObject(cur) ? cur[seg] : undefined;
  if (cur === undefined || cur === null) return '';
  return typeof cur === 'string' ? cur : JSON.stringify(cur);
}

function supportedFields(rt: ServedType): Set<string> {
  const probe: KubeObject = { apiVersion: '', kind: rt.kind, metadata: {} };
  return new Set(Object.keys(fieldLabels(rt, isEventsV1(rt) ? { ...probe, apiVersion: 'events.k8s.io/v1' } : probe)));
}

/** A filter from labelSelector and fieldSelector; undefined when neither is given. Bad selectors are 400. */
export function objectFilter(
  rt: ServedType,
  query: URLSearchParams,
): ((kubeObject: KubeObject) => boolean) | undefined {
  const labelText = query.get('labelSelector') ?? '';
  const fieldText = query.get('fieldSelector') ?? '';
  if (labelText === '' && fieldText === '') return undefined;
  try {
    const labels = parseLabelSelector(labelText);
    const fields = parseFieldSelector(fieldText);
    checkFieldsSupported(fields, supportedFields(rt));
    const hasLabels = labels.requirements.length > 0;
    const hasFields = fields.requirements.length > 0;
    return (o) =>
      (!hasLabels || matchesLabels(labels, labelsOf(o.metadata))) &&
      (!hasFields || matchesFields(fields, fieldLabels(rt, o)));
  } catch (err) {
    if (err instanceof LabelSelectorError || err instanceof FieldSelectorError) throw apiErrors.badRequest(err.message);
    throw err;
  }
}

interface ContinueToken {
  rv: number;
  start: string;
}

/** Encodes where the next page starts. */
export function encodeContinue(rv: string, lastKey: string): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: Number(rv), start: `${lastKey}\u0000` })).toString(
    'base64url',
  );
}

/** Decodes a continue token; 400 when it is not one of ours. */
export function decodeContinue(token: string): ContinueToken {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as {
      v?: unknown;
      rv?: unknown;
      start?: unknown;
    };
    if (parsed.v === 'meta.k8s.io/v1' && typeof parsed.rv === 'number' && typeof parsed.start === 'string')
      return { rv: parsed.rv, start: parsed.start };
  } catch {
    // fall through
  }
  throw apiErrors.badRequest(
    'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
  );
}

/** The key objects are ordered by in lists and continue tokens. */
export function objectKey(rt: ResourceType, kubeObject: KubeObject): string {
  const ns = rt.namespaced && typeof kubeObject.metadata.namespace === 'string' ? kubeObject.metadata.namespace : '';
  return `${ns}/${typeof kubeObject.metadata.name === 'string' ? kubeObject.metadata.name : ''}`;
}

/** The message of a 410 for a continue token whose snapshot is gone. */
export const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';
