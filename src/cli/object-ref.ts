/** How the offline commands name an object of a file in their messages. */
import { isJsonObject, type JsonObject } from '../lib/json.js';

/** `namespace/name` (or `name`) of an object, for messages. */
export function objectRef(object: JsonObject): string {
  const m = isJsonObject(object['metadata']) ? object['metadata'] : {};
  const name = typeof m['name'] === 'string' ? m['name'] : '';
  return typeof m['namespace'] === 'string' && m['namespace'] !== '' ? `${m['namespace']}/${name}` : name;
}
