/**
 * The notification families (docs/metrics.md#notifications): deliveries made and delivery
 * attempts that failed, per flow, receiver and event. One instance per process, shared by both
 * flows' notification controllers.
 */
import { Counter, Registry } from 'prom-client';
import type { UpgradeEventType } from './upgrade-event.js';

/** Counters of the notification controllers. */
export class NotificationMetrics {
  readonly registry: Registry;
  readonly #delivered: Counter<'flow' | 'receiver' | 'event'>;
  readonly #failed: Counter<'flow' | 'receiver' | 'event'>;

  constructor(registry: Registry = new Registry()) {
    this.registry = registry;
    this.#delivered = new Counter({
      name: 'upgrade_operator_notifications_delivered_total',
      help: 'Notifications delivered (the receiver answered 2xx), by flow, receiver and event',
      labelNames: ['flow', 'receiver', 'event'],
      registers: [registry],
    });
    this.#failed = new Counter({
      name: 'upgrade_operator_notification_delivery_failures_total',
      help: 'Notification deliveries that failed after their quick retries (retried later with backoff), by flow, receiver and event',
      labelNames: ['flow', 'receiver', 'event'],
      registers: [registry],
    });
  }

  delivered(flow: string, receiver: string, event: UpgradeEventType): void {
    this.#delivered.inc({ flow, receiver, event });
  }

  failed(flow: string, receiver: string, event: UpgradeEventType): void {
    this.#failed.inc({ flow, receiver, event });
  }
}
