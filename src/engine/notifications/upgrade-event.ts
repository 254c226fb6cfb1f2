/**
 * The notification events of both flows (docs/configuration.md#notifications): what a flow
 * reports of one upgrade object ({@link UpgradeProgress}, read from its status by the flow's own
 * pure adapter) and the events that progress implies. Events are derived from the status, not
 * from transitions seen in memory, and their ids are hashes of the upgrade object's uid, the
 * version and the event's own key, so an operator that restarts derives the same events with the
 * same ids and recognises what it already delivered. Pure.
 */
import { createHash } from 'node:crypto';
import type { ObjectMeta } from 'kubernetes-types/meta/v1.js';

/** The events a receiver can ask for. */
export const UPGRADE_EVENT_TYPES = ['scheduled', 'started', 'stepFailed', 'waiting', 'completed', 'failed'] as const;
/** One of {@link UPGRADE_EVENT_TYPES}. */
export type UpgradeEventType = (typeof UPGRADE_EVENT_TYPES)[number];

/** The upgrade object an event is about. */
export interface UpgradeSubject {
  /** `managed` (UpgradeConfig of upgrade.managed.openshift.io) or `scheduled` (UpgradeJob of managedupgrade.appuio.io). */
  flow: 'managed' | 'scheduled';
  apiVersion: string;
  kind: string;
  namespace: string;
  name: string;
  uid: string;
}

/** The subject of an upgrade object of `flow`. */
export function subjectOf(
  flow: UpgradeSubject['flow'],
  obj: { apiVersion?: string | undefined; kind?: string | undefined; metadata?: ObjectMeta | undefined },
): UpgradeSubject {
  return {
    flow,
    apiVersion: obj.apiVersion ?? '',
    kind: obj.kind ?? '',
    namespace: obj.metadata?.namespace ?? '',
    name: obj.metadata?.name ?? '',
    uid: obj.metadata?.uid ?? '',
  };
}

/** Something that went wrong in a step and was recorded in the status (a failed step, a failed hook Job). */
export interface StepProblem {
  /** Stable within one upgrade: one event per key. */
  key: string;
  at: string;
  reason: string;
  message: string;
}

/** The step the upgrade waits on now, and since when. */
export interface CurrentWait {
  step: string;
  reason: string;
  message: string;
  /** RFC 3339: when this wait began. */
  since: string;
}

/** What a flow reports of one upgrade object. Times are RFC 3339. */
export interface UpgradeProgress {
  subject: UpgradeSubject;
  /** The target version (empty when not known yet). */
  version: string;
  /**
   * The upgrade is planned: `for` when it is to start, `at` when it was planned (the UpgradeJob's
   * creation; for an UpgradeConfig, when the operator saw its history entry). Undefined: the flow
   * has not accepted it (yet).
   */
  scheduled?: { at: string; for: string };
  started?: { at: string; message: string };
  completed?: { at: string; reason: string; message: string };
  failed?: { at: string; reason: string; message: string };
  problems: readonly StepProblem[];
  wait?: CurrentWait;
}

/** One notification event. */
export interface UpgradeEvent {
  /** Deterministic: the same upgrade, version and occurrence give the same id after a restart. */
  id: string;
  type: UpgradeEventType;
  subject: UpgradeSubject;
  version: string;
  /** RFC 3339: when it happened (for `waiting`: when the wait began). */
  time: string;
  reason: string;
  message: string;
  /** For `scheduled`: the planned start. */
  scheduledFor?: string;
  /** For `waiting`: the step waited on. */
  step?: string;
}

/** The id of an event: a hash of what makes it this occurrence (never of the time it was seen). */
export function eventId(subject: UpgradeSubject, version: string, type: UpgradeEventType, key: string): string {
  return createHash('sha256')
    .update([subject.flow, subject.uid, subject.namespace, subject.name, version, type, key].join('\u0000'))
    .digest('hex')
    .slice(0, 32);
}

/** The events `progress` implies, in lifecycle order. `waiting` is always listed; receivers filter it by duration. */
export function upgradeEvents(progress: UpgradeProgress): UpgradeEvent[] {
  const { subject, version } = progress;
  const make = (
    type: UpgradeEventType,
    key: string,
    body: Omit<UpgradeEvent, 'id' | 'type' | 'subject' | 'version'>,
  ): UpgradeEvent => ({ id: eventId(subject, version, type, key), type, subject, version, ...body });
  const events: UpgradeEvent[] = [];
  if (progress.scheduled)
    events.push(
      make('scheduled', '', {
        time: progress.scheduled.at,
        reason: 'Scheduled',
        message: `${describe(progress)} is scheduled for ${progress.scheduled.for}`,
        scheduledFor: progress.scheduled.for,
      }),
    );
  if (progress.started)
    events.push(
      make('started', '', { time: progress.started.at, reason: 'Started', message: progress.started.message }),
    );
  for (const p of progress.problems)
    events.push(make('stepFailed', p.key, { time: p.at, reason: p.reason, message: p.message }));
  const final = progress.completed ?? progress.failed;
  if (progress.wait && !final) {
    const w = progress.wait;
    events.push(
      make('waiting', `${w.step}\u0000${w.reason}\u0000${w.since}`, {
        time: w.since,
        reason: w.reason,
        message: w.message,
        step: w.step,
      }),
    );
  }
  for (const [type, end] of [
    ['completed', progress.completed],
    ['failed', progress.failed],
  ] as const)
    if (end) events.push(make(type, '', { time: end.at, reason: end.reason, message: end.message }));
  return events;
}

/** `the upgrade of UpgradeJob ns/name to 4.16.3`. */
export function describe(progress: Pick<UpgradeProgress, 'subject' | 'version'>): string {
  const s = progress.subject;
  return `the upgrade of ${s.kind} ${s.namespace}/${s.name}${progress.version ? ` to ${progress.version}` : ''}`;
}
