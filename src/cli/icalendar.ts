/**
 * iCalendar text (RFC 5545) for `preview -o ics`: a VCALENDAR of VEVENTs, each written in its own
 * time zone, with a VTIMEZONE for every zone used. Pure: instants are epoch milliseconds, `DTSTAMP`
 * is given by the caller.
 *
 * Written by hand rather than with a library (docs/design/dependencies.md#icalendar): the
 * maintained generator (`ical-generator`) needs Node 22 from its current major on, and it, like
 * every VTIMEZONE generator on npm (`@touch4it/ical-timezones`, `timezones-ical-library`), takes
 * zone rules from tz data of its own, while the windows themselves are computed from the tz data
 * of Node's `Intl` (`src/time/zone.ts`): a calendar whose VTIMEZONE came from another tz release
 * could place a window an hour off from what the operator does. Here the VTIMEZONE is read from
 * the same `Intl` data: every offset change in the span of the events is found and written as an
 * observance of its own (no RRULE, which would have to guess the zone's future rules).
 */
import { offsetSecondsAt, UTC_ZONE, wallClock, zoneAbbreviation, type Zone } from '../time/zone.js';

/** One VEVENT. */
export interface CalendarEvent {
  /** Globally unique and stable: a re-import with the same UID updates the event. */
  readonly uid: string;
  readonly summary: string;
  readonly description?: string;
  /** The zone DTSTART and DTEND are written in (with TZID and a VTIMEZONE); UTC: the UTC form. */
  readonly zone: Zone;
  readonly startMs: number;
  /** Absent: an event at one instant (RFC 5545 §3.6.1: it ends where it starts). Must be after `startMs`. */
  readonly endMs?: number;
  readonly status?: 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';
  /** Free busy time: TRANSPARENT for an event that does not occupy anyone (the default: OPAQUE). */
  readonly transparent?: boolean;
}

/** Options of {@link renderICalendar}. */
export interface CalendarOptions {
  /** `DTSTAMP` of every event: when the file was written. */
  readonly stampMs: number;
  /** The calendar's name for calendar programs (`X-WR-CALNAME`). */
  readonly name?: string;
}

/** The product identifier (`PRODID`). */
export const PRODUCT_ID = '-//upgrade-operator//preview//EN';

const DAY_MS = 86_400_000;

// ---- Values ------------------------------------------------------------------------------

/**
 * A TEXT value (§3.3.11): backslash, semicolon and comma escaped, line breaks as `\n`, other
 * control characters (not allowed in TEXT) dropped.
 */
export function escapeText(text: string): string {
  const printable = [...text.replace(/\r\n?/g, '\n')]
    .filter((ch) => {
      const code = ch.charCodeAt(0);
      return ch === '\n' || ch === '\t' || (code >= 0x20 && code !== 0x7f);
    })
    .join('');
  return printable.replace(/[\\;,]/g, (ch) => `\\${ch}`).replace(/\n/g, '\\n');
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

function dateTimeText(fields: {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}): string {
  const { year, month, day, hour, minute, second } = fields;
  return `${pad(year, 4)}${pad(month)}${pad(day)}T${pad(hour)}${pad(minute)}${pad(second)}`;
}

/** The UTC form of a DATE-TIME: `20240312T210000Z`. */
export function utcDateTime(ms: number): string {
  return `${dateTimeText(wallClock(UTC_ZONE, ms))}Z`;
}

/** A UTC offset (§3.3.14): `+0100`, `-0430`, seconds only when there are any. */
export function utcOffsetText(offsetSeconds: number): string {
  const sign = offsetSeconds < 0 ? '-' : '+';
  const abs = Math.abs(offsetSeconds);
  const s = abs % 60;
  return `${sign}${pad(Math.floor(abs / 3600))}${pad(Math.floor((abs % 3600) / 60))}${s === 0 ? '' : pad(s)}`;
}

/** The instants whose wall time in the zone is `wallAsUtc` (read as UTC): none in a gap, two in an overlap. */
function instantsOfWallTime(zone: Zone, wallAsUtc: number): number[] {
  const offsets = new Set([-DAY_MS, 0, DAY_MS].map((d) => offsetSecondsAt(zone, wallAsUtc + d) * 1000));
  return [...offsets].map((o) => wallAsUtc - o).filter((t) => t + offsetSecondsAt(zone, t) * 1000 === wallAsUtc);
}

/**
 * A DATE-TIME property (`DTSTART`, `DTEND`) for an instant: local time with TZID; the UTC form in
 * UTC and when the wall time occurs twice (summer time ends). RFC 5545 (§3.3.5) says such a local
 * time means its first occurrence, but calendar programs differ (ical.js takes the second), so an
 * ambiguous local time is never written.
 */
export function dateTimeProperty(name: string, zone: Zone, ms: number): string {
  const at = Math.floor(ms / 1000) * 1000;
  if (zone.id === 'UTC') return `${name}:${utcDateTime(at)}`;
  const w = wallClock(zone, at);
  const same = instantsOfWallTime(zone, at + w.offsetSeconds * 1000);
  if (same.length !== 1 || same[0] !== at) return `${name}:${utcDateTime(at)}`;
  return `${name};TZID=${zone.id}:${dateTimeText(w)}`;
}

// ---- Lines -------------------------------------------------------------------------------

/**
 * Folds a content line (§3.1): no line longer than 75 octets of UTF-8 (CRLF excluded), each
 * continuation starting with one space, never splitting a character.
 */
export function foldLine(line: string): string {
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const code = ch.codePointAt(0) ?? 0;
    // UTF-8 length; a lone surrogate is written as U+FFFD, 3 octets.
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (octets + size > 75) {
      parts.push(current);
      current = ' ';
      octets = 1;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n');
}

// ---- VTIMEZONE ---------------------------------------------------------------------------

/** One offset change: `before` until the instant `at`, then `after` (seconds east of UTC). */
export interface OffsetChange {
  readonly at: number;
  readonly before: number;
  readonly after: number;
}

/** The instant (whole second) of the one offset change in `(lo, hi]`. */
function locateChange(zone: Zone, lo: number, hi: number): number {
  const before = offsetSecondsAt(zone, lo);
  let a = Math.floor(lo / 1000) * 1000;
  let b = Math.ceil(hi / 1000) * 1000;
  while (b - a > 1000) {
    const mid = a + Math.floor((b - a) / 2000) * 1000;
    if (offsetSecondsAt(zone, mid) === before) a = mid;
    else b = mid;
  }
  return b;
}

/** The zone's offset changes in `[fromMs, toMs]`, found day by day (as `src/time/zone.ts` caches them). */
export function offsetChanges(zone: Zone, fromMs: number, toMs: number): OffsetChange[] {
  const changes: OffsetChange[] = [];
  let t = fromMs;
  let offset = offsetSecondsAt(zone, t);
  while (t < toMs) {
    const next = Math.min(t + DAY_MS, toMs);
    const o = offsetSecondsAt(zone, next);
    if (o !== offset) changes.push({ at: locateChange(zone, t, next), before: offset, after: o });
    offset = o;
    t = next;
  }
  return changes;
}

/** Summer time: an offset above the lower of the year's January and July offsets. */
function isDaylight(zone: Zone, at: number, offset: number): boolean {
  const year = new Date(at).getUTCFullYear();
  const january = offsetSecondsAt(zone, Date.UTC(year, 0, 1));
  const july = offsetSecondsAt(zone, Date.UTC(year, 6, 1));
  return offset > Math.min(january, july);
}

/** One STANDARD or DAYLIGHT observance from a change on; its kind judged by the year of `judgedAt`. */
function observance(zone: Zone, change: OffsetChange, judgedAt: number): string[] {
  const kind = isDaylight(zone, judgedAt, change.after) ? 'DAYLIGHT' : 'STANDARD';
  return [
    `BEGIN:${kind}`,
    `DTSTART:${localOnset(change)}`,
    `TZOFFSETFROM:${utcOffsetText(change.before)}`,
    `TZOFFSETTO:${utcOffsetText(change.after)}`,
    `TZNAME:${escapeText(zoneAbbreviation(zone, judgedAt))}`,
    `END:${kind}`,
  ];
}

/** How far back the observance in force at the first event is looked for. */
const LOOK_BACK_MS = 400 * DAY_MS;

/**
 * The VTIMEZONE of a zone over `[fromMs, toMs]`: the observance in force at `fromMs` (from its
 * last change within 400 days, else from 1970 on) and one observance per change up to `toMs`.
 * DTSTART of an observance is the local time of the change in the offset before it (§3.6.5).
 */
export function vtimezoneLines(zone: Zone, fromMs: number, toMs: number): string[] {
  const earlier = offsetChanges(zone, fromMs - LOOK_BACK_MS, fromMs);
  const last = earlier[earlier.length - 1];
  const offset = offsetSecondsAt(zone, fromMs);
  const lines = [
    `BEGIN:VTIMEZONE`,
    `TZID:${zone.id}`,
    ...(last
      ? observance(zone, last, last.at)
      : observance(zone, { at: Date.UTC(1970, 0, 1), before: offset, after: offset }, fromMs)),
  ];
  for (const c of offsetChanges(zone, fromMs, toMs)) lines.push(...observance(zone, c, c.at));
  lines.push('END:VTIMEZONE');
  return lines;
}

/** The wall time at which a change happens, read in the offset before it. */
function localOnset(change: OffsetChange): string {
  return dateTimeText(wallClock(UTC_ZONE, change.at + change.before * 1000));
}

// ---- The calendar ------------------------------------------------------------------------

function eventLines(event: CalendarEvent, options: CalendarOptions): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${utcDateTime(options.stampMs)}`,
    dateTimeProperty('DTSTART', event.zone, event.startMs),
    ...(event.endMs !== undefined ? [dateTimeProperty('DTEND', event.zone, event.endMs)] : []),
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.description !== undefined ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    ...(event.status !== undefined ? [`STATUS:${event.status}`] : []),
    ...(event.transparent === true ? ['TRANSP:TRANSPARENT'] : []),
    'END:VEVENT',
  ];
}

/** The VTIMEZONE of each zone the events use (UTC needs none), over the span of that zone's events. */
function timezoneLines(events: readonly CalendarEvent[]): string[] {
  const spans = new Map<string, { zone: Zone; from: number; to: number }>();
  for (const e of events) {
    if (e.zone.id === 'UTC') continue;
    const end = e.endMs ?? e.startMs;
    const span = spans.get(e.zone.id);
    if (span) {
      span.from = Math.min(span.from, e.startMs);
      span.to = Math.max(span.to, end);
    } else spans.set(e.zone.id, { zone: e.zone, from: e.startMs, to: end });
  }
  return [...spans.values()].flatMap((s) => vtimezoneLines(s.zone, s.from, s.to));
}

/**
 * The VCALENDAR: PRODID, VERSION 2.0, METHOD PUBLISH, a VTIMEZONE for each zone used (over the
 * span of its events), then the events; folded, CRLF line ends.
 */
export function renderICalendar(events: readonly CalendarEvent[], options: CalendarOptions): string {
  for (const e of events)
    if (e.endMs !== undefined && e.endMs <= e.startMs)
      throw new Error(`event ${e.uid}: DTEND must be after DTSTART (RFC 5545 §3.8.2.2)`);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:${PRODUCT_ID}`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...(options.name !== undefined ? [`X-WR-CALNAME:${escapeText(options.name)}`] : []),
    ...timezoneLines(events),
    ...events.flatMap((e) => eventLines(e, options)),
    'END:VCALENDAR',
  ];
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
