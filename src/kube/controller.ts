/**
 * A controller on controller-runtime's model: watch declarations turn informer events into
 * keys on a rate-limited work queue, and N workers run `reconcile(key)`. A failing reconcile
 * (thrown or rejected) is logged and retried with backoff; it never stops the process.
 */
import type { KubeObjectLike, ResourceDescriptor } from '../api/resource.js';
import { apiVersion, splitApiVersion } from '../api/resource.js';
import { signalOfActivity, type ActivityTracker } from '../lib/activity.js';
import type { Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import { objectKey } from './indexer.js';
import type { InformerFactory } from './informer-factory.js';
import type { InformerScope } from './informer.js';
import type { RateLimiter } from './rate-limiter.js';
import type { ControllerMetrics, ReconcileResultLabel, RuntimeMetrics } from './runtime-metrics.js';
import { WorkQueue } from './work-queue.js';
import { errorMessage } from '../lib/errors.js';

export interface ReconcileResult {
  /** Reconcile this key again after ms (without `requeue`, the backoff is reset). */
  requeueAfter?: number;
  /** Reconcile again with rate-limited backoff; with `requeueAfter` too, whichever comes first. */
  requeue?: boolean;
}

export type Reconcile = (key: string, signal: AbortSignal) => Promise<ReconcileResult | void>;

/** Filters events before they become keys; a missing function lets the event through. */
export interface Predicate<T> {
  create?(obj: T): boolean;
  update?(oldObj: T, newObj: T): boolean;
  delete?(obj: T): boolean;
}

/** Passes updates only when metadata.generation changed (spec edits, not status writes). */
export function generationChanged<T extends KubeObjectLike>(): Predicate<T> {
  return { update: (o, n) => o.metadata?.generation !== n.metadata?.generation };
}

/** Passes updates only when the resourceVersion changed (drops relist no-ops). */
export function resourceVersionChanged<T extends KubeObjectLike>(): Predicate<T> {
  return { update: (o, n) => o.metadata?.resourceVersion !== n.metadata?.resourceVersion };
}

export interface WatchOptions<T> extends InformerScope {
  predicates?: Array<Predicate<T>>;
}

export interface ControllerOptions {
  name: string;
  reconcile: Reconcile;
  informers: InformerFactory;
  clock: Clock;
  logger: Logger;
  activity?: ActivityTracker;
  /** Concurrent reconciles (default 1); one key is never reconciled twice at once. */
  workers?: number;
  rateLimiter?: RateLimiter<string>;
}

interface Source {
  descriptor: ResourceDescriptor;
  scope: InformerScope;
  toKeys: (obj: KubeObjectLike) => string[];
  predicates: Array<Predicate<KubeObjectLike>>;
}

/** One reconciler with its queue and watches. */
export class Controller {
  readonly name: string;
  #queue: WorkQueue<string>;
  readonly #o: ControllerOptions;
  readonly #log: Logger;
  readonly #sources: Source[] = [];
  #forDescriptor: ResourceDescriptor | undefined;
  #running = false;
  #metrics: ControllerMetrics | undefined;

  constructor(options: ControllerOptions) {
    this.name = options.name;
    this.#o = options;
    this.#log = options.logger.child({ controller: options.name });
    this.#queue = this.#newQueue();
  }

  /** The current work queue (a new one is made when the controller is started again). */
  get queue(): WorkQueue<string> {
    return this.#queue;
  }

  #newQueue(): WorkQueue<string> {
    const o = this.#o;
    const metrics = this.#metrics;
    const queue: WorkQueue<string> = new WorkQueue<string>({
      name: o.name,
      clock: o.clock,
      ...(o.activity ? { activity: o.activity } : {}),
      ...(o.rateLimiter ? { rateLimiter: o.rateLimiter } : {}),
      workers: Math.max(1, o.workers ?? 1),
      ...(metrics ? { metrics: metrics.workQueue(() => queue.stats()) } : {}),
    });
    return queue;
  }

  /**
   * Reports to the controller-runtime families (`controller_runtime_*`, `workqueue_*`) from now
   * on. Call before start(): the queue is made anew so that it reports too.
   */
  instrument(metrics: RuntimeMetrics): void {
    if (this.#running) throw new Error(`controller ${this.name}: instrument() before start()`);
    this.#metrics = metrics.controller(this.name);
    this.#queue = this.#newQueue();
  }

  /** The primary kind: its own key is enqueued. */
  for<T extends KubeObjectLike>(resourceDescriptor: ResourceDescriptor<T>, options: WatchOptions<T> = {}): this {
    if (this.#forDescriptor) throw new Error(`controller ${this.name}: for() may be called once`);
    this.#forDescriptor = resourceDescriptor;
    return this.#add(resourceDescriptor, options, (o) => [objectKey(o)]);
  }

  /** A kind this controller creates: the key of the controlling owner (of the for() kind) is enqueued. */
  owns<T extends KubeObjectLike>(resourceDescriptor: ResourceDescriptor<T>, options: WatchOptions<T> = {}): this {
    const owner = this.#forDescriptor;
    if (!owner) throw new Error(`controller ${this.name}: call for() before owns()`);
    const ownerApiVersion = apiVersion(owner);
    return this.#add(resourceDescriptor, options, (options) => {
      const ref = options.metadata?.ownerReferences?.find((r) => r.controller === true);
      if (
        !ref ||
        ref.kind !== owner.kind ||
        splitApiVersion(ref.apiVersion).group !== splitApiVersion(ownerApiVersion).group
      )
        return [];
      const ns = owner.namespaced ? (options.metadata?.namespace ?? '') : '';
      return [ns ? `${ns}/${ref.name}` : ref.name];
    });
  }

  /** Any kind, mapped to keys by a function (for example all configs that reference a node). */
  watches<T extends KubeObjectLike>(
    resourceDescriptor: ResourceDescriptor<T>,
    map: (obj: T) => string[],
    options: WatchOptions<T> = {},
  ): this {
    return this.#add(resourceDescriptor, options, map);
  }

  #add<T extends KubeObjectLike>(
    resourceDescriptor: ResourceDescriptor<T>,
    options: WatchOptions<T>,
    toKeys: (obj: T) => string[],
  ): this {
    if (this.#running) throw new Error(`controller ${this.name}: watches must be declared before start()`);
    this.#sources.push({
      descriptor: resourceDescriptor,
      scope: {
        namespace: options.namespace,
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
      },
      toKeys: toKeys as (obj: KubeObjectLike) => string[],
      predicates: options.predicates ?? [],
    });
    return this;
  }

  /**
   * Registers the watches, waits for their caches, then runs the workers until the signal
   * aborts; resolves after the reconciles in flight have finished. It may be started again
   * afterwards (after a leadership change). Informers run on the factory's own signal: when
   * the factory was not started yet, this signal starts it.
   */
  async start(signal: AbortSignal): Promise<void> {
    if (this.#running) throw new Error(`controller ${this.name} already running`);
    this.#running = true;
    try {
      await this.#run(signal);
    } finally {
      this.#running = false;
    }
  }

  async #run(signal: AbortSignal): Promise<void> {
    if (this.#queue.shuttingDown) this.#queue = this.#newQueue();
    const queue = this.#queue;
    const informers = this.#sources.map((source) => {
      const inf = this.#o.informers.informerFor(source.descriptor, source.scope);
      const enqueue = (obj: KubeObjectLike): void => {
        try {
          for (const key of source.toKeys(obj)) queue.add(key);
        } catch (err) {
          this.#log.error({ err: errorMessage(err) }, 'mapping an event to keys failed');
        }
      };
      const unregister = inf.addHandlers({
        onAdd: (o) => source.predicates.every((p) => p.create?.(o) ?? true) && enqueue(o),
        onUpdate: (old, o) => source.predicates.every((p) => p.update?.(old, o) ?? true) && enqueue(o),
        onDelete: (o) => source.predicates.every((p) => p.delete?.(o) ?? true) && enqueue(o),
      });
      signal.addEventListener('abort', unregister, { once: true });
      return inf;
    });
    const onAbort = (): void => queue.shutDown();
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    this.#o.informers.start(signal);
    const synced = await Promise.all(informers.map((i) => i.waitForSync(signal)));
    if (!synced.every(Boolean)) {
      await queue.shutDownWithDrain();
      return;
    }
    this.#log.info({ workers: this.#o.workers ?? 1 }, 'caches synced; starting workers');
    const count = Math.max(1, this.#o.workers ?? 1);
    this.#metrics?.started(count);
    const workers = Array.from({ length: count }, () => this.#worker(queue, signal));
    await Promise.all(workers);
    await queue.shutDownWithDrain();
  }

  async #worker(queue: WorkQueue<string>, signal: AbortSignal): Promise<void> {
    for (;;) {
      const key = await queue.get();
      if (key === undefined) return;
      try {
        await this.#reconcileOne(queue, key, signal);
      } finally {
        queue.done(key);
      }
    }
  }

  async #reconcileOne(queue: WorkQueue<string>, key: string, signal: AbortSignal): Promise<void> {
    const metrics = this.#metrics;
    if (!metrics) {
      await this.#reconcileAndQueue(queue, key, signal);
      return;
    }
    const started = this.#o.clock.now();
    metrics.reconcileStarted();
    let outcome: ReconcileResultLabel | undefined;
    try {
      outcome = await this.#reconcileAndQueue(queue, key, signal);
    } finally {
      // A reconcile cut short by shutdown frees its worker but has no result to count.
      metrics.reconcileDone(outcome, this.#o.clock.now() - started);
    }
  }

  /**
   * Runs the reconcile and queues the key again as its result asks; returns the result as
   * controller-runtime labels it (a positive requeueAfter wins over requeue, as there).
   */
  async #reconcileAndQueue(
    queue: WorkQueue<string>,
    key: string,
    signal: AbortSignal,
  ): Promise<ReconcileResultLabel | undefined> {
    let result: ReconcileResult | void;
    // With activity tracking (a virtual clock), the reconcile gets a signal of its own, so that
    // a backoff sleep inside it (a Retry-After, a retry policy) suspends its work-queue unit.
    const unit = this.#o.activity ? signalOfActivity(signal, () => queue.suspend(key)) : undefined;
    try {
      result = await this.#o.reconcile(key, unit?.signal ?? signal);
    } catch (err) {
      if (signal.aborted) return undefined;
      this.#log.error(
        { key, err: errorMessage(err), requeues: queue.numRequeues(key) },
        'reconcile failed; will retry',
      );
      queue.addRateLimited(key);
      return 'error';
    } finally {
      unit?.release();
    }
    const after = result?.requeueAfter !== undefined && result.requeueAfter > 0 ? result.requeueAfter : undefined;
    if (result?.requeue) {
      queue.addRateLimited(key);
      if (after !== undefined) queue.addAfter(key, after);
    } else if (after !== undefined) {
      queue.forget(key);
      queue.addAfter(key, after);
    } else {
      queue.forget(key);
    }
    return after !== undefined ? 'requeue_after' : result?.requeue ? 'requeue' : 'success';
  }
}
