/**
 * The work queue of the built-in controllers (garbage collector, namespace lifecycle,
 * disruption), the lifecycle they share (StoreDrivenQueue) and the options they are all
 * constructed with.
 */
import type { Logger } from '../../lib/log.js';
import { NO_ACTIVITY, type ActivityTracker } from '../../lib/activity.js';
import type { Clock, Timer } from '../../lib/clock.js';
import type { Store, StoreEvent } from '../types.js';

/** What each built-in controller is constructed with. */
export interface BuiltinControllerOptions {
  store: Store;
  clock: Clock;
  logger: Logger;
  /** Receives queued work, so a virtual clock only jumps when the controllers are quiet. */
  activity?: ActivityTracker;
}

/** How a {@link DeferredQueue} is built. */
export interface DeferredQueueOptions<T> {
  name: string;
  clock: Clock;
  logger: Logger;
  activity?: ActivityTracker;
  /** Handles one item; a throw is logged and the item retried with exponential backoff. */
  process: (item: T) => void;
}

const RETRY_BASE_MS = 5;
const RETRY_MAX_MS = 60_000;
const MAX_RUNS_PER_DRAIN = 1000;

/**
 * A de-duplicating work queue for the built-in controllers. add() may be called from a store
 * listener: the work runs later, on a microtask, never inside the listener; items added while
 * draining (by the store events our own writes cause) run in the same drain, so one idle()
 * covers a whole cascade. Delayed work (addAfter) waits on the injected clock and does not count
 * as activity until it is due. Written by hand: client-go's workqueue has no TS equivalent, and
 * the operator's own queue (src/kube) may not be imported by the API server.
 */
export class DeferredQueue<T> {
  readonly #opts: DeferredQueueOptions<T>;
  readonly #activity: ActivityTracker;
  readonly #items = new Map<string, T>();
  readonly #timers = new Map<string, { due: number; timer: Timer }>();
  readonly #failures = new Map<string, number>();
  #idleWaiters: Array<() => void> = [];
  #endActivity: (() => void) | undefined;
  #scheduled = false;
  #stopped = false;

  constructor(options: DeferredQueueOptions<T>) {
    this.#opts = options;
    this.#activity = options.activity ?? NO_ACTIVITY;
  }

  /** Queues an item under a key (a queued key keeps one entry: the latest item). */
  add(key: string, item: T): void {
    if (this.#stopped) return;
    this.#items.set(key, item);
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#endActivity ??= this.#activity.begin(this.#opts.name);
    queueMicrotask(() => this.#drain());
  }

  /** Queues an item after a delay on the clock; an earlier pending delay for the key wins. */
  addAfter(key: string, item: T, ms: number): void {
    if (this.#stopped) return;
    if (ms <= 0) {
      this.add(key, item);
      return;
    }
    const due = this.#opts.clock.now() + ms;
    const pending = this.#timers.get(key);
    if (pending && pending.due <= due) return;
    pending?.timer.cancel();
    const timer = this.#opts.clock.setTimer(ms, () => {
      this.#timers.delete(key);
      this.add(key, item);
    });
    this.#timers.set(key, { due, timer });
  }

  /** Resolves when nothing is queued (delayed items do not count). */
  idle(): Promise<void> {
    if (!this.#scheduled && this.#items.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Accepts work again after stop(). */
  resume(): void {
    this.#stopped = false;
  }

  /** Drops all work and cancels timers; add() is ignored until resume(). */
  stop(): void {
    this.#stopped = true;
    this.#items.clear();
    for (const t of this.#timers.values()) t.timer.cancel();
    this.#timers.clear();
  }

  #drain(): void {
    const runs = new Map<string, number>();
    while (!this.#stopped) {
      const next = this.#items.entries().next();
      if (next.done === true) break;
      const [key, item] = next.value;
      this.#items.delete(key);
      const n = (runs.get(key) ?? 0) + 1;
      runs.set(key, n);
      if (n > MAX_RUNS_PER_DRAIN) {
        // A key that keeps re-queueing itself would never let the queue go idle: let time pass.
        this.#opts.logger.error(
          { key },
          `${this.#opts.name}: item re-queued itself ${MAX_RUNS_PER_DRAIN} times; deferring it`,
        );
        this.addAfter(key, item, RETRY_MAX_MS);
        continue;
      }
      try {
        this.#opts.process(item);
        this.#failures.delete(key);
      } catch (err) {
        const failures = (this.#failures.get(key) ?? 0) + 1;
        this.#failures.set(key, failures);
        const delay = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(failures - 1, 20));
        this.#opts.logger.warn({ err, key, retryInMs: delay }, `${this.#opts.name}: sync failed; retrying`);
        this.addAfter(key, item, delay);
      }
    }
    this.#scheduled = false;
    this.#items.clear();
    const end = this.#endActivity;
    this.#endActivity = undefined;
    end?.();
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }
}

/**
 * The lifecycle every built-in controller shares: a deferred work queue fed from the store's
 * change stream, started, stopped and waited on the same way. Controllers hold one and keep
 * only their own logic (what an event enqueues, what processing an item does).
 */
export class StoreDrivenQueue<T> {
  readonly queue: DeferredQueue<T>;
  readonly log: Logger;
  readonly #store: Store;
  #unsubscribe: (() => void) | undefined;

  constructor(options: BuiltinControllerOptions, name: string, process: (item: T) => void) {
    this.#store = options.store;
    this.log = options.logger.child({ controller: name });
    this.queue = new DeferredQueue<T>({
      name,
      clock: options.clock,
      logger: this.log,
      ...(options.activity ? { activity: options.activity } : {}),
      process,
    });
  }

  /** True between start() and stop(). */
  get running(): boolean {
    return this.#unsubscribe !== undefined;
  }

  /** Accepts work and subscribes the listener to every committed store change. */
  start(onEvent: (event: StoreEvent) => void): void {
    if (this.#unsubscribe) return;
    this.queue.resume();
    this.#unsubscribe = this.#store.subscribe(onEvent);
  }

  /** Unsubscribes and drops queued and delayed work. */
  stop(): void {
    this.#unsubscribe?.();
    this.#unsubscribe = undefined;
    this.queue.stop();
  }

  /** Resolves when no work is queued. */
  idle(): Promise<void> {
    return this.queue.idle();
  }
}
