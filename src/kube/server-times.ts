/**
 * The times an API server stamps itself (`metadata.creationTimestamp`, `metadata.deletionTimestamp`),
 * read on another time base than the server's clock. A rehearsal runs on virtual time (the
 * scenario's start, scaled), while an external API server stamps its wall time; without this,
 * every age computed from such a stamp (a capacity clone's timeout, the scheduled flow's first
 * window, a force drain's grace) would be off by months. A client given a {@link ServerTimeBase}
 * rewrites those two fields of every object it reads (responses, list items, watch events) into
 * its own time base, so it sees what it would see on a server that shares its clock. Pure.
 */
import { formatTime, scaledNow, type ClockScaling } from '../lib/clock.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json.js';

/** Maps an instant of the server's clock (epoch ms) to the client's clock. */
export type ServerTimeBase = (serverMs: number) => number;

/**
 * The virtual time of a wall-clock server stamp, on a scaled clock ({@link scaledNow}). A stamp
 * in whole seconds stands for any instant of its second, so it is read as the middle of it: exact
 * to half a second of wall time, `scale` / 2 virtual seconds (five virtual minutes at ×600). A
 * stamp from before the wall origin is read at the wall pace (×1), as the simulation runs while it
 * sets its cluster up (src/sim/virtual-clock.ts, `wallPaceUntilBegun`).
 */
export function virtualTimeOfStamp(scaling: ClockScaling, serverMs: number): number {
  const at = serverMs % 1000 === 0 ? serverMs + 500 : serverMs;
  return at < scaling.realOrigin ? scaling.start - (scaling.realOrigin - at) : scaledNow(scaling, at);
}

/**
 * `meta` with its server-stamped times in the client's time base. `deletionTimestamp` is the
 * moment of the delete request plus its grace period (`deletionGracePeriodSeconds`): the moment
 * is translated, the grace kept, as the grace is a duration on whichever clock reads it.
 */
function translateMeta(meta: JsonObject, toClient: ServerTimeBase): JsonObject {
  const created = meta['creationTimestamp'];
  const deleted = meta['deletionTimestamp'];
  const createdMs = typeof created === 'string' ? Date.parse(created) : Number.NaN;
  const deletedMs = typeof deleted === 'string' ? Date.parse(deleted) : Number.NaN;
  if (Number.isNaN(createdMs) && Number.isNaN(deletedMs)) return meta;
  const out: JsonObject = { ...meta };
  if (!Number.isNaN(createdMs)) out['creationTimestamp'] = formatTime(toClient(createdMs));
  if (!Number.isNaN(deletedMs)) {
    const grace = meta['deletionGracePeriodSeconds'];
    const graceMs = typeof grace === 'number' && Number.isFinite(grace) ? grace * 1000 : 0;
    out['deletionTimestamp'] = formatTime(toClient(deletedMs - graceMs) + graceMs);
  }
  return out;
}

/** An object (or a list, or a watch event) with its server-stamped times in the client's time base. */
export function translateServerTimes(value: JsonValue, toClient: ServerTimeBase): JsonValue {
  if (!isJsonObject(value)) return value;
  let out = value;
  const meta = value['metadata'];
  // A list's metadata holds no object times; only objects' metadata do (they have a name).
  if (isJsonObject(meta) && !Array.isArray(value['items'])) {
    const translated = translateMeta(meta, toClient);
    if (translated !== meta) out = { ...out, metadata: translated };
  }
  const items = value['items'];
  if (Array.isArray(items)) out = { ...out, items: items.map((item) => translateServerTimes(item, toClient)) };
  const object = value['object'];
  // A watch event: {type, object}.
  if (typeof value['type'] === 'string' && isJsonObject(object))
    out = { ...out, object: translateServerTimes(object, toClient) };
  return out;
}
