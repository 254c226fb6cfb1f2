/**
 * core/v1 Events, with client-go's correlator behaviour where it matters (tools/record):
 * an identical event (same source, object, type, reason and message) within 10 minutes
 * PATCHes `count` and `lastTimestamp` of the Event already written instead of creating a new
 * one; a token-bucket spam filter per source+object (burst 25, one more per 5 minutes) drops
 * floods. Event names are `<involved name>.<hex nanoseconds>`. Recording never throws into the
 * caller: failures are logged. A write that gets no answer or a server-side failure (429, 5xx) is
 * tried again every 10 s, 12 tries in all, as client-go's broadcaster does for unanswered writes
 * (client-go gives up at once on a 5xx Status; we do not, so that an API server's hiccup does not
 * lose an `UpgradeCompleted`). Events are written one after another; while a write waits to be
 * tried again, the recorder is no activity (a virtual clock may move).
 */
import type { Event, ObjectReference } from 'kubernetes-types/core/v1.js';
import type { KubeObjectLike } from '../api/resource.js';
import { EventResource } from '../api/builtin.js';
import { NO_ACTIVITY, type ActivityTracker } from '../lib/activity.js';
import { formatTime, type Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import type { KubeClient } from './client.js';
import { isAlreadyExists, isNotFound, KubeApiError } from './status-error.js';

export type EventType = 'Normal' | 'Warning';

export const AGGREGATE_WINDOW_MS = 10 * 60_000;
export const SPAM_BURST = 25;
export const SPAM_REFILL_MS = 5 * 60_000;
const CACHE_SIZE = 4096;
/** Tries per Event (client-go's maxTriesPerEvent) and the pause between them (its sleepDuration). */
export const EVENT_WRITE_TRIES = 12;
export const EVENT_RETRY_MS = 10_000;

/** True when writing an Event may succeed if tried again: no answer, or 429 or a 5xx from the server. */
export function isRetryableEventFailure(err: unknown): boolean {
  if (!(err instanceof KubeApiError)) return true;
  return err.code === 429 || err.code >= 500;
}

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
    if (s && now - s.lastAt <= AGGREGATE_WINDOW_MS)
      return { action: 'patch', name: s.name, namespace: s.namespace, count: s.count + 1 };
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
  /** Events recorded and not yet written or given up. */
  #pending = 0;
  /** The write in progress waits to be tried again. */
  #waiting = false;
  /** The recorder's activity unit while it has a write to do now. */
  #unit: (() => void) | undefined;
  /** Ends the pauses between tries (close()). */
  readonly #closing = new AbortController();

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
    this.#pending++;
    this.#refreshActivity();
    this.#chain = this.#chain
      .then(() => this.#writeWithRetries(key, ref, type, reason, message, now))
      .catch((err: unknown) =>
        this.#log.warn(
          { reason, object: `${ref.kind}/${ref.name}`, err: err instanceof Error ? err.message : String(err) },
          'failed to record event',
        ),
      )
      .finally(() => {
        this.#pending--;
        this.#refreshActivity();
      });
  }

  /** Stops waiting between tries: events not yet written are given up (logged). */
  close(): void {
    this.#closing.abort(new Error('event recorder closed'));
  }

  /** Resolves when every event recorded so far has been written (or has failed). */
  flush(): Promise<void> {
    return this.#chain;
  }

  async #writeWithRetries(
    key: string,
    ref: ObjectReference,
    type: EventType,
    reason: string,
    message: string,
    now: number,
  ): Promise<void> {
    // One name for every try, so that a try whose answer was lost is found as AlreadyExists.
    const nanos = BigInt(Math.floor(now)) * 1_000_000n + BigInt(this.#seq++ % 1_000_000);
    const name = `${ref.name ?? ''}.${nanos.toString(16)}`;
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#write(key, name, ref, type, reason, message, now);
        return;
      } catch (err) {
        if (attempt >= EVENT_WRITE_TRIES || !isRetryableEventFailure(err) || this.#closing.signal.aborted) throw err;
        this.#log.debug(
          { reason, object: `${ref.kind}/${ref.name}`, attempt, err: err instanceof Error ? err.message : String(err) },
          'event not written; trying again',
        );
      }
      this.#waiting = true;
      this.#refreshActivity();
      try {
        await this.#o.clock.sleep(EVENT_RETRY_MS, this.#closing.signal);
      } finally {
        this.#waiting = false;
        this.#refreshActivity();
      }
    }
  }

  #refreshActivity(): void {
    const busy = this.#pending > 0 && !this.#waiting;
    if (busy && this.#unit === undefined) this.#unit = this.#activity.begin('event');
    else if (!busy && this.#unit !== undefined) {
      const end = this.#unit;
      this.#unit = undefined;
      end();
    }
  }

  async #write(
    key: string,
    name: string,
    ref: ObjectReference,
    type: EventType,
    reason: string,
    message: string,
    now: number,
  ): Promise<void> {
    const c = this.#correlator.decide(key, now);
    if (c.action === 'patch') {
      try {
        await this.#o.client.patch(
          EventResource,
          c.namespace,
          c.name,
          { count: c.count, lastTimestamp: formatTime(now) },
          { type: 'merge' },
        );
        this.#correlator.record(key, { name: c.name, namespace: c.namespace, count: c.count, lastAt: now });
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
        this.#correlator.forget(key);
      }
    }
    const namespace = ref.namespace || 'default';
    const ev: Event = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
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
    try {
      await this.#o.client.create(EventResource, ev);
    } catch (err) {
      // An earlier try was written although its answer was lost: the name is this event's own.
      if (!isAlreadyExists(err)) throw err;
    }
    this.#correlator.record(key, { name, namespace, count: 1, lastAt: now });
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
