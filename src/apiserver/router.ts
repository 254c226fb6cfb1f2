/** Dispatches HTTP requests: health, version, discovery, OpenAPI, and resource verbs. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiContext, ResourceCall } from './api-context.js';
import { apiGroup, apiGroupList, apiResourceList, apiVersions, groupVersions, versionInfo } from './discovery.js';
import { negotiate, notFoundPath, sendError, sendJson } from './http-util.js';
import { acceptsOpenApiProtobuf, OPENAPI_V2_PROTOBUF, openApiV2Protobuf } from './openapi-protobuf.js';
import { openApiFor } from './openapi-routes.js';
import { ApplyConflictError, PatchError } from './patch/errors.js';
import { groupVersionPath, resolveTarget } from './request-info.js';
import { handleGet, handleList, handleWatch } from './rest-read.js';
import { handleCreate, handleDelete, handleDeleteCollection, handleUpdate } from './rest-write.js';
import { handlePatch } from './rest-patch.js';
import { ApiError } from './status.js';
import type { ResourceType } from './types.js';

function isWatch(urlSearchParams: URLSearchParams): boolean {
  const w = urlSearchParams.get('watch');
  return w === 'true' || w === '1';
}

/** Converts the patch helpers' errors to Status errors. */
export function toApiError(err: unknown): unknown {
  if (err instanceof ApplyConflictError) return new ApiError(409, 'Conflict', err.message, { causes: err.causes() });
  if (err instanceof PatchError) return new ApiError(err.code, err.reason, err.message);
  return err;
}

/** Serves one request. */
export async function route(
  ctx: ApiContext,
  req: IncomingMessage,
  res: ServerResponse,
  serverAddress: string,
): Promise<void> {
  if (hasBadPathEscape(req.url ?? '/')) {
    // Go's HTTP server refuses such a request line before any handler sees it.
    res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
    res.end('400 Bad Request');
    return;
  }
  try {
    const url = requestUrl(req.url ?? '/');
    if (!url) throw notFoundPath();
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    if (path === '/healthz' || path === '/readyz' || path === '/livez' || /^\/(healthz|readyz|livez)\//.test(path)) {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('ok');
      return;
    }
    // kubectl asks for the OpenAPI v2 document in protobuf only.
    const protobuf =
      method === 'GET' && path === '/openapi/v2' ? acceptsOpenApiProtobuf(req.headers.accept) : undefined;
    if (protobuf) {
      const doc = openApiFor(ctx.store, path);
      if (!doc) throw notFoundPath();
      const body = openApiV2Protobuf(doc);
      res.writeHead(200, { 'Content-Type': OPENAPI_V2_PROTOBUF, 'Content-Length': body.length });
      res.end(body);
      return;
    }
    const accept = negotiate(req.headers.accept);
    // Discovery only: listing the served types on every request was a measurable share of a write.
    const types = (): ResourceType[] => ctx.store.resourceTypes();
    if (method === 'GET') {
      if (path === '/version') return sendJson(res, 200, versionInfo());
      if (path === '/api') return sendJson(res, 200, apiVersions(serverAddress));
      if (path === '/apis') return sendJson(res, 200, apiGroupList(types()));
      if (path.startsWith('/openapi/')) {
        const doc = openApiFor(ctx.store, path);
        if (!doc) throw notFoundPath();
        return sendJson(res, 200, doc);
      }
      const segs = path.split('/').filter((s) => s !== '');
      if (segs[0] === 'apis' && segs.length === 2) {
        const g = apiGroup(segs[1]!, types());
        if (!g) throw notFoundPath();
        return sendJson(res, 200, g);
      }
    }
    const gv = groupVersionPath(path);
    if (!gv) throw notFoundPath();
    if (gv.rest.length === 0) {
      if (
        method !== 'GET' ||
        !groupVersions(gv.group, types()).includes(gv.version) ||
        (gv.group === '' && gv.version !== 'v1')
      )
        throw notFoundPath();
      return sendJson(res, 200, apiResourceList(gv.group, gv.version, types()));
    }
    const target = resolveTarget(ctx.store, gv);
    if (!target) throw notFoundPath();
    const call: ResourceCall = { ctx, req, res, target, query: url.searchParams, accept };
    const collection = target.name === undefined;
    switch (method) {
      case 'GET':
        if (isWatch(call.query)) return await handleWatch(call);
        return collection ? handleList(call) : handleGet(call);
      case 'POST':
        return await handleCreate(call);
      case 'PUT':
        if (collection) throw methodNotAllowed(call);
        return await handleUpdate(call);
      case 'PATCH':
        if (collection) throw methodNotAllowed(call);
        return await handlePatch(call);
      case 'DELETE':
        return collection ? await handleDeleteCollection(call) : await handleDelete(call);
      default:
        throw methodNotAllowed(call);
    }
  } catch (err) {
    const apiErr = toApiError(err);
    if (!(apiErr instanceof ApiError)) ctx.logger.error({ err }, 'request failed');
    sendError(res, apiErr);
  }
}

/** The request target as a URL; a target starting with `//` is a path here, not a host, as for Go (`*`: none). */
function requestUrl(target: string): URL | undefined {
  if (!target.startsWith('/')) return undefined;
  try {
    return new URL(`http://localhost${target}`);
  } catch {
    return undefined;
  }
}

/** True when the path of a request target has a `%` not followed by two hex digits (Go's url.ParseRequestURI refuses it). */
export function hasBadPathEscape(requestTarget: string): boolean {
  const query = requestTarget.indexOf('?');
  const path = query < 0 ? requestTarget : requestTarget.slice(0, query);
  return /%(?![0-9A-Fa-f]{2})/.test(path);
}

function methodNotAllowed(call: ResourceCall): ApiError {
  return new ApiError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {
    group: call.target.rt.group,
    kind: call.target.rt.resource,
  });
}
