/**
 * Requeue rate limiters with client-go's semantics (k8s.io/client-go/util/workqueue):
 * per-item exponential backoff, an overall token bucket, and the max of several limiters.
 * `when(item)` both answers the delay and records the attempt.
 */
import type { Clock } from '../lib/clock.js';

export interface RateLimiter<K> {
  /** Delay in ms before the item may be retried; counts one more failure. */
  when(item: K): number;
  /** Clears the item's failure history (after success). */
  forget(item: K): void;
  /** Failures recorded for the item since the last forget. */
  numRequeues(item: K): number;
}

/** base · 2^failures, capped at max (client-go ItemExponentialFailureRateLimiter). */
export class ItemExponentialRateLimiter<K> implements RateLimiter<K> {
  readonly #failures = new Map<K, number>();
  readonly #baseMs: number;
  readonly #maxMs: number;

  constructor(baseMs: number, maxMs: number) {
    this.#baseMs = baseMs;
    this.#maxMs = maxMs;
  }

  when(item: K): number {
    const exp = this.#failures.get(item) ?? 0;
    this.#failures.set(item, exp + 1);
    const delay = this.#baseMs * 2 ** exp;
    return Number.isFinite(delay) && delay <= this.#maxMs ? delay : this.#maxMs;
  }

  forget(item: K): void {
    this.#failures.delete(item);
  }

  numRequeues(item: K): number {
    return this.#failures.get(item) ?? 0;
  }
}

/**
 * An overall token bucket (golang.org/x/time/rate Reserve semantics): `burst` tokens, refilled
 * at `qps`; every when() takes one token, and a negative balance is the wait.
 */
export class BucketRateLimiter<K> implements RateLimiter<K> {
  readonly #qps: number;
  readonly #burst: number;
  readonly #clock: Clock;
  #tokens: number;
  #last: number;

  constructor(options: { qps: number; burst: number; clock: Clock }) {
    this.#qps = options.qps;
    this.#burst = options.burst;
    this.#clock = options.clock;
    this.#tokens = options.burst;
    this.#last = options.clock.now();
  }

  when(_item: K): number {
    const now = this.#clock.now();
    if (now > this.#last) {
      this.#tokens = Math.min(this.#burst, this.#tokens + ((now - this.#last) / 1000) * this.#qps);
      this.#last = now;
    }
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : Math.ceil((-this.#tokens / this.#qps) * 1000);
  }

  forget(_item: K): void {}

  numRequeues(_item: K): number {
    return 0;
  }
}

/** The longest delay of several limiters; requeues are the most any of them counts. */
export class MaxOfRateLimiter<K> implements RateLimiter<K> {
  readonly #limiters: ReadonlyArray<RateLimiter<K>>;

  constructor(...limiters: Array<RateLimiter<K>>) {
    this.#limiters = limiters;
  }

  when(item: K): number {
    let max = 0;
    for (const l of this.#limiters) max = Math.max(max, l.when(item));
    return max;
  }

  forget(item: K): void {
    for (const l of this.#limiters) l.forget(item);
  }

  numRequeues(item: K): number {
    let max = 0;
    for (const l of this.#limiters) max = Math.max(max, l.numRequeues(item));
    return max;
  }
}

/** client-go's DefaultControllerRateLimiter: max(5 ms·2^n capped at 1000 s, 10 qps / burst 100). */
export function defaultControllerRateLimiter<K>(clock: Clock): RateLimiter<K> {
  return new MaxOfRateLimiter<K>(
    new ItemExponentialRateLimiter<K>(5, 1000_000),
    new BucketRateLimiter<K>({ qps: 10, burst: 100, clock }),
  );
}
