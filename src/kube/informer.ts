/**
 * An informer on client-go's reflector model: a paged LIST, then WATCH from its
 * resourceVersion with bookmarks and a randomised 5–10 min timeoutSeconds; resumes from the
 * last seen resourceVersion; re-lists on 410 (HTTP or ERROR event) and diffs the result into
 * add/update/delete; restarts after any other failure with jittered exponential backoff on the
 * Clock (it never stops on its own); a client-side inactivity watchdog catches dead
 * connections. Objects are transformed (managedFields stripped) before they are cached.
 */
import type { KubeObjectLike, ResourceDescriptor } from '../api/resource.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import type { Random } from '../lib/random.js';
import type { KubeClient } from './client.js';
import { Indexer, objectKey, type IndexFunc } from './indexer.js';
import { isGone, isNotFound, KubeApiError, statusFromJson } from './status-error.js';
import type { JsonObject } from '../lib/json.js';

export interface EventHandlers<T> {
  onAdd?(obj: T): void;
  onUpdate?(oldObj: T, newObj: T): void;
  /** Gets the last known state of the object. */
  onDelete?(obj: T): void;
}

export interface InformerScope {
  namespace?: string | undefined;
  labelSelector?: string | undefined;
  fieldSelector?: string | undefined;
}

export interface InformerOptions<T extends KubeObjectLike> extends InformerScope {
  client: KubeClient;
  descriptor: ResourceDescriptor<T>;
  clock: Clock;
  logger: Logger;
  random: Random;
  /** Applied to every object before caching; default strips metadata.managedFields. */
  transform?: (obj: T) => T;
  indexers?: Record<string, IndexFunc<T>>;
  /** LIST page size (default 500). */
  pageSize?: number;
  /** Watch timeoutSeconds is drawn from [min, 2·min] (default 300 s, as client-go). */
  minWatchTimeoutSeconds?: number;
  /** A watch silent for this long is restarted (default: its timeoutSeconds + 60 s). */
  inactivityTimeoutMs?: number;
  /** Restart backoff: initial and cap (default 800 ms → 30 s, jitter up to +100 %). */
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  /**
   * What to do when the API server does not serve the resource (a LIST answered 404), e.g.
   * "install the operator's CRDs: kubectl apply -k deploy/crds"; default: install its
   * CustomResourceDefinition.
   */
  notServedHint?: (descriptor: ResourceDescriptor<KubeObjectLike>) => string;
}

/** `plural.group/version` (`plural/version` for the core group): the resource as kubectl and CRDs name it. */
export function resourceName(descriptor: ResourceDescriptor<KubeObjectLike>): string {
  return `${descriptor.plural}${descriptor.group ? `.${descriptor.group}` : ''}/${descriptor.version}`;
}

/** Default transform: drop managedFields (they are large and no controller reads them). */
/**
 * Objects per LIST page. Smaller than client-go's 500: a page is parsed whole before the
 * transform slims it, and on a 10,000-Pod cluster 500-object pages leave the heap holding far
 * more than the cache needs (docs/benchmarks.md); 100 keeps the transient small at the cost of a
 * few more requests during a (rare) full list.
 */
export const DEFAULT_PAGE_SIZE = 100;

export function stripManagedFields<T extends KubeObjectLike>(obj: T): T {
  if (obj.metadata?.managedFields === undefined) return obj;
  const { managedFields: _drop, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

/** What a relist changed, against the cache (pure). Unchanged objects (same resourceVersion) are left out. */
export function diffRelist<T extends KubeObjectLike>(
  cached: ReadonlyMap<string, T>,
  listed: readonly T[],
): { added: T[]; updated: Array<[T, T]>; deleted: T[] } {
  const added: T[] = [];
  const updated: Array<[T, T]> = [];
  const seen = new Set<string>();
  for (const obj of listed) {
    const key = objectKey(obj);
    seen.add(key);
    const old = cached.get(key);
    if (!old) added.push(obj);
    else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) updated.push([old, obj]);
  }
  const deleted = [...cached].filter(([k]) => !seen.has(k)).map(([, o]) => o);
  return { added, updated, deleted };
}

/** Watches one resource (in one scope) into a local cache and tells handlers. */
export class Informer<T extends KubeObjectLike> {
  readonly descriptor: ResourceDescriptor<T>;
  readonly scope: InformerScope;
  readonly #o: InformerOptions<T>;
  readonly #log: Logger;
  readonly #cache: Indexer<T>;
  readonly #handlers = new Set<EventHandlers<T>>();
  readonly #transform: (obj: T) => T;
  #resourceVersion = '';
  #synced = false;
  #syncWaiters: Array<() => void> = [];
  #running: Promise<void> | undefined;
  #failures = 0;
  /** Why the last list or watch failed, until one succeeds. */
  #lastError: string | undefined;

  constructor(options: InformerOptions<T>) {
    this.#o = options;
    this.descriptor = options.descriptor;
    this.scope = {
      namespace: options.namespace,
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
    };
    this.#log = options.logger.child({
      informer: options.descriptor.plural,
      ...(options.namespace ? { namespace: options.namespace } : {}),
    });
    this.#cache = new Indexer<T>(options.indexers ?? {});
    this.#transform = options.transform ?? stripManagedFields;
  }

  /** Registers handlers; objects already cached are replayed as adds. Returns an unregister function. */
  addHandlers(eventHandlers: EventHandlers<T>): () => void {
    this.#handlers.add(eventHandlers);
    for (const obj of this.#cache.list()) this.#call(() => eventHandlers.onAdd?.(obj));
    return () => this.#handlers.delete(eventHandlers);
  }

  addIndexers(indexers: Record<string, IndexFunc<T>>): void {
    this.#cache.addIndexers(indexers);
  }

  /** True once the first LIST has been delivered. */
  hasSynced(): boolean {
    return this.#synced;
  }

  /** Whether the cache has synced and, while list or watch keep failing, why. */
  syncState(): { synced: boolean; error?: string } {
    return { synced: this.#synced, ...(this.#lastError !== undefined ? { error: this.#lastError } : {}) };
  }

  /** Resolves true once synced, false if the signal aborts first. */
  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.#synced) return Promise.resolve(true);
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onAbort = (): void => resolve(false);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#syncWaiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      });
    });
  }

  /** The cached object, by namespace and name. */
  get(namespace: string | undefined, name: string): T | undefined {
    return this.#cache.get(namespace ? `${namespace}/${name}` : name);
  }

  getByKey(key: string): T | undefined {
    return this.#cache.get(key);
  }

  list(namespace?: string): T[] {
    return namespace === undefined ? this.#cache.list() : this.#cache.byIndex('byNamespace', namespace);
  }

  byIndex(name: string, value: string): T[] {
    return this.#cache.byIndex(name, value);
  }

  /** The resourceVersion the next watch resumes from. */
  get resourceVersion(): string {
    return this.#resourceVersion;
  }

  /** Starts the list/watch loop once; later calls return the same run. Resolves when the signal aborts. */
  run(signal: AbortSignal): Promise<void> {
    this.#running ??= this.#loop(signal);
    return this.#running;
  }

  async #loop(signal: AbortSignal): Promise<void> {
    let needList = true;
    while (!signal.aborted) {
      try {
        if (needList) {
          await this.#listAndReplace(signal);
          needList = false;
          this.#failures = 0;
        }
        const healthy = await this.#watchOnce(signal);
        if (healthy) this.#failures = 0;
        else await this.#backoff(signal, new Error('watch closed at once without events'));
      } catch (err) {
        if (signal.aborted) break;
        if (isGone(err)) {
          this.#log.info({ resourceVersion: this.#resourceVersion }, 'resourceVersion expired; re-listing');
          this.#resourceVersion = '';
          needList = true;
          continue;
        }
        await this.#backoff(signal, err);
      }
    }
  }

  async #backoff(signal: AbortSignal, err: unknown): Promise<void> {
    const initial = this.#o.backoffInitialMs ?? 800;
    const max = this.#o.backoffMaxMs ?? 30_000;
    const base = Math.min(initial * 2 ** this.#failures, max);
    this.#failures++;
    const delay = Math.round(base * (1 + this.#o.random.next()));
    const descriptor = this.descriptor as ResourceDescriptor<KubeObjectLike>;
    const why = isNotFound(err)
      ? `the API server does not serve ${resourceName(descriptor)}: ${this.#o.notServedHint?.(descriptor) ?? 'install its CustomResourceDefinition'}`
      : errorMessage(err);
    // The same failure again is news only at debug level: a missing CRD would otherwise log a line per retry for good.
    if (why !== this.#lastError) this.#log.warn({ err: why, retryInMs: delay }, 'list/watch failed; retrying');
    else this.#log.debug({ err: why, retryInMs: delay }, 'list/watch failed again; retrying');
    this.#lastError = why;
    try {
      await this.#o.clock.sleep(delay, signal);
    } catch {
      // aborted
    }
  }

  async #listAndReplace(signal: AbortSignal): Promise<void> {
    const list = await this.#o.client.list(this.descriptor, {
      namespace: this.#o.namespace,
      labelSelector: this.#o.labelSelector,
      fieldSelector: this.#o.fieldSelector,
      limit: this.#o.pageSize ?? DEFAULT_PAGE_SIZE,
      signal,
      transform: (o) => this.#transform(o as T),
    });
    const items = list.items;
    const cached = new Map(this.#cache.keys().map((k) => [k, this.#cache.get(k) as T]));
    const { added, updated, deleted } = diffRelist(cached, items);
    for (const o of deleted) this.#cache.delete(objectKey(o));
    for (const o of items) this.#cache.set(o);
    this.#resourceVersion = list.metadata.resourceVersion ?? '';
    for (const o of added) this.#emit((h) => h.onAdd?.(o));
    for (const [old, o] of updated) this.#emit((h) => h.onUpdate?.(old, o));
    for (const o of deleted) this.#emit((h) => h.onDelete?.(o));
    this.#lastError = undefined;
    if (!this.#synced) {
      this.#synced = true;
      for (const w of this.#syncWaiters.splice(0)) w();
    }
  }

  /** One watch; true if it delivered anything or lasted a while before ending normally. Throws on failure. */
  async #watchOnce(signal: AbortSignal): Promise<boolean> {
    const min = this.#o.minWatchTimeoutSeconds ?? 300;
    const timeoutSeconds = Math.floor(min * (1 + this.#o.random.next()));
    const inactivityMs = this.#o.inactivityTimeoutMs ?? timeoutSeconds * 1000 + 60_000;
    const watchAbort = new AbortController();
    const onOuterAbort = (): void => watchAbort.abort(signal.reason);
    signal.addEventListener('abort', onOuterAbort, { once: true });
    let stalled = false;
    const arm = (): { cancel(): void } =>
      this.#o.clock.setTimer(inactivityMs, () => {
        stalled = true;
        watchAbort.abort(new Error('watch inactivity timeout'));
      });
    let watchdog = arm();
    let events = 0;
    const startedAt = this.#o.clock.now();
    try {
      const stream = this.#o.client.watch(this.descriptor, {
        namespace: this.#o.namespace,
        labelSelector: this.#o.labelSelector,
        fieldSelector: this.#o.fieldSelector,
        resourceVersion: this.#resourceVersion,
        allowWatchBookmarks: true,
        timeoutSeconds,
        signal: watchAbort.signal,
      });
      for await (const ev of stream) {
        watchdog.cancel();
        watchdog = arm();
        events++;
        this.#apply(ev.type, ev.object);
      }
      if (stalled) throw new Error(`watch of ${this.descriptor.plural} silent for ${inactivityMs} ms; restarting`);
      // A watch that ended at once with nothing in it counts as a failure (backoff), so a server
      // that keeps closing watches is not hammered.
      return events > 0 || this.#o.clock.now() - startedAt >= 1000;
    } finally {
      watchdog.cancel();
      signal.removeEventListener('abort', onOuterAbort);
      watchAbort.abort();
    }
  }

  #apply(type: string, raw: T): void {
    const rv = raw.metadata?.resourceVersion;
    switch (type) {
      case 'BOOKMARK':
        if (rv) this.#resourceVersion = rv;
        return;
      case 'ERROR': {
        const status = statusFromJson(raw as unknown as JsonObject);
        throw new KubeApiError(status.code ?? 500, status);
      }
      case 'ADDED':
      case 'MODIFIED': {
        const obj = this.#transform(raw);
        const old = this.#cache.set(obj);
        if (rv) this.#resourceVersion = rv;
        if (old) this.#emit((h) => h.onUpdate?.(old, obj));
        else this.#emit((h) => h.onAdd?.(obj));
        return;
      }
      case 'DELETED': {
        const key = objectKey(raw);
        const old = this.#cache.delete(key);
        if (rv) this.#resourceVersion = rv;
        const last = old ?? this.#transform(raw);
        this.#emit((h) => h.onDelete?.(last));
        return;
      }
      default:
        throw new Error(`unknown watch event type ${type}`);
    }
  }

  #emit(fn: (eventHandlers: EventHandlers<T>) => void): void {
    for (const h of this.#handlers) this.#call(() => fn(h));
  }

  #call(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.#log.error({ err: errorMessage(err) }, 'informer event handler threw');
    }
  }
}

function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
