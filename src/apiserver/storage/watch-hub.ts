/**
 * Watches over the store: a bounded window of recent changes per resource type (so a client can
 * resume from a resourceVersion, or get 410 Expired when it is too old; see {@link EventWindow}
 * for what it keeps), selector filtering with
 * the watch cache's transitions (an object leaving the selector is sent as DELETED, one entering
 * it as ADDED), bookmarks, timeouts and a per-watcher queue limit.
 */
import type { Clock, Timer } from '../../lib/clock.js';
import { NO_ACTIVITY, type ActivityTracker } from '../../lib/activity.js';
import { apiErrors } from '../status.js';
import { apiVersionOf, type KubeObject, type ResourceType, type StoreEvent } from '../types.js';
import { coreEventToV1 } from './event-conversion.js';
import { isEventsV1, storageKey } from './served-type.js';
import type { MemoryStore } from './store.js';
import { EventWindow, type WindowEntry } from './event-window.js';

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';

/** One event of a watch stream. Objects are shared between watchers: read-only. */
/** Changes kept per resource type for resuming watches, at most (kube's watch cache is bounded alike). */
export const DEFAULT_WATCH_WINDOW_SIZE = 10_000;

export interface WatchEvent {
  type: WatchEventType;
  object: KubeObject;
}

export interface WatchOptions {
  /** Restrict to one namespace (namespaced types). */
  namespace?: string;
  /** Start after this resourceVersion; unset or '0' starts with ADDED events for the current state. */
  resourceVersion?: string;
  /** Object filter (labels, fields); decides the ADDED/DELETED transitions. */
  filter?: (obj: KubeObject) => boolean;
  allowBookmarks?: boolean;
  /** With allowBookmarks and no resourceVersion: end the initial ADDED events with a marked bookmark. */
  sendInitialEvents?: boolean;
  timeoutSeconds?: number;
  /** Served version (multi-version custom resources); objects are shown with this apiVersion. */
  version?: string;
}

export interface WatchHubOptions {
  clock: Clock;
  /** At most this many changes kept per resource type for resuming watches (default 10,000). */
  windowSize?: number;
  /** Changes older than this (server clock) are dropped beyond the newest 100 of a type (default 75 s). */
  windowAgeMs?: number;
  /** Events queued for one watcher before it is ended (default 65,536). */
  maxQueue?: number;
  /** Interval of bookmark events (default 60 s). */
  bookmarkIntervalMs?: number;
  activity?: ActivityTracker;
}

interface Record_ extends WindowEntry {
  event: StoreEvent;
  /** Converted forms of the objects (other versions, events.k8s.io), made on first use. */
  views: Map<string, KubeObject> | undefined;
}

/** One open watch. The consumer takes batches of events and acks each batch once written. */
export class Watch {
  readonly #queue: WatchEvent[] = [];
  readonly #hub: WatchHub;
  #waiter: (() => void) | undefined;
  #done = false;
  #endBusy: (() => void) | undefined;
  readonly #activity: ActivityTracker;
  readonly #maxQueue: number;
  /** Why the watch ended early ('overflow'), if it did. */
  endReason: 'overflow' | 'timeout' | 'closed' | undefined;
  readonly rt: ResourceType;
  readonly options: WatchOptions;
  readonly timers: Timer[] = [];

  constructor(hub: WatchHub, rt: ResourceType, options: WatchOptions, activity: ActivityTracker, maxQueue: number) {
    this.#hub = hub;
    this.rt = rt;
    this.options = options;
    this.#activity = activity;
    this.#maxQueue = maxQueue;
  }

  get done(): boolean {
    return this.#done;
  }

  /** Queues an event (internal to the hub). */
  push(ev: WatchEvent): void {
    if (this.#done) return;
    if (this.#queue.length >= this.#maxQueue) {
      this.end('overflow');
      return;
    }
    if (this.#queue.length === 0 && !this.#endBusy) this.#endBusy = this.#activity.begin('watch-event');
    this.#queue.push(ev);
    this.#wake();
  }

  /** Everything queued, in order (empty when nothing is pending). */
  take(): WatchEvent[] {
    return this.#queue.splice(0);
  }

  /** Tells the watch the batch taken last has been written. */
  ack(): void {
    if (this.#queue.length === 0 && this.#endBusy) {
      const end = this.#endBusy;
      this.#endBusy = undefined;
      end();
    }
  }

  /** Resolves when events are queued or the watch has ended. */
  wait(): Promise<void> {
    if (this.#queue.length > 0 || this.#done) return Promise.resolve();
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  /** Ends the watch; queued events are dropped on overflow, kept otherwise. */
  end(reason: 'overflow' | 'timeout' | 'closed' = 'closed'): void {
    if (this.#done) return;
    this.#done = true;
    this.endReason = reason;
    if (reason === 'overflow') this.#queue.length = 0;
    for (const t of this.timers) t.cancel();
    this.#hub.remove(this);
    if (this.#queue.length === 0) this.ack();
    this.#wake();
  }

  #wake(): void {
    const w = this.#waiter;
    this.#waiter = undefined;
    w?.();
  }
}

/** Fans store changes out to watches. */
export class WatchHub {
  readonly #store: MemoryStore;
  readonly #clock: Clock;
  readonly #windowSize: number;
  readonly #windowAgeMs: number;
  readonly #maxQueue: number;
  readonly #bookmarkMs: number;
  readonly #activity: ActivityTracker;
  readonly #rings = new Map<string, EventWindow<Record_>>();
  /** Server time of the last sweep of every type's window by age. */
  #sweptAt = Number.NEGATIVE_INFINITY;
  readonly #watches = new Map<string, Set<Watch>>();
  readonly #unsubscribe: () => void;
  readonly #unsubscribeTypes: () => void;
  readonly #startRv: number;

  constructor(store: MemoryStore, options: WatchHubOptions) {
    this.#store = store;
    this.#clock = options.clock;
    this.#windowSize = options.windowSize ?? DEFAULT_WATCH_WINDOW_SIZE;
    this.#windowAgeMs = options.windowAgeMs ?? 75_000;
    this.#maxQueue = options.maxQueue ?? 65_536;
    this.#bookmarkMs = options.bookmarkIntervalMs ?? 60_000;
    this.#activity = options.activity ?? NO_ACTIVITY;
    this.#startRv = Number(store.currentResourceVersion());
    this.#unsubscribe = store.subscribe((e) => this.#onEvent(e));
    this.#unsubscribeTypes = store.onTypesChanged(() => this.#onTypesChanged());
  }

  /** Opens a watch; throws 410 Expired when resourceVersion is older than the window. */
  watch(rt: ResourceType, options: WatchOptions = {}): Watch {
    const key = storageKey(rt);
    const ring = this.#ring(key);
    const w = new Watch(this, rt, options, this.#activity, this.#maxQueue);
    const rvText = options.resourceVersion ?? '';
    if (rvText === '' || rvText === '0') {
      for (const obj of this.#store.list(rt, options.namespace)) {
        if (this.#passes(w, obj)) w.push({ type: 'ADDED', object: this.#version(w, obj) });
      }
      if (options.sendInitialEvents === true && options.allowBookmarks === true) {
        w.push(this.#bookmark(w, { 'k8s.io/initial-events-end': 'true' }));
      }
    } else {
      const rv = Number(rvText);
      if (!Number.isInteger(rv) || rv < 0) throw apiErrors.badRequest(`invalid resource version: ${rvText}`);
      ring.evict(this.#clock.now());
      const floor = Math.max(ring.droppedRv, this.#startRv);
      if (rv < floor) throw apiErrors.expired(`too old resource version: ${rv} (${floor})`);
      for (const rec of ring.after(rv)) this.#deliver(w, rec);
    }
    let set = this.#watches.get(key);
    if (!set) {
      set = new Set();
      this.#watches.set(key, set);
    }
    set.add(w);
    if (options.allowBookmarks === true) {
      const tick = (): void => {
        if (w.done) return;
        w.push(this.#bookmark(w));
        w.timers.push(this.#clock.setTimer(this.#bookmarkMs, tick));
      };
      w.timers.push(this.#clock.setTimer(this.#bookmarkMs, tick));
    }
    if (options.timeoutSeconds !== undefined && options.timeoutSeconds > 0) {
      w.timers.push(
        this.#clock.setTimer(options.timeoutSeconds * 1000, () => {
          if (options.allowBookmarks === true) w.push(this.#bookmark(w));
          w.end('timeout');
        }),
      );
    }
    return w;
  }

  /** The oldest resourceVersion a watch or list continuation of this type can resume from. */
  oldestResumable(rt: ResourceType): number {
    const ring = this.#ring(storageKey(rt));
    ring.evict(this.#clock.now());
    return Math.max(ring.droppedRv, this.#startRv);
  }

  /** Changes of a type in the window now (for tests and diagnostics). */
  windowLength(rt: ResourceType): number {
    return this.#rings.get(storageKey(rt))?.size ?? 0;
  }

  /** Number of open watches (for tests and diagnostics). */
  get size(): number {
    let n = 0;
    for (const s of this.#watches.values()) n += s.size;
    return n;
  }

  /** Removes a watch (called by Watch.end). */
  remove(watch: Watch): void {
    this.#watches.get(storageKey(watch.rt))?.delete(watch);
  }

  /** Ends every watch and stops listening to the store. */
  close(): void {
    this.#unsubscribe();
    this.#unsubscribeTypes();
    for (const set of [...this.#watches.values()]) for (const w of [...set]) w.end('closed');
  }

  #ring(key: string): EventWindow<Record_> {
    let r = this.#rings.get(key);
    if (!r) {
      r = new EventWindow<Record_>({ maxSize: this.#windowSize, maxAgeMs: this.#windowAgeMs });
      this.#rings.set(key, r);
    }
    return r;
  }

  #onEvent(event: StoreEvent): void {
    const key = storageKey(event.resourceType);
    const ring = this.#ring(key);
    const now = this.#clock.now();
    const rec: Record_ = { rv: Number(event.object.metadata.resourceVersion), at: now, event, views: undefined };
    ring.push(rec);
    // Types that stopped changing age out too: every type's window is swept at most once per second.
    if (now - this.#sweptAt >= 1000 || now < this.#sweptAt) {
      this.#sweptAt = now;
      for (const r of this.#rings.values()) r.evict(now);
    }
    const set = this.#watches.get(key);
    if (set) for (const w of set) this.#deliver(w, rec);
  }

  #onTypesChanged(): void {
    for (const set of [...this.#watches.values()]) {
      for (const w of [...set]) if (!this.#store.resourceType(w.rt.group, w.rt.resource)) w.end('closed');
    }
    // A type no longer served had its objects dropped without events: its window goes too, and
    // a watch from before that gets 410 (as a new kube-apiserver watch cache would answer).
    const served = new Set(this.#store.resourceTypes().map((t) => storageKey(t)));
    for (const [key, ring] of this.#rings)
      if (!served.has(key)) ring.clear(Number(this.#store.currentResourceVersion()));
  }

  #deliver(watch: Watch, rec: Record_): void {
    const { event } = rec;
    const nowPasses = this.#passes(watch, event.object);
    const oldPasses = event.oldObject !== undefined && this.#passes(watch, event.oldObject);
    if (event.type === 'ADDED') {
      if (nowPasses) watch.push({ type: 'ADDED', object: this.#view(watch, rec, 'cur') });
    } else if (event.type === 'DELETED') {
      if (nowPasses || oldPasses) watch.push({ type: 'DELETED', object: this.#view(watch, rec, 'cur') });
    } else if (nowPasses && oldPasses) {
      watch.push({ type: 'MODIFIED', object: this.#view(watch, rec, 'cur') });
    } else if (nowPasses) {
      watch.push({ type: 'ADDED', object: this.#view(watch, rec, 'cur') });
    } else if (oldPasses) {
      watch.push({ type: 'DELETED', object: this.#view(watch, rec, 'old') });
    }
  }

  #passes(watch: Watch, obj: KubeObject): boolean {
    const ns = watch.options.namespace;
    if (ns !== undefined && watch.rt.namespaced && obj.metadata.namespace !== ns) return false;
    return watch.options.filter ? watch.options.filter(this.#convert(watch.rt, obj)) : true;
  }

  #convert(rt: ResourceType, obj: KubeObject): KubeObject {
    return isEventsV1(rt) && obj.apiVersion !== 'events.k8s.io/v1' ? coreEventToV1(obj) : obj;
  }

  #version(watch: Watch, obj: KubeObject): KubeObject {
    const v = watch.options.version;
    if (v === undefined || v === watch.rt.version) return obj;
    return { ...obj, apiVersion: apiVersionOf(watch.rt.group, v) };
  }

  /** The object as this watch shows it, computed once per change and view. */
  #view(watch: Watch, rec: Record_, which: 'cur' | 'old'): KubeObject {
    const version = watch.options.version;
    const plain = !isEventsV1(watch.rt) && (version === undefined || version === watch.rt.version);
    // The stored object itself, as most watches see it: nothing to make or keep.
    if (which === 'cur' && plain) return rec.event.object;
    const key = `${which}|${isEventsV1(watch.rt) ? 'ev1' : ''}|${version ?? ''}`;
    rec.views ??= new Map();
    let v = rec.views.get(key);
    if (!v) {
      let base = which === 'cur' ? rec.event.object : rec.event.oldObject!;
      if (which === 'old') base = { ...base, metadata: { ...base.metadata, resourceVersion: String(rec.rv) } };
      v = this.#version(watch, this.#convert(watch.rt, base));
      rec.views.set(key, v);
    }
    return v;
  }

  #bookmark(watch: Watch, annotations?: Record<string, string>): WatchEvent {
    const version = watch.options.version ?? watch.rt.version;
    return {
      type: 'BOOKMARK',
      object: {
        kind: watch.rt.kind,
        apiVersion: apiVersionOf(watch.rt.group, version),
        metadata: { resourceVersion: this.#store.currentResourceVersion(), ...(annotations ? { annotations } : {}) },
      },
    };
  }
}
