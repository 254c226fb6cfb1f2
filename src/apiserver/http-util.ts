/**
 * HTTP plumbing of the API server: reading bodies (JSON, YAML), writing JSON and Status
 * responses, and the few content-negotiation decisions kubectl depends on.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from '../lib/yaml-package.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json.js';
import { readRequestBody, RequestBodyTooLargeError } from '../lib/request-body.js';
import { ApiError, apiErrors } from './status.js';

/** Largest request body accepted (kube-apiserver's limit is 3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

/** Reads the whole request body; past {@link MAX_BODY_BYTES} a 413 like kube-apiserver's. */
export async function readBody(req: IncomingMessage): Promise<string> {
  try {
    return await readRequestBody(req, MAX_BODY_BYTES);
  } catch (err) {
    if (err instanceof RequestBodyTooLargeError)
      throw new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${MAX_BODY_BYTES}`);
    throw err;
  }
}

/** The media type of a Content-Type header, without parameters, lower case. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * The deepest nesting of objects and arrays a body may have. kube-apiserver's JSON decoder stops
 * at 10,000 levels; here serialising, cloning and walking an object recurse, and the stack runs
 * out between 2,000 and 6,000 levels, so the limit is lower. Real objects nest a few dozen deep.
 */
export const MAX_BODY_DEPTH = 1000;

/** The media types of a create or update body (kube-apiserver also takes protobuf for built-in kinds). */
export const BODY_MEDIA_TYPES = ['application/json', 'application/yaml'] as const;

/** A create or update body's Content-Type: absent means JSON, as for kube-apiserver; anything else but JSON and YAML is 415. */
export function checkBodyMediaType(contentType: string | undefined): void {
  const type = mediaType(contentType);
  if (type === '' || (BODY_MEDIA_TYPES as readonly string[]).includes(type)) return;
  throw apiErrors.unsupportedMediaType(
    `the body of the request was in an unknown format - accepted media types include: ${BODY_MEDIA_TYPES.join(', ')}`,
  );
}

/** Parses a body as JSON, or YAML when yaml is allowed; errors are 400 like the real decoder's. */
export function parseBody(text: string, contentType: string, allowYaml: boolean): JsonValue {
  const type = mediaType(contentType);
  const yaml =
    allowYaml && (type === 'application/yaml' || type === 'application/apply-patch+yaml' || type === 'text/yaml');
  let value: JsonValue;
  try {
    value = yaml ? ((parseYaml(text) ?? null) as JsonValue) : (JSON.parse(text) as JsonValue);
  } catch (err) {
    // The YAML parser recurses: a document nested about 1,000 deep runs out of stack.
    const message = (err as Error).message;
    const why =
      err instanceof RangeError || message.includes('Maximum call stack size exceeded')
        ? 'exceeded max depth'
        : message;
    throw apiErrors.badRequest(`error decoding ${yaml ? 'YAML' : 'JSON'}: ${why}`);
  }
  if (nestingDepth(value) > MAX_BODY_DEPTH)
    throw apiErrors.badRequest(`couldn't get version/kind; json parse error: exceeded max depth`);
  return value;
}

/** How deeply objects and arrays nest in `value` (0 for a scalar); iterative, so any depth is measured. */
export function nestingDepth(value: JsonValue): number {
  let deepest = 0;
  const stack: Array<[JsonValue, number]> = [[value, 0]];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [node, depth] = next;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Parses a body that must be an object. */
export function parseObjectBody(text: string, contentType: string, allowYaml = true): JsonObject {
  const v = parseBody(text, contentType, allowYaml);
  if (!isJsonObject(v)) throw apiErrors.badRequest("Object 'Kind' is missing in '" + text.slice(0, 200) + "'");
  return v;
}

/** A scalar JSON value as text ('' for objects, arrays, null and undefined). */
export function jsonText(value: JsonValue | undefined): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : '';
}

/** Writes a JSON response. */
export function sendJson(
  res: ServerResponse,
  code: number,
  body: JsonValue,
  headers: Record<string, string> = {},
): void {
  sendJsonText(res, code, JSON.stringify(body), headers);
}

/** Writes an already serialised JSON body. */
export function sendJsonText(
  res: ServerResponse,
  code: number,
  text: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(code, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, private',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/**
 * The JSON text of a stored object, serialised once. Stored objects are never mutated (every
 * write replaces the object), so the text is valid for the object's lifetime; lists and watch
 * streams reuse it instead of serialising the same object for every reader. Once the object has
 * left the store (see forgetObjectJson), only watch history still holds it: its text is then
 * kept like a deleted object's, in the bounded cache of transientObjectJson.
 */
const jsonCache = new WeakMap<object, string>();
/** Objects that have left the store. */
const retired = new WeakSet<object>();

export function objectJson(obj: JsonValue & object): string {
  if (retired.has(obj)) return transientObjectJson(obj);
  let text = jsonCache.get(obj);
  if (text === undefined) {
    text = JSON.stringify(obj);
    jsonCache.set(obj, text);
  }
  return text;
}

/** Drops the cached text of an object that has left the store (replaced or deleted). */
export function forgetObjectJson(obj: object): void {
  jsonCache.delete(obj);
  retired.add(obj);
}

/** Texts of objects that are not stored, by object, oldest first; bounded. */
const transientJson = new Map<object, string>();
const TRANSIENT_JSON_MAX = 1024;

/**
 * The JSON text of an object that is not stored: a deleted object's last state, a version an
 * update replaced (only watch history holds them). Texts are kept for the last 1,024 such
 * objects, so that every watcher of a burst shares one, not for as long as history holds them.
 */
export function transientObjectJson(obj: JsonValue & object): string {
  let text = transientJson.get(obj);
  if (text === undefined) {
    text = JSON.stringify(obj);
    if (transientJson.size >= TRANSIENT_JSON_MAX) transientJson.delete(transientJson.keys().next().value!);
    transientJson.set(obj, text);
  }
  return text;
}

/** Writes an error as a metav1.Status body. */
export function sendError(res: ServerResponse, err: unknown): void {
  const apiError = err instanceof ApiError ? err : apiErrors.internal(err instanceof Error ? err.message : String(err));
  if (res.headersSent) {
    res.end();
    return;
  }
  sendJson(res, apiError.code, apiError.toStatus());
}

/** The 404 for a path the server does not serve, with the real server's body. */
export function notFoundPath(): ApiError {
  return new ApiError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** What the client asked for in Accept, as far as we serve it. */
export interface Negotiated {
  /** Server-side printing: `application/json;as=Table;g=meta.k8s.io;v=v1`. */
  table: boolean;
  /** Aggregated discovery (`as=APIGroupDiscoveryList`). */
  aggregatedDiscovery: 'v2' | 'v2beta1' | undefined;
}

interface MediaRange {
  type: string;
  params: Record<string, string>;
}

function mediaRanges(accept: string | undefined): MediaRange[] {
  if (!accept) return [];
  return accept.split(',').map((part) => {
    const [type, ...params] = part.split(';');
    const p: Record<string, string> = {};
    for (const kv of params) {
      const i = kv.indexOf('=');
      if (i > 0) p[kv.slice(0, i).trim()] = kv.slice(i + 1).trim();
    }
    return { type: (type ?? '').trim().toLowerCase(), params: p };
  });
}

/**
 * Decides the response form from Accept. JSON is always possible (protobuf falls back to it);
 * only an Accept that rules JSON out gives 406.
 */
export function negotiate(accept: string | undefined): Negotiated {
  // Clients send a handful of distinct Accept headers, each on every request: decide each once.
  const key = accept ?? '';
  let known = negotiated.get(key);
  if (known === undefined) {
    known = decideNegotiation(accept);
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(key, known);
  }
  if (known === 'not acceptable')
    throw apiErrors.notAcceptable(
      `only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf`,
    );
  return known;
}

/** Decisions already made, by Accept header (shared: callers only read them). */
const negotiated = new Map<string, Readonly<Negotiated> | 'not acceptable'>();
const NEGOTIATED_MAX = 256;

function decideNegotiation(accept: string | undefined): Readonly<Negotiated> | 'not acceptable' {
  const ranges = mediaRanges(accept);
  let table = false;
  let aggregatedDiscovery: Negotiated['aggregatedDiscovery'];
  for (const r of ranges) {
    if (r.type !== 'application/json') continue;
    // The first acceptable range wins, as in the real server's negotiation.
    if (r.params.as === 'Table' && r.params.g === 'meta.k8s.io' && (r.params.v === 'v1' || r.params.v === 'v1beta1')) {
      table = true;
      break;
    }
    if (r.params.as === 'APIGroupDiscoveryList' && r.params.g === 'apidiscovery.k8s.io') {
      aggregatedDiscovery = r.params.v === 'v2' ? 'v2' : 'v2beta1';
      break;
    }
    if (r.params.as === undefined) break;
  }
  const acceptable =
    ranges.length === 0 ||
    ranges.some(
      (r) =>
        r.type === '*/*' ||
        r.type === 'application/*' ||
        r.type === 'application/json' ||
        r.type === 'application/vnd.kubernetes.protobuf' ||
        r.type === 'application/yaml',
    );
  if (!acceptable) return 'not acceptable';
  return Object.freeze({ table, aggregatedDiscovery });
}

/** The default field manager: the first path segment of the User-Agent, as kube-apiserver does. */
export function managerFromUserAgent(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const first = ua.split('/')[0] ?? '';
  return first.slice(0, 128);
}
