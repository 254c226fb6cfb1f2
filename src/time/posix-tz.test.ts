import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePosixTz, posixTzAt, type PosixTz } from './posix-tz.js';

function tz(text: string): PosixTz {
  const r = parsePosixTz(text);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.tz;
}

/** Offset (seconds east) and abbreviation at a UTC instant given as Date.UTC arguments. */
function at(zone: PosixTz, ...utc: [number, number, number, number?, number?, number?]): string {
  const s = posixTzAt(zone, Date.UTC(...utc) / 1000);
  return `${s.abbreviation} ${s.offsetSeconds}${s.isDst ? ' dst' : ''}`;
}

test('parses the forms zic writes', () => {
  assert.deepEqual(tz('CET-1CEST,M3.5.0,M10.5.0/3'), {
    std: { name: 'CET', offsetSeconds: 3600 },
    dst: {
      name: 'CEST',
      offsetSeconds: 7200,
      start: { date: { kind: 'month-week-day', month: 3, week: 5, weekday: 0 }, time: 7200 },
      end: { date: { kind: 'month-week-day', month: 10, week: 5, weekday: 0 }, time: 10_800 },
    },
  });
  assert.deepEqual(tz('<+0330>-3:30'), { std: { name: '+0330', offsetSeconds: 12_600 } });
  assert.deepEqual(tz('<-03>3'), { std: { name: '-03', offsetSeconds: -10_800 } });
  assert.deepEqual(tz('IST-5:30'), { std: { name: 'IST', offsetSeconds: 19_800 } });
  assert.deepEqual(tz('UTC0'), { std: { name: 'UTC', offsetSeconds: 0 } });
  assert.deepEqual(tz('<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45').dst?.offsetSeconds, 49_500);
  assert.deepEqual(tz('<+1030>-10:30<+11>-11,M10.1.0,M4.1.0').dst?.offsetSeconds, 39_600);
  assert.deepEqual(tz('XXX-1:02:03').std.offsetSeconds, 3723);
  // Without rules, the US rules; without a DST offset, one hour ahead.
  assert.deepEqual(tz('EST5EDT').dst, tz('EST5EDT4,M3.2.0/2,M11.1.0/2').dst);
  // Julian (J1–J365) and zero-based (0–365) days; version 3 times below zero and above 24 h.
  assert.deepEqual(tz('XXX3YYY,J60/-1,300/25').dst?.start, { date: { kind: 'julian', day: 60 }, time: -3600 });
  assert.deepEqual(tz('XXX3YYY,J60/-1,300/25').dst?.end, { date: { kind: 'day-of-year', day: 300 }, time: 90_000 });
  assert.deepEqual(tz('<-03>3<-02>,M3.5.0/-2,M10.5.0/-1').dst?.start.time, -7200);
  assert.equal(tz('XXX3YYY,0/0,J365/167').dst?.end.time, 167 * 3600);
});

test('malformed strings give a clear error', () => {
  const error = (text: string): string => {
    const r = parsePosixTz(text);
    assert.ok(!r.ok, text);
    return r.error;
  };
  assert.equal(error(''), 'invalid TZ string: standard time name of fewer than 3 characters at position 0 of ""');
  assert.equal(error('AB1'), 'invalid TZ string: standard time name of fewer than 3 characters at position 2 of "AB1"');
  assert.equal(error('CET'), 'invalid TZ string: expected standard offset hours at position 3 of "CET"');
  assert.equal(error('<CET-1'), 'invalid TZ string: unterminated <…> standard time name at position 0 of "<CET-1"');
  assert.equal(
    error('CET-169'),
    'invalid TZ string: standard offset hours out of range 0–168 at position 4 of "CET-169"',
  );
  assert.equal(
    error('CET-1:60'),
    'invalid TZ string: standard offset minutes out of range 0–59 at position 6 of "CET-1:60"',
  );
  assert.match(error('CET-1CEST,M13.5.0,M10.5.0/3'), /month out of range 1–12/);
  assert.match(error('CET-1CEST,M3.6.0,M10.5.0/3'), /week out of range 1–5/);
  assert.match(error('CET-1CEST,M3.5.7,M10.5.0/3'), /weekday out of range 0–6/);
  assert.match(error('CET-1CEST,M3.5,M10.5.0/3'), /expected '\.' after the week/);
  assert.match(error('CET-1CEST,M3.5.0'), /expected ',' between the rules/);
  assert.match(error('CET-1CEST,J0,J365'), /Julian day out of range 1–365/);
  assert.match(error('CET-1CEST,366,J365'), /day of year out of range 0–365/);
  assert.match(error('CET-1CEST,M3.5.0,M10.5.0/3x'), /trailing text/);
  assert.match(error('CET-1CEST-2;'), /expected day of year/);
  assert.match(error('CET-1CEST-2/'), /expected ',' before the rules/);
});

test('northern rules: Zurich and New York, to the second of each change', () => {
  const zurich = tz('CET-1CEST,M3.5.0,M10.5.0/3');
  assert.equal(at(zurich, 2030, 0, 15), 'CET 3600');
  assert.equal(at(zurich, 2030, 2, 31, 0, 59, 59), 'CET 3600');
  assert.equal(at(zurich, 2030, 2, 31, 1), 'CEST 7200 dst');
  assert.equal(at(zurich, 2030, 9, 27, 0, 59, 59), 'CEST 7200 dst');
  assert.equal(at(zurich, 2030, 9, 27, 1), 'CET 3600');
  // March 2026 has five Sundays; the last is the 29th. "Week 5" means the last.
  assert.equal(at(zurich, 2026, 2, 29, 1), 'CEST 7200 dst');
  assert.equal(at(zurich, 2026, 2, 22, 12), 'CET 3600');
  const newYork = tz('EST5EDT,M3.2.0,M11.1.0');
  assert.equal(at(newYork, 2040, 2, 11, 6, 59, 59), 'EST -18000');
  assert.equal(at(newYork, 2040, 2, 11, 7), 'EDT -14400 dst');
  assert.equal(at(newYork, 2040, 10, 4, 5, 59, 59), 'EDT -14400 dst');
  assert.equal(at(newYork, 2040, 10, 4, 6), 'EST -18000');
});

test('southern rules span the new year; half-hour and 45-minute zones', () => {
  const lordHowe = tz('<+1030>-10:30<+11>-11,M10.1.0,M4.1.0');
  // Ends at 02:00 local DST (15:00 UTC on the Saturday), starts at 02:00 local standard time.
  assert.equal(at(lordHowe, 2040, 0, 1), '+11 39600 dst');
  assert.equal(at(lordHowe, 2040, 3, 0, 14, 59, 59), '+11 39600 dst');
  assert.equal(at(lordHowe, 2040, 3, 0, 15), '+1030 37800');
  assert.equal(at(lordHowe, 2040, 9, 6, 15, 29, 59), '+1030 37800');
  assert.equal(at(lordHowe, 2040, 9, 6, 15, 30), '+11 39600 dst');
  const chatham = tz('<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45');
  assert.equal(at(chatham, 2040, 5, 1), '+1245 45900');
  assert.equal(at(chatham, 2040, 11, 1), '+1345 49500 dst');
});

test('Julian and zero-based day rules count February 29 differently', () => {
  // J60 is March 1 in every year; day 59 is February 29 in leap years, March 1 otherwise.
  const julian = tz('AAA0BBB,J60/0,J300/0');
  const zeroBased = tz('AAA0BBB,59/0,J300/0');
  assert.equal(at(julian, 2028, 1, 29, 12), 'AAA 0');
  assert.equal(at(julian, 2028, 2, 1, 0), 'BBB 3600 dst');
  assert.equal(at(zeroBased, 2028, 1, 28, 23, 59, 59), 'AAA 0');
  assert.equal(at(zeroBased, 2028, 1, 29, 0), 'BBB 3600 dst');
  assert.equal(at(zeroBased, 2027, 2, 1, 0), 'BBB 3600 dst');
  assert.equal(at(zeroBased, 2027, 1, 28, 23), 'AAA 0');
});

test('version 3 rule times: negative, and a DST that never ends', () => {
  // Greenland from 2023: changes at -02:00/-01:00 local on the last Sundays (01:00 UTC).
  const nuuk = tz('<-02>2<-01>,M3.5.0/-1,M10.5.0/0');
  assert.equal(at(nuuk, 2030, 2, 31, 0, 59, 59), '-02 -7200');
  assert.equal(at(nuuk, 2030, 2, 31, 1), '-01 -3600 dst');
  assert.equal(at(nuuk, 2030, 9, 27, 0, 59, 59), '-01 -3600 dst');
  assert.equal(at(nuuk, 2030, 9, 27, 1), '-02 -7200');
  // RFC 8536's example of permanent DST: EST5EDT,0/0,J365/25 is EDT all year.
  const permanent = tz('EST5EDT,0/0,J365/25');
  for (const month of [0, 3, 6, 11]) assert.equal(at(permanent, 2031, month, 15), 'EDT -14400 dst');
});
