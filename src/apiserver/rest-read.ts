/** GET handlers: get, list (pages and continue tokens), watch (chunked JSON stream), Table output. */
import type { ServerResponse } from 'node:http';
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { JsonObject } from '../lib/json.js';
import { toTable } from './crd/table.js';
import type { ResourceCall } from './api-context.js';
import { jsonText, notFoundPath, objectJson, sendJson, sendJsonText, transientObjectJson } from './http-util.js';
import { CONTINUE_EXPIRED, decodeContinue, encodeContinue, objectFilter, objectKey } from './list-options.js';
import { scaleSpecOf, toScale } from './scale.js';
import { ApiError, apiErrors } from './status.js';
import type { Watch, WatchEvent } from './storage/watch-hub.js';
import { apiVersionOf, type KubeObject } from './types.js';
import { checkResourceVersionParam, int64Param } from './query-params.js';
import { handlePodLog } from './pod-logs.js';

/** The object as served at the URL's version (custom resources with several versions). */
export function atVersion(call: ResourceCall, obj: KubeObject): KubeObject {
  const { rt, version } = call.target;
  if (version === rt.version || rt.custom === false) return obj;
  return { ...obj, apiVersion: apiVersionOf(rt.group, version) };
}

function tableOf(call: ResourceCall, objects: KubeObject[], listMeta: JsonObject): JsonObject {
  const rt = call.target.rt;
  const include = call.query.get('includeObject');
  const printerColumns = rt.printerColumns?.[call.target.version];
  return toTable(rt, objects, {
    ...(printerColumns ? { printerColumns } : {}),
    ...(include === 'None' || include === 'Metadata' || include === 'Object' ? { includeObject: include } : {}),
    listMeta,
    now: call.ctx.clock.now(),
  });
}

/** The object or 404. */
export function mustGet(call: ResourceCall): KubeObject {
  const { rt, namespace, name } = call.target;
  const obj = call.ctx.store.get(rt, namespace ?? '', name ?? '');
  if (!obj) throw apiErrors.notFound({ group: rt.group, resource: rt.resource }, name ?? '');
  return obj;
}

/** GET on one object or its status/scale subresource. */
export function handleGet(call: ResourceCall): void {
  const { rt, subresource } = call.target;
  const obj = mustGet(call);
  if (subresource === 'log' && rt.subresources.includes('log')) {
    handlePodLog(call, call.ctx.podLogs, obj as unknown as Pod);
    return;
  }
  if (subresource === 'scale') {
    const spec = scaleSpecOf(rt);
    if (!spec) throw notFoundSub();
    sendJson(call.res, 200, toScale(spec, obj));
    return;
  }
  if (subresource !== undefined && subresource !== 'status') throw notFoundSub();
  const shown = atVersion(call, obj);
  if (call.accept.table)
    sendJson(call.res, 200, tableOf(call, [shown], { resourceVersion: jsonText(obj.metadata.resourceVersion) }));
  else sendJson(call.res, 200, shown);
}

function notFoundSub(): Error {
  return notFoundPath();
}

/** Objects of a collection request after selectors, in key order. */
export function selectObjects(call: ResourceCall): KubeObject[] {
  const { rt, namespace } = call.target;
  const filter = objectFilter(rt, call.query);
  const all = call.ctx.store.list(rt, namespace);
  return filter ? all.filter(filter) : all;
}

/** GET on a collection: a page of the list. */
export function handleList(call: ResourceCall): void {
  const { rt } = call.target;
  const limit = int64Param(call.query, 'limit') ?? 0;
  checkResourceVersionParam(call.query);
  const rv = call.ctx.store.currentResourceVersion();
  let objects = selectObjects(call);
  const token = call.query.get('continue');
  let listRv = rv;
  if (token) {
    const c = decodeContinue(token);
    if (c.rv < call.ctx.hub.oldestResumable(rt)) throw apiErrors.expired(CONTINUE_EXPIRED);
    listRv = String(c.rv);
    objects = objects.filter((o) => objectKey(rt, o) + '\u0000' > c.start);
  }
  const meta: JsonObject = { resourceVersion: listRv };
  if (limit > 0 && objects.length > limit) {
    const remaining = objects.length - limit;
    objects = objects.slice(0, limit);
    meta.continue = encodeContinue(listRv, objectKey(rt, objects[objects.length - 1]!));
    if (!call.query.get('labelSelector') && !call.query.get('fieldSelector')) meta.remainingItemCount = remaining;
  }
  const items = objects.map((o) => atVersion(call, o));
  if (call.accept.table) {
    sendJson(call.res, 200, tableOf(call, items, meta));
    return;
  }
  // Assembled from each object's cached JSON: serialising 10,000 objects per request is the
  // cost of a large list, and the objects rarely change between two lists.
  const head = `{"kind":${JSON.stringify(rt.listKind)},"apiVersion":${JSON.stringify(apiVersionOf(rt.group, call.target.version))},"metadata":${JSON.stringify(meta)},"items":[`;
  sendJsonText(call.res, 200, `${head}${items.map((o) => objectJson(o)).join(',')}]}`);
}

const WATCH_HEADERS = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-cache, private',
  'Transfer-Encoding': 'chunked',
};

/** Opens the hub watch a request asks for; throws 400 for a malformed and 410 for a too-old resourceVersion. */
function openWatch(call: ResourceCall): Watch {
  const { rt, namespace, name } = call.target;
  const q = call.query;
  const selectorFilter = objectFilter(rt, q);
  const filter =
    name !== undefined
      ? (o: KubeObject): boolean => o.metadata.name === name && (selectorFilter ? selectorFilter(o) : true)
      : selectorFilter;
  const timeout = int64Param(q, 'timeoutSeconds') ?? 0;
  checkResourceVersionParam(q);
  const rvParam = q.get('resourceVersion');
  return call.ctx.hub.watch(rt, {
    ...(namespace !== undefined ? { namespace } : {}),
    ...(rvParam !== null ? { resourceVersion: rvParam } : {}),
    ...(filter ? { filter } : {}),
    allowBookmarks: q.get('allowWatchBookmarks') === 'true' || q.get('allowWatchBookmarks') === '1',
    sendInitialEvents: q.get('sendInitialEvents') === 'true',
    ...(timeout > 0 ? { timeoutSeconds: timeout } : {}),
    ...(call.target.version !== rt.version ? { version: call.target.version } : {}),
  });
}

/** A watch stream that carries one ERROR event (the Status) and ends. */
function sendWatchError(call: ResourceCall, err: ApiError): void {
  call.res.writeHead(200, WATCH_HEADERS);
  call.res.end(`${JSON.stringify({ type: 'ERROR', object: err.toStatus() })}\n`);
}

/** GET with watch=true: a chunked stream of `{"type","object"}` lines. */
export async function handleWatch(call: ResourceCall): Promise<void> {
  let w: Watch;
  try {
    w = openWatch(call);
  } catch (err) {
    // As kube-apiserver's cacher does: once the resourceVersion has parsed, a watch that cannot
    // start (410 Expired, too old) is an HTTP 200 stream with one ERROR event, then the end.
    if (!(err instanceof ApiError) || err.code !== 410) throw err;
    sendWatchError(call, err);
    return;
  }
  const { res, ctx } = call;
  res.writeHead(200, WATCH_HEADERS);
  res.flushHeaders();
  const onClose = (): void => w.end('closed');
  res.on('close', onClose);
  ctx.closing.addEventListener('abort', onClose, { once: true });
  const lines = new WatchLines(call);
  try {
    for (;;) {
      await w.wait();
      const batch = w.take();
      if (batch.length > 0 && !res.destroyed) {
        const ok = res.write(batch.map((e) => lines.line(e)).join(''));
        if (!ok) await drainedOrClosed(res);
      }
      w.ack();
      if (res.destroyed) w.end('closed');
      if (w.done && batch.length === 0) break;
    }
  } finally {
    res.off('close', onClose);
    ctx.closing.removeEventListener('abort', onClose);
    w.ack();
    res.end();
  }
}

/** Waits until a response can take more data or has closed, leaving no listener behind. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Serialises watch events (each object's JSON once, see objectJson); Table rows when the client asked for a Table. */
class WatchLines {
  readonly #call: ResourceCall;
  #sentColumns = false;

  constructor(call: ResourceCall) {
    this.#call = call;
  }

  line(watchEvent: WatchEvent): string {
    if (this.#call.accept.table && watchEvent.type !== 'BOOKMARK') {
      const table = tableOf(this.#call, [watchEvent.object], {
        resourceVersion: jsonText(watchEvent.object.metadata.resourceVersion),
      });
      if (this.#sentColumns) table.columnDefinitions = null;
      this.#sentColumns = true;
      return `${JSON.stringify({ type: watchEvent.type, object: table })}\n`;
    }
    // A DELETED event's object is no longer stored (its last state, or the version before a
    // change that took it out of a selector).
    const json = watchEvent.type === 'DELETED' ? transientObjectJson(watchEvent.object) : objectJson(watchEvent.object);
    return `{"type":"${watchEvent.type}","object":${json}}\n`;
  }
}
