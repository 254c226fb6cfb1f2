/**
 * Which events go to which receiver now (docs/configuration.md#notification-delivery): a receiver gets the
 * event types it asked for; a `waiting` event once the wait is older than the receiver's
 * `waitingLongerThan`; nothing of an upgrade that ended before the notification configuration
 * existed (configuring notifications does not replay history); and nothing already recorded as delivered in the state ConfigMap (one entry per upgrade
 * object, keyed by flow, namespace and name, tied to the object's uid). Pure.
 */
import type { ReceiverConfig } from './notification-config.js';
import type { UpgradeEvent, UpgradeSubject } from './upgrade-event.js';

/** What the state ConfigMap records for one upgrade object. */
export interface DeliveryRecord {
  uid: string;
  /** `<event id>/<receiver name>` of every delivery made. */
  delivered: string[];
}

/** One delivery to make. */
export interface Delivery<R extends ReceiverConfig = ReceiverConfig> {
  event: UpgradeEvent;
  receiver: R;
}

/** The plan: what to deliver now, and when a `waiting` event next becomes due. */
export interface DeliveryPlan<R extends ReceiverConfig = ReceiverConfig> {
  due: Array<Delivery<R>>;
  /** Epoch ms of the next `waiting` event some receiver will want (undefined: none). */
  nextAt?: number;
}

/** The state ConfigMap's key for an upgrade object (`managed.ns.name`; ConfigMap keys allow `[-._a-zA-Z0-9]`). */
export function stateKey(subject: Pick<UpgradeSubject, 'flow' | 'namespace' | 'name'>): string {
  return `${subject.flow}.${subject.namespace}.${subject.name}`;
}

/** The record's entry for one delivery. */
export function deliveryKey(eventId: string, receiver: string): string {
  return `${eventId}/${receiver}`;
}

/** Reads a record; a missing, unreadable or other object's record (another uid) counts as nothing delivered. */
export function parseDeliveryRecord(text: string | undefined, uid: string): DeliveryRecord {
  const empty: DeliveryRecord = { uid, delivered: [] };
  if (text === undefined) return empty;
  try {
    const v: unknown = JSON.parse(text);
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return empty;
    const o = v as Record<string, unknown>;
    if (o['uid'] !== uid || !Array.isArray(o['delivered'])) return empty;
    return { uid, delivered: o['delivered'].filter((x): x is string => typeof x === 'string') };
  } catch {
    return empty;
  }
}

/** The record after `made` deliveries (kept in order, no repeats). */
export function recordDeliveries(record: DeliveryRecord, made: ReadonlyArray<Delivery>): DeliveryRecord {
  const delivered = [...record.delivered];
  for (const d of made) {
    const key = deliveryKey(d.event.id, d.receiver.name);
    if (!delivered.includes(key)) delivered.push(key);
  }
  return { uid: record.uid, delivered };
}

/**
 * The deliveries due at `now`. `configuredAt`: when the configuration was created (epoch ms); an
 * upgrade that completed or failed before then gets no notifications at all.
 */
export function planDeliveries<R extends ReceiverConfig>(
  events: readonly UpgradeEvent[],
  receivers: readonly R[],
  record: DeliveryRecord,
  now: number,
  configuredAt: number,
): DeliveryPlan<R> {
  const end = events.find((e) => e.type === 'completed' || e.type === 'failed');
  if (end && Date.parse(end.time) < configuredAt) return { due: [] };
  const done = new Set(record.delivered);
  const due: Array<Delivery<R>> = [];
  let nextAt: number | undefined;
  for (const event of events) {
    const happened = Date.parse(event.time);
    for (const receiver of receivers) {
      if (!receiver.events.has(event.type) || done.has(deliveryKey(event.id, receiver.name))) continue;
      const dueAt = event.type === 'waiting' ? happened + receiver.waitingLongerThanMs : happened;
      if (dueAt > now) {
        nextAt = nextAt === undefined ? dueAt : Math.min(nextAt, dueAt);
        continue;
      }
      due.push({ event, receiver });
    }
  }
  return { due, ...(nextAt !== undefined ? { nextAt } : {}) };
}
