import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock, formatMicroTime } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { SeededRandom } from '../lib/random.js';
import { startFakeApi } from './fake-api.test-support.js';
import { eventually, testClient, type Loose } from './test-helpers.test-support.js';
import { decide, LeaderElector, observe, type LeaderElectionRecord } from './leader-election.js';
import type { KubeClient } from './client.js';

const T0 = Date.UTC(2026, 0, 1);
const rec = (holder: string, extra: Partial<LeaderElectionRecord> = {}): LeaderElectionRecord => ({
  holderIdentity: holder,
  leaseDurationSeconds: 15,
  acquireTime: formatMicroTime(T0),
  renewTime: formatMicroTime(T0),
  leaseTransitions: 3,
  ...extra,
});

void test('decide: create when there is no lease', () => {
  assert.deepEqual(decide(undefined, undefined, T0, 'me', 15), {
    action: 'create',
    record: {
      holderIdentity: 'me',
      leaseDurationSeconds: 15,
      acquireTime: formatMicroTime(T0),
      renewTime: formatMicroTime(T0),
      leaseTransitions: 0,
    },
  });
});

void test('decide: another holder is respected until its own duration passes from when we observed the record', () => {
  const other = rec('other', { leaseDurationSeconds: 60, renewTime: formatMicroTime(T0 - 3600_000) });
  const seen = observe(undefined, other, T0);
  // The renewTime written by the holder is an hour old (clock skew); only our observation counts.
  assert.deepEqual(decide(other, seen, T0 + 59_999, 'me', 15), { action: 'wait', holder: 'other' });
  const d = decide(other, seen, T0 + 60_000, 'me', 15);
  assert.equal(d.action, 'update');
  assert.equal(d.action === 'update' && d.record.leaseTransitions, 4);
  assert.equal(d.action === 'update' && d.record.holderIdentity, 'me');
});

void test('decide: renewing keeps acquireTime and transitions; a released lease is taken at once', () => {
  const mine = rec('me');
  const d = decide(mine, observe(undefined, mine, T0), T0 + 2000, 'me', 15);
  assert.deepEqual(d, { action: 'update', record: { ...mine, renewTime: formatMicroTime(T0 + 2000) } });
  const released = rec('', { leaseDurationSeconds: 1 });
  const r = decide(released, observe(undefined, released, T0), T0, 'me', 15);
  assert.equal(r.action === 'update' && r.record.leaseTransitions, 4);
});

void test('observe: the observation time moves only when the record changes', () => {
  const a = observe(undefined, rec('x'), T0);
  assert.equal(observe(a, rec('x'), T0 + 5000).observedAt, T0);
  assert.equal(observe(a, rec('x', { renewTime: formatMicroTime(T0 + 2000) }), T0 + 5000).observedAt, T0 + 5000);
});

function elector(client: KubeClient, clock: ManualClock, identity: string, releaseOnCancel = true): LeaderElector {
  return new LeaderElector({
    client,
    clock,
    logger: silentLogger(),
    random: new SeededRandom(identity),
    namespace: 'ns',
    name: 'lock',
    identity,
    releaseOnCancel,
  });
}

void test('two electors: one leads; the other takes over after a release, and after the holder stops renewing', async (t) => {
  const api = await startFakeApi();
  const clock = new ManualClock(T0);
  const client = testClient(api.url, clock);
  t.after(async () => {
    await client.close();
    await api.close();
  });
  const leading = new Set<string>();
  const leaders: string[] = [];
  const run = (e: LeaderElector, id: string, signal: AbortSignal): Promise<boolean> =>
    e.run(signal, {
      onStartedLeading: async (s) => {
        leading.add(id);
        await new Promise<void>((resolve) => s.addEventListener('abort', () => resolve(), { once: true }));
        leading.delete(id);
      },
      onNewLeader: (who) => leaders.push(`${id} sees ${who}`),
    });

  const a = elector(client, clock, 'a');
  const b = elector(client, clock, 'b', false);
  const stopA = new AbortController();
  const stopB = new AbortController();
  const runA = run(a, 'a', stopA.signal);
  await eventually(() => leading.has('a'), { clock, stepMs: 200 });
  const runB = run(b, 'b', stopB.signal);
  // b keeps campaigning for a whole lease duration and more while a renews.
  await eventually(() => api.requests.filter((r) => r.startsWith('GET') && r.includes('leases/lock')).length > 20, {
    clock,
    stepMs: 500,
  });
  assert.deepEqual([...leading], ['a']);
  assert.equal(b.leader(), 'a');

  // a stops and releases: b takes over within a retry period or so, not a lease duration.
  const releasedAt = clock.now();
  stopA.abort();
  assert.equal(await runA, false);
  const lease = api.objects.get('/apis/coordination.k8s.io/v1/leases|ns/lock') as Loose;
  assert.equal(lease.spec.holderIdentity, '');
  assert.equal(lease.spec.leaseDurationSeconds, 1);
  await eventually(() => leading.has('b'), { clock, stepMs: 200 });
  assert.ok(clock.now() - releasedAt < 15_000, `took ${clock.now() - releasedAt} ms`);
  assert.equal((api.objects.get('/apis/coordination.k8s.io/v1/leases|ns/lock') as Loose).spec.leaseTransitions, 1);

  // b dies without releasing; a campaigns again and must wait a full lease duration from when it saw b's last renewal.
  stopB.abort();
  assert.equal(await runB, false);
  assert.equal((api.objects.get('/apis/coordination.k8s.io/v1/leases|ns/lock') as Loose).spec.holderIdentity, 'b');
  const diedAt = clock.now();
  const stopA2 = new AbortController();
  const runA2 = run(a, 'a', stopA2.signal);
  await eventually(() => leading.has('a'), { clock, stepMs: 500 });
  assert.ok(clock.now() - diedAt >= 15_000, `took over after ${clock.now() - diedAt} ms`);
  assert.equal((api.objects.get('/apis/coordination.k8s.io/v1/leases|ns/lock') as Loose).spec.leaseTransitions, 2);
  assert.ok(leaders.includes('b sees b') && leaders.includes('a sees b'));
  stopA2.abort();
  await runA2;
});

void test('a leader that cannot renew within the deadline stops leading', async (t) => {
  const api = await startFakeApi();
  const clock = new ManualClock(T0);
  const client = testClient(api.url, clock);
  t.after(async () => {
    await client.close();
    await api.close();
  });
  const e = elector(client, clock, 'solo');
  let leadingSignal: AbortSignal | undefined;
  let stopped = false;
  const stop = new AbortController();
  const result = e.run(stop.signal, {
    onStartedLeading: (s) => {
      leadingSignal = s;
    },
    onStoppedLeading: () => {
      stopped = true;
    },
  });
  await eventually(() => leadingSignal !== undefined, { clock, stepMs: 200 });
  api.failNext('GET /apis/coordination.k8s.io/v1/namespaces/ns/leases/lock', 500, 1000);
  const failingFrom = clock.now();
  let lost: boolean | undefined;
  void result.then((v) => (lost = v));
  await eventually(() => lost !== undefined, { clock, stepMs: 500 });
  assert.equal(lost, true);
  assert.equal(leadingSignal?.aborted, true);
  assert.equal(stopped, true);
  const elapsed = clock.now() - failingFrom;
  assert.ok(elapsed >= 10_000 && elapsed < 15_000, `gave up after ${elapsed} ms`);
  assert.equal(e.isLeader(), false);
});
