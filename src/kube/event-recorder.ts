/**
 * core/v1 Events, with client-go's correlator behaviour where it matters (tools/record):
 * an identical event (same source, object, type, reason and message) within 10 minutes
 * PATCHes `count` and `lastTimestamp` of the Event already written instead of creating a new
 * one; a token-bucket spam filter per source+object (burst 25, one more per 5 minutes) drops
 * floods. Event names are `<involved name>.<hex nanoseconds>`. Recording never throws into the
 * caller: failures are logged.
 */
import type { Event, ObjectReference } from 'kubernetes-types/core/v1.js';
import type { KubeObjectLike } from '../api/resource.js';
import { EventResource } from '../api/builtin.js';
import { NO_ACTIVITY, type ActivityTracker } from '../lib/activity.js';
import { formatTime, type Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import type { KubeClient } from './client.js';
import { isNotFound } from './status-error.js';

export type EventType = 'Normal' | 'Warning';

export const AGGREGATE_WINDOW_MS = 10 * 60_000;
export const SPAM_BURST = 25;
export const SPAM_REFILL_MS = 5 * 60_000;
const CACHE_SIZE = 4096;

/** The spam filter: one token bucket per key (pure apart from its state; time is passed in). */
export class SpamFilter {
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  /** True if an event under `key` may be sent at `now`. */
  allow(key: string, now: number): boolean {
    let b = this.#buckets.get(key);
    if (!b) {
      b = { tokens: SPAM_BURST, at: now };
    } else {
      b.tokens = Math.min(SPAM_BURST, b.tokens + (now - b.at) / SPAM_REFILL_MS);
      b.at = now;
    }
    this.#buckets.delete(key);
    this.#buckets.set(key, b);
    if (this.#buckets.size > CACHE_SIZE) this.#buckets.delete(this.#buckets.keys().next().value as string);
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }
}

interface Seen {
  name: string;
  namespace: string;
  count: number;
  lastAt: number;
}

/** What to do with an event: create a new Event, or bump the count of one already written. */
export type Correlation = { action: 'create' } | { action: 'patch'; name: string; namespace: string; count: number };

/** Remembers recent events by identity (LRU) and decides create vs. patch. */
export class EventCorrelator {
  readonly #seen = new Map<string, Seen>();

  decide(key: string, now: number): Correlation {
    const s = this.#seen.get(key);
    if (s && now - s.lastAt <= AGGREGATE_WINDOW_MS) return { action: 'patch', name: s.name, namespace: s.namespace, count: s.count + 1 };
    return { action: 'create' };
  }

  record(key: string, seen: Seen): void {
    this.#seen.delete(key);
    this.#seen.set(key, seen);
    if (this.#seen.size > CACHE_SIZE) this.#seen.delete(this.#seen.keys().next().value as string);
  }

  forget(key: string): void {
    this.#seen.delete(key);
  }
}

export interface EventRecorderOptions {
  client: KubeClient;
  clock: Clock;
  logger: Logger;
  activity?: ActivityTracker;
  /** source.component and reportingComponent, e.g. 'upgrade-operator'. */
  component: string;
  /** reportingInstance and source.host (e.g. the pod name). */
  instance?: string;
}

/** Writes Events about objects. */
export class EventRecorder {
  readonly #o: EventRecorderOptions;
  readonly #log: Logger;
  readonly #activity: ActivityTracker;
  readonly #spam = new SpamFilter();
  readonly #correlator = new EventCorrelator();
  #chain: Promise<void> = Promise.resolve();
  #seq = 0;

  constructor(options: EventRecorderOptions) {
    this.#o = options;
    this.#log = options.logger.child({ component: 'event-recorder' });
    this.#activity = options.activity ?? NO_ACTIVITY;
  }

  /** Records an event about `involved`; returns at once (the write happens in order, in the background). */
  event(involved: KubeObjectLike, type: EventType, reason: string, message: string): void {
    const ref = referenceOf(involved);
    const now = this.#o.clock.now();
    const source = `${this.#o.component}\u0000${this.#o.instance ?? ''}`;
    const objectId = [ref.apiVersion, ref.kind, ref.namespace, ref.name, ref.uid].join('\u0000');
    if (!this.#spam.allow(`${source}\u0000${objectId}`, now)) {
      this.#log.debug({ reason, object: `${ref.kind}/${ref.name}` }, 'event dropped by the spam filter');
      return;
    }
    const key = [source, objectId, type, reason, message].join('\u0000');
    const end = this.#activity.begin('event');
    this.#chain = this.#chain
      .then(() => this.#write(key, ref, type, reason, message, now))
      .catch((err: unknown) => this.#log.warn({ reason, object: `${ref.kind}/${ref.name}`, err: err instanceof Error ? err.message : String(err) }, 'failed to record event'))
      .finally(end);
  }

  /** Resolves when every event recorded so far has been written (or has failed). */
  flush(): Promise<void> {
    return this.#chain;
  }

  async #write(key: string, ref: ObjectReference, type: EventType, reason: string, message: string, now: number): Promise<void> {
    const c = this.#correlator.decide(key, now);
    if (c.action === 'patch') {
      try {
        await this.#o.client.patch(EventResource, c.namespace, c.name, { count: c.count, lastTimestamp: formatTime(now) }, { type: 'merge' });
        this.#correlator.record(key, { name: c.name, namespace: c.namespace, count: c.count, lastAt: now });
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
        this.#correlator.forget(key);
      }
    }
    const namespace = ref.namespace || 'default';
    const nanos = BigInt(Math.floor(now)) * 1_000_000n + BigInt(this.#seq++ % 1_000_000);
    const ev: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${ref.name ?? ''}.${nanos.toString(16)}`, namespace },
      involvedObject: ref,
      reason,
      message,
      type,
      source: { component: this.#o.component, ...(this.#o.instance ? { host: this.#o.instance } : {}) },
      firstTimestamp: formatTime(now),
      lastTimestamp: formatTime(now),
      count: 1,
      reportingComponent: this.#o.component,
      reportingInstance: this.#o.instance ?? '',
    };
    const created = await this.#o.client.create(EventResource, ev);
    this.#correlator.record(key, { name: created.metadata?.name ?? '', namespace, count: 1, lastAt: now });
  }
}

/** The ObjectReference of an object. */
export function referenceOf(obj: KubeObjectLike): ObjectReference {
  const m = obj.metadata ?? {};
  return {
    ...(obj.apiVersion ? { apiVersion: obj.apiVersion } : {}),
    ...(obj.kind ? { kind: obj.kind } : {}),
    ...(m.namespace ? { namespace: m.namespace } : {}),
    ...(m.name ? { name: m.name } : {}),
    ...(m.uid ? { uid: m.uid } : {}),
    ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
  };
}
