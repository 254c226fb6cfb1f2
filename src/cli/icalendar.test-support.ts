/**
 * Reads iCalendar text back with ical.js (Mozilla's parser, used by Thunderbird), for the tests
 * that check what a calendar program would import: every event's instants as ical.js computes them
 * from its TZID and the file's own VTIMEZONE.
 */
import assert from 'node:assert/strict';
import ICAL from 'ical.js';

/** One VEVENT as a calendar program reads it. */
export interface ParsedEvent {
  uid: string;
  summary: string;
  description: string;
  status: string | undefined;
  transparent: boolean;
  startMs: number;
  /** ical.js's end: DTSTART when there is no DTEND. */
  endMs: number;
  /** The TZID of DTSTART (`UTC` for the UTC form). */
  startZone: string;
  endZone: string | undefined;
  dtstamp: string;
}

/** The parsed calendar: its events in file order, and the VTIMEZONEs by TZID. */
export interface ParsedCalendar {
  events: ParsedEvent[];
  timezones: Map<string, ICAL.Timezone>;
  root: ICAL.Component;
}

function text(component: ICAL.Component, name: string): string | undefined {
  const value = component.getFirstPropertyValue(name);
  return value === null || value === undefined ? undefined : String(value as string);
}

function zoneOf(component: ICAL.Component, name: string): string | undefined {
  const prop = component.getFirstProperty(name);
  if (!prop) return undefined;
  const tzid = prop.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : 'UTC';
}

/**
 * Parses `text` with ical.js after checking what the RFC demands of the bytes: CRLF line ends
 * only, no line over 75 octets, and a VCALENDAR with VERSION 2.0 and PRODID.
 */
export function parseCalendar(calendar: string): ParsedCalendar {
  assert.ok(calendar.endsWith('\r\n'), 'the file ends with CRLF');
  assert.doesNotMatch(calendar, /[^\r]\n/, 'every line ends with CRLF');
  for (const line of calendar.split('\r\n'))
    assert.ok(Buffer.byteLength(line, 'utf8') <= 75, `line longer than 75 octets: ${line}`);
  const root = new ICAL.Component(ICAL.parse(calendar) as unknown[]);
  assert.equal(root.name, 'vcalendar');
  assert.equal(text(root, 'version'), '2.0');
  assert.ok(text(root, 'prodid'));
  const timezones = new Map<string, ICAL.Timezone>();
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const tz = new ICAL.Timezone(vtz);
    timezones.set(tz.tzid, tz);
  }
  const events = root.getAllSubcomponents('vevent').map((vevent): ParsedEvent => {
    const event = new ICAL.Event(vevent);
    return {
      uid: event.uid,
      summary: event.summary,
      description: event.description ?? '',
      status: text(vevent, 'status'),
      transparent: text(vevent, 'transp') === 'TRANSPARENT',
      startMs: event.startDate.toUnixTime() * 1000,
      endMs: event.endDate.toUnixTime() * 1000,
      startZone: zoneOf(vevent, 'dtstart') ?? '',
      endZone: zoneOf(vevent, 'dtend'),
      dtstamp: text(vevent, 'dtstamp') ?? '',
    };
  });
  return { events, timezones, root };
}
