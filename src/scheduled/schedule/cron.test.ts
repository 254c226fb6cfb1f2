import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Zone } from '../../time/zone.js';
import { UTC_ZONE, formatRfc3339InZone, loadZone, wallClock } from '../../time/zone.js';
import type { CronSchedule, SpecSchedule } from './cron-spec.js';
import { dayMatches } from './cron-spec.js';
import { nextActivation, parseCron } from './cron.js';

function zone(name: string): Zone {
  const r = loadZone(name, 'UTC');
  assert.ok(r.ok);
  return r.zone;
}
const zurich = zone('Europe/Zurich');
const newYork = zone('America/New_York');

function cron(text: string): CronSchedule {
  const r = parseCron(text);
  assert.ok(r.ok, `${text}: ${r.ok ? '' : r.error}`);
  return r.schedule;
}

function spec(text: string): SpecSchedule {
  const s = cron(text);
  assert.ok(s.kind === 'spec');
  return s;
}

function parseError(text: string): string {
  const r = parseCron(text);
  assert.ok(!r.ok, `${text} should not parse`);
  return r.error;
}

/** The next `n` activations after `from` (RFC 3339 with offset), shown in `z`. */
function nexts(text: string, from: string, n: number, z: Zone = UTC_ZONE): string[] {
  const s = cron(text);
  const out: string[] = [];
  let t = Date.parse(from);
  for (let i = 0; i < n; i++) {
    const next = nextActivation(s, t, z);
    assert.ok(next !== undefined, `${text}: no activation after ${new Date(t).toISOString()}`);
    out.push(formatRfc3339InZone(z, next));
    t = next;
  }
  return out;
}

function allowedValues(field: { allowed: readonly boolean[] }): number[] {
  return field.allowed.flatMap((ok, v) => (ok ? [v] : []));
}

test('robfig’s parse errors, word for word', () => {
  const cases: [string, string][] = [
    ['', 'empty spec string'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['0 0 0 * * *', 'expected exactly 5 fields, found 6: [0 0 0 * * *]'],
    ['0 0 * * 7', 'end of range (7) above maximum (6): 7'],
    ['60 * * * *', 'end of range (60) above maximum (59): 60'],
    ['0 24 * * *', 'end of range (24) above maximum (23): 24'],
    ['0 0 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['0 0 * 13 *', 'end of range (13) above maximum (12): 13'],
    ['0 0 * 0 *', 'beginning of range (0) below minimum (1): 0'],
    ['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['1/2/3 * * * *', 'too many slashes: 1/2/3'],
    ['a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
    ['0 0 * * monday', 'failed to parse int from monday: strconv.Atoi: parsing "monday": invalid syntax'],
    ['0 0 * * 1-', 'failed to parse int from : strconv.Atoi: parsing "": invalid syntax'],
    ['*/-1 * * * *', 'negative number (-1) not allowed: -1'],
    [
      '99999999999999999999 * * * *',
      'failed to parse int from 99999999999999999999: strconv.Atoi: parsing "99999999999999999999": value out of range',
    ],
    ['0 0 * jan-foo *', 'failed to parse int from foo: strconv.Atoi: parsing "foo": invalid syntax'],
    ['@daly', 'unrecognized descriptor: @daly'],
    ['@Daily', 'unrecognized descriptor: @Daily'],
    ['@daily ', 'unrecognized descriptor: @daily '],
    [' @daily', 'expected exactly 5 fields, found 1: [@daily]'],
    ['@every 1d', 'failed to parse duration @every 1d: time: unknown unit "d" in duration "1d"'],
    ['@every', 'unrecognized descriptor: @every'],
    ['CRON_TZ=Mars/Base 0 0 * * *', 'provided bad location Mars/Base: unknown time zone Mars/Base'],
    ['TZ=europe/zurich 0 0 * * *', 'provided bad location europe/zurich: unknown time zone europe/zurich'],
    ['TZ=UTC ', 'expected exactly 5 fields, found 0: []'],
    ['TZ=UTC', 'provided bad location UTC: no schedule after the time zone'],
  ];
  for (const [text, message] of cases) assert.equal(parseError(text), message, text);
});

test('fields: lists, ranges, steps, names, ? and the star bit', () => {
  const s = spec('1,2,5-7 */6 5/10 JAN-mar,Dec Mon-FRI');
  assert.deepEqual(allowedValues(s.minute), [1, 2, 5, 6, 7]);
  assert.deepEqual(allowedValues(s.hour), [0, 6, 12, 18]);
  assert.deepEqual(allowedValues(s.dayOfMonth), [5, 15, 25]);
  assert.deepEqual(allowedValues(s.month), [1, 2, 3, 12]);
  assert.deepEqual(allowedValues(s.dayOfWeek), [1, 2, 3, 4, 5]);
  assert.deepEqual(allowedValues(s.second), [0]);
  assert.deepEqual(allowedValues(spec('0 0 * * sun/2').dayOfWeek), [0, 2, 4, 6]);
  assert.deepEqual(allowedValues(spec('0 0 1-20/7 * *').dayOfMonth), [1, 8, 15]);
  assert.deepEqual(allowedValues(spec('0 0 * * ,').dayOfWeek), []);
  assert.deepEqual(allowedValues(spec('0\t0  *\n* 00').dayOfWeek), [0]);
  assert.deepEqual(allowedValues(spec('0 0 * * *-3').dayOfWeek), [0, 1, 2, 3, 4, 5, 6]);
  const star = (text: string): boolean => spec(`0 0 ${text} * *`).dayOfMonth.star;
  assert.equal(star('*'), true);
  assert.equal(star('?'), true);
  assert.equal(star('*/1'), true);
  assert.equal(star('*,5'), true);
  assert.equal(star('*/2'), false);
  assert.equal(star('?/3'), false);
  assert.equal(star('1-31'), false);
  assert.equal(star('1/1'), false);
});

test('day of month and day of week: AND with a star, OR without', () => {
  const from = '2024-01-01T00:00:00Z'; // a Monday
  assert.deepEqual(nexts('0 0 * * 1', from, 3), [
    '2024-01-08T00:00:00Z',
    '2024-01-15T00:00:00Z',
    '2024-01-22T00:00:00Z',
  ]);
  assert.deepEqual(nexts('0 0 ? * 1', from, 3), [
    '2024-01-08T00:00:00Z',
    '2024-01-15T00:00:00Z',
    '2024-01-22T00:00:00Z',
  ]);
  assert.deepEqual(nexts('0 0 1 * 1', from, 6), [
    '2024-01-08T00:00:00Z',
    '2024-01-15T00:00:00Z',
    '2024-01-22T00:00:00Z',
    '2024-01-29T00:00:00Z',
    '2024-02-01T00:00:00Z',
    '2024-02-05T00:00:00Z',
  ]);
  // */2 clears the star bit: odd days OR Mondays.
  assert.deepEqual(nexts('0 0 */2 * 1', from, 6), [
    '2024-01-03T00:00:00Z',
    '2024-01-05T00:00:00Z',
    '2024-01-07T00:00:00Z',
    '2024-01-08T00:00:00Z',
    '2024-01-09T00:00:00Z',
    '2024-01-11T00:00:00Z',
  ]);
  assert.deepEqual(nexts('0 0 1 * ?', from, 2), ['2024-02-01T00:00:00Z', '2024-03-01T00:00:00Z']);
  assert.deepEqual(nexts('0 0 5/10 * *', from, 4), [
    '2024-01-05T00:00:00Z',
    '2024-01-15T00:00:00Z',
    '2024-01-25T00:00:00Z',
    '2024-02-05T00:00:00Z',
  ]);
  assert.deepEqual(nexts('0 0 29 2 1', '2024-02-20T00:00:00Z', 3), [
    '2024-02-26T00:00:00Z',
    '2024-02-29T00:00:00Z',
    '2025-02-03T00:00:00Z',
  ]);
  assert.deepEqual(nexts('15 3 * JAN,jul Sat', from, 2), ['2024-01-06T03:15:00Z', '2024-01-13T03:15:00Z']);
  assert.deepEqual(nexts('30 22 * * 1-5', '2024-01-05T23:00:00Z', 2), ['2024-01-08T22:30:00Z', '2024-01-09T22:30:00Z']);
});

test('descriptors', () => {
  const from = '2024-05-15T12:34:56Z';
  assert.deepEqual(nexts('@yearly', from, 2), ['2025-01-01T00:00:00Z', '2026-01-01T00:00:00Z']);
  assert.deepEqual(nexts('@annually', from, 1), ['2025-01-01T00:00:00Z']);
  assert.deepEqual(nexts('@monthly', from, 2), ['2024-06-01T00:00:00Z', '2024-07-01T00:00:00Z']);
  assert.deepEqual(nexts('@weekly', from, 2), ['2024-05-19T00:00:00Z', '2024-05-26T00:00:00Z']);
  assert.deepEqual(nexts('@daily', from, 2), ['2024-05-16T00:00:00Z', '2024-05-17T00:00:00Z']);
  assert.deepEqual(nexts('@midnight', from, 1), ['2024-05-16T00:00:00Z']);
  assert.deepEqual(nexts('@hourly', from, 2), ['2024-05-15T13:00:00Z', '2024-05-15T14:00:00Z']);
  assert.deepEqual(nexts('@weekly', '2024-03-30T12:00:00Z', 2, zurich), [
    '2024-03-31T00:00:00+01:00',
    '2024-04-07T00:00:00+02:00',
  ]);
});

test('@every: t + d, from the whole second, at least one second', () => {
  const after = Date.parse('2024-05-15T10:00:00.700Z');
  const every = (text: string): string => new Date(nextActivation(cron(text), after, zurich) ?? 0).toISOString();
  assert.equal(every('@every 1h30m'), '2024-05-15T11:30:00.000Z');
  assert.equal(every('@every 1.5s'), '2024-05-15T10:00:01.000Z');
  assert.equal(every('@every 500ms'), '2024-05-15T10:00:01.000Z');
  assert.equal(every('@every -5m'), '2024-05-15T10:00:01.000Z');
  assert.equal(every('@every 0'), '2024-05-15T10:00:01.000Z');
  assert.equal(every('CRON_TZ=Asia/Tokyo @every 2m'), '2024-05-15T10:02:00.000Z');
  assert.deepEqual(cron('@every 90s'), { kind: 'every', delayMs: 90_000 });
});

test('next is strictly after, from the next whole second', () => {
  const s = cron('0 10 * * *');
  assert.equal(nextActivation(s, Date.parse('2024-05-15T10:00:00Z'), UTC_ZONE), Date.parse('2024-05-16T10:00:00Z'));
  assert.equal(nextActivation(s, Date.parse('2024-05-15T09:59:59.999Z'), UTC_ZONE), Date.parse('2024-05-15T10:00:00Z'));
  assert.equal(nextActivation(s, Date.parse('2024-05-15T10:00:00.001Z'), UTC_ZONE), Date.parse('2024-05-16T10:00:00Z'));
});

test('nothing within five years gives no activation', () => {
  assert.equal(nextActivation(cron('0 0 30 2 *'), Date.parse('2024-01-01T00:00:00Z'), UTC_ZONE), undefined);
  assert.equal(nextActivation(cron('0 0 31 4,6,9,11 *'), Date.parse('2024-01-01T00:00:00Z'), UTC_ZONE), undefined);
  assert.equal(nextActivation(cron(', 0 * * *'), Date.parse('2024-01-01T00:00:00Z'), UTC_ZONE), undefined);
  assert.equal(nextActivation(cron('0 0 , * ,'), Date.parse('2024-01-01T00:00:00Z'), UTC_ZONE), undefined);
  // Feb 29 four years ahead is still found; eight years ahead is not.
  assert.deepEqual(nexts('0 0 29 2 *', '2024-03-01T00:00:00Z', 1), ['2028-02-29T00:00:00Z']);
  assert.equal(nextActivation(cron('0 0 29 2 *'), Date.parse('2096-03-01T00:00:00Z'), UTC_ZONE), undefined);
});

test('DST in Europe/Zurich: a missing wall time is skipped, a repeated one fires twice', () => {
  assert.deepEqual(nexts('30 2 * * *', '2024-03-29T12:00:00+01:00', 3, zurich), [
    '2024-03-30T02:30:00+01:00',
    '2024-04-01T02:30:00+02:00',
    '2024-04-02T02:30:00+02:00',
  ]);
  assert.deepEqual(nexts('0 2 * * 0', '2024-03-25T00:00:00+01:00', 2, zurich), [
    '2024-04-07T02:00:00+02:00',
    '2024-04-14T02:00:00+02:00',
  ]);
  assert.deepEqual(nexts('30 2 * * *', '2024-10-26T03:00:00+02:00', 3, zurich), [
    '2024-10-27T02:30:00+02:00',
    '2024-10-27T02:30:00+01:00',
    '2024-10-28T02:30:00+01:00',
  ]);
  assert.deepEqual(nexts('0 * * * *', '2024-10-27T01:30:00+02:00', 3, zurich), [
    '2024-10-27T02:00:00+02:00',
    '2024-10-27T02:00:00+01:00',
    '2024-10-27T03:00:00+01:00',
  ]);
  assert.deepEqual(nexts('0 * * * *', '2024-03-31T00:30:00+01:00', 2, zurich), [
    '2024-03-31T01:00:00+01:00',
    '2024-03-31T03:00:00+02:00',
  ]);
  assert.deepEqual(nexts('*/30 2 27 10 *', '2024-10-27T00:00:00+02:00', 5, zurich), [
    '2024-10-27T02:00:00+02:00',
    '2024-10-27T02:30:00+02:00',
    '2024-10-27T02:00:00+01:00',
    '2024-10-27T02:30:00+01:00',
    '2025-10-27T02:00:00+01:00',
  ]);
  // New York changes at 02:00 local, too.
  assert.deepEqual(nexts('30 1 * * *', '2024-11-02T12:00:00-04:00', 3, newYork), [
    '2024-11-03T01:30:00-04:00',
    '2024-11-03T01:30:00-05:00',
    '2024-11-04T01:30:00-05:00',
  ]);
  assert.deepEqual(nexts('30 2 * * *', '2024-03-09T12:00:00-05:00', 2, newYork), [
    '2024-03-11T02:30:00-04:00',
    '2024-03-12T02:30:00-04:00',
  ]);
});

test('a midnight that does not exist (São Paulo 2018) is corrected as robfig corrects it', () => {
  const saoPaulo = zone('America/Sao_Paulo');
  // 2018-11-04 00:00 did not exist there: clocks went from 23:59:59 to 01:00.
  assert.deepEqual(nexts('0 * 4 11 *', '2018-11-03T12:00:00-03:00', 3, saoPaulo), [
    '2018-11-04T01:00:00-02:00',
    '2018-11-04T02:00:00-02:00',
    '2018-11-04T03:00:00-02:00',
  ]);
  assert.deepEqual(nexts('0 12 * * 0', '2018-11-01T12:00:00-03:00', 2, saoPaulo), [
    '2018-11-04T12:00:00-02:00',
    '2018-11-11T12:00:00-02:00',
  ]);
});

test('CRON_TZ= and TZ= override the zone; CRON_TZ=Local does not', () => {
  assert.deepEqual(nexts('CRON_TZ=America/New_York 0 9 * * *', '2024-07-01T00:00:00Z', 2, zurich), [
    '2024-07-01T15:00:00+02:00',
    '2024-07-02T15:00:00+02:00',
  ]);
  assert.deepEqual(nexts('TZ=UTC 0 9 * * *', '2024-07-01T00:00:00Z', 1, zurich), ['2024-07-01T11:00:00+02:00']);
  assert.deepEqual(nexts('TZ=  0 9 * * *', '2024-07-01T00:00:00Z', 1, zurich), ['2024-07-01T11:00:00+02:00']);
  assert.deepEqual(nexts('CRON_TZ=Local 0 9 * * *', '2024-07-01T00:00:00Z', 1, zurich), ['2024-07-01T09:00:00+02:00']);
  assert.deepEqual(nexts('CRON_TZ=Asia/Tokyo @daily', '2024-07-01T00:00:00Z', 1, UTC_ZONE), ['2024-07-01T15:00:00Z']);
  assert.equal(spec('CRON_TZ=Europe/Zurich 0 0 * * *').location?.name, 'Europe/Zurich');
  assert.equal(spec('CRON_TZ=Local 0 0 * * *').location, undefined);
});

const fieldChoices = {
  minute: ['*', '0', '*/15', '5-10', '0,30', '59'],
  hour: ['*', '2', '0-3', '*/6', '1,2,3', '23'],
  dom: ['*', '?', '1-15', '*/2', '27', '31'],
  month: ['*', '?', '3,10', '*/3', 'nov-dec'],
  dow: ['*', '?', '0', '1-5', 'sun', 'sat/2'],
};

test('property: every activation matches in its zone, increases, and none is missed', () => {
  const zones = [zurich, newYork, UTC_ZONE];
  const arb = fc.record({
    minute: fc.constantFrom(...fieldChoices.minute),
    hour: fc.constantFrom(...fieldChoices.hour),
    dom: fc.constantFrom(...fieldChoices.dom),
    month: fc.constantFrom(...fieldChoices.month),
    dow: fc.constantFrom(...fieldChoices.dow),
    from: fc.integer({ min: Date.UTC(2023, 0, 1), max: Date.UTC(2027, 0, 1) }),
    zone: fc.constantFrom(...zones),
  });
  fc.assert(
    fc.property(arb, ({ minute, hour, dom, month, dow, from, zone: z }) => {
      const s = spec(`${minute} ${hour} ${dom} ${month} ${dow}`);
      const matches = (ms: number): boolean => {
        const w = wallClock(z, ms);
        return (
          w.second === 0 &&
          w.millisecond === 0 &&
          s.minute.allowed[w.minute] === true &&
          s.hour.allowed[w.hour] === true &&
          s.month.allowed[w.month] === true &&
          dayMatches(s, w.day, w.weekday)
        );
      };
      let t = from;
      for (let i = 0; i < 3; i++) {
        const next = nextActivation(s, t, z);
        assert.ok(next !== undefined);
        assert.ok(next > t);
        assert.ok(matches(next), `${formatRfc3339InZone(z, next)} does not match`);
        if (next - t <= 3 * 86_400_000) {
          for (let m = Math.floor(t / 60_000) * 60_000 + 60_000; m < next; m += 60_000) {
            if (m > t) assert.ok(!matches(m), `skipped ${formatRfc3339InZone(z, m)}`);
          }
        }
        t = next;
      }
    }),
    { numRuns: 150 },
  );
});
