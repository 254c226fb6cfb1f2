import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scheduleDecision } from './upgrade-schedule.js';

const AT = '2030-01-01T10:00:00Z';
const at = Date.parse(AT);
const MIN = 60_000;

test('scheduleDecision: before, at, inside and after the window', () => {
  const cases: [name: string, now: number, windowMs: number, expected: ReturnType<typeof scheduleDecision>][] = [
    ['an hour early', at - 60 * MIN, 120 * MIN, { ready: false, breached: false, untilMs: 60 * MIN }],
    ['one ms early', at - 1, 120 * MIN, { ready: false, breached: false, untilMs: 1 }],
    ['exactly at upgradeAt', at, 120 * MIN, { ready: true, breached: false, untilMs: 0 }],
    ['inside the window', at + 119 * MIN, 120 * MIN, { ready: true, breached: false, untilMs: 0 }],
    ['window just ended', at + 120 * MIN, 120 * MIN, { ready: true, breached: true, untilMs: 0 }],
    ['long after', at + 24 * 60 * MIN, 120 * MIN, { ready: true, breached: true, untilMs: 0 }],
    ['no window (0) is never breached', at + 24 * 60 * MIN, 0, { ready: true, breached: false, untilMs: 0 }],
  ];
  for (const [name, now, windowMs, expected] of cases)
    assert.deepEqual(scheduleDecision(AT, now, windowMs), expected, name);
});

test('an unparsable upgradeAt is never ready', () => {
  assert.deepEqual(scheduleDecision('soon', at, 120 * MIN), { ready: false, breached: false, untilMs: 0 });
  assert.deepEqual(scheduleDecision('2030-01-01T10:00:00+02:00', at, 0), { ready: true, breached: false, untilMs: 0 });
});
