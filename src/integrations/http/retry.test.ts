import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock, flushMicrotasks } from '../../lib/clock.js';
import { SeededRandom, type Random } from '../../lib/random.js';
import { IntegrationError } from '../integration-error.js';
import {
  EXTERNAL_DEPENDENCY_RETRY,
  OCM_RETRY,
  backoffDelay,
  isTransientHttpFailure,
  retry,
  type RetryNotice,
} from './retry.js';

const fixed = (v: number): Random => ({ next: () => v });

test('backoffDelay doubles, caps and jitters', () => {
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => backoffDelay({ attempts: 5, initialDelayMs: 1000, factor: 2 }, i)),
    [1000, 2000, 4000, 8000],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((i) => backoffDelay({ attempts: 5, initialDelayMs: 1000, factor: 2, maxDelayMs: 3000 }, i)),
    [1000, 2000, 3000, 3000],
  );
  const p = { attempts: 6, initialDelayMs: 2000, factor: 2, jitter: 0.3 };
  assert.equal(backoffDelay(p, 0, fixed(0)), 1400);
  assert.equal(backoffDelay(p, 0, fixed(0.5)), 2000);
  assert.equal(backoffDelay(p, 1, fixed(0.999999)), 5200);
  const random = new SeededRandom(1);
  for (let i = 0; i < 100; i++) {
    const d = backoffDelay(OCM_RETRY, 2, random);
    assert.ok(d >= 5600 && d <= 10400, String(d));
  }
  assert.throws(() => backoffDelay(p, 0), /needs a Random/);
});

function transient(): IntegrationError {
  return new IntegrationError('x', 'HttpStatus', 'HTTP 503', { status: 503 });
}

test('retries transient failures on the clock, 1 s then 2 s, then gives up with the last error', async () => {
  const clock = new ManualClock();
  const t0 = clock.now();
  const tries: number[] = [];
  const notices: RetryNotice[] = [];
  let outcome: unknown;
  const done = retry(
    async (attempt) => {
      tries.push(clock.now() - t0);
      throw new IntegrationError('x', 'Unreachable', `try ${attempt}`);
    },
    { policy: EXTERNAL_DEPENDENCY_RETRY, clock, retryable: isTransientHttpFailure, onRetry: (n) => notices.push(n) },
  ).catch((err: unknown) => (outcome = err));
  await flushMicrotasks();
  assert.deepEqual(tries, [0]);
  await clock.advance(999);
  assert.deepEqual(tries, [0]);
  await clock.advance(1);
  assert.deepEqual(tries, [0, 1000]);
  await clock.advance(2000);
  await done;
  assert.deepEqual(tries, [0, 1000, 3000]);
  assert.ok(outcome instanceof IntegrationError);
  assert.equal(outcome.message, 'x: try 3');
  assert.deepEqual(
    notices.map((n) => [n.attempt, n.delayMs]),
    [
      [1, 1000],
      [2, 2000],
    ],
  );
  assert.equal(clock.pending, 0);
});

test('stops at once on a failure the predicate rejects (a 4xx)', async () => {
  const clock = new ManualClock();
  let calls = 0;
  await assert.rejects(
    retry(
      async () => {
        calls++;
        throw new IntegrationError('x', 'HttpStatus', 'HTTP 404', { status: 404 });
      },
      { policy: EXTERNAL_DEPENDENCY_RETRY, clock, retryable: isTransientHttpFailure },
    ),
    /HTTP 404/,
  );
  assert.equal(calls, 1);
  assert.equal(clock.pending, 0);
});

test('resolves with the first success', async () => {
  const clock = new ManualClock();
  let calls = 0;
  const result = retry(
    async (attempt) => {
      calls++;
      if (attempt < 2) throw transient();
      return 'ok';
    },
    { policy: OCM_RETRY, clock, random: fixed(0.5), retryable: isTransientHttpFailure },
  );
  await clock.advance(2000);
  assert.equal(await result, 'ok');
  assert.equal(calls, 2);
});

test('an abort during the wait ends the retry with the signal reason', async () => {
  const clock = new ManualClock();
  const controller = new AbortController();
  const result = retry(
    async () => {
      throw transient();
    },
    { policy: EXTERNAL_DEPENDENCY_RETRY, clock, retryable: () => true, signal: controller.signal },
  );
  await flushMicrotasks();
  controller.abort(new Error('shutting down'));
  await assert.rejects(result, /shutting down/);
});

test('isTransientHttpFailure: transport failures, timeouts and 5xx only', () => {
  assert.equal(isTransientHttpFailure(new IntegrationError('x', 'Unreachable', '')), true);
  assert.equal(isTransientHttpFailure(new IntegrationError('x', 'Timeout', '')), true);
  assert.equal(isTransientHttpFailure(new IntegrationError('x', 'HttpStatus', '', { status: 500 })), true);
  assert.equal(isTransientHttpFailure(new IntegrationError('x', 'HttpStatus', '', { status: 429 })), false);
  assert.equal(isTransientHttpFailure(new IntegrationError('x', 'BadResponse', '')), false);
  assert.equal(isTransientHttpFailure(new IntegrationError('x', 'Aborted', '')), false);
  assert.equal(isTransientHttpFailure(new Error('boom')), false);
});
