import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../lib/clock.js';
import {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialRateLimiter,
  MaxOfRateLimiter,
} from './rate-limiter.js';

void test('exponential limiter doubles per item from 5 ms and caps at 1000 s', () => {
  const l = new ItemExponentialRateLimiter<string>(5, 1000_000);
  assert.deepEqual(
    [1, 2, 3, 4, 5].map(() => l.when('a')),
    [5, 10, 20, 40, 80],
  );
  assert.equal(l.when('b'), 5, 'items are independent');
  assert.equal(l.numRequeues('a'), 5);
  for (let i = 0; i < 40; i++) l.when('a');
  assert.equal(l.when('a'), 1000_000);
  l.forget('a');
  assert.equal(l.numRequeues('a'), 0);
  assert.equal(l.when('a'), 5);
});

void test('exponential limiter never overflows to Infinity', () => {
  const l = new ItemExponentialRateLimiter<string>(5, 1000_000);
  for (let i = 0; i < 2000; i++) l.when('x');
  assert.equal(l.when('x'), 1000_000);
});

void test('token bucket gives a burst of 100 free, then 100 ms apart at 10 qps, and refills with time', async () => {
  const clock = new ManualClock();
  const l = new BucketRateLimiter<string>({ qps: 10, burst: 100, clock });
  for (let i = 0; i < 100; i++) assert.equal(l.when(`k${i}`), 0);
  assert.equal(l.when('x'), 100);
  assert.equal(l.when('y'), 200);
  await clock.advance(10_000);
  // 10 s at 10 qps brings 100 tokens; the two borrowed ones are paid back first.
  for (let i = 0; i < 98; i++) assert.equal(l.when(`r${i}`), 0);
  assert.equal(l.when('w'), 100);
  await clock.advance(60_000);
  // A long pause refills only up to the burst.
  for (let i = 0; i < 100; i++) assert.equal(l.when(`r${i}`), 0);
  assert.equal(l.when('z'), 100);
});

void test('default controller limiter is the max of both', () => {
  const clock = new ManualClock();
  const l = defaultControllerRateLimiter<string>(clock);
  assert.equal(l.when('a'), 5);
  assert.equal(l.when('a'), 10);
  assert.equal(l.numRequeues('a'), 2);
  const m = new MaxOfRateLimiter<string>(new ItemExponentialRateLimiter(1, 10), new ItemExponentialRateLimiter(3, 100));
  assert.equal(m.when('k'), 3);
  assert.equal(m.when('k'), 6);
  m.forget('k');
  assert.equal(m.numRequeues('k'), 0);
});
