import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRfc3339InZone } from '../../time/zone.js';
import type { MaintenanceSchedule, ScheduleFields } from './maintenance-schedule.js';
import {
  MAX_ISO_WEEK_ACTIVATIONS,
  compileSchedule,
  nextScheduleTime,
  nextScheduleTimes,
  scheduleTimeDetails,
} from './maintenance-schedule.js';

function compiled(fields: ScheduleFields, local = 'Europe/Zurich'): MaintenanceSchedule {
  const r = compileSchedule(fields, local);
  assert.ok(r.ok, r.ok ? '' : r.problem.message);
  return r.schedule;
}

function times(fields: ScheduleFields, from: string, n: number): string[] {
  const s = compiled(fields);
  const r = nextScheduleTimes(s, Date.parse(from), n);
  assert.equal(r.error, undefined);
  return r.times.map((t) => formatRfc3339InZone(s.zone, t));
}

test('compile problems name the field and keep the parser’s message', () => {
  assert.deepEqual(compileSchedule({ cron: '0 0 * * 7', location: 'UTC' }, 'UTC'), {
    ok: false,
    problem: {
      reason: 'InvalidCron',
      field: 'spec.schedule.cron',
      message: 'cannot parse cron schedule "0 0 * * 7": end of range (7) above maximum (6): 7',
    },
  });
  assert.deepEqual(compileSchedule({ cron: '@daily', location: 'Mars/Base' }, 'UTC'), {
    ok: false,
    problem: { reason: 'UnknownTimeZone', field: 'spec.schedule.location', message: 'unknown time zone Mars/Base' },
  });
  assert.deepEqual(compileSchedule({ cron: '@daily', location: 'UTC', isoWeek: '@weekly' }, 'UTC'), {
    ok: false,
    problem: { reason: 'InvalidIsoWeek', field: 'spec.schedule.isoWeek', message: 'unknown iso week: @weekly' },
  });
});

test('Local, and an empty location, are the controller’s zone', () => {
  assert.equal(compiled({ cron: '@daily', location: 'Local' }).zone.id, 'Europe/Zurich');
  assert.equal(compiled({ cron: '@daily', location: '' }).zone.name, 'Local');
  assert.equal(compiled({ cron: '@daily' }, 'UTC').zone.id, 'UTC');
  assert.deepEqual(times({ cron: '0 22 * * *', location: 'Local' }, '2024-07-01T00:00:00Z', 1), [
    '2024-07-01T22:00:00+02:00',
  ]);
});

test('ten next possible schedules: weekly on odd ISO weeks in Zurich, across DST', () => {
  assert.deepEqual(
    times({ cron: '0 22 * * 2', isoWeek: '@odd', location: 'Europe/Zurich' }, '2024-02-26T00:00:00Z', 10),
    [
      '2024-02-27T22:00:00+01:00', // W9
      '2024-03-12T22:00:00+01:00', // W11
      '2024-03-26T22:00:00+01:00', // W13
      '2024-04-09T22:00:00+02:00', // W15
      '2024-04-23T22:00:00+02:00',
      '2024-05-07T22:00:00+02:00',
      '2024-05-21T22:00:00+02:00',
      '2024-06-04T22:00:00+02:00',
      '2024-06-18T22:00:00+02:00',
      '2024-07-02T22:00:00+02:00',
    ],
  );
});

test('@odd runs on two consecutive weeks across a week-53 year end; @even skips both', () => {
  const fields = { cron: '0 10 * * 2', location: 'Europe/Zurich' };
  assert.deepEqual(times({ ...fields, isoWeek: '@odd' }, '2020-12-10T00:00:00Z', 4), [
    '2020-12-15T10:00:00+01:00', // W51
    '2020-12-29T10:00:00+01:00', // W53
    '2021-01-05T10:00:00+01:00', // W1
    '2021-01-19T10:00:00+01:00', // W3
  ]);
  assert.deepEqual(times({ ...fields, isoWeek: '@even' }, '2020-12-10T00:00:00Z', 3), [
    '2020-12-22T10:00:00+01:00', // W52
    '2021-01-12T10:00:00+01:00', // W2
    '2021-01-26T10:00:00+01:00', // W4
  ]);
});

test('a week number fires once a year; 53 only in 53-week years', () => {
  assert.deepEqual(times({ cron: '0 3 * * 1', isoWeek: '2', location: 'UTC' }, '2024-01-01T00:00:00Z', 3), [
    '2024-01-08T03:00:00Z',
    '2025-01-06T03:00:00Z',
    '2026-01-05T03:00:00Z',
  ]);
  assert.deepEqual(times({ cron: '0 3 * * 1', isoWeek: '53', location: 'UTC' }, '2024-01-01T00:00:00Z', 2), [
    '2026-12-28T03:00:00Z',
    '2032-12-27T03:00:00Z',
  ]);
});

test('the isoWeek of a CRON_TZ schedule is still read in location', () => {
  // Sunday 19:30 in New York is Monday 01:30 in Zurich (week 3 in 2024, where New York is in week 2).
  assert.deepEqual(
    times(
      { cron: 'CRON_TZ=America/New_York 30 19 * * 0', isoWeek: '3', location: 'Europe/Zurich' },
      '2024-01-01T00:00:00Z',
      1,
    ),
    ['2024-01-15T01:30:00+01:00'],
  );
});

test('DST: the spring gap is skipped and the autumn overlap runs twice', () => {
  assert.deepEqual(times({ cron: '30 2 * * *', location: 'Europe/Zurich' }, '2024-03-30T00:00:00Z', 2), [
    '2024-03-30T02:30:00+01:00',
    '2024-04-01T02:30:00+02:00',
  ]);
  assert.deepEqual(times({ cron: '30 2 * * *', location: 'Europe/Zurich' }, '2024-10-26T12:00:00Z', 3), [
    '2024-10-27T02:30:00+02:00',
    '2024-10-27T02:30:00+01:00',
    '2024-10-28T02:30:00+01:00',
  ]);
});

test('no week ever matching ends after 1000 activations with APPUiO’s error', () => {
  const s = compiled({ cron: '0 0 * * 1', isoWeek: '54', location: 'UTC' });
  assert.deepEqual(nextScheduleTime(s, Date.parse('2024-01-01T00:00:00Z')), {
    ok: false,
    error: 'could not find next scheduled time, checked until "2043-03-02 00:00:00 +0000 UTC": no next time found',
  });
  assert.equal(MAX_ISO_WEEK_ACTIVATIONS, 1000);
  const minutes = compiled({ cron: '* * * * *', isoWeek: '0', location: 'Europe/Zurich' });
  const r = nextScheduleTime(minutes, Date.parse('2024-07-01T00:00:00Z'));
  assert.deepEqual(r, {
    ok: false,
    error: 'could not find next scheduled time, checked until "2024-07-01 18:40:00 +0200 CEST": no next time found',
  });
});

test('nextScheduleTimes returns what it found before an error', () => {
  const s = compiled({ cron: '0 0 29 2 *', location: 'UTC' });
  const r = nextScheduleTimes(s, Date.parse('2088-01-01T00:00:00Z'), 10);
  assert.deepEqual(
    r.times.map((t) => new Date(t).toISOString()),
    ['2088-02-29T00:00:00.000Z', '2092-02-29T00:00:00.000Z', '2096-02-29T00:00:00.000Z'],
  );
  assert.equal(
    r.error,
    'could not find next scheduled time within five years after "2096-02-29 00:00:00 +0000 UTC": no next time found',
  );
  const none = nextScheduleTimes(compiled({ cron: '0 0 30 2 *', location: 'UTC' }), 0, 10);
  assert.deepEqual(none.times, []);
  assert.ok(none.error?.startsWith('could not find next scheduled time'));
});

test('preview details', () => {
  const s = compiled({ cron: '0 22 * * 2', location: 'Europe/Zurich' });
  assert.deepEqual(scheduleTimeDetails(s, Date.parse('2020-12-29T21:00:00Z')), {
    time: '2020-12-29T21:00:00Z',
    local: '2020-12-29T22:00:00+01:00',
    location: 'Europe/Zurich',
    isoWeekYear: 2020,
    isoWeek: 53,
    weekday: 'Tuesday',
  });
});
