import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import { ActivityCounter } from '../../lib/activity.js';
import { silentLogger } from '../../lib/log.js';
import { DeferredQueue } from './deferred-queue.js';

void test('DeferredQueue retries a failing item with backoff on the clock', async () => {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const seen: number[] = [];
  let failures = 2;
  const q = new DeferredQueue<string>({
    name: 'test',
    clock,
    logger: silentLogger(),
    process: () => {
      seen.push(clock.now());
      if (failures-- > 0) throw new Error('boom');
    },
  });
  q.add('k', 'v');
  await q.idle();
  assert.equal(seen.length, 1);
  await clock.advance(5);
  await q.idle();
  await clock.advance(10);
  await q.idle();
  assert.equal(seen.length, 3);
  assert.deepEqual(
    seen.map((t) => t - seen[0]!),
    [0, 5, 15],
  );
  q.stop();
});

void test('DeferredQueue keeps one entry per key, runs outside the caller, and reports activity', async () => {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const activity = new ActivityCounter();
  const seen: string[] = [];
  const q = new DeferredQueue<string>({
    name: 'test',
    clock,
    logger: silentLogger(),
    activity,
    process: (item) => seen.push(item),
  });
  q.add('k', 'first');
  q.add('k', 'second');
  q.add('j', 'other');
  assert.deepEqual(seen, [], 'nothing runs synchronously');
  assert.equal(activity.busy, 1);
  await q.idle();
  assert.deepEqual(seen, ['second', 'other']);
  assert.equal(activity.busy, 0);
  q.addAfter('later', 'due', 1000);
  await q.idle();
  assert.equal(activity.busy, 0, 'delayed work is not activity until due');
  await clock.advance(1000);
  await q.idle();
  assert.deepEqual(seen, ['second', 'other', 'due']);
  q.stop();
  q.add('x', 'ignored');
  await q.idle();
  assert.equal(seen.length, 3);
});
