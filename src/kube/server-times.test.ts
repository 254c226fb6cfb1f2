import { test } from 'node:test';
import assert from 'node:assert/strict';
import { translateServerTimes, virtualTimeOfStamp } from './server-times.js';

/** Server time 2026-11-27T12:00:00Z is virtual 2026-03-02T00:00:00Z; ten virtual ms per server ms. */
const scaling = {
  start: Date.parse('2026-03-02T00:00:00Z'),
  realOrigin: Date.parse('2026-11-27T12:00:00Z'),
  scale: 10,
};
const base = (serverMs: number): number => virtualTimeOfStamp(scaling, serverMs);

void test('a creation stamp is the virtual time of the middle of its server second', () => {
  // 12:00:10 on the server is 100 virtual s after the start; the middle of that second 105 s.
  assert.equal(base(Date.parse('2026-11-27T12:00:10Z')), Date.parse('2026-03-02T00:01:45Z'));
  // A stamp with a fraction is read as it is.
  assert.equal(base(Date.parse('2026-11-27T12:00:10.250Z')), Date.parse('2026-03-02T00:01:42.500Z'));
  // Before the origin (the set-up, at the wall pace): ×1.
  assert.equal(base(Date.parse('2026-11-27T11:59:50Z')), Date.parse('2026-03-01T23:59:50.500Z'));
});

void test('objects, list items and watch events are read on the client clock; the rest is kept', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'p',
      creationTimestamp: '2026-11-27T12:00:10Z',
      deletionTimestamp: '2026-11-27T12:01:40Z',
      deletionGracePeriodSeconds: 30,
      labels: { a: 'b' },
    },
    spec: { nodeName: 'n1' },
  };
  const expected = {
    ...pod,
    metadata: {
      ...pod.metadata,
      creationTimestamp: '2026-03-02T00:01:45Z',
      // Deleted at 12:01:10 (the stamp less its grace): 705 virtual s; the grace of 30 s kept.
      deletionTimestamp: '2026-03-02T00:12:15Z',
    },
  };
  assert.deepEqual(translateServerTimes(pod, base), expected);
  assert.deepEqual(translateServerTimes({ type: 'MODIFIED', object: pod }, base), {
    type: 'MODIFIED',
    object: expected,
  });
  assert.deepEqual(
    translateServerTimes({ kind: 'PodList', metadata: { resourceVersion: '7' }, items: [pod, pod] }, base),
    { kind: 'PodList', metadata: { resourceVersion: '7' }, items: [expected, expected] },
  );
  // The input is not changed; an object without stamps comes back as it is.
  assert.equal(pod.metadata.creationTimestamp, '2026-11-27T12:00:10Z');
  const plain = { metadata: { name: 'x' } };
  assert.equal(translateServerTimes(plain, base), plain);
  assert.equal(translateServerTimes('text', base), 'text');
  // A stamp that is no time passes through.
  assert.deepEqual(translateServerTimes({ metadata: { creationTimestamp: 'soon' } }, base), {
    metadata: { creationTimestamp: 'soon' },
  });
});
