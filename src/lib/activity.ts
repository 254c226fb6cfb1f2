/**
 * Quiescence tracking. Everything that schedules or carries work (work queues, HTTP requests in
 * flight, undelivered watch events) reports here, so that a virtual clock may jump to the next
 * timer only when the whole system is quiet (docs/design/engine.md#quiescence-and-virtual-time).
 * Production code passes {@link NO_ACTIVITY}, which costs nothing.
 */
export interface ActivityTracker {
  /** Marks one unit of work as started; call the returned function exactly once when it ends. */
  begin(what: string): () => void;
}

/**
 * Suspenders of the units of work that signals belong to (see {@link signalOfActivity}). A
 * WeakMap keyed by the signal, not AsyncLocalStorage: on Node 20 an active AsyncLocalStorage made
 * promise-heavy code (the whole simulation) about 2.7 times slower, and every operator call
 * already takes the signal of the work it belongs to.
 */
const suspenders = new WeakMap<AbortSignal, () => () => void>();

/**
 * A signal for one unit of work (a reconcile): it aborts when `parent` does, and a sleep on a
 * Clock given this signal suspends the unit for the sleep through `suspend` (which returns the
 * function that resumes it), so that a virtual clock waiting for quiet can let the sleep end.
 * Call `release` when the unit ends.
 */
export function signalOfActivity(
  parent: AbortSignal,
  suspend: () => () => void,
): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) onAbort();
  else parent.addEventListener('abort', onAbort, { once: true });
  suspenders.set(controller.signal, suspend);
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', onAbort) };
}

/**
 * Suspends the unit of work a signal belongs to, if any ({@link signalOfActivity}); returns the
 * function that resumes it. Signals derived from it (`AbortSignal.any`, timeouts) are not known.
 */
export function suspendActivityOf(signal: AbortSignal | undefined): () => void {
  const suspend = signal === undefined ? undefined : suspenders.get(signal);
  return suspend === undefined ? noop : suspend();
}

/** A tracker that tracks nothing. */
export const NO_ACTIVITY: ActivityTracker = {
  begin: () => noop,
};

function noop(): void {}

/** Counts outstanding work and tells waiters when it drops to zero. */
export class ActivityCounter implements ActivityTracker {
  #busy = new Map<string, number>();
  #total = 0;
  #idleWaiters: Array<() => void> = [];

  begin(what: string): () => void {
    this.#total++;
    this.#busy.set(what, (this.#busy.get(what) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.#total--;
      const n = (this.#busy.get(what) ?? 1) - 1;
      if (n === 0) this.#busy.delete(what);
      else this.#busy.set(what, n);
      if (this.#total === 0) {
        const waiters = this.#idleWaiters;
        this.#idleWaiters = [];
        for (const w of waiters) w();
      }
    };
  }

  /** Units of work outstanding. */
  get busy(): number {
    return this.#total;
  }

  /** What is outstanding, by label (for diagnosing a system that never goes quiet). */
  snapshot(): Record<string, number> {
    return Object.fromEntries(this.#busy);
  }

  /** Resolves when nothing is outstanding. */
  idle(): Promise<void> {
    if (this.#total === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }
}
