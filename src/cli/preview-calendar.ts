/**
 * `preview -o ics`: the previewed maintenance windows as calendar events (docs/configuration.md#calendar-files).
 *
 * - Scheduled flow (APPUiO): one event per window, from the job's `startAfter` to its timeout
 *   (`startAfter + upgradeTimeout`, the longest the upgrade may run), in the schedule's zone; a
 *   window that creates no UpgradeJob or whose job is skipped is CANCELLED and says why. Each
 *   UpgradeSuspensionWindow that selects the config or its jobs is an event of its own.
 * - Managed flow (MUO): the upgrade at `spec.upgradeAt` (an instant) and, for OSD, its failure
 *   window from `upgradeAt` to `upgradeAt + upgradeWindow.timeOut`, in UTC.
 *
 * UIDs are derived from the UpgradeConfig (`metadata.uid` when the file has it, else
 * `namespace/name`; a bare schedule by a hash of cron, ISO week and zone) and the window's start
 * (managed: the target release), so importing a newer preview updates the events instead of
 * adding copies. Pure.
 */
import { createHash } from 'node:crypto';
import type { UpgradeSuspensionWindow } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import { formatTime } from '../lib/clock.js';
import { formatGoDurationMs } from '../lib/go-duration.js';
import { UTC_ZONE } from '../time/zone.js';
import { renderICalendar, utcDateTime, type CalendarEvent } from './icalendar.js';
import type { Preview, PreviewCalendarFacts, PreviewRow, SuspensionMark } from './preview.js';

/** The right-hand side of every UID. */
const UID_DOMAIN = 'upgrade-operator';

type ScheduledFacts = Extract<PreviewCalendarFacts, { flow: 'scheduled' }>;
type ManagedFacts = Extract<PreviewCalendarFacts, { flow: 'managed' }>;

/** A UID part without spaces: a bare schedule's text is hashed. */
function uidPart(facts: PreviewCalendarFacts, isConfig: boolean): string {
  return isConfig ? facts.uidBase : `schedule-${createHash('sha256').update(facts.uidBase).digest('hex').slice(0, 16)}`;
}

function suspensionText(mark: SuspensionMark): string {
  if (mark.by === 'spec.schedule.suspend')
    return 'Upgrade scheduling is suspended by .spec.schedule.suspend: no UpgradeJob.';
  const what = mark.by === 'configSelector' ? 'no UpgradeJob is created' : 'the UpgradeJob is skipped';
  return `Suspended by the UpgradeSuspensionWindow ${mark.name} (${mark.by})${mark.reason ? `: ${mark.reason}` : ''}; ${what}.`;
}

function windowEvent(row: PreviewRow, facts: ScheduledFacts): CalendarEvent {
  const start = Date.parse(row.time);
  const startBefore = start + facts.maxUpgradeStartDelayMs;
  const end = start + facts.upgradeTimeoutMs;
  const mark = row.suspendedBy;
  const description = [
    `${row.upgradeConfig !== undefined ? `UpgradeConfig ${facts.label}` : `Schedule ${facts.label}`}: maintenance window of ISO week ${row.isoWeekYear}-W${String(row.isoWeek).padStart(2, '0')}, ${row.weekday}.`,
    `The UpgradeJob may start from ${row.time} (startAfter) until ${formatTime(startBefore)} (startBefore, maxUpgradeStartDelay ${formatGoDurationMs(facts.maxUpgradeStartDelayMs)}) and times out at ${formatTime(end)} (upgradeTimeout ${formatGoDurationMs(facts.upgradeTimeoutMs)}).`,
    ...(row.jobCreation !== undefined
      ? [`The UpgradeJob is created, and its version pinned, at ${row.jobCreation} (pinVersionWindow).`]
      : []),
    ...(mark ? [suspensionText(mark)] : []),
  ].join('\n');
  return {
    uid: `window/${uidPart(facts, row.upgradeConfig !== undefined)}/${utcDateTime(start)}@${UID_DOMAIN}`,
    summary: `${mark ? `Upgrade window, suspended (${mark.by === 'spec.schedule.suspend' ? 'spec.schedule.suspend' : mark.name})` : 'Upgrade window'}: ${facts.label}`,
    description,
    zone: facts.zone,
    startMs: start,
    ...(end > start ? { endMs: end } : {}),
    status: mark ? 'CANCELLED' : 'CONFIRMED',
  };
}

function suspensionEvent(window: UpgradeSuspensionWindow, facts: ScheduledFacts): CalendarEvent | undefined {
  const spec = window.spec;
  const start = Date.parse(spec?.start ?? '');
  const end = Date.parse(spec?.end ?? '');
  if (spec === undefined || Number.isNaN(start) || Number.isNaN(end)) return undefined;
  const ref = `${window.metadata?.namespace ?? ''}/${window.metadata?.name ?? ''}`;
  const selects = [
    ...(spec.configSelector ? ['configSelector: no UpgradeJob is created for a window in it'] : []),
    ...(spec.jobSelector ? ['jobSelector: an UpgradeJob due to start in it is skipped'] : []),
  ];
  return {
    uid: `suspension/${window.metadata?.uid ?? ref}@${UID_DOMAIN}`,
    summary: `Upgrades suspended: ${window.metadata?.name ?? ''}${spec.reason ? ` (${spec.reason})` : ''}`,
    description: [
      `UpgradeSuspensionWindow ${ref} from ${formatTime(start)} to ${formatTime(end)}, for UpgradeConfig ${facts.label}.`,
      ...(spec.reason ? [`Reason: ${spec.reason}`] : []),
      ...selects.map((s) => `${s}.`),
    ].join('\n'),
    zone: facts.zone,
    startMs: start,
    ...(end > start ? { endMs: end } : {}),
    transparent: true,
  };
}

function managedEvents(row: PreviewRow, facts: ManagedFacts): CalendarEvent[] {
  const at = Date.parse(row.time);
  const id = `${facts.uidBase}/${facts.target}`;
  const upgrade: CalendarEvent = {
    uid: `upgrade/${id}@${UID_DOMAIN}`,
    summary: `Upgrade to ${facts.target}: ${facts.label}`,
    description: [
      `UpgradeConfig ${facts.label} (${facts.upgradeType}): the operator starts the upgrade to ${facts.target} from ${row.time} (spec.upgradeAt).`,
      facts.windowTimeOutMs > 0
        ? `Unless it has commenced by ${row.windowCloses ?? ''} (upgradeWindow.timeOut ${facts.windowTimeOutMs / 60_000} minutes), it fails.`
        : `No failure window (${facts.upgradeType === 'OSD' ? 'upgradeWindow.timeOut is 0' : 'ARO'}).`,
    ].join('\n'),
    zone: UTC_ZONE,
    startMs: at,
    status: 'CONFIRMED',
  };
  if (facts.windowTimeOutMs <= 0) return [upgrade];
  return [
    upgrade,
    {
      uid: `failure-window/${id}@${UID_DOMAIN}`,
      summary: `Failure window of the upgrade to ${facts.target}: ${facts.label}`,
      description: `The OSD upgrade of UpgradeConfig ${facts.label} fails unless it has commenced (the control-plane upgrade commanded) by ${row.windowCloses ?? ''}: upgradeWindow.timeOut ${facts.windowTimeOutMs / 60_000} minutes after spec.upgradeAt ${row.time}.`,
      zone: UTC_ZONE,
      startMs: at,
      endMs: at + facts.windowTimeOutMs,
      status: 'CONFIRMED',
    },
  ];
}

/** The events of every preview, suspension windows once each however many configs they select. */
export function previewCalendarEvents(previews: readonly Preview[]): CalendarEvent[] {
  const events: CalendarEvent[] = [];
  const seen = new Set<string>();
  const add = (event: CalendarEvent | undefined): void => {
    if (event === undefined || seen.has(event.uid)) return;
    seen.add(event.uid);
    events.push(event);
  };
  for (const p of previews) {
    const facts = p.calendar;
    if (facts.flow === 'managed') for (const row of p.rows) managedEvents(row, facts).forEach(add);
    else {
      for (const row of p.rows) add(windowEvent(row, facts));
      for (const w of facts.suspensionWindows) add(suspensionEvent(w, facts));
    }
  }
  return events;
}

/** `-o ics`: the previews as one iCalendar file, stamped `stampMs`. */
export function renderPreviewCalendar(previews: readonly Preview[], stampMs: number): string {
  return renderICalendar(previewCalendarEvents(previews), { stampMs, name: 'upgrade-operator maintenance windows' });
}
