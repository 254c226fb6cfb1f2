/**
 * What the server keeps about an object version that has left the store (replaced by an update,
 * or deleted): nothing but the version itself, which watch history may still hold until the
 * watch window drops it. The memos made for serving it — its JSON text and the decoded field sets
 * of its managedFields — are keyed by the version's identity and would live as long as that
 * history does; they are dropped when the version is retired, so the history costs only the
 * objects (a retired version's text is then kept in a bounded cache, see objectJson).
 */
import { forgetObjectJson } from './http-util.js';
import { forgetDecoded } from './patch/field-set.js';
import type { JsonValue } from '../lib/json.js';
import type { KubeObject, StoreEvent } from './types.js';

function fieldsV1Of(kubeObject: KubeObject | undefined): JsonValue[] {
  const entries = kubeObject?.metadata.managedFields;
  if (!Array.isArray(entries)) return [];
  const out: JsonValue[] = [];
  for (const e of entries) if (e !== null && typeof e === 'object' && !Array.isArray(e)) out.push(e.fieldsV1 ?? null);
  return out;
}

/** A store listener: forgets the memos of the version a change replaced. */
export function forgetRetiredVersion(event: StoreEvent): void {
  const old = event.oldObject;
  if (!old) return;
  forgetObjectJson(old);
  // A deleted object's field sets all go; an update's successor shares the sets it did not change.
  const kept = event.type === 'DELETED' ? new Set<JsonValue>() : new Set(fieldsV1Of(event.object));
  for (const json of fieldsV1Of(old)) if (!kept.has(json)) forgetDecoded(json);
}
