import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { startFakeApi } from './fake-api.test-support.js';
import { testClient, type Loose } from './test-helpers.test-support.js';
import { EventCorrelator, EventRecorder, SpamFilter } from './event-recorder.js';

const involved = { apiVersion: 'upgrade.managed.openshift.io/v1alpha1', kind: 'UpgradeConfig', metadata: { name: 'cfg', namespace: 'ns', uid: 'u1', resourceVersion: '7' } };

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

void test('recorder creates, then patches count and lastTimestamp, and never throws', async (t) => {
  const api = await startFakeApi();
  const clock = new ManualClock(Date.UTC(2026, 0, 1));
  const client = testClient(api.url, clock);
  t.after(async () => {
    await client.close();
    await api.close();
  });
  const r = new EventRecorder({ client, clock, logger: silentLogger(), component: 'upgrade-operator', instance: 'pod-1' });
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
  assert.deepEqual(started.involvedObject, { apiVersion: involved.apiVersion, kind: 'UpgradeConfig', namespace: 'ns', name: 'cfg', uid: 'u1', resourceVersion: '7' });
  assert.deepEqual(started.source, { component: 'upgrade-operator', host: 'pod-1' });
  assert.equal(started.reportingComponent, 'upgrade-operator');
  assert.equal(started.reportingInstance, 'pod-1');
  assert.ok(api.requests.some((q) => q.startsWith('PATCH /api/v1/namespaces/ns/events/cfg.')));
  // The aggregated Event was deleted behind our back: the next one is created afresh.
  api.remove('/api/v1/events', 'ns', started.metadata.name);
  r.event(involved, 'Normal', 'UpgradeStarted', 'Started upgrade to 4.15.3');
  await r.flush();
  assert.equal([...api.objects.values()].filter((o: Loose) => o.reason === 'UpgradeStarted').length, 1);
  // Failures are logged, not thrown.
  api.failNext('POST /api/v1/namespaces/ns/events', 500);
  assert.doesNotThrow(() => r.event(involved, 'Warning', 'Other', 'x'));
  await r.flush();
});
