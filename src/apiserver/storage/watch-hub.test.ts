import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import { ActivityCounter } from '../../lib/activity.js';
import { ApiError } from '../status.js';
import type { KubeObject } from '../types.js';
import { configMapType, eventType, eventsV1Type } from '../builtin/kinds.js';
import { MemoryStore } from './store.js';
import { WatchHub, type Watch } from './watch-hub.js';

function cm(name: string, labels: Record<string, string> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', labels }, data: {} };
}

function setup(options: { windowSize?: number; maxQueue?: number } = {}): {
  store: MemoryStore;
  clock: ManualClock;
  hub: WatchHub;
} {
  const clock = new ManualClock();
  const store = new MemoryStore({ clock });
  const hub = new WatchHub(store, { clock, ...options });
  return { store, clock, hub };
}

function seen(w: Watch): string[] {
  return w.take().map((e) => `${e.type} ${(e.object.metadata.name as string | undefined) ?? ''}`);
}

void test('rv unset gives ADDED for the current state, then live events', () => {
  const { store, hub } = setup();
  store.create(configMapType, cm('a'));
  const w = hub.watch(configMapType);
  assert.deepEqual(seen(w), ['ADDED a']);
  store.create(configMapType, cm('b'));
  store.delete(configMapType, 'default', 'a');
  assert.deepEqual(seen(w), ['ADDED b', 'DELETED a']);
});

void test('a watch from a resourceVersion replays what came after it', () => {
  const { store, hub } = setup();
  const a = store.create(configMapType, cm('a'));
  store.create(configMapType, cm('b'));
  store.update(configMapType, { ...a, data: { x: '1' } });
  const w = hub.watch(configMapType, { resourceVersion: a.metadata.resourceVersion as string });
  assert.deepEqual(seen(w), ['ADDED b', 'MODIFIED a']);
});

void test('410 Expired when the resourceVersion fell out of the window', () => {
  const { store, hub } = setup({ windowSize: 2 });
  const a = store.create(configMapType, cm('a'));
  store.create(configMapType, cm('b'));
  store.create(configMapType, cm('c'));
  store.create(configMapType, cm('d'));
  let err: unknown;
  try {
    hub.watch(configMapType, { resourceVersion: a.metadata.resourceVersion as string });
  } catch (e) {
    err = e;
  }
  assert.ok(err instanceof ApiError);
  assert.equal(err.code, 410);
  assert.equal(err.message, 'too old resource version: 1 (2)');
  assert.deepEqual(seen(hub.watch(configMapType, { resourceVersion: '2' })), ['ADDED c', 'ADDED d']);
});

void test('selector transitions: leaving is DELETED, entering is ADDED', () => {
  const { store, hub } = setup();
  const w = hub.watch(configMapType, {
    resourceVersion: store.currentResourceVersion(),
    filter: (o) => (o.metadata.labels as Record<string, string>).app === 'web',
  });
  const a = store.create(configMapType, cm('a', { app: 'db' }));
  const a2 = store.update(configMapType, { ...a, metadata: { ...a.metadata, labels: { app: 'web' } } });
  const a3 = store.update(configMapType, { ...a2, data: { k: 'v' } });
  const a4 = store.update(configMapType, { ...a3, metadata: { ...a3.metadata, labels: { app: 'db' } } });
  const events = w.take();
  assert.deepEqual(
    events.map((e) => e.type),
    ['ADDED', 'MODIFIED', 'DELETED'],
  );
  assert.equal(
    events[2]!.object.metadata.resourceVersion,
    a4.metadata.resourceVersion,
    'DELETED carries the latest resourceVersion',
  );
});

void test('bookmarks every interval and at timeout; the stream then ends', async () => {
  const { store, clock, hub } = setup();
  const w = hub.watch(configMapType, { resourceVersion: '0', allowBookmarks: true, timeoutSeconds: 150 });
  await clock.advance(60_000);
  store.create(configMapType, cm('a'));
  await clock.advance(60_000);
  const events = w.take();
  assert.deepEqual(
    events.map((e) => e.type),
    ['BOOKMARK', 'ADDED', 'BOOKMARK'],
  );
  assert.deepEqual(events[2]!.object, { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '1' } });
  await clock.advance(30_000);
  assert.equal(w.done, true);
  assert.equal(w.endReason, 'timeout');
  assert.deepEqual(
    w.take().map((e) => e.type),
    ['BOOKMARK'],
  );
  assert.equal(hub.size, 0);
});

void test('sendInitialEvents ends the initial list with an annotated bookmark', () => {
  const { store, hub } = setup();
  store.create(configMapType, cm('a'));
  const events = hub.watch(configMapType, { allowBookmarks: true, sendInitialEvents: true }).take();
  assert.equal(events[1]?.type, 'BOOKMARK');
  assert.deepEqual(events[1]?.object.metadata.annotations, { 'k8s.io/initial-events-end': 'true' });
});

void test('a watcher that falls behind past the limit is ended, others are not', () => {
  const { store, hub } = setup({ maxQueue: 3 });
  const slow = hub.watch(configMapType, { resourceVersion: '0' });
  const fast = hub.watch(configMapType, { resourceVersion: '0' });
  for (const n of ['a', 'b']) store.create(configMapType, cm(n));
  fast.take();
  for (const n of ['c', 'd']) store.create(configMapType, cm(n));
  assert.equal(slow.done, true);
  assert.equal(slow.endReason, 'overflow');
  assert.equal(fast.done, false);
  assert.deepEqual(seen(fast), ['ADDED c', 'ADDED d']);
});

void test('events.k8s.io watches see converted Events; activity counts undelivered events', () => {
  const clock = new ManualClock();
  const store = new MemoryStore({ clock });
  const activity = new ActivityCounter();
  const hub = new WatchHub(store, { clock, activity });
  const w = hub.watch(eventsV1Type, { resourceVersion: '0' });
  store.create(eventType, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e', namespace: 'default' },
    involvedObject: { kind: 'Pod' },
    message: 'm',
  });
  assert.equal(activity.busy, 1);
  const [ev] = w.take();
  w.ack();
  assert.equal(activity.busy, 0);
  assert.equal(ev?.object.apiVersion, 'events.k8s.io/v1');
  assert.equal(ev?.object.note, 'm');
});

void test('100 watchers × 10,000 events: none dropped', () => {
  const { store, hub } = setup();
  const watches = Array.from({ length: 100 }, () => hub.watch(configMapType, { resourceVersion: '0' }));
  for (let i = 0; i < 10_000; i++) store.create(configMapType, cm(`c${i}`));
  for (const w of watches) assert.equal(w.take().length, 10_000);
});

void test('the window drops changes older than 75 s beyond the newest 100: resuming before them is 410', async () => {
  const { store, clock, hub } = setup();
  for (let i = 0; i < 150; i++) store.create(configMapType, cm(`old${i}`));
  await clock.advance(76_000);
  const fresh = store.create(configMapType, cm('fresh'));
  // 151 changes, 150 of them older than 75 s: the newest 100 stay, rv 1–51 are gone.
  assert.equal(hub.oldestResumable(configMapType), 51);
  assert.throws(
    () => hub.watch(configMapType, { resourceVersion: '50' }),
    (e: unknown) => e instanceof ApiError && e.code === 410 && e.message === 'too old resource version: 50 (51)',
  );
  const w = hub.watch(configMapType, { resourceVersion: '51' });
  const names = seen(w);
  assert.equal(names.length, 100);
  assert.equal(names[0], 'ADDED old51');
  assert.equal(names.at(-1), `ADDED ${fresh.metadata.name as string}`);
});

void test('a type that stopped changing ages out when any other type changes', async () => {
  const { store, clock, hub } = setup();
  for (let i = 0; i < 150; i++) store.create(configMapType, cm(`c${i}`));
  assert.equal(hub.windowLength(configMapType), 150);
  await clock.advance(80_000);
  assert.equal(hub.windowLength(configMapType), 150, 'nothing changed since');
  store.create(eventType, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e', namespace: 'default' },
    involvedObject: { kind: 'Pod' },
  });
  assert.equal(hub.windowLength(configMapType), 100);
  assert.equal(hub.windowLength(eventType), 1);
});

void test('a type no longer served loses its window: resuming from before is 410', () => {
  const { store, hub } = setup();
  store.create(configMapType, cm('a'));
  store.create(configMapType, cm('b'));
  const served = store.resourceType('', 'configmaps')!;
  store.unregisterResourceType('', 'configmaps');
  assert.equal(hub.windowLength(configMapType), 0);
  store.registerResourceType(served);
  assert.throws(
    () => hub.watch(configMapType, { resourceVersion: '1' }),
    (e: unknown) => e instanceof ApiError && e.code === 410,
  );
  store.create(configMapType, cm('c'));
  assert.deepEqual(seen(hub.watch(configMapType, { resourceVersion: '2' })), ['ADDED c']);
});
