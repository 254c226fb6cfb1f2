/**
 * The CVO's status write rate limit: a token bucket of `burst` tokens refilled one per
 * `intervalMs` (`statusInterval: 15 * time.Second`, bucket 2). Requests coalesce: at most one
 * write runs at a time, and a request made meanwhile causes one more write after it. Writes can
 * be held (the CVO restarting itself) and are done when released.
 */
import { NO_ACTIVITY, type ActivityTracker } from '../../lib/activity.js';
import type { Clock, Timer } from '../../lib/clock.js';

export interface ThrottleOptions {
  clock: Clock;
  activity?: ActivityTracker | undefined;
  intervalMs: number;
  burst: number;
  write: () => Promise<void>;
  onError: (err: unknown) => void;
}

export class ThrottledWriter {
  readonly #o: ThrottleOptions;
  readonly #activity: ActivityTracker;
  #tokens: number;
  #refilledAt: number;
  #dirty = false;
  #running = false;
  #held = false;
  #timer: Timer | undefined;
  #stopped = false;
  /** Virtual times of the writes done (for tests and reports). */
  readonly writes: number[] = [];

  constructor(options: ThrottleOptions) {
    this.#o = options;
    this.#activity = options.activity ?? NO_ACTIVITY;
    this.#tokens = options.burst;
    this.#refilledAt = options.clock.now();
  }

  /** Asks for a write (now if a token is free, else when one is). */
  request(): void {
    if (this.#stopped) return;
    this.#dirty = true;
    this.#pump();
  }

  /** Holds writes until released. */
  hold(held: boolean): void {
    this.#held = held;
    if (!held) this.#pump();
  }

  stop(): void {
    this.#stopped = true;
    this.#timer?.cancel();
  }

  #refill(): void {
    const now = this.#o.clock.now();
    const gained = Math.floor((now - this.#refilledAt) / this.#o.intervalMs);
    if (gained > 0) {
      this.#tokens = Math.min(this.#o.burst, this.#tokens + gained);
      this.#refilledAt = this.#tokens === this.#o.burst ? now : this.#refilledAt + gained * this.#o.intervalMs;
    }
  }

  #pump(): void {
    if (!this.#dirty || this.#running || this.#held || this.#stopped) return;
    this.#refill();
    if (this.#tokens < 1) {
      if (!this.#timer) {
        const wait = this.#refilledAt + this.#o.intervalMs - this.#o.clock.now();
        this.#timer = this.#o.clock.setTimer(Math.max(1, wait), () => {
          this.#timer = undefined;
          this.#pump();
        });
      }
      return;
    }
    this.#tokens--;
    this.#dirty = false;
    this.#running = true;
    const end = this.#activity.begin('cvo status write');
    this.writes.push(this.#o.clock.now());
    this.#o
      .write()
      .catch((err: unknown) => this.#o.onError(err))
      .finally(() => {
        this.#running = false;
        end();
        this.#pump();
      });
  }
}
