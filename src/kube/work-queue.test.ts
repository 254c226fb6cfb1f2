import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActivityCounter } from '../lib/activity.js';
import { flushMicrotasks, ManualClock } from '../lib/clock.js';
import { WorkQueue } from './work-queue.js';

function queue(
  clock = new ManualClock(),
  activity = new ActivityCounter(),
): { q: WorkQueue; clock: ManualClock; activity: ActivityCounter } {
  return { q: new WorkQueue({ name: 'test', clock, activity }), clock, activity };
}

void test('a key queued twice is handed out once, in FIFO order', async () => {
  const { q } = queue();
  q.add('a');
  q.add('b');
  q.add('a');
  assert.equal(q.length, 2);
  assert.equal(await q.get(), 'a');
  assert.equal(await q.get(), 'b');
  assert.equal(q.stats().adds, 2);
});

void test('a key added while processing is not handed to a second worker, and runs again after done', async () => {
  const { q } = queue();
  q.add('a');
  assert.equal(await q.get(), 'a');
  q.add('a');
  q.add('a');
  assert.equal(q.length, 0, 'not queued while processing');
  let second: string | undefined;
  void q.get().then((k) => (second = k));
  await flushMicrotasks();
  assert.equal(second, undefined);
  q.done('a');
  await flushMicrotasks();
  assert.equal(second, 'a');
  q.done('a');
  assert.equal(q.length, 0);
});

void test('get waits for an add', async () => {
  const { q } = queue();
  const p = q.get();
  q.add('x');
  assert.equal(await p, 'x');
});

void test('addAfter fires on the clock, the earliest time wins, and dedups with add', async () => {
  const { q, clock } = queue();
  q.addAfter('a', 1000);
  q.addAfter('a', 500);
  q.addAfter('a', 2000);
  await clock.advance(499);
  assert.equal(q.length, 0);
  await clock.advance(1);
  assert.equal(q.length, 1);
  await clock.advance(5000);
  assert.equal(q.length, 1, 'the later timers were replaced, not added');
  assert.equal(await q.get(), 'a');
  q.addAfter('b', 0);
  assert.equal(q.length, 1, 'zero delay adds at once');
});

void test('addRateLimited backs off per item; forget resets', async () => {
  const { q, clock } = queue();
  q.addRateLimited('a');
  assert.equal(q.numRequeues('a'), 1);
  await clock.advance(4);
  assert.equal(q.length, 0);
  await clock.advance(1);
  assert.equal(q.length, 1);
  assert.equal(await q.get(), 'a');
  q.done('a');
  q.addRateLimited('a');
  await clock.advance(9);
  assert.equal(q.length, 0);
  await clock.advance(1);
  assert.equal(q.length, 1);
  q.forget('a');
  assert.equal(q.numRequeues('a'), 0);
  assert.equal(q.stats().retries, 2);
});

void test('shutDown hands out what is queued, then undefined, and ignores new adds', async () => {
  const { q } = queue();
  q.add('a');
  const waiting = queue().q;
  const pending = waiting.get();
  waiting.shutDown();
  assert.equal(await pending, undefined);
  q.shutDown();
  q.add('b');
  q.addAfter('c', 10);
  assert.equal(await q.get(), 'a');
  assert.equal(await q.get(), undefined);
});

void test('shutDownWithDrain waits for keys in processing', async () => {
  const { q } = queue();
  q.add('a');
  await q.get();
  let drained = false;
  const p = q.shutDownWithDrain().then(() => (drained = true));
  await flushMicrotasks();
  assert.equal(drained, false);
  q.done('a');
  await p;
  assert.equal(drained, true);
});

void test('queued and processing keys count as activity once a worker takes keys; waiting keys do not', async () => {
  const { q, activity, clock } = queue();
  q.addAfter('later', 100);
  assert.equal(activity.busy, 0);
  q.add('a');
  assert.equal(activity.busy, 0, 'no worker has asked for a key yet (its caches are syncing)');
  assert.equal(await q.get(), 'a');
  assert.equal(activity.busy, 1);
  q.add('a');
  q.done('a');
  assert.equal(activity.busy, 1, 'requeued');
  await q.get();
  q.done('a');
  assert.equal(activity.busy, 0);
  await clock.advance(100);
  assert.equal(activity.busy, 1, 'due and queued');
});

void test('a key whose reconcile waits for time is no activity, nor are keys queued behind busy workers', async () => {
  const activity = new ActivityCounter();
  const q = new WorkQueue({ name: 'test', clock: new ManualClock(), activity, workers: 2 });
  q.add('a');
  q.add('b');
  q.add('c');
  assert.equal(await q.get(), 'a');
  assert.equal(await q.get(), 'b');
  const resumeA = q.suspend('a');
  assert.equal(activity.busy, 1, 'b is still worked on');
  const resumeB = q.suspend('b');
  assert.equal(activity.busy, 0, 'both workers wait for time; c cannot start before either ends');
  q.add('a');
  assert.equal(activity.busy, 0, 'a re-added while its reconcile sleeps waits for it too');
  resumeA();
  assert.equal(activity.busy, 1);
  resumeA();
  assert.equal(activity.busy, 1, 'resuming twice counts once');
  q.done('a');
  assert.equal(activity.busy, 1, 'a worker is free for c and a');
  resumeB();
  q.done('b');
  assert.equal(await q.get(), 'c');
  assert.equal(await q.get(), 'a');
  const resumeC = q.suspend('c');
  q.done('c');
  resumeC();
  q.done('a');
  assert.equal(activity.busy, 0);
  assert.deepEqual(q.suspend('idle')(), undefined, 'a key not being processed: nothing to suspend');
  assert.equal(activity.busy, 0);
});

void test('stats measure latency and work duration on the clock', async () => {
  const { q, clock } = queue();
  q.add('a');
  await clock.advance(30);
  await q.get();
  await clock.advance(70);
  assert.equal(q.stats().longestRunningMs, 70);
  q.done('a');
  const s = q.stats();
  assert.equal(s.latencySumMs, 30);
  assert.equal(s.workSumMs, 70);
  assert.equal(s.workCount, 1);
  assert.equal(s.depth, 0);
});

void test('a reconcile sleeping in two branches at once is busy again only when both sleeps end', async () => {
  const activity = new ActivityCounter();
  const q = new WorkQueue({ name: 'test', clock: new ManualClock(), activity, workers: 1 });
  q.add('a');
  assert.equal(await q.get(), 'a');
  // Two requests retried after the same 503, each sleeping for its Retry-After.
  const resumePods = q.suspend('a');
  const resumePdbs = q.suspend('a');
  assert.equal(activity.busy, 0);
  resumePods();
  assert.equal(activity.busy, 0, 'the other sleep still waits for time: the clock must be free to move');
  resumePods();
  assert.equal(activity.busy, 0, 'resuming one sleep twice counts once');
  resumePdbs();
  assert.equal(activity.busy, 1);
  // A resume left over from an earlier processing of the key changes nothing.
  const stale = q.suspend('a');
  q.done('a');
  q.add('a');
  assert.equal(await q.get(), 'a');
  const fresh = q.suspend('a');
  stale();
  assert.equal(activity.busy, 0, 'the fresh sleep still holds');
  fresh();
  assert.equal(activity.busy, 1);
  q.done('a');
});
