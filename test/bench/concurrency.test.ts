import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runConcurrent } from './concurrency.js';

test('runs every operation once with at most `concurrency` in flight', async () => {
  let inFlight = 0;
  let peak = 0;
  const seen: number[] = [];
  const run = await runConcurrent({ count: 50, concurrency: 4, deadlineMs: 60_000 }, async (i) => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    seen.push(i);
    inFlight--;
  });
  assert.equal(run.done, 50);
  assert.equal(run.timedOut, false);
  assert.equal(run.error, undefined);
  assert.equal(peak, 4);
  assert.deepEqual(
    [...seen].sort((a, b) => a - b),
    Array.from({ length: 50 }, (_, i) => i),
  );
});

test('stops at the first failure', async () => {
  const run = await runConcurrent({ count: 100, concurrency: 2, deadlineMs: 60_000 }, async (i) => {
    if (i === 10) throw new Error('boom');
  });
  assert.equal(run.error?.message, 'boom');
  assert.ok(run.done < 100);
});

test('stops starting operations after the deadline', async () => {
  const run = await runConcurrent({ count: 1_000_000, concurrency: 1, deadlineMs: 0 }, async () => {});
  assert.equal(run.timedOut, true);
  assert.ok(run.done < 1_000_000);
});
