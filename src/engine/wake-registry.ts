/**
 * Who waits for what: the controller notes, after each pass, what the object's stopping step
 * waits for; an informer event of a kind then wakes exactly the objects waiting on that kind,
 * and the time part becomes the reconcile's `requeueAfter`. In memory only: after a restart
 * every object is reconciled once anyway (the informers' initial list), which re-registers it.
 *
 * A change that lands while a pass runs (often the pass's own write, seen before its wait is
 * registered) must not be lost: the registry counts changes per kind, a pass takes a
 * {@link WakeRegistry.snapshot} when it starts, and {@link WakeRegistry.set} says when a kind
 * the new wait names changed meanwhile, so the pass runs again at once.
 */
import type { WaitFor } from './step.js';

/** Keys (namespace/name) by the kinds they wait on. */
export class WakeRegistry {
  readonly #byKey = new Map<string, WaitFor>();
  readonly #changes = new Map<string, number>();

  /** The change counters now; take it when a pass starts and give it to {@link set}. */
  snapshot(): ReadonlyMap<string, number> {
    return new Map(this.#changes);
  }

  /**
   * Records what `key` waits for (replacing what it waited for before). With the snapshot taken
   * when the pass started, answers true when a kind the wait names changed meanwhile: the pass
   * must run again now, as that change woke nobody.
   */
  set(key: string, waitFor: WaitFor | undefined, since?: ReadonlyMap<string, number>): boolean {
    if (!waitFor || (waitFor.until === undefined && (waitFor.kinds ?? []).length === 0)) this.#byKey.delete(key);
    else this.#byKey.set(key, waitFor);
    if (!since) return false;
    return (waitFor?.kinds ?? []).some((k) => (this.#changes.get(k) ?? 0) !== (since.get(k) ?? 0));
  }

  /** A change of `kind` happened: counts it and returns the keys it wakes. */
  changed(kind: string): string[] {
    this.#changes.set(kind, (this.#changes.get(kind) ?? 0) + 1);
    return this.keysWaitingOn(kind);
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
