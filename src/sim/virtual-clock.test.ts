import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as immediate } from 'node:timers/promises';
import { ManualClock, ScaledClock } from '../lib/clock.js';
import { capturedLogger } from '../lib/log.test-support.js';
import { QuiescenceTracker, VirtualClock } from './virtual-clock.js';

const T0 = Date.UTC(2026, 0, 1);

void test('event mode: timers fire in due order, then creation order, and time jumps to each', async () => {
  const clock = new VirtualClock({ mode: 'event', start: T0 });
  const fired: Array<[string, number]> = [];
  const at = (name: string) => () => fired.push([name, clock.now() - T0]);
  clock.setTimer(300, at('c'));
  clock.setTimer(100, at('a1'));
  const x = clock.setTimer(200, at('x'));
  clock.setTimer(100, at('a2'));
  clock.setTimer(100, () => {
    at('a3')();
    clock.setTimer(50, at('b'));
  });
  x.cancel();
  x.cancel();
  assert.equal(clock.pendingTimers, 4);
  assert.equal(clock.nextDue(), T0 + 100);
  const r = await clock.run();
  assert.deepEqual(fired, [
    ['a1', 100],
    ['a2', 100],
    ['a3', 100],
    ['b', 150],
    ['c', 300],
  ]);
  assert.deepEqual(r, { reason: 'no-timers', now: T0 + 300, events: 5 });
  assert.equal(clock.pendingTimers, 0);
  assert.equal(clock.nextDue(), undefined);
});

void test('event mode: run until a time, a condition, maxEvents, or an abort', async () => {
  const clock = new VirtualClock({ mode: 'event', start: T0 });
  let ticks = 0;
  const loop = async (): Promise<void> => {
    for (;;) {
      await clock.sleep(60_000);
      ticks++;
    }
  };
  void loop();
  assert.deepEqual(await clock.run({ until: T0 + 150_000 }), { reason: 'time', now: T0 + 150_000, events: 2 });
  assert.equal(ticks, 2);
  assert.deepEqual(await clock.run({ until: () => ticks >= 5 }), { reason: 'condition', now: T0 + 300_000, events: 3 });
  assert.deepEqual(await clock.run({ maxEvents: 4 }), { reason: 'max-events', now: T0 + 540_000, events: 4 });
  const ac = new AbortController();
  ac.abort();
  assert.equal((await clock.run({ signal: ac.signal })).reason, 'aborted');
  // A numeric until with nothing scheduled before it moves time there.
  const idle = new VirtualClock({ mode: 'event', start: T0 });
  assert.deepEqual(await idle.run({ until: T0 + 5 }), { reason: 'time', now: T0 + 5, events: 0 });
});

void test('event mode: one run at a time', async () => {
  const clock = new VirtualClock({ mode: 'event', start: T0 });
  clock.setTimer(10, () => {});
  const first = clock.run();
  await assert.rejects(clock.run(), /already running/);
  assert.equal((await first).reason, 'no-timers');
});

void test('event mode: time stands still while anything is busy', async () => {
  const activity = new QuiescenceTracker();
  const clock = new VirtualClock({ mode: 'event', start: T0, activity });
  let fired = false;
  clock.setTimer(60_000, () => {
    fired = true;
  });
  const end = activity.begin('request');
  const running = clock.run();
  for (let i = 0; i < 50; i++) await immediate();
  assert.equal(clock.now(), T0);
  assert.equal(fired, false);
  assert.deepEqual(clock.busySnapshot(), { request: 1 });
  end();
  assert.deepEqual(await running, { reason: 'no-timers', now: T0 + 60_000, events: 1 });
  assert.equal(fired, true);
});

void test('event mode: work that arrives a few turns after the system went idle is waited for (settle period)', async () => {
  const activity = new QuiescenceTracker();
  const clock = new VirtualClock({ mode: 'event', start: T0, activity });
  const seen: number[] = [];
  clock.setTimer(1000, () => seen.push(clock.now() - T0));
  // A unit of work ends, and its message reaches the next actor three turns later (as data
  // written to a socket does); that actor then works and reads the time.
  const endSend = activity.begin('send');
  const running = clock.run();
  await immediate();
  endSend();
  await immediate();
  await immediate();
  await immediate();
  const endHandle = activity.begin('handle');
  await new Promise((resolve) => setTimeout(resolve, 2));
  seen.push(clock.now() - T0);
  endHandle();
  await running;
  assert.deepEqual(seen, [0, 1000]);
});

void test('event mode: zero-delay timers fire on the next turn without moving time, and count as activity', async () => {
  const clock = new VirtualClock({ mode: 'event', start: T0 });
  const order: string[] = [];
  const cancelled = clock.setTimer(0, () => order.push('cancelled'));
  clock.setTimer(0, () => order.push('zero'));
  clock.setTimer(-5, () => order.push('negative'));
  cancelled.cancel();
  assert.equal(clock.pendingTimers, 2);
  assert.equal(clock.nextDue(), T0);
  assert.equal(clock.activity.busy, 2);
  await immediate();
  assert.deepEqual(order, ['zero', 'negative']);
  assert.equal(clock.now(), T0);
  assert.equal(clock.activity.busy, 0);
  assert.equal(clock.pendingTimers, 0);
  // sleep(0) inside a busy unit does not wait for quiet (it would never come).
  const end = clock.activity.begin('reconcile');
  await clock.sleep(0);
  end();
});

void test('event mode: cancelled timers are dropped and many cancellations stay cheap', async () => {
  const clock = new VirtualClock({ mode: 'event', start: T0 });
  const fired: number[] = [];
  // A watchdog re-armed many times, as an informer's inactivity timer is.
  let watchdog = clock.setTimer(10_000, () => fired.push(-1));
  for (let i = 0; i < 1000; i++) {
    watchdog.cancel();
    watchdog = clock.setTimer(10_000 + i, () => fired.push(i));
  }
  assert.equal(clock.pendingTimers, 1);
  const r = await clock.run();
  assert.deepEqual(fired, [999]);
  assert.equal(r.now, T0 + 10_999);
});

void test('event mode: a system that never goes quiet is reported with what is outstanding', async () => {
  const { logger, lines } = capturedLogger<{ msg: string; busy: Record<string, number>; virtualTime: string }>('warn');
  const wall = new ManualClock(0);
  const clock = new VirtualClock({ mode: 'event', start: T0, wall, stallWarnMs: 5000, logger });
  clock.setTimer(1, () => {});
  const end = clock.activity.begin('workqueue stuck');
  const ac = new AbortController();
  const running = clock.run({ signal: ac.signal });
  await immediate();
  await wall.advance(4999);
  assert.equal(lines.length, 0);
  await wall.advance(1);
  await wall.advance(5000);
  assert.equal(lines.length, 2);
  const entry = lines[0]!;
  assert.equal(entry.msg, 'system not quiet; virtual time cannot move');
  assert.deepEqual(entry.busy, { 'workqueue stuck': 1 });
  assert.equal(entry.virtualTime, '2026-01-01T00:00:00.000Z');
  ac.abort();
  assert.deepEqual(await running, { reason: 'aborted', now: T0, events: 0 });
  end();
});

void test('scaled mode: virtual time is start + wall elapsed × scale; timers are scaled-down wall timers', async () => {
  const wall = new ManualClock(1_000_000);
  const clock = new VirtualClock({ mode: 'scaled', start: T0, scale: 60, wall });
  assert.equal(clock.now(), T0);
  await wall.advance(1000);
  assert.equal(clock.now(), T0 + 60_000);
  // Another process with the same origin and scale agrees.
  const other = new VirtualClock({ mode: 'scaled', start: T0, scale: 60, wall, realOrigin: 1_000_000 });
  assert.equal(other.now(), clock.now());

  const fired: number[] = [];
  clock.setTimer(10 * 60_000, () => fired.push(clock.now() - T0));
  const cancelled = clock.setTimer(5 * 60_000, () => fired.push(-1));
  cancelled.cancel();
  assert.equal(clock.pendingTimers, 1);
  assert.equal(clock.nextDue(), T0 + 11 * 60_000);
  await wall.advance(9_999);
  assert.deepEqual(fired, []);
  await wall.advance(1);
  assert.deepEqual(fired, [11 * 60_000]);
  assert.equal(clock.pendingTimers, 0);

  const running = clock.run({ until: T0 + 20 * 60_000 });
  await wall.advance(9 * 1000);
  const r = await running;
  assert.equal(r.reason, 'time');
  assert.equal(r.now, T0 + 20 * 60_000);
  assert.throws(() => new VirtualClock({ mode: 'scaled', scale: 0 }), /scale must be positive/);
});

void test("scaled mode is src/lib/clock.ts's ScaledClock: its scaling gives another process the same time", async () => {
  const wall = new ManualClock(2_000_000);
  const clock = new VirtualClock({ mode: 'scaled', start: T0, scale: 300, wall });
  await wall.advance(1234);
  const scaling = clock.scaling;
  assert.deepEqual(scaling, { start: T0, realOrigin: 2_000_000, scale: 300 });
  assert.ok(scaling);
  const elsewhere = new ScaledClock(scaling, wall);
  assert.equal(elsewhere.now(), clock.now());
  assert.equal(clock.now(), T0 + 1234 * 300);
  assert.equal(new VirtualClock({ mode: 'event', start: T0 }).scaling, undefined);
});

void test('scaled mode at the wall pace until begun: the set-up costs wall time, then the scale; pending timers follow', async () => {
  const wall = new ManualClock(5_000_000);
  const clock = new VirtualClock({ mode: 'scaled', start: T0, scale: 600, wall, wallPaceUntilBegun: true });
  const fired: number[] = [];
  clock.setTimer(3 * 60_000, () => fired.push(clock.now() - T0));
  await wall.advance(4_000);
  assert.equal(clock.now(), T0 + 4_000, 'set-up: virtual time at the wall pace');
  assert.deepEqual(clock.scaling, { start: T0, realOrigin: 5_000_000, scale: 1 });
  clock.beginScaledTime();
  assert.equal(clock.now(), T0 + 4_000, 'no jump');
  assert.deepEqual(clock.scaling, { start: T0 + 4_000, realOrigin: 5_004_000, scale: 600 });
  // The 3-minute timer (176 virtual s left) fires after 294 wall ms now, not 176 wall s.
  await wall.advance(293);
  assert.deepEqual(fired, []);
  await wall.advance(1);
  assert.deepEqual(fired, [4_000 + 294 * 600]);
  clock.beginScaledTime();
  assert.equal(clock.scaling?.realOrigin, 5_004_000, 'begun once');
  const event = new VirtualClock({ mode: 'event', start: T0 });
  event.beginScaledTime();
  assert.equal(event.now(), T0, 'event mode: nothing changes');
});

void test('scaled mode: run until a condition, counting timers fired', async () => {
  const wall = new ManualClock(0);
  const clock = new VirtualClock({ mode: 'scaled', start: T0, scale: 10, wall, realOrigin: 0, pollMs: 50 });
  let n = 0;
  const tick = (): void => {
    n++;
    clock.setTimer(1000, tick);
  };
  clock.setTimer(1000, tick);
  const running = clock.run({ until: () => n >= 3 });
  await wall.advance(300);
  const r = await running;
  assert.equal(r.reason, 'condition');
  assert.equal(r.events, 3);
  assert.equal(r.now, T0 + 3000);
});
