/** Shared fixtures of the notification tests: one upgrade's progress and receivers. */
import type { Receiver } from './notification-config.js';
import { UPGRADE_EVENT_TYPES, type UpgradeEventType, type UpgradeProgress } from './upgrade-event.js';

/** An UpgradeJob's progress: scheduled, started, a failed hook, waiting on the upgrade since 01:10. */
export function jobProgress(overrides: Partial<UpgradeProgress> = {}): UpgradeProgress {
  return {
    subject: {
      flow: 'scheduled',
      apiVersion: 'managedupgrade.appuio.io/v1beta1',
      kind: 'UpgradeJob',
      namespace: 'appuio',
      name: 'nightly-1',
      uid: 'uid-1',
    },
    version: '4.14.31',
    scheduled: { at: '2026-11-27T00:00:00Z', for: '2026-11-27T01:00:00Z' },
    started: { at: '2026-11-27T01:00:05Z', message: 'Upgrade started' },
    problems: [
      { key: 'hook/Start/notify/', at: '2026-11-27T01:01:00Z', reason: 'HookFailed', message: 'hook notify failed' },
    ],
    wait: {
      step: 'UpgradeCompleted',
      reason: 'InProgress',
      message: 'Upgrade in progress',
      since: '2026-11-27T01:10:00Z',
    },
    ...overrides,
  };
}

/** A receiver of `type` for `events` (default all), waiting events after `waitingMs` (default 1 h). */
export function receiver(
  name: string,
  type: Receiver['type'] = 'webhook',
  events: readonly UpgradeEventType[] = UPGRADE_EVENT_TYPES,
  waitingMs = 3_600_000,
): Receiver {
  return { name, type, url: `http://127.0.0.1:1/${name}`, events: new Set(events), waitingLongerThanMs: waitingMs };
}
