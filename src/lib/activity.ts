/**
 * Quiescence tracking. Everything that schedules or carries work (work queues, HTTP requests
 * in flight, undelivered watch events) reports here, so that a virtual clock may jump to the
 * next timer only when the whole system is quiet (DESIGN.md §6). Production code passes
 * {@link NO_ACTIVITY}, which costs nothing.
 */
export interface ActivityTracker {
  /** Marks one unit of work as started; call the returned function exactly once when it ends. */
  begin(what: string): () => void;
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
