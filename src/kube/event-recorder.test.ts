import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { startFakeApi, type FakeApi } from './fake-api.test-support.js';
import type { KubeClient } from './client.js';
import { testClient, type Loose } from './test-helpers.test-support.js';
import {
  EVENT_RETRY_MS,
  EventCorrelator,
  EventRecorder,
  isRetryableEventFailure,
  SpamFilter,
} from './event-recorder.js';
import { kubeApiErrorFrom } from './status-error.js';
import { ActivityCounter } from '../lib/activity.js';

const involved = {
  apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
  kind: 'UpgradeConfig',
  metadata: { name: 'cfg', namespace: 'ns', uid: 'u1', resourceVersion: '7' },
};

void test('correlator aggregates identical events within 10 minutes', () => {
  const c = new EventCorrelator();
  assert.deepEqual(c.decide('k', 0), { action: 'create' });
  c.record('k', { name: 'e1', namespace: 'ns', count: 1, lastAt: 0 });
  assert.deepEqual(c.decide('k', 600_000), { action: 'patch', name: 'e1', namespace: 'ns', count: 2 });
  assert.deepEqual(c.decide('k', 600_001), { action: 'create' });
});

void test('spam filter: burst of 25 per key, one more per 5 minutes', () => {
  const f = new SpamFilter();
  for (let i = 0; i < 25; i++) assert.equal(f.allow('k', 0), true);
  assert.equal(f.allow('k', 0), false);
  assert.equal(f.allow('other', 0), true);
  assert.equal(f.allow('k', 299_999), false);
  assert.equal(f.allow('k', 300_000), true);
  assert.equal(f.allow('k', 300_000), false);
});

/** A fake API server and a client of it on a ManualClock, both closed after the test. */
async function fakeApiClient(t: TestContext): Promise<{ api: FakeApi; clock: ManualClock; client: KubeClient }> {
  const api = await startFakeApi();
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const client = testClient(api.url, clock);
  t.after(async () => {
    await client.close();
    await api.close();
  });
  return { api, clock, client };
}

void test('recorder creates, then patches count and lastTimestamp, and never throws', async (t) => {
  const { api, clock, client } = await fakeApiClient(t);
  const r = new EventRecorder({
    client,
    clock,
    logger: silentLogger(),
    component: 'upgrade-operator',
    instance: 'pod-1',
  });
  r.event(involved, 'Normal', 'UpgradeStarted', 'Started upgrade to 4.15.3');
  await r.flush();
  await clock.advance(60_000);
  r.event(involved, 'Normal', 'UpgradeStarted', 'Started upgrade to 4.15.3');
  r.event(involved, 'Warning', 'HealthCheckFailed', 'alerts firing');
  await r.flush();
  const events = [...api.objects.values()].filter((o: Loose) => o.kind === 'Event') as Loose[];
  assert.equal(events.length, 2);
  const started = events.find((e) => e.reason === 'UpgradeStarted');
  assert.equal(started.count, 2);
  assert.equal(started.firstTimestamp, '2026-01-01T00:00:00Z');
  assert.equal(started.lastTimestamp, '2026-01-01T00:01:00Z');
  assert.match(started.metadata.name, /^cfg\.[0-9a-f]+$/);
  assert.equal(BigInt(`0x${started.metadata.name.split('.')[1]}`) / 1_000_000n, BigInt(Date.UTC(2026, 0, 1)));
  assert.deepEqual(started.involvedObject, {
    apiVersion: involved.apiVersion,
    kind: 'UpgradeConfig',
    namespace: 'ns',
    name: 'cfg',
    uid: 'u1',
    resourceVersion: '7',
  });
  assert.deepEqual(started.source, { component: 'upgrade-operator', host: 'pod-1' });
  assert.equal(started.reportingComponent, 'upgrade-operator');
  assert.equal(started.reportingInstance, 'pod-1');
  assert.ok(api.requests.some((q) => q.startsWith('PATCH /api/v1/namespaces/ns/events/cfg.')));
  // The aggregated Event was deleted behind our back: the next one is created afresh.
  api.remove('/api/v1/events', 'ns', started.metadata.name);
  r.event(involved, 'Normal', 'UpgradeStarted', 'Started upgrade to 4.15.3');
  await r.flush();
  assert.equal([...api.objects.values()].filter((o: Loose) => o.reason === 'UpgradeStarted').length, 1);
  // Failures are logged, not thrown; a refusal (422) is not tried again.
  api.failNext('POST /api/v1/namespaces/ns/events', 422);
  assert.doesNotThrow(() => r.event(involved, 'Warning', 'Other', 'x'));
  await r.flush();
  assert.equal([...api.objects.values()].filter((o: Loose) => o.reason === 'Other').length, 0);
});

void test('recorder: a server-side failure is tried again 10 s later, the wait is no activity, and close() gives up', async (t) => {
  const { api, clock, client } = await fakeApiClient(t);
  const activity = new ActivityCounter();
  const r = new EventRecorder({ client, clock, logger: silentLogger(), component: 'upgrade-operator', activity });
  const posts = (): number => api.requests.filter((q) => q.startsWith('POST /api/v1/namespaces/ns/events')).length;
  api.failNext('POST /api/v1/namespaces/ns/events', 503, 2);
  r.event(involved, 'Normal', 'UpgradeCompleted', 'done');
  r.event(involved, 'Normal', 'Later', 'queued behind the first');
  assert.equal(activity.busy, 1);
  // The first try fails; while the recorder waits, nothing counts as activity (the second event waits too).
  while (posts() < 1 || activity.busy > 0) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(activity.busy, 0);
  await clock.advance(EVENT_RETRY_MS - 1);
  assert.equal(posts(), 1, 'not before 10 s');
  await clock.advance(1);
  while (posts() < 2 || activity.busy > 0) await new Promise((resolve) => setImmediate(resolve));
  await clock.advance(EVENT_RETRY_MS);
  await r.flush();
  assert.deepEqual(
    [...api.objects.values()]
      .filter((o: Loose) => o.kind === 'Event')
      .map((e: Loose): [unknown, unknown] => [e.reason, e.count]),
    [
      ['UpgradeCompleted', 1],
      ['Later', 1],
    ],
  );
  assert.equal(posts(), 4, 'three tries for the first event, one for the second');
  assert.equal(activity.busy, 0);
  // Closing ends the wait: an event still failing is given up.
  api.failNext('POST /api/v1/namespaces/ns/events', 500, 100);
  r.event(involved, 'Warning', 'Lost', 'the API server keeps failing');
  while (activity.busy > 0 || !api.requests.at(-1)?.startsWith('POST /api/v1/namespaces/ns/events'))
    await new Promise((resolve) => setImmediate(resolve));
  r.close();
  await r.flush();
  assert.equal([...api.objects.values()].filter((o: Loose) => o.reason === 'Lost').length, 0);
});

void test('isRetryableEventFailure: no answer, 429 and 5xx', () => {
  assert.equal(isRetryableEventFailure(new Error('socket hang up')), true);
  assert.equal(isRetryableEventFailure(kubeApiErrorFrom(503, '')), true);
  assert.equal(isRetryableEventFailure(kubeApiErrorFrom(429, '')), true);
  assert.equal(isRetryableEventFailure(kubeApiErrorFrom(422, '')), false);
  assert.equal(isRetryableEventFailure(kubeApiErrorFrom(403, '')), false);
});
