import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import ICAL from 'ical.js';
import { loadZone, offsetSecondsAt, UTC_ZONE, wallClock, type Zone } from '../time/zone.js';
import {
  dateTimeProperty,
  escapeText,
  foldLine,
  offsetChanges,
  renderICalendar,
  utcOffsetText,
  vtimezoneLines,
  type CalendarEvent,
} from './icalendar.js';
import { parseCalendar } from './icalendar.test-support.js';
import { fixtureSource, NO_ZONEINFO } from '../time/zoneinfo-fixtures.test-support.js';

/** Zones from Intl, whatever the machine's zoneinfo: the expected TZNAMEs are Intl's. */
function zone(name: string): Zone {
  const z = loadZone(name, 'UTC', NO_ZONEINFO);
  assert.ok(z.ok);
  return z.zone;
}

const ZURICH = zone('Europe/Zurich');
const HOUR = 3_600_000;
const STAMP = Date.parse('2024-01-15T08:00:00Z');

void test('TEXT escaping: backslash, semicolon, comma and line breaks escaped, control characters dropped', () => {
  assert.equal(escapeText('a\\b;c,d'), 'a\\\\b\\;c\\,d');
  assert.equal(escapeText('one\ntwo\r\nthree\rfour'), 'one\\ntwo\\nthree\\nfour');
  assert.equal(escapeText('tab\there\u0000\u0007\u001b[0m\u007f: kept'), 'tab\there[0m: kept');
  assert.equal(escapeText('Zürich: 22:00 – 04:00'), 'Zürich: 22:00 – 04:00');
});

void test('folding: no line over 75 octets, continuations start with a space, characters never split', () => {
  assert.equal(foldLine('SUMMARY:short'), 'SUMMARY:short');
  const long = `DESCRIPTION:${'x'.repeat(200)}`;
  const lines = foldLine(long).split('\r\n');
  assert.deepEqual(
    lines.map((l) => l.length),
    [75, 75, 1 + (long.length - 75 - 74)],
  );
  assert.ok(lines.slice(1).every((l) => l.startsWith(' ')));
  // Three-octet characters: 25 of them fill a line exactly; the 26th goes to the next.
  const euros = foldLine('€'.repeat(26)).split('\r\n');
  assert.deepEqual(euros, ['€'.repeat(25), ' €']);
  fc.assert(
    // One-, two-, three- and four-octet characters, and a lone surrogate (written as U+FFFD).
    fc.property(fc.string({ unit: fc.constantFrom('a', ' ', 'é', '€', '😀', '\ud800'), maxLength: 400 }), (value) => {
      const folded = foldLine(`X:${value}`);
      for (const line of folded.split('\r\n')) assert.ok(Buffer.byteLength(line, 'utf8') <= 75);
      assert.equal(folded.replace(/\r\n /g, ''), `X:${value}`);
    }),
  );
});

void test('UTC offsets: hours and minutes, seconds only when there are any', () => {
  assert.equal(utcOffsetText(3600), '+0100');
  assert.equal(utcOffsetText(0), '+0000');
  assert.equal(utcOffsetText(-(4 * 3600 + 30 * 60)), '-0430');
  assert.equal(utcOffsetText(5 * 3600 + 30 * 60), '+0530');
  assert.equal(utcOffsetText(754), '+001234');
});

void test('DATE-TIME: local time with TZID; UTC form in UTC and for a wall time that occurs twice', () => {
  assert.equal(
    dateTimeProperty('DTSTART', ZURICH, Date.parse('2024-03-12T21:00:00Z')),
    'DTSTART;TZID=Europe/Zurich:20240312T220000',
  );
  assert.equal(dateTimeProperty('DTEND', zone('UTC'), Date.parse('2024-03-12T21:00:00Z')), 'DTEND:20240312T210000Z');
  // 02:30 happens twice on 2024-10-27 in Zurich: 00:30Z (CEST) and 01:30Z (CET).
  assert.equal(dateTimeProperty('DTSTART', ZURICH, Date.parse('2024-10-27T00:30:00Z')), 'DTSTART:20241027T003000Z');
  assert.equal(dateTimeProperty('DTSTART', ZURICH, Date.parse('2024-10-27T01:30:00Z')), 'DTSTART:20241027T013000Z');
  // Just outside the repeated hour, and right after the spring gap: local.
  assert.equal(
    dateTimeProperty('DTSTART', ZURICH, Date.parse('2024-10-27T02:00:00Z')),
    'DTSTART;TZID=Europe/Zurich:20241027T030000',
  );
  assert.equal(
    dateTimeProperty('DTSTART', ZURICH, Date.parse('2024-03-31T01:00:00Z')),
    'DTSTART;TZID=Europe/Zurich:20240331T030000',
  );
});

void test('offset changes of Europe/Zurich in 2024: to summer time 2024-03-31T01:00Z, back 2024-10-27T01:00Z', () => {
  assert.deepEqual(offsetChanges(ZURICH, Date.parse('2024-01-01T00:00:00Z'), Date.parse('2025-01-01T00:00:00Z')), [
    { at: Date.parse('2024-03-31T01:00:00Z'), before: 3600, after: 7200 },
    { at: Date.parse('2024-10-27T01:00:00Z'), before: 7200, after: 3600 },
  ]);
  assert.deepEqual(
    offsetChanges(zone('Asia/Tokyo'), Date.parse('2024-01-01T00:00:00Z'), Date.parse('2030-01-01Z')),
    [],
  );
});

void test('VTIMEZONE: the observance in force at the start, then one per change; no DST: one STANDARD since 1970', () => {
  assert.deepEqual(vtimezoneLines(ZURICH, Date.parse('2024-03-12T21:00:00Z'), Date.parse('2024-04-10T02:00:00Z')), [
    'BEGIN:VTIMEZONE',
    'TZID:Europe/Zurich',
    'BEGIN:STANDARD',
    'DTSTART:20231029T030000',
    'TZOFFSETFROM:+0200',
    'TZOFFSETTO:+0100',
    'TZNAME:CET',
    'END:STANDARD',
    'BEGIN:DAYLIGHT',
    'DTSTART:20240331T020000',
    'TZOFFSETFROM:+0100',
    'TZOFFSETTO:+0200',
    'TZNAME:CEST',
    'END:DAYLIGHT',
    'END:VTIMEZONE',
  ]);
  assert.deepEqual(vtimezoneLines(zone('Asia/Tokyo'), Date.parse('2024-03-01Z'), Date.parse('2024-09-01Z')), [
    'BEGIN:VTIMEZONE',
    'TZID:Asia/Tokyo',
    'BEGIN:STANDARD',
    'DTSTART:19700101T090000',
    'TZOFFSETFROM:+0900',
    'TZOFFSETTO:+0900',
    'TZNAME:+09',
    'END:STANDARD',
    'END:VTIMEZONE',
  ]);
  // Southern hemisphere: summer time starts in October.
  const sydney = vtimezoneLines(zone('Australia/Sydney'), Date.parse('2024-09-01Z'), Date.parse('2024-12-01Z'));
  assert.deepEqual(sydney.slice(sydney.indexOf('BEGIN:DAYLIGHT'), sydney.indexOf('END:DAYLIGHT') + 1), [
    'BEGIN:DAYLIGHT',
    'DTSTART:20241006T020000',
    'TZOFFSETFROM:+1000',
    'TZOFFSETTO:+1100',
    'TZNAME:+11',
    'END:DAYLIGHT',
  ]);
});

void test('VTIMEZONE of a zone read from its file: the abbreviations the file has, as Go prints them', () => {
  const kolkata = loadZone('Asia/Kolkata', 'UTC', fixtureSource());
  assert.ok(kolkata.ok && kolkata.zone.rules !== undefined);
  assert.deepEqual(vtimezoneLines(kolkata.zone, Date.parse('2024-03-01Z'), Date.parse('2024-09-01Z')), [
    'BEGIN:VTIMEZONE',
    'TZID:Asia/Kolkata',
    'BEGIN:STANDARD',
    'DTSTART:19700101T053000',
    'TZOFFSETFROM:+0530',
    'TZOFFSETTO:+0530',
    'TZNAME:IST',
    'END:STANDARD',
    'END:VTIMEZONE',
  ]);
});

void test('the calendar: CRLF, PRODID and VERSION, one VTIMEZONE per zone used, UTC events without one', () => {
  const events: CalendarEvent[] = [
    {
      uid: 'a@x',
      summary: 'a',
      zone: ZURICH,
      startMs: Date.parse('2024-03-12T21:00:00Z'),
      endMs: Date.parse('2024-03-13T09:00:00Z'),
    },
    { uid: 'b@x', summary: 'b', zone: zone('UTC'), startMs: Date.parse('2024-03-12T21:00:00Z') },
    {
      uid: 'c@x',
      summary: 'c',
      zone: zone('America/New_York'),
      startMs: Date.parse('2024-03-12T21:00:00Z'),
      status: 'CANCELLED',
      transparent: true,
    },
  ];
  const text = renderICalendar(events, { stampMs: STAMP, name: 'windows; all' });
  assert.match(
    text,
    /^BEGIN:VCALENDAR\r\nVERSION:2\.0\r\nPRODID:-\/\/upgrade-operator\/\/preview\/\/EN\r\nCALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\nX-WR-CALNAME:windows\\; all\r\n/,
  );
  assert.match(text, /END:VCALENDAR\r\n$/);
  const parsed = parseCalendar(text);
  assert.deepEqual([...parsed.timezones.keys()], ['Europe/Zurich', 'America/New_York']);
  assert.deepEqual(
    parsed.events.map((e) => [
      e.uid,
      e.startZone,
      new Date(e.startMs).toISOString(),
      new Date(e.endMs).toISOString(),
      e.status,
      e.transparent,
      e.dtstamp,
    ]),
    [
      [
        'a@x',
        'Europe/Zurich',
        '2024-03-12T21:00:00.000Z',
        '2024-03-13T09:00:00.000Z',
        undefined,
        false,
        '2024-01-15T08:00:00Z',
      ],
      ['b@x', 'UTC', '2024-03-12T21:00:00.000Z', '2024-03-12T21:00:00.000Z', undefined, false, '2024-01-15T08:00:00Z'],
      [
        'c@x',
        'America/New_York',
        '2024-03-12T21:00:00.000Z',
        '2024-03-12T21:00:00.000Z',
        'CANCELLED',
        true,
        '2024-01-15T08:00:00Z',
      ],
    ],
  );
  assert.equal(
    renderICalendar([], { stampMs: STAMP }),
    'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//upgrade-operator//preview//EN\r\nCALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\nEND:VCALENDAR\r\n',
  );
  assert.throws(
    () => renderICalendar([{ uid: 'z', summary: 'z', zone: ZURICH, startMs: 5000, endMs: 5000 }], { stampMs: STAMP }),
    /event z: DTEND must be after DTSTART/,
  );
});

void test('summary and description survive escaping and folding as ical.js reads them', () => {
  const summary = 'Upgrade window, suspended (easter; "Ostern"): ns/name \\ Zürich €';
  const description = `line one, with commas; and semicolons\nline two ${'long '.repeat(40)}\n\\ end`;
  const parsed = parseCalendar(
    renderICalendar([{ uid: 'u,1;2@x', summary, description, zone: ZURICH, startMs: 0, endMs: HOUR }], {
      stampMs: STAMP,
    }),
  );
  assert.equal(parsed.events[0]?.uid, 'u,1;2@x');
  assert.equal(parsed.events[0]?.summary, summary);
  assert.equal(parsed.events[0]?.description, description);
});

/**
 * Every 49 hours over a year (so every hour of the day comes up), and every half hour from 2 hours
 * before to 2 hours after each offset change, in zones with summer time north and south,
 * half-hour and quarter-hour offsets, a half-hour DST and Casablanca's Ramadan changes: ical.js,
 * reading the local times through the file's own VTIMEZONE, gets back each instant, and the
 * VTIMEZONE's offset there is Intl's.
 */
void test('the VTIMEZONE gives ical.js the right instants and UTC offsets across every change, in many zones', () => {
  const from = Date.parse('2025-01-01T00:00:00Z');
  const to = Date.parse('2026-01-01T00:00:00Z');
  for (const name of [
    'Europe/Zurich',
    'America/New_York',
    'Australia/Sydney',
    'Australia/Lord_Howe',
    'Asia/Kolkata',
    'Asia/Kathmandu',
    'America/St_Johns',
    'Africa/Casablanca',
    'America/Santiago',
  ]) {
    const z = zone(name);
    const instants: number[] = [];
    for (let t = from; t < to; t += 49 * HOUR) instants.push(t);
    const changes = offsetChanges(z, from, to);
    if (!['Asia/Kolkata', 'Asia/Kathmandu'].includes(name)) assert.ok(changes.length >= 2, `${name} changes offset`);
    for (const c of changes) for (let t = c.at - 2 * HOUR; t <= c.at + 2 * HOUR; t += HOUR / 2) instants.push(t);
    const events = instants.map((t): CalendarEvent => ({
      uid: `${t}`,
      summary: name,
      zone: z,
      startMs: t,
      endMs: t + HOUR,
    }));
    const parsed = parseCalendar(renderICalendar(events, { stampMs: STAMP }));
    const tz = parsed.timezones.get(z.id);
    assert.ok(tz, name);
    for (const [i, e] of parsed.events.entries()) {
      const event = events[i];
      assert.ok(event);
      const when = `${name} at ${new Date(event.startMs).toISOString()}`;
      assert.equal(e.startMs, event.startMs, `start, ${when}`);
      assert.equal(e.endMs, event.endMs, `end, ${when}`);
      if (e.startZone === z.id) {
        const local = ICAL.Time.fromData(
          wallClock(UTC_ZONE, event.startMs + offsetSecondsAt(z, event.startMs) * 1000),
          tz,
        );
        assert.equal(tz.utcOffset(local), offsetSecondsAt(z, event.startMs), `offset, ${when}`);
      } else assert.equal(e.startZone, 'UTC', when);
    }
  }
});

void test('Europe/Zurich windows in March and October: 22:00 local is 21:00Z in winter and 20:00Z in summer', () => {
  const windows = ['2024-03-26T21:00:00Z', '2024-04-09T20:00:00Z', '2024-10-22T20:00:00Z', '2024-11-05T21:00:00Z'].map(
    Date.parse,
  );
  const parsed = parseCalendar(
    renderICalendar(
      windows.map((t) => ({ uid: `${t}`, summary: 'w', zone: ZURICH, startMs: t, endMs: t + 6 * HOUR })),
      { stampMs: STAMP },
    ),
  );
  assert.deepEqual(
    parsed.events.map((e) => [e.startZone, new Date(e.startMs).toISOString(), new Date(e.endMs).toISOString()]),
    [
      ['Europe/Zurich', '2024-03-26T21:00:00.000Z', '2024-03-27T03:00:00.000Z'],
      ['Europe/Zurich', '2024-04-09T20:00:00.000Z', '2024-04-10T02:00:00.000Z'],
      ['Europe/Zurich', '2024-10-22T20:00:00.000Z', '2024-10-23T02:00:00.000Z'],
      ['Europe/Zurich', '2024-11-05T21:00:00.000Z', '2024-11-06T03:00:00.000Z'],
    ],
  );
  const vevent = parsed.root.getAllSubcomponents('vevent')[0];
  assert.equal(vevent?.getFirstProperty('dtstart')?.toICALString(), 'DTSTART;TZID=Europe/Zurich:20240326T220000');
  const tz = parsed.timezones.get('Europe/Zurich');
  assert.ok(tz);
  const at = (y: number, mo: number, d: number, h: number): number =>
    tz.utcOffset(ICAL.Time.fromData({ year: y, month: mo, day: d, hour: h }, tz));
  assert.deepEqual(
    [at(2024, 3, 26, 22), at(2024, 4, 9, 22), at(2024, 10, 22, 22), at(2024, 11, 5, 22)],
    [3600, 7200, 7200, 3600],
  );
});
