/**
 * core/v1 Event ⇄ events.k8s.io/v1 Event. Both versions share one storage (kept in the core/v1
 * shape), as in kube-apiserver; these functions rename the fields that differ.
 */
import { isJsonObject, type JsonObject } from '../../lib/json.js';
import type { KubeObject } from '../types.js';

/** core/v1 field → events.k8s.io/v1 field, for the fields that are renamed. */
const renames: ReadonlyArray<[string, string]> = [
  ['involvedObject', 'regarding'],
  ['message', 'note'],
  ['source', 'deprecatedSource'],
  ['firstTimestamp', 'deprecatedFirstTimestamp'],
  ['lastTimestamp', 'deprecatedLastTimestamp'],
  ['count', 'deprecatedCount'],
  ['reportingComponent', 'reportingController'],
];

const sameName = ['metadata', 'eventTime', 'series', 'action', 'reason', 'type', 'related', 'reportingInstance'];

function move(from: JsonObject, to: JsonObject, pairs: ReadonlyArray<[string, string]>): void {
  for (const [a, b] of pairs) if (from[a] !== undefined) to[b] = from[a];
  for (const k of sameName) if (from[k] !== undefined) to[k] = from[k];
}

/** A stored core/v1 Event as events.k8s.io/v1 shows it. */
export function coreEventToV1(ev: KubeObject): KubeObject {
  const out: KubeObject = { apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: ev.metadata };
  move(ev, out, renames);
  // events.k8s.io/v1 requires eventTime; old core events only have firstTimestamp.
  if (out.eventTime === undefined || out.eventTime === null) out.eventTime = null;
  if (out.reportingController === undefined) {
    const src = ev.source;
    if (isJsonObject(src) && typeof src.component === 'string') out.reportingController = src.component;
  }
  return out;
}

/** An events.k8s.io/v1 Event as stored (core/v1). */
export function v1EventToCore(ev: KubeObject): KubeObject {
  const out: KubeObject = { apiVersion: 'v1', kind: 'Event', metadata: ev.metadata };
  move(
    ev,
    out,
    renames.map(([a, b]) => [b, a]),
  );
  if (out.involvedObject === undefined) out.involvedObject = {};
  if (out.source === undefined && typeof ev.reportingController === 'string')
    out.source = { component: ev.reportingController };
  return out;
}
