/**
 * Timers that end gracefully deleted pods when their grace period is over, on the injected
 * clock (the store's 'expire' mode: no kubelet confirms the termination).
 */
import type { Clock, Timer } from '../../lib/clock.js';
import type { KubeObject } from '../types.js';

/** One timer per pod key (`namespace/name`). */
export class PodTerminationTimers {
  readonly #clock: Clock;
  readonly #timers = new Map<string, Timer>();

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /**
   * (Re)arms the timer of a pod: when its deletionTimestamp comes, `onDue` runs. A pod without a
   * pending grace period only has its timer cancelled.
   */
  arm(key: string, pod: KubeObject, onDue: () => void): void {
    this.cancel(key);
    const m = pod.metadata;
    const grace = m.deletionGracePeriodSeconds;
    if (typeof m.deletionTimestamp !== 'string' || typeof grace !== 'number' || grace <= 0) return;
    const due = Date.parse(m.deletionTimestamp);
    const timer = this.#clock.setTimer(Math.max(0, due - this.#clock.now()), () => {
      this.#timers.delete(key);
      onDue();
    });
    this.#timers.set(key, timer);
  }

  /** Cancels the timer of one pod, if any. */
  cancel(key: string): void {
    this.#timers.get(key)?.cancel();
    this.#timers.delete(key);
  }

  /** Cancels every timer. */
  cancelAll(): void {
    for (const t of this.#timers.values()) t.cancel();
    this.#timers.clear();
  }
}
