/**
 * The window of recent changes of one resource type that watches resume from, bounded the way
 * kube-apiserver's watch cache bounds its history: by count and by age. It keeps at most
 * `maxSize` changes; of those, changes older than `maxAgeMs` (server clock) are dropped, except
 * the newest `minSize` (kube: a capacity between 100 and 102,400 sized to hold the last 75 s).
 * A resourceVersion older than the newest dropped change can no longer be resumed from (410).
 *
 * A deque over an array: dropped slots are cleared at once, so nothing outside the window stays
 * reachable, and the array is compacted when its dead prefix outgrows the live part.
 */

/** What the window needs of a change: its resourceVersion and when it happened. */
export interface WindowEntry {
  rv: number;
  /** Server time of the change (ms). */
  at: number;
}

export interface EventWindowOptions {
  maxSize: number;
  maxAgeMs: number;
  /** Changes kept whatever their age (default 100, never more than maxSize). */
  minSize?: number;
}

/** Changes kept whatever their age, as kube's watch cache keeps its lower-bound capacity. */
export const WINDOW_MIN_SIZE = 100;

export class EventWindow<E extends WindowEntry> {
  readonly #maxSize: number;
  readonly #maxAgeMs: number;
  readonly #minSize: number;
  #entries: Array<E | undefined> = [];
  #start = 0;
  #droppedRv = 0;

  constructor(options: EventWindowOptions) {
    this.#maxSize = Math.max(1, options.maxSize);
    this.#maxAgeMs = options.maxAgeMs;
    this.#minSize = Math.min(options.minSize ?? WINDOW_MIN_SIZE, this.#maxSize);
  }

  /** resourceVersion of the newest change no longer in the window (0: nothing dropped). */
  get droppedRv(): number {
    return this.#droppedRv;
  }

  /** Changes in the window. */
  get size(): number {
    return this.#entries.length - this.#start;
  }

  /** Appends a change (newest last) and drops what the count bound no longer allows. */
  push(entry: E): void {
    this.#entries.push(entry);
    while (this.size > this.#maxSize) this.#dropOldest();
    this.#evictOld(entry.at);
  }

  /** Drops the changes older than the age bound at `now`, beyond the newest minSize. */
  evict(now: number): void {
    this.#evictOld(now);
  }

  /** The changes after resourceVersion `rv`, oldest first. */
  *after(rv: number): Generator<E> {
    const entries = this.#entries;
    for (let i = this.#start; i < entries.length; i++) {
      const e = entries[i]!;
      if (e.rv > rv) yield e;
    }
  }

  /** Forgets every change; resourceVersions up to `rv` can no longer be resumed from. */
  clear(rv: number): void {
    this.#entries = [];
    this.#start = 0;
    this.#droppedRv = Math.max(this.#droppedRv, rv);
  }

  #evictOld(now: number): void {
    const oldest = now - this.#maxAgeMs;
    while (this.size > this.#minSize && this.#entries[this.#start]!.at < oldest) this.#dropOldest();
  }

  #dropOldest(): void {
    const entries = this.#entries;
    this.#droppedRv = entries[this.#start]!.rv;
    entries[this.#start] = undefined;
    this.#start++;
    if (this.#start === entries.length) {
      this.#entries = [];
      this.#start = 0;
    } else if (this.#start >= 1024 && this.#start * 2 >= entries.length) {
      entries.splice(0, this.#start);
      this.#start = 0;
    }
  }
}
