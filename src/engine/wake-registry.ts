/**
 * Who waits for what: the controller notes, after each pass, what the object's stopping step
 * waits for; an informer event of a kind then wakes exactly the objects waiting on that kind,
 * and the time part becomes the reconcile's `requeueAfter`. In memory only: after a restart
 * every object is reconciled once anyway (the informers' initial list), which re-registers it.
 */
import type { WaitFor } from './step.js';

/** Keys (namespace/name) by the kinds they wait on. */
export class WakeRegistry {
  readonly #byKey = new Map<string, WaitFor>();

  /** Records what `key` waits for (replacing what it waited for before). */
  set(key: string, waitFor: WaitFor | undefined): void {
    if (!waitFor || (waitFor.until === undefined && (waitFor.kinds ?? []).length === 0)) this.#byKey.delete(key);
    else this.#byKey.set(key, waitFor);
  }

  /** Forgets `key` (deleted, finished). */
  clear(key: string): void {
    this.#byKey.delete(key);
  }

  /** What `key` waits for, if anything. */
  get(key: string): WaitFor | undefined {
    return this.#byKey.get(key);
  }

  /** The keys a change of `kind` should wake. */
  keysWaitingOn(kind: string): string[] {
    const out: string[] = [];
    for (const [key, w] of this.#byKey) if (w.kinds?.includes(kind)) out.push(key);
    return out;
  }

  /** Milliseconds until `key`'s time-based wake-up (at least 1), or undefined when it has none. */
  requeueAfter(key: string, now: number): number | undefined {
    const until = this.#byKey.get(key)?.until;
    return until === undefined ? undefined : Math.max(1, until - now);
  }
}
