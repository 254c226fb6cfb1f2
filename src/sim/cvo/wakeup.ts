/**
 * A loop's sleep that ends on a timer or on a wake-up, and that tells the quiescence tracker
 * the truth: the loop counts as busy from the moment it is woken (synchronously, in the waking
 * callback) until it goes back to sleep, so a virtual clock never jumps past work about to run.
 */
import { NO_ACTIVITY, type ActivityTracker } from '../../lib/activity.js';
import type { Clock, Timer } from '../../lib/clock.js';

export class Wakeup {
  readonly #clock: Clock;
  readonly #activity: ActivityTracker;
  readonly #label: string;
  #pending = false;
  #resolve: (() => void) | undefined;
  #timer: Timer | undefined;
  #end: (() => void) | undefined;
  #unlisten: (() => void) | undefined;

  /** Starts busy: the loop is about to run. */
  constructor(clock: Clock, activity: ActivityTracker | undefined, label: string) {
    this.#clock = clock;
    this.#activity = activity ?? NO_ACTIVITY;
    this.#label = label;
    this.#end = this.#activity.begin(label);
  }

  /** Ends the current or next sleep at once. */
  wake(): void {
    if (this.#resolve) this.#fire();
    else this.#pending = true;
  }

  /** Sleeps up to ms (undefined: until woken); resolves at once when a wake-up is pending or the signal aborted. */
  async sleep(ms: number | undefined, signal: AbortSignal): Promise<void> {
    if (this.#pending || signal.aborted) {
      this.#pending = false;
      return;
    }
    this.#end?.();
    this.#end = undefined;
    await new Promise<void>((resolve) => {
      this.#resolve = resolve;
      if (ms !== undefined) this.#timer = this.#clock.setTimer(ms, () => this.#fire());
      const onAbort = (): void => this.#fire();
      signal.addEventListener('abort', onAbort, { once: true });
      this.#unlisten = () => signal.removeEventListener('abort', onAbort);
    });
  }

  /** Releases the busy mark (the loop now waits only on tracked work or clock timers). */
  release(): void {
    this.#end?.();
    this.#end = undefined;
  }

  #fire(): void {
    const resolve = this.#resolve;
    if (!resolve) return;
    this.#resolve = undefined;
    this.#timer?.cancel();
    this.#timer = undefined;
    this.#unlisten?.();
    this.#unlisten = undefined;
    this.#end ??= this.#activity.begin(this.#label);
    resolve();
  }
}
