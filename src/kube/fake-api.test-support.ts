/**
 * Test support: a tiny loopback API server speaking just what the kube runtime's tests need
 * (namespaced collections: list with paging, watch with resourceVersion / bookmarks / 410,
 * get, create, update with resourceVersion preconditions, merge patch, delete). It is not the
 * embedded API server (src/apiserver), only a stand-in with knobs for failure injection.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonObject } from '../lib/json.js';

interface Watcher {
  collection: string;
  namespace: string | undefined;
  res: ServerResponse;
}

export interface FakeApi {
  url: string;
  /** Objects by `collectionPath|namespace/name` (collectionPath like /api/v1/pods). */
  objects: Map<string, JsonObject>;
  /** Requests seen: `METHOD path?query`. */
  requests: string[];
  /** Watch events older than this resourceVersion answer 410. */
  compactedBelow: number;
  /** 'http': watch from a compacted rv fails with HTTP 410; 'event': with an ERROR event. */
  goneMode: 'http' | 'event';
  /** Next N requests matching a prefix answer with this status. */
  failNext(prefix: string, code: number, times?: number, retryAfter?: number): void;
  /** Ends every open watch. */
  closeWatches(): void;
  /** Stores an object as if another client wrote it (emits a watch event). */
  put(collection: string, obj: JsonObject): JsonObject;
  remove(collection: string, namespace: string | undefined, name: string): void;
  /** Sends a bookmark at the current resourceVersion to every watch. */
  bookmark(): void;
  rv(): number;
  close(): Promise<void>;
}

/** Starts the fake on 127.0.0.1, port 0. */
export async function startFakeApi(): Promise<FakeApi> {
  let rv = 100;
  const objects = new Map<string, JsonObject>();
  const history: Array<{ rv: number; collection: string; type: string; object: JsonObject }> = [];
  const watchers = new Set<Watcher>();
  const failures: Array<{ prefix: string; code: number; times: number; retryAfter: number | undefined }> = [];
  const requests: string[] = [];

  const keyOf = (collection: string, ns: string | undefined, name: string): string =>
    `${collection}|${ns ? `${ns}/` : ''}${name}`;
  const emit = (collection: string, type: string, object: JsonObject): void => {
    const entry = {
      rv: Number((object.metadata as JsonObject).resourceVersion),
      collection,
      type,
      object: structuredClone(object),
    };
    history.push(entry);
    for (const w of watchers)
      if (w.collection === collection && (!w.namespace || (object.metadata as JsonObject).namespace === w.namespace))
        w.res.write(`${JSON.stringify({ type, object })}\n`);
  };
  const store = (collection: string, obj: JsonObject, type: 'ADDED' | 'MODIFIED'): JsonObject => {
    const meta = obj.metadata as JsonObject;
    meta.resourceVersion = String(++rv);
    objects.set(keyOf(collection, meta.namespace as string | undefined, meta.name as string), obj);
    emit(collection, type, obj);
    return obj;
  };

  const api: FakeApi = {
    url: '',
    objects,
    requests,
    compactedBelow: 0,
    goneMode: 'http',
    failNext: (prefix, code, times = 1, retryAfter) => failures.push({ prefix, code, times, retryAfter }),
    closeWatches: () => {
      for (const w of watchers) w.res.end();
      watchers.clear();
    },
    put: (collection, obj) => {
      const meta = obj.metadata as JsonObject;
      const exists = objects.has(keyOf(collection, meta.namespace as string | undefined, meta.name as string));
      return store(collection, structuredClone(obj), exists ? 'MODIFIED' : 'ADDED');
    },
    remove: (collection, ns, name) => {
      const key = keyOf(collection, ns, name);
      const obj = objects.get(key);
      if (!obj) return;
      objects.delete(key);
      (obj.metadata as JsonObject).resourceVersion = String(++rv);
      emit(collection, 'DELETED', obj);
    },
    bookmark: () => {
      for (const w of watchers)
        w.res.write(
          `${JSON.stringify({ type: 'BOOKMARK', object: { kind: 'Pod', apiVersion: 'v1', metadata: { resourceVersion: String(rv) } } })}\n`,
        );
    },
    rv: () => rv,
    close: async () => {
      api.closeWatches();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };

  const status = (
    res: ServerResponse,
    code: number,
    reason: string,
    message: string,
    headers: Record<string, string> = {},
  ): void => {
    res.writeHead(code, { 'content-type': 'application/json', ...headers });
    res.end(
      JSON.stringify({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code }),
    );
  };
  const json = (res: ServerResponse, code: number, body: unknown): void => {
    res.writeHead(code, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://x');
    const method = req.method ?? 'GET';
    requests.push(`${method} ${url.pathname}${url.search}`);
    const fail = failures.find((f) => `${method} ${url.pathname}`.startsWith(f.prefix) && f.times > 0);
    if (fail) {
      fail.times--;
      status(
        res,
        fail.code,
        ({ 401: 'Unauthorized', 429: 'TooManyRequests', 503: 'ServiceUnavailable' } as Record<number, string>)[
          fail.code
        ] ?? 'InternalError',
        `injected ${fail.code}`,
        fail.retryAfter !== undefined ? { 'retry-after': String(fail.retryAfter) } : {},
      );
      return;
    }
    let body: JsonObject | undefined;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (chunks.length) body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonObject;
    // /api/v1[/namespaces/ns]/plural[/name[/sub]] or /apis/g/v[/namespaces/ns]/plural[/name[/sub]]
    const parts = url.pathname.split('/').filter(Boolean);
    const base = parts[0] === 'api' ? parts.slice(0, 2) : parts.slice(0, 3);
    let rest = parts.slice(base.length);
    let ns: string | undefined;
    if (rest[0] === 'namespaces' && rest.length >= 3) {
      ns = rest[1];
      rest = rest.slice(2);
    }
    const plural = rest[0] ?? '';
    const name = rest[1];
    const collection = `/${[...base, plural].join('/')}`;
    const q = url.searchParams;
    if (name === undefined && method === 'GET' && q.get('watch') === 'true') {
      const from = Number(q.get('resourceVersion') ?? '0');
      if (from && from < api.compactedBelow) {
        if (api.goneMode === 'http')
          return status(res, 410, 'Expired', `too old resource version: ${from} (${api.compactedBelow})`);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          `${JSON.stringify({ type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'too old resource version', reason: 'Expired', code: 410 } })}\n`,
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      res.flushHeaders();
      for (const h of history)
        if (h.collection === collection && h.rv > from && (!ns || (h.object.metadata as JsonObject).namespace === ns))
          res.write(`${JSON.stringify({ type: h.type, object: h.object })}\n`);
      const w: Watcher = { collection, namespace: ns, res };
      watchers.add(w);
      req.on('close', () => watchers.delete(w));
      return;
    }
    if (name === undefined && method === 'GET') {
      const all = [...objects]
        .filter(([k, o]) => k.startsWith(`${collection}|`) && (!ns || (o.metadata as JsonObject).namespace === ns))
        .map(([, o]) => o);
      const start = Number(q.get('continue') ?? '0');
      const limit = Number(q.get('limit') ?? '0') || all.length;
      const page = all.slice(start, start + limit);
      const more = start + limit < all.length;
      return json(res, 200, {
        kind: 'List',
        apiVersion: 'v1',
        metadata: { resourceVersion: String(rv), ...(more ? { continue: String(start + limit) } : {}) },
        items: page,
      });
    }
    if (name === undefined && method === 'POST' && body) {
      const meta = body.metadata as JsonObject;
      if (objects.has(keyOf(collection, ns, meta.name as string)))
        return status(res, 409, 'AlreadyExists', `${plural} "${JSON.stringify(meta.name)}" already exists`);
      meta.namespace = ns ?? null;
      if (!ns) delete meta.namespace;
      meta.uid = `uid-${rv}`;
      return json(res, 201, store(collection, body, 'ADDED'));
    }
    const key = keyOf(collection, ns, name ?? '');
    const current = objects.get(key);
    if (!current) return status(res, 404, 'NotFound', `${plural} "${name ?? ''}" not found`);
    if (method === 'GET') return json(res, 200, current);
    if (method === 'PUT' && body) {
      const want = (body.metadata as JsonObject).resourceVersion;
      if (want !== undefined && want !== (current.metadata as JsonObject).resourceVersion) {
        return status(
          res,
          409,
          'Conflict',
          `Operation cannot be fulfilled on ${plural} "${name ?? ''}": the object has been modified; please apply your changes to the latest version and try again`,
        );
      }
      const next: JsonObject = rest[2] === 'status' ? { ...current } : { ...body };
      const newStatus = rest[2] === 'status' ? body.status : current.status;
      if (newStatus === undefined) delete next.status;
      else next.status = newStatus;
      next.metadata = {
        ...(current.metadata as JsonObject),
        ...(rest[2] === 'status' ? {} : (body.metadata as JsonObject)),
      };
      return json(res, 200, store(collection, next, 'MODIFIED'));
    }
    if (method === 'PATCH' && body) {
      if (req.headers['content-type'] !== 'application/merge-patch+json')
        return status(res, 415, 'UnsupportedMediaType', 'fake supports merge patch only');
      return json(res, 200, store(collection, { ...current, ...body, metadata: current.metadata ?? {} }, 'MODIFIED'));
    }
    if (method === 'DELETE') {
      api.remove(collection, ns, name ?? '');
      return json(res, 200, { kind: 'Status', apiVersion: 'v1', status: 'Success', metadata: {} });
    }
    return status(res, 405, 'MethodNotAllowed', 'not supported by the fake');
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => status(res, 500, 'InternalError', String(err)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return api;
}
