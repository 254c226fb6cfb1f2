/**
 * Shared informers: one informer (one LIST+WATCH) per resource and scope, however many
 * controllers ask for it. Informers asked for after start() are started at once.
 */
import type { KubeObjectLike, ResourceDescriptor } from '../api/resource.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import type { Random } from '../lib/random.js';
import type { KubeClient } from './client.js';
import type { IndexFunc } from './indexer.js';
import { Informer, resourceName, type InformerOptions, type InformerScope } from './informer.js';

export interface InformerFactoryOptions {
  client: KubeClient;
  clock: Clock;
  logger: Logger;
  random: Random;
  /** Defaults for every informer (page size, watch timeouts, backoff). */
  defaults?: Pick<
    InformerOptions<KubeObjectLike>,
    | 'pageSize'
    | 'minWatchTimeoutSeconds'
    | 'inactivityTimeoutMs'
    | 'backoffInitialMs'
    | 'backoffMaxMs'
    | 'notServedHint'
  >;
}

export interface InformerRequest<T extends KubeObjectLike> extends InformerScope {
  indexers?: Record<string, IndexFunc<T>>;
  /** Only honoured by the first request for this resource and scope. */
  transform?: (obj: T) => T;
}

/** Makes and shares informers. */
export class InformerFactory {
  readonly #o: InformerFactoryOptions;
  readonly #informers = new Map<string, Informer<KubeObjectLike>>();
  #signal: AbortSignal | undefined;
  readonly #runs: Array<Promise<void>> = [];

  constructor(options: InformerFactoryOptions) {
    this.#o = options;
  }

  /** The shared informer of a resource in a scope (made on first request). */
  informerFor<T extends KubeObjectLike>(
    resourceDescriptor: ResourceDescriptor<T>,
    request: InformerRequest<T> = {},
  ): Informer<T> {
    const key = [
      resourceDescriptor.group,
      resourceDescriptor.version,
      resourceDescriptor.plural,
      request.namespace ?? '',
      request.labelSelector ?? '',
      request.fieldSelector ?? '',
    ].join('|');
    let inf = this.#informers.get(key) as Informer<T> | undefined;
    if (!inf) {
      inf = new Informer<T>({
        ...this.#o.defaults,
        client: this.#o.client,
        descriptor: resourceDescriptor,
        clock: this.#o.clock,
        logger: this.#o.logger,
        random: this.#o.random,
        namespace: request.namespace,
        labelSelector: request.labelSelector,
        fieldSelector: request.fieldSelector,
        ...(request.transform ? { transform: request.transform } : {}),
      });
      this.#informers.set(key, inf as unknown as Informer<KubeObjectLike>);
      if (this.#signal) this.#runs.push(inf.run(this.#signal));
    }
    if (request.indexers) inf.addIndexers(request.indexers);
    return inf;
  }

  /** Starts every informer (and any made later) until the signal aborts. */
  start(signal: AbortSignal): void {
    if (this.#signal) return;
    this.#signal = signal;
    for (const inf of this.#informers.values()) this.#runs.push(inf.run(signal));
  }

  /** Resolves true when every informer has synced; false if the signal aborts first. */
  async waitForSync(signal?: AbortSignal): Promise<boolean> {
    const results = await Promise.all([...this.#informers.values()].map((i) => i.waitForSync(signal)));
    return results.every(Boolean);
  }

  /** The informers whose cache has not synced yet (`plural.group/version`), with why when they keep failing. */
  unsynced(): Array<{ resource: string; error?: string }> {
    const out: Array<{ resource: string; error?: string }> = [];
    for (const inf of this.#informers.values()) {
      const state = inf.syncState();
      if (!state.synced)
        out.push({
          resource: resourceName(inf.descriptor),
          ...(state.error !== undefined ? { error: state.error } : {}),
        });
    }
    return out;
  }

  /** Resolves when every started informer loop has ended (after the start signal aborted). */
  async stopped(): Promise<void> {
    await Promise.all(this.#runs);
  }
}
