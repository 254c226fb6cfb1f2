import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock, ScaledClock, formatMicroTime, formatTime, scaledNow } from './clock.js';
import { signalOfActivity } from './activity.js';

test('ManualClock fires timers in due order while advancing', async () => {
  const clock = new ManualClock(0);
  const fired: string[] = [];
  clock.setTimer(30, () => fired.push('c'));
  clock.setTimer(10, () => fired.push('a'));
  const cancelled = clock.setTimer(20, () => fired.push('x'));
  clock.setTimer(10, () => fired.push('b'));
  cancelled.cancel();
  await clock.advance(25);
  assert.deepEqual(fired, ['a', 'b']);
  assert.equal(clock.now(), 25);
  await clock.advance(5);
  assert.deepEqual(fired, ['a', 'b', 'c']);
});

test('ManualClock runs promise chains between timers', async () => {
  const clock = new ManualClock(0);
  const seen: number[] = [];
  const loop = async (): Promise<void> => {
    for (let i = 0; i < 3; i++) {
      await clock.sleep(10);
      seen.push(clock.now());
    }
  };
  const done = loop();
  await clock.advance(100);
  await done;
  assert.deepEqual(seen, [10, 20, 30]);
});

test('sleep rejects when its signal aborts', async () => {
  const clock = new ManualClock(0);
  const ac = new AbortController();
  const p = clock.sleep(1000, ac.signal);
  ac.abort(new Error('stop'));
  await assert.rejects(p, /stop/);
  assert.equal(clock.pending, 0);
});

test('Kubernetes time formats', () => {
  const t = Date.UTC(2026, 10, 22, 20, 24, 34, 567);
  assert.equal(formatTime(t), '2026-11-22T20:24:34Z');
  assert.equal(formatMicroTime(t), '2026-11-22T20:24:34.567000Z');
});

test('a sleep with the signal of a unit of work suspends the unit until the sleep ends', async () => {
  const clock = new ManualClock(0);
  const events: string[] = [];
  const parent = new AbortController();
  const unit = signalOfActivity(parent.signal, () => {
    events.push('suspend');
    return () => events.push('resume');
  });
  const slept = clock.sleep(1000, unit.signal).then(() => events.push('woke'));
  assert.deepEqual(events, ['suspend']);
  await clock.advance(1000);
  await slept;
  assert.deepEqual(events, ['suspend', 'resume', 'woke']);
  // Aborted sleeps resume the unit too; the parent's abort reaches the unit's signal.
  const aborted = clock
    .sleep(1000, unit.signal)
    .catch((err: unknown) => events.push(`aborted: ${(err as Error).message}`));
  parent.abort(new Error('stopping'));
  await aborted;
  assert.deepEqual(events.slice(3), ['suspend', 'resume', 'aborted: stopping']);
  assert.equal(unit.signal.aborted, true);
  // Other signals suspend nothing.
  await Promise.all([clock.sleep(10, new AbortController().signal), clock.advance(10)]);
  assert.equal(events.length, 6);
  unit.release();
});

test('scaled time is start + (wall − origin) × scale in whole ms; processes sharing one scaling agree', async () => {
  const scaling = { start: Date.UTC(2026, 2, 2), realOrigin: 5_000, scale: 300 };
  assert.equal(scaledNow(scaling, 5_000), scaling.start);
  assert.equal(scaledNow(scaling, 6_000), scaling.start + 300_000);
  assert.equal(scaledNow({ ...scaling, scale: 0.5 }, 5_003), scaling.start + 1, 'floored');
  const wall = new ManualClock(7_000);
  const one = new ScaledClock(scaling, wall);
  const other = new ScaledClock({ ...scaling }, wall);
  assert.equal(one.now(), scaling.start + 600_000);
  await wall.advance(123);
  assert.equal(one.now(), other.now());
  assert.equal(one.now(), scaling.start + (7_123 - 5_000) * 300);
  assert.throws(() => new ScaledClock({ ...scaling, scale: 0 }), /scale must be a positive number/);
  assert.throws(() => new ScaledClock({ ...scaling, scale: Number.NaN }), /scale must be a positive number/);
});

test('a scaled timer is a scaled-down wall timer that never fires before its virtual due time', async () => {
  const wall = new ManualClock(0);
  const clock = new ScaledClock({ start: 1_000_000, realOrigin: 0, scale: 60 }, wall);
  const fired: number[] = [];
  clock.setTimer(60_000, () => fired.push(clock.now()));
  // 7 virtual ms is 0.1167 wall ms: armed for 1 wall ms, it fires at 60 virtual ms, not before 7.
  clock.setTimer(7, () => fired.push(clock.now()));
  const cancelled = clock.setTimer(30_000, () => fired.push(-1));
  cancelled.cancel();
  await wall.advance(1);
  assert.deepEqual(fired, [1_000_060]);
  await wall.advance(998);
  assert.deepEqual(fired, [1_000_060], 'one virtual minute is 1000 wall ms');
  await wall.advance(1);
  assert.deepEqual(fired, [1_000_060, 1_060_000]);
  const slept = clock.sleep(120_000).then(() => fired.push(clock.now()));
  await wall.advance(2000);
  await slept;
  assert.equal(fired.at(-1), 1_180_000);
  assert.equal(wall.pending, 0);
});
