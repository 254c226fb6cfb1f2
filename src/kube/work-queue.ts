/**
 * A rate-limited, delaying work queue of keys with client-go's semantics: a key waits in the
 * queue at most once (the dirty set), is never handed to two workers at once (the processing
 * set), and a key added while being processed is handed out again after done(). Delays run on
 * the injected Clock.
 *
 * Activity (for a virtual clock that waits for quiet): the queue counts as busy while a key is
 * being processed and not suspended (its reconcile is not waiting for time to pass), or while
 * keys are queued and a worker is free to take them. Keys queued behind workers that all wait
 * for time are no work until time moves, and neither are keys queued before any worker asked
 * for one (a controller's workers start once its caches have synced, which may need time: an
 * informer's list retried after Retry-After or a backoff).
 */
import { NO_ACTIVITY, type ActivityTracker } from '../lib/activity.js';
import type { Clock, Timer } from '../lib/clock.js';
import { defaultControllerRateLimiter, type RateLimiter } from './rate-limiter.js';
import type { WorkQueueMetrics } from './runtime-metrics.js';

/** Counters for the metrics exporter (workqueue_* in client-go). Times in ms. */
export interface WorkQueueStats {
  depth: number;
  adds: number;
  retries: number;
  processing: number;
  waiting: number;
  /** Time from add to get: sum and count (queue latency). */
  latencySumMs: number;
  latencyCount: number;
  /** Time from get to done: sum and count (work duration). */
  workSumMs: number;
  workCount: number;
  /** Age of the longest item still being processed. */
  longestRunningMs: number;
  /** Sum of the ages of the items still being processed. */
  unfinishedMs: number;
}

export interface WorkQueueOptions<K> {
  name: string;
  clock: Clock;
  activity?: ActivityTracker;
  rateLimiter?: RateLimiter<K>;
  /** Workers that take keys (the controller's); queued keys count as activity only while one is free. Default: unbounded. */
  workers?: number;
  /** Reports adds, retries, queue and work durations (the `workqueue_*` families). */
  metrics?: WorkQueueMetrics;
}

/** The queue. `get()` resolves with a key, or undefined once shut down and empty. */
export class WorkQueue<K = string> {
  readonly name: string;
  readonly #clock: Clock;
  readonly #activity: ActivityTracker;
  readonly #limiter: RateLimiter<K>;
  readonly #queue: K[] = [];
  readonly #dirty = new Set<K>();
  readonly #processing = new Map<K, number>();
  readonly #addedAt = new Map<K, number>();
  readonly #workers: number;
  readonly #metrics: WorkQueueMetrics | undefined;
  /**
   * Keys being processed whose reconcile waits for time (see suspend()), with how many sleeps
   * each waits in: a reconcile may sleep in several branches at once (two requests retried after
   * the same 503), and it is busy again only when the last of them has ended.
   */
  readonly #suspended = new Map<K, { sleeps: number }>();
  /** The queue's activity unit while it is busy (see the module comment). */
  #unit: (() => void) | undefined;
  /** A worker has asked for a key (get()). */
  #started = false;
  readonly #waiting = new Map<K, { readyAt: number; timer: Timer }>();
  readonly #getters: Array<(key: K | undefined) => void> = [];
  readonly #drainers: Array<() => void> = [];
  #shuttingDown = false;
  #stats = { adds: 0, retries: 0, latencySumMs: 0, latencyCount: 0, workSumMs: 0, workCount: 0 };

  constructor(options: WorkQueueOptions<K>) {
    this.name = options.name;
    this.#clock = options.clock;
    this.#activity = options.activity ?? NO_ACTIVITY;
    this.#limiter = options.rateLimiter ?? defaultControllerRateLimiter<K>(options.clock);
    this.#workers = options.workers ?? Number.POSITIVE_INFINITY;
    this.#metrics = options.metrics;
  }

  /** Marks a key as needing processing. */
  add(key: K): void {
    if (this.#shuttingDown || this.#dirty.has(key)) return;
    this.#stats.adds++;
    this.#metrics?.added();
    this.#dirty.add(key);
    this.#addedAt.set(key, this.#clock.now());
    if (!this.#processing.has(key)) this.#push(key);
    this.#refreshActivity();
  }

  /** Adds the key after ms; if it is already waiting, the earlier time wins. */
  addAfter(key: K, ms: number): void {
    if (this.#shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const readyAt = this.#clock.now() + ms;
    const existing = this.#waiting.get(key);
    if (existing && existing.readyAt <= readyAt) return;
    existing?.timer.cancel();
    const timer = this.#clock.setTimer(ms, () => {
      const w = this.#waiting.get(key);
      if (w?.timer !== timer) return;
      this.#waiting.delete(key);
      this.add(key);
    });
    this.#waiting.set(key, { readyAt, timer });
  }

  /** Adds the key after the rate limiter's delay for it (counts a retry). */
  addRateLimited(key: K): void {
    if (this.#shuttingDown) return;
    this.#stats.retries++;
    this.#metrics?.retried();
    this.addAfter(key, this.#limiter.when(key));
  }

  /** Clears the key's backoff (call after success). */
  forget(key: K): void {
    this.#limiter.forget(key);
  }

  /** Failures counted for the key. */
  numRequeues(key: K): number {
    return this.#limiter.numRequeues(key);
  }

  /** The next key to process; undefined once the queue is shut down and empty. */
  get(): Promise<K | undefined> {
    this.#started = true;
    const key = this.#queue.shift();
    if (key !== undefined) {
      this.#take(key);
      this.#refreshActivity();
      return Promise.resolve(key);
    }
    if (this.#shuttingDown) return Promise.resolve(undefined);
    return new Promise((resolve) => this.#getters.push(resolve));
  }

  /** Ends processing of a key got from get(); re-queues it if it was added meanwhile. */
  done(key: K): void {
    const started = this.#processing.get(key);
    if (started === undefined) return;
    this.#processing.delete(key);
    this.#suspended.delete(key);
    const worked = this.#clock.now() - started;
    this.#stats.workSumMs += worked;
    this.#stats.workCount++;
    this.#metrics?.worked(worked);
    if (this.#dirty.has(key)) this.#push(key);
    this.#refreshActivity();
    if (this.#processing.size === 0) for (const d of this.#drainers.splice(0)) d();
  }

  /**
   * Marks a key being processed as waiting for time (a backoff sleep in its reconcile) until the
   * returned function is called: a virtual clock waiting for quiet must let that time pass. A
   * no-op for a key not being processed.
   */
  suspend(key: K): () => void {
    if (!this.#processing.has(key)) return () => undefined;
    let entry = this.#suspended.get(key);
    if (entry === undefined) {
      entry = { sleeps: 0 };
      this.#suspended.set(key, entry);
      this.#refreshActivity();
    }
    entry.sleeps++;
    const suspended = entry;
    let resumed = false;
    return () => {
      // A resume of an earlier processing of the key (its entry was dropped by done()) changes nothing.
      if (resumed || this.#suspended.get(key) !== suspended) return;
      resumed = true;
      if (--suspended.sleeps > 0) return;
      this.#suspended.delete(key);
      this.#refreshActivity();
    };
  }

  /** Stops accepting keys; getters receive what is queued, then undefined. Pending delays are dropped. */
  shutDown(): void {
    if (this.#shuttingDown) return;
    this.#shuttingDown = true;
    for (const w of this.#waiting.values()) w.timer.cancel();
    this.#waiting.clear();
    for (const g of this.#getters.splice(0)) g(undefined);
    this.#refreshActivity();
  }

  /** shutDown(), then resolves when every key being processed is done. */
  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.#processing.size === 0) return;
    await new Promise<void>((resolve) => this.#drainers.push(resolve));
  }

  get shuttingDown(): boolean {
    return this.#shuttingDown;
  }

  /** Keys queued and not yet handed out. */
  get length(): number {
    return this.#queue.length;
  }

  /** Counters for metrics. */
  stats(): WorkQueueStats {
    const now = this.#clock.now();
    let longest = 0;
    let unfinished = 0;
    for (const started of this.#processing.values()) {
      longest = Math.max(longest, now - started);
      unfinished += now - started;
    }
    return {
      ...this.#stats,
      depth: this.#queue.length,
      processing: this.#processing.size,
      waiting: this.#waiting.size,
      longestRunningMs: longest,
      unfinishedMs: unfinished,
    };
  }

  /** True while the queue has work that needs no time to pass (see the module comment). */
  #busy(): boolean {
    if (this.#processing.size > this.#suspended.size) return true;
    return this.#started && !this.#shuttingDown && this.#queue.length > 0 && this.#processing.size < this.#workers;
  }

  #refreshActivity(): void {
    const busy = this.#busy();
    if (busy && this.#unit === undefined) this.#unit = this.#activity.begin(`workqueue ${this.name}`);
    else if (!busy && this.#unit !== undefined) {
      const end = this.#unit;
      this.#unit = undefined;
      end();
    }
  }

  #push(key: K): void {
    const getter = this.#getters.shift();
    if (getter) getter(this.#take(key));
    else this.#queue.push(key);
  }

  #take(key: K): K {
    const now = this.#clock.now();
    const waited = now - (this.#addedAt.get(key) ?? now);
    this.#stats.latencySumMs += waited;
    this.#metrics?.queued(waited);
    this.#stats.latencyCount++;
    this.#addedAt.delete(key);
    this.#processing.set(key, now);
    this.#dirty.delete(key);
    return key;
  }
}
