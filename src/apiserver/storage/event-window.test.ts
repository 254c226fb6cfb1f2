import { test } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { EventWindow, type WindowEntry } from './event-window.js';

function rvs(w: EventWindow<WindowEntry>, after = 0): number[] {
  return [...w.after(after)].map((e) => e.rv);
}

void test('the count bound drops the oldest changes and remembers the newest dropped', () => {
  const w = new EventWindow<WindowEntry>({ maxSize: 3, maxAgeMs: 60_000 });
  for (let rv = 1; rv <= 5; rv++) w.push({ rv, at: 0 });
  assert.deepEqual(rvs(w), [3, 4, 5]);
  assert.equal(w.droppedRv, 2);
  assert.deepEqual(rvs(w, 3), [4, 5]);
});

void test('changes older than the age bound go, except the newest minSize', () => {
  const w = new EventWindow<WindowEntry>({ maxSize: 100, maxAgeMs: 75_000, minSize: 2 });
  for (let rv = 1; rv <= 5; rv++) w.push({ rv, at: rv * 1000 });
  w.evict(75_999);
  assert.deepEqual(rvs(w), [1, 2, 3, 4, 5], 'none older than 75 s yet');
  w.evict(77_500);
  assert.deepEqual(rvs(w), [3, 4, 5]);
  assert.equal(w.droppedRv, 2);
  w.evict(1_000_000);
  assert.deepEqual(rvs(w), [4, 5], 'the newest minSize stay, however old');
  w.push({ rv: 6, at: 1_000_000 });
  assert.deepEqual(rvs(w), [5, 6]);
  assert.equal(w.droppedRv, 4);
});

void test('minSize never exceeds maxSize', () => {
  const w = new EventWindow<WindowEntry>({ maxSize: 2, maxAgeMs: 1 });
  for (let rv = 1; rv <= 4; rv++) w.push({ rv, at: 0 });
  w.evict(10);
  assert.deepEqual(rvs(w), [3, 4]);
});

void test('dropped changes are not kept reachable, however many pass', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const w = new EventWindow<WindowEntry>({ maxSize: 10, maxAgeMs: 60_000 });
  const first = new WeakRef<WindowEntry>({ rv: 1, at: 0 });
  w.push(first.deref()!);
  // Fewer than the 1,024 dead slots that make the array compact: the slot itself must be cleared.
  for (let rv = 2; rv <= 1000; rv++) w.push({ rv, at: 0 });
  assert.equal(w.size, 10);
  assert.deepEqual(rvs(w, 995), [996, 997, 998, 999, 1000]);
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  assert.equal(first.deref(), undefined);
});

void test('clear forgets everything and moves the floor up', () => {
  const w = new EventWindow<WindowEntry>({ maxSize: 10, maxAgeMs: 60_000 });
  w.push({ rv: 1, at: 0 });
  w.clear(7);
  assert.equal(w.size, 0);
  assert.equal(w.droppedRv, 7);
  w.clear(3);
  assert.equal(w.droppedRv, 7);
});
