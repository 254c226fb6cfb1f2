/**
 * The operator's Kubernetes REST client: plain JSON in and out (no field is ever dropped),
 * typed through resource descriptors, over node:http (transport.ts). Reads are retried on 429/503
 * honouring Retry-After; writes are never retried, except once after a 401 with fresh
 * credentials (the server did not process the request).
 */
import type { KubeObjectLike, ResourceDescriptor } from '../api/resource.js';
import { apiVersion as apiVersionOf } from '../api/resource.js';
import type { ActivityTracker } from '../lib/activity.js';
import type { Clock } from '../lib/clock.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../lib/json.js';
import type { Logger } from '../lib/log.js';
import type { RestConfig } from './rest-config.js';
import { queryString, resourcePath, type Query } from './resource-path.js';
import { isNotFound, KubeApiError, kubeApiErrorFrom } from './status-error.js';
import { Transport, type HttpRequest, type HttpResponse, type TransportOptions } from './transport.js';
import { translateServerTimes, type ServerTimeBase } from './server-times.js';
import { LineSplitter, parseWatchLine, type WatchEvent } from './watch-decoder.js';

export const DEFAULT_FIELD_MANAGER = 'upgrade-operator';

export interface KubeClientOptions extends TransportOptions {
  config: RestConfig;
  clock: Clock;
  logger: Logger;
  activity?: ActivityTracker;
  /** fieldManager sent on writes (default 'upgrade-operator'). */
  fieldManager?: string;
  /** User-Agent of every request (default {@link defaultUserAgent} with the field manager as the program). */
  userAgent?: string;
  /** Retries of a read answered 429/503 (default 5). */
  maxReadRetries?: number;
  /** A transport to share; by default the client makes and owns one. */
  transport?: Transport;
  /**
   * The server stamps times on another clock than `clock` (a rehearsal's virtual time against an
   * external server): its creation and deletion timestamps are read in this time base (server-times.ts).
   */
  serverTimes?: ServerTimeBase;
}

/** A list response; `metadata.continue` is set only when one page was asked for. */
export interface KubeList<T> {
  apiVersion?: string;
  kind?: string;
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  items: T[];
}

export interface ListOptions {
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  /** Page size. With `allPages` (the default) every page is fetched and concatenated. */
  limit?: number | undefined;
  continue?: string | undefined;
  /** false: return one page with its continue token. */
  allPages?: boolean;
  resourceVersion?: string | undefined;
  resourceVersionMatch?: 'Exact' | 'NotOlderThan' | undefined;
  signal?: AbortSignal | undefined;
  /**
   * Applied to each item as its page arrives, so that a large list never holds more than one
   * page of untransformed objects (informers strip managedFields and the like this way).
   */
  transform?: ((item: KubeObjectLike) => KubeObjectLike) | undefined;
}

export interface WriteOptions {
  fieldManager?: string;
  dryRun?: boolean;
  signal?: AbortSignal;
}

export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

export const PATCH_CONTENT_TYPES: Readonly<Record<PatchType, string>> = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
};

export interface PatchOptions extends WriteOptions {
  type: PatchType;
  /** Server-side apply: take ownership of conflicting fields. */
  force?: boolean;
  subresource?: string;
}

export interface DeleteOptions {
  propagationPolicy?: 'Background' | 'Foreground' | 'Orphan';
  gracePeriodSeconds?: number;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun?: boolean;
  signal?: AbortSignal;
}

export interface WatchOptions {
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
  resourceVersion?: string | undefined;
  allowWatchBookmarks?: boolean;
  timeoutSeconds?: number | undefined;
  signal?: AbortSignal;
}

export interface RawRequest {
  method: HttpRequest['method'];
  path: string;
  query?: Query;
  body?: JsonValue | string;
  contentType?: string;
  signal?: AbortSignal;
}

/**
 * A User-Agent in client-go's form, `<program>/<version> (<os>/<arch>) kubernetes/<commit>`
 * (client-go writes `unknown` for a version or commit it was not built with). The API server
 * takes the program as the default field manager, and reads the whole string in audit logs.
 */
export function defaultUserAgent(program: string, version = 'unknown', commit = 'unknown'): string {
  return `${program}/${version} (${process.platform}/${process.arch}) kubernetes/${commit.slice(0, 7)}`;
}

/** A Kubernetes API client bound to one server. */
export class KubeClient {
  readonly config: RestConfig;
  readonly fieldManager: string;
  readonly userAgent: string;
  readonly #transport: Transport;
  readonly #ownsTransport: boolean;
  readonly #clock: Clock;
  readonly #log: Logger;
  readonly #maxReadRetries: number;
  readonly #serverTimes: ServerTimeBase | undefined;

  #serverTime: number | undefined;

  constructor(options: KubeClientOptions) {
    this.config = options.config;
    this.fieldManager = options.fieldManager ?? DEFAULT_FIELD_MANAGER;
    this.userAgent = options.userAgent ?? defaultUserAgent(this.fieldManager);
    this.#clock = options.clock;
    this.#log = options.logger;
    this.#maxReadRetries = options.maxReadRetries ?? 5;
    this.#serverTimes = options.serverTimes;
    this.#ownsTransport = options.transport === undefined;
    this.#transport = options.transport ?? new Transport(options.config, options);
  }

  /** Reads one object. */
  async get<T extends KubeObjectLike>(
    resourceDescriptor: ResourceDescriptor<T>,
    namespace: string | undefined,
    name: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<T> {
    return (await this.#call(
      'GET',
      resourcePath(resourceDescriptor, { namespace, name }),
      undefined,
      options.signal,
    )) as T;
  }

  /** Reads one object; undefined when it does not exist (404). */
  async getIfExists<T extends KubeObjectLike>(
    resourceDescriptor: ResourceDescriptor<T>,
    namespace: string | undefined,
    name: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<T | undefined> {
    try {
      return await this.get(resourceDescriptor, namespace, name, options);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** Lists objects, following continue tokens unless `allPages: false`. Items get apiVersion and kind. */
  async list<T extends KubeObjectLike>(
    resourceDescriptor: ResourceDescriptor<T>,
    options: ListOptions = {},
  ): Promise<KubeList<T>> {
    const items: T[] = [];
    let cont = options.continue;
    for (;;) {
      const query: Query = {
        labelSelector: options.labelSelector || undefined,
        fieldSelector: options.fieldSelector || undefined,
        limit: options.limit,
        continue: cont || undefined,
        resourceVersion: cont ? undefined : options.resourceVersion,
        resourceVersionMatch: cont ? undefined : options.resourceVersionMatch,
      };
      const page = (await this.#call(
        'GET',
        resourcePath(resourceDescriptor, { namespace: options.namespace, query }),
        undefined,
        options.signal,
      )) as JsonObject;
      const meta = isJsonObject(page.metadata) ? page.metadata : {};
      const pageItems = Array.isArray(page.items) ? page.items : [];
      const apiVersion = apiVersionOf(resourceDescriptor);
      for (const item of pageItems) {
        if (!isJsonObject(item)) continue;
        if (item.apiVersion === undefined) item.apiVersion = apiVersion;
        if (item.kind === undefined) item.kind = resourceDescriptor.kind;
        items.push((options.transform ? options.transform(item) : item) as unknown as T);
      }
      cont = typeof meta.continue === 'string' && meta.continue !== '' ? meta.continue : undefined;
      if (cont === undefined || options.allPages === false) {
        const result = { ...page, items } as unknown as KubeList<T>;
        result.metadata = { ...(meta as KubeList<T>['metadata']) };
        if (options.allPages !== false) delete result.metadata.continue;
        return result;
      }
    }
  }

  /** Creates an object in its metadata.namespace. */
  async create<T extends KubeObjectLike>(
    resourceDescriptor: ResourceDescriptor<T>,
    obj: T,
    options: WriteOptions = {},
  ): Promise<T> {
    const path = resourcePath(resourceDescriptor, {
      namespace: namespaceOf(resourceDescriptor, obj),
      query: this.#writeQuery(options),
    });
    return (await this.#call('POST', path, withTypeMeta(resourceDescriptor, obj), options.signal)) as T;
  }

  /** Replaces an object (PUT); metadata.resourceVersion makes it conditional. */
  async update<T extends KubeObjectLike>(
    resourceDescriptor: ResourceDescriptor<T>,
    obj: T,
    options: WriteOptions = {},
  ): Promise<T> {
    const path = resourcePath(resourceDescriptor, {
      namespace: namespaceOf(resourceDescriptor, obj),
      name: nameOf(obj),
      query: this.#writeQuery(options),
    });
    return (await this.#call('PUT', path, withTypeMeta(resourceDescriptor, obj), options.signal)) as T;
  }

  /** Replaces the status subresource (PUT …/status). */
  async updateStatus<T extends KubeObjectLike>(
    resourceDescriptor: ResourceDescriptor<T>,
    obj: T,
    options: WriteOptions = {},
  ): Promise<T> {
    const path = resourcePath(resourceDescriptor, {
      namespace: namespaceOf(resourceDescriptor, obj),
      name: nameOf(obj),
      subresource: 'status',
      query: this.#writeQuery(options),
    });
    return (await this.#call('PUT', path, withTypeMeta(resourceDescriptor, obj), options.signal)) as T;
  }

  /** Patches an object with an explicit patch type (the content type always matches it). */
  async patch<T extends KubeObjectLike>(
    resourceDescriptor: ResourceDescriptor<T>,
    namespace: string | undefined,
    name: string,
    patch: JsonValue,
    options: PatchOptions,
  ): Promise<T> {
    const query: Query = {
      ...this.#writeQuery(options),
      force: options.type === 'apply' && options.force ? true : undefined,
    };
    const path = resourcePath(resourceDescriptor, { namespace, name, subresource: options.subresource, query });
    return (await this.#call('PATCH', path, patch, options.signal, PATCH_CONTENT_TYPES[options.type])) as T;
  }

  /** Deletes an object; returns the server's answer (the object while finalizers hold it, else a Status). */
  async delete(
    resourceDescriptor: ResourceDescriptor,
    namespace: string | undefined,
    name: string,
    options: DeleteOptions = {},
  ): Promise<JsonObject> {
    const body: JsonObject = { kind: 'DeleteOptions', apiVersion: 'v1' };
    if (options.propagationPolicy) body.propagationPolicy = options.propagationPolicy;
    if (options.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = options.gracePeriodSeconds;
    if (options.preconditions) body.preconditions = { ...options.preconditions };
    if (options.dryRun) body.dryRun = ['All'];
    return (await this.#call(
      'DELETE',
      resourcePath(resourceDescriptor, { namespace, name }),
      body,
      options.signal,
    )) as JsonObject;
  }

  /**
   * Watches a collection: yields events until the server ends the stream or the signal aborts
   * (then the iteration just stops). An HTTP error (for example 410 Gone) throws a
   * KubeApiError; ERROR events are yielded for the caller to judge.
   */
  async *watch<T extends KubeObjectLike>(
    resourceDescriptor: ResourceDescriptor<T>,
    options: WatchOptions = {},
  ): AsyncGenerator<WatchEvent<T>> {
    const query: Query = {
      watch: true,
      labelSelector: options.labelSelector || undefined,
      fieldSelector: options.fieldSelector || undefined,
      resourceVersion: options.resourceVersion || undefined,
      allowWatchBookmarks: options.allowWatchBookmarks ? true : undefined,
      timeoutSeconds: options.timeoutSeconds,
    };
    const path = resourcePath(resourceDescriptor, { namespace: options.namespace, query });
    const signal = options.signal;
    let res;
    try {
      const req: HttpRequest = { method: 'GET', path, headers: await this.#headers() };
      if (signal) req.signal = signal;
      res = await this.#transport.stream(req);
    } catch (err) {
      if (signal?.aborted) return;
      throw err;
    }
    if (res.statusCode >= 300) {
      const text = await res.body.text().catch(() => '');
      if (res.statusCode === 401) this.config.invalidateAuth?.();
      throw kubeApiErrorFrom(res.statusCode, text, headerValue(res.headers['retry-after']));
    }
    const lines = new LineSplitter();
    try {
      for await (const chunk of res.body) {
        for (const line of lines.push(chunk)) yield this.#watchEvent<T>(line);
      }
      for (const line of lines.end()) yield this.#watchEvent<T>(line);
    } catch (err) {
      if (signal?.aborted) return;
      throw err;
    } finally {
      res.body.destroy();
    }
  }

  /** A raw call (discovery, subresources the typed methods do not cover). JSON answers are parsed. */
  async request(req: RawRequest): Promise<JsonValue> {
    return this.#call(req.method, req.path + queryString(req.query), req.body, req.signal, req.contentType);
  }

  /** A raw call whose answer is text, not JSON (`pods/log`, a proxied `/metrics`): the body as it came. */
  async requestText(req: RawRequest): Promise<string> {
    return this.#send(req.method, req.path + queryString(req.query), req.body, req.signal, req.contentType);
  }

  /**
   * The API server's time as its last answer's `Date` header gave it (epoch ms, whole seconds), or
   * undefined before any answer with one. Ages shown to a user are the server's: a cluster's
   * timestamps are on its clock (a rehearsal's on virtual time), not on this machine's.
   */
  serverTime(): number | undefined {
    return this.#serverTime;
  }

  #noteServerTime(header: string | string[] | undefined): void {
    const at = Date.parse(Array.isArray(header) ? (header[0] ?? '') : (header ?? ''));
    if (!Number.isNaN(at)) this.#serverTime = at;
  }

  /** Closes the connection pool (when the client owns it). */
  async close(): Promise<void> {
    if (this.#ownsTransport) await this.#transport.close();
  }

  #writeQuery(options: WriteOptions): Query {
    return { fieldManager: options.fieldManager ?? this.fieldManager, dryRun: options.dryRun ? 'All' : undefined };
  }

  async #headers(contentType?: string): Promise<Record<string, string>> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.userAgent };
    if (contentType !== undefined) headers['content-type'] = contentType;
    const auth = await this.config.auth();
    if (auth !== undefined) headers.authorization = auth;
    return headers;
  }

  async #call(
    method: HttpRequest['method'],
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
    contentType?: string,
  ): Promise<JsonValue> {
    const parsed = parseBody(await this.#send(method, path, body, signal, contentType));
    return this.#serverTimes ? translateServerTimes(parsed, this.#serverTimes) : parsed;
  }

  #watchEvent<T>(line: string): WatchEvent<T> {
    const event = parseWatchLine(line);
    if (this.#serverTimes && event.type !== 'ERROR')
      event.object = translateServerTimes(event.object, this.#serverTimes) as JsonObject;
    return event as unknown as WatchEvent<T>;
  }

  /** Sends the request (re-authenticating once on 401, retrying reads on 429/503); the body of a 2xx answer. */
  async #send(
    method: HttpRequest['method'],
    path: string,
    body: unknown,
    signal: AbortSignal | undefined,
    contentType?: string,
  ): Promise<string> {
    const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    let reauthed = false;
    for (let attempt = 0; ; attempt++) {
      const req: HttpRequest = {
        method,
        path,
        headers: await this.#headers(payload === undefined ? undefined : (contentType ?? 'application/json')),
      };
      if (payload !== undefined) req.body = payload;
      if (signal) req.signal = signal;
      const res: HttpResponse = await this.#transport.request(req);
      this.#noteServerTime(res.headers['date']);
      this.#log.debug({ method, path, code: res.statusCode }, 'kube request');
      if (res.statusCode < 300) return res.text;
      const err = kubeApiErrorFrom(res.statusCode, res.text, headerValue(res.headers['retry-after']));
      if (res.statusCode === 401 && !reauthed && this.config.invalidateAuth) {
        this.config.invalidateAuth();
        reauthed = true;
        continue;
      }
      if (method === 'GET' && (res.statusCode === 429 || res.statusCode === 503) && attempt < this.#maxReadRetries) {
        const waitS = err.retryAfterSeconds ?? 1;
        this.#log.debug(
          { method, path, code: res.statusCode, retryAfterSeconds: waitS },
          'kube request throttled; retrying',
        );
        await this.#clock.sleep(Math.min(Math.max(waitS, 0), 60) * 1000, signal);
        continue;
      }
      throw err;
    }
  }
}

function parseBody(text: string): JsonValue {
  if (text === '') return {};
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function nameOf(obj: KubeObjectLike): string {
  const name = obj.metadata?.name;
  if (name === undefined || name === '') throw new Error(`${obj.kind ?? 'object'}: metadata.name is required`);
  return name;
}

function namespaceOf(resourceDescriptor: ResourceDescriptor, obj: KubeObjectLike): string | undefined {
  if (!resourceDescriptor.namespaced) return undefined;
  const ns = obj.metadata?.namespace;
  if (ns === undefined || ns === '')
    throw new Error(
      `${resourceDescriptor.kind} ${obj.metadata?.name ?? obj.metadata?.generateName ?? ''}: metadata.namespace is required`,
    );
  return ns;
}

function withTypeMeta<T extends KubeObjectLike>(resourceDescriptor: ResourceDescriptor<T>, obj: T): T {
  if (obj.apiVersion !== undefined && obj.kind !== undefined) return obj;
  return {
    ...obj,
    apiVersion: obj.apiVersion ?? apiVersionOf(resourceDescriptor),
    kind: obj.kind ?? resourceDescriptor.kind,
  };
}

export { KubeApiError };
