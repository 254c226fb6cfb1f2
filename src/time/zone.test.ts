import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Zone } from './zone.js';
import {
  UTC_ZONE,
  addDate,
  formatGoTime,
  formatRfc3339InZone,
  loadZone,
  offsetSecondsAt,
  wallClock,
  zonedDate,
} from './zone.js';

function zone(name: string, local = 'Europe/Zurich'): Zone {
  const r = loadZone(name, local);
  assert.ok(r.ok, `${name}: ${r.ok ? '' : r.error}`);
  return r.zone;
}

const zurich = zone('Europe/Zurich');
const newYork = zone('America/New_York');
const london = zone('Europe/London');
const iso = (ms: number): string => new Date(ms).toISOString();

test('loadZone follows Go’s LoadLocation', () => {
  assert.deepEqual(loadZone('', 'Europe/Zurich'), { ok: true, zone: UTC_ZONE });
  assert.deepEqual(loadZone('UTC', 'Europe/Zurich'), { ok: true, zone: UTC_ZONE });
  assert.deepEqual(loadZone('Local', 'Europe/Zurich'), {
    ok: true,
    zone: { name: 'Local', id: 'Europe/Zurich', local: true },
  });
  assert.deepEqual(loadZone('Local', 'Not/AZone'), { ok: true, zone: { name: 'Local', id: 'UTC', local: true } });
  assert.equal(zone('Europe/Zurich').name, 'Europe/Zurich');
  assert.equal(zone('US/Eastern').local, false);
  assert.equal(zone('Etc/GMT+5').name, 'Etc/GMT+5');
  assert.deepEqual(loadZone('Mars/Olympus', 'UTC'), { ok: false, error: 'unknown time zone Mars/Olympus' });
  assert.deepEqual(loadZone('europe/zurich', 'UTC'), { ok: false, error: 'unknown time zone europe/zurich' });
  assert.deepEqual(loadZone('utc', 'UTC'), { ok: false, error: 'unknown time zone utc' });
  assert.deepEqual(loadZone('local', 'UTC'), { ok: false, error: 'unknown time zone local' });
  assert.deepEqual(loadZone('+01:00', 'UTC'), { ok: false, error: 'unknown time zone +01:00' });
  assert.deepEqual(loadZone('../etc/passwd', 'UTC'), { ok: false, error: 'time: invalid location name' });
  assert.deepEqual(loadZone('/usr/share/zoneinfo/UTC', 'UTC'), { ok: false, error: 'time: invalid location name' });
});

test('offsets at instants, exact to the second of a change', () => {
  assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 0, 15)), 3600);
  assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 6, 15)), 7200);
  assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 2, 31, 0, 59, 59, 999)), 3600);
  assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 2, 31, 1)), 7200);
  assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 9, 27, 0, 59, 59)), 7200);
  assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 9, 27, 1)), 3600);
  assert.equal(offsetSecondsAt(zone('Asia/Kolkata'), Date.UTC(2024, 0, 1)), 19_800);
  // Lord Howe shifts by 30 minutes, at 02:00 local standard time (15:30 UTC).
  const lordHowe = zone('Australia/Lord_Howe');
  assert.equal(offsetSecondsAt(lordHowe, Date.UTC(2024, 9, 5, 15, 29, 59)), 37_800);
  assert.equal(offsetSecondsAt(lordHowe, Date.UTC(2024, 9, 5, 15, 30)), 39_600);
  // Zurich's local mean time before 1894: +0:34:08.
  assert.equal(offsetSecondsAt(zurich, Date.UTC(1850, 0, 1)), 2048);
  assert.equal(offsetSecondsAt(UTC_ZONE, Date.UTC(2024, 6, 1)), 0);
});

test('wall clock fields', () => {
  assert.deepEqual(wallClock(zurich, Date.UTC(2024, 9, 27, 0, 30, 5, 250)), {
    year: 2024,
    month: 10,
    day: 27,
    hour: 2,
    minute: 30,
    second: 5,
    millisecond: 250,
    weekday: 0,
    offsetSeconds: 7200,
  });
  assert.equal(wallClock(zurich, Date.UTC(2024, 9, 27, 1, 30)).hour, 2);
  assert.equal(wallClock(newYork, Date.UTC(2024, 0, 1, 3)).day, 31);
});

test('zonedDate resolves gaps and overlaps exactly like Go’s time.Date', () => {
  const at = (z: Zone, y: number, mo: number, d: number, h: number, mi: number): string =>
    iso(zonedDate(z, { year: y, month: mo, day: d, hour: h, minute: mi }));
  // Spring forward: 02:30 does not exist. East of UTC Go moves it forward by the gap (03:30
  // CEST); west of UTC backward (01:30 EST), as Go's own test says of Los Angeles
  // ("2:30:00 PDT ≡ 1:30 PST").
  assert.equal(at(zurich, 2024, 3, 31, 2, 30), '2024-03-31T01:30:00.000Z');
  assert.equal(at(newYork, 2024, 3, 10, 2, 30), '2024-03-10T06:30:00.000Z');
  assert.equal(at(zone('America/Los_Angeles'), 2011, 3, 13, 2, 30), new Date(1_300_008_600_000).toISOString());
  assert.equal(at(zone('America/Los_Angeles'), 2011, 11, 6, 1, 0), new Date(1_320_566_400_000).toISOString());
  assert.equal(at(london, 2024, 3, 31, 1, 30), '2024-03-31T01:30:00.000Z');
  // Fall back: east of UTC (and London) takes the later offset, west the earlier.
  assert.equal(at(zurich, 2024, 10, 27, 2, 30), '2024-10-27T01:30:00.000Z');
  assert.equal(at(london, 2024, 10, 27, 1, 30), '2024-10-27T01:30:00.000Z');
  assert.equal(at(newYork, 2024, 11, 3, 1, 30), '2024-11-03T05:30:00.000Z');
  // Ordinary times and overflowing fields.
  assert.equal(at(zurich, 2024, 7, 1, 12, 0), '2024-07-01T10:00:00.000Z');
  assert.equal(at(zurich, 2024, 13, 1, 0, 0), '2024-12-31T23:00:00.000Z');
  assert.equal(at(zurich, 2024, 3, 0, 0, 0), '2024-02-28T23:00:00.000Z');
  assert.equal(at(UTC_ZONE, 2024, 1, 1, 25, 61), '2024-01-02T02:01:00.000Z');
  assert.equal(at(UTC_ZONE, 50, 1, 1, 0, 0), '0050-01-01T00:00:00.000Z');
});

test('addDate keeps the wall clock, like Go’s AddDate', () => {
  const jan31 = zonedDate(zurich, { year: 2024, month: 1, day: 31, hour: 10 });
  assert.equal(formatRfc3339InZone(zurich, addDate(zurich, jan31, 0, 1, 0)), '2024-03-02T10:00:00+01:00');
  const beforeSpring = zonedDate(zurich, { year: 2024, month: 3, day: 30, hour: 12 });
  assert.equal(formatRfc3339InZone(zurich, addDate(zurich, beforeSpring, 0, 0, 1)), '2024-03-31T12:00:00+02:00');
  assert.equal(addDate(zurich, beforeSpring, 0, 0, 1) - beforeSpring, 23 * 3_600_000);
  const gapDay = zonedDate(zurich, { year: 2024, month: 3, day: 30, hour: 2, minute: 30 });
  assert.equal(formatRfc3339InZone(zurich, addDate(zurich, gapDay, 0, 0, 1)), '2024-03-31T03:30:00+02:00');
});

test('formats like Go', () => {
  assert.equal(formatGoTime(zurich, Date.UTC(2024, 6, 1, 10)), '2024-07-01 12:00:00 +0200 CEST');
  assert.equal(formatGoTime(zurich, Date.UTC(2024, 0, 1, 10, 0, 0, 500)), '2024-01-01 11:00:00.5 +0100 CET');
  assert.equal(formatGoTime(UTC_ZONE, Date.UTC(2024, 0, 1)), '2024-01-01 00:00:00 +0000 UTC');
  assert.equal(formatGoTime(newYork, Date.UTC(2024, 0, 1)), '2023-12-31 19:00:00 -0500 EST');
  assert.equal(formatRfc3339InZone(zurich, Date.UTC(2024, 9, 27, 0, 30)), '2024-10-27T02:30:00+02:00');
  assert.equal(formatRfc3339InZone(zurich, Date.UTC(2024, 9, 27, 1, 30)), '2024-10-27T02:30:00+01:00');
  assert.equal(formatRfc3339InZone(UTC_ZONE, Date.UTC(2024, 9, 27, 1, 30)), '2024-10-27T01:30:00Z');
  assert.equal(formatRfc3339InZone(zone('Asia/Kolkata'), Date.UTC(2024, 0, 1)), '2024-01-01T05:30:00+05:30');
});

test('zonedDate of an instant’s own wall clock lands on the same wall clock', () => {
  const zones = [zurich, newYork, london, zone('Australia/Lord_Howe'), zone('America/Sao_Paulo'), UTC_ZONE];
  fc.assert(
    fc.property(
      fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2040, 0, 1) }),
      fc.constantFrom(...zones),
      (ms, z) => {
        const w = wallClock(z, ms);
        const back = zonedDate(z, w);
        const { offsetSeconds: _a, ...fields } = w;
        const { offsetSeconds: _b, ...again } = wallClock(z, back);
        assert.deepEqual(again, fields);
        assert.ok(Math.abs(back - ms) <= 3_600_000);
      },
    ),
  );
});
