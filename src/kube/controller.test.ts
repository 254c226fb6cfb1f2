import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigMapResource, NodeResource, PodResource } from '../api/builtin.js';
import { ManualClock } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { startFakeApi } from './fake-api.test-support.js';
import { eventually, fakeApiFixture, type Loose, testClient, testRandom } from './test-helpers.test-support.js';
import { Controller, generationChanged } from './controller.js';
import { InformerFactory } from './informer-factory.js';
import { Manager } from './manager.js';

/** Starts the controller; the test's end stops it, then closes what `close` closes. */
function startUntilTheEnd(t: TestContext, controller: Controller, close: () => Promise<void>): void {
  const abort = new AbortController();
  const running = controller.start(abort.signal);
  t.after(async () => {
    abort.abort();
    await running;
    await close();
  });
}

void test('controller: for/owns/watches map events to keys; errors requeue with backoff; requeueAfter on the clock', async (t) => {
  const api = await startFakeApi();
  const clock = new ManualClock();
  const client = testClient(api.url, clock);
  const informers = new InformerFactory({ client, clock, logger: silentLogger(), random: testRandom() });
  const calls: string[] = [];
  let failuresLeft = 2;
  const c = new Controller({
    name: 'pods',
    informers,
    clock,
    logger: silentLogger(),
    workers: 2,
    reconcile: async (key) => {
      calls.push(key);
      if (key === 'ns/flaky' && failuresLeft-- > 0) throw new Error('transient');
      if (key === 'ns/later') return { requeueAfter: 30_000 };
      return undefined;
    },
  })
    .for(PodResource, { predicates: [generationChanged()] })
    .owns(ConfigMapResource)
    .watches(NodeResource, (n) => [`ns/${n.metadata?.labels?.pod ?? ''}`]);
  startUntilTheEnd(t, c, async () => {
    await client.close();
    await api.close();
  });
  api.put('/api/v1/pods', { metadata: { name: 'a', namespace: 'ns', generation: 1 } });
  await eventually(() => calls.includes('ns/a'));
  // A status-only change (same generation) is filtered out; a spec change is not.
  api.put('/api/v1/pods', { metadata: { name: 'a', namespace: 'ns', generation: 1 }, status: { phase: 'Running' } });
  api.put('/api/v1/configmaps', {
    metadata: {
      name: 'owned',
      namespace: 'ns',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'owner', uid: 'u', controller: true }],
    },
  });
  api.put('/api/v1/configmaps', {
    metadata: {
      name: 'notmine',
      namespace: 'ns',
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u', controller: true }],
    },
  });
  api.put('/api/v1/nodes', { metadata: { name: 'n1', labels: { pod: 'fromnode' } } });
  await eventually(() => calls.includes('ns/owner') && calls.includes('ns/fromnode'));
  assert.equal(calls.filter((k) => k === 'ns/a').length, 1, 'status-only update filtered');
  assert.ok(!calls.includes('ns/d'));
  api.put('/api/v1/pods', { metadata: { name: 'a', namespace: 'ns', generation: 2 } });
  await eventually(() => calls.filter((k) => k === 'ns/a').length === 2);

  api.put('/api/v1/pods', { metadata: { name: 'flaky', namespace: 'ns', generation: 1 } });
  await eventually(() => calls.includes('ns/flaky'));
  assert.equal(c.queue.numRequeues('ns/flaky'), 1);
  await clock.advance(5);
  await eventually(() => calls.filter((k) => k === 'ns/flaky').length === 2);
  await clock.advance(9);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(calls.filter((k) => k === 'ns/flaky').length, 2, 'second retry waits 10 ms');
  await clock.advance(1);
  await eventually(() => calls.filter((k) => k === 'ns/flaky').length === 3);
  await eventually(() => c.queue.numRequeues('ns/flaky') === 0, { what: 'forgotten after success' });

  api.put('/api/v1/pods', { metadata: { name: 'later', namespace: 'ns', generation: 1 } });
  await eventually(() => calls.includes('ns/later'));
  await clock.advance(29_999);
  assert.equal(calls.filter((k) => k === 'ns/later').length, 1);
  await clock.advance(1);
  await eventually(() => calls.filter((k) => k === 'ns/later').length === 2);
});

void test('controller: requeue with requeueAfter retries with backoff and no later than requeueAfter, whichever comes first', async (t) => {
  const api = await startFakeApi();
  const clock = new ManualClock();
  const client = testClient(api.url, clock);
  const informers = new InformerFactory({ client, clock, logger: silentLogger(), random: testRandom() });
  const calls: number[] = [];
  const c = new Controller({
    name: 'pods',
    informers,
    clock,
    logger: silentLogger(),
    // First a deadline sooner than the backoff, then one an hour away: the earlier of the two wins.
    reconcile: async () => {
      calls.push(clock.now());
      if (calls.length === 1) return { requeue: true, requeueAfter: 2 };
      return calls.length < 4 ? { requeue: true, requeueAfter: 3600_000 } : undefined;
    },
  }).for(PodResource);
  startUntilTheEnd(t, c, async () => {
    await client.close();
    await api.close();
  });
  api.put('/api/v1/pods', { metadata: { name: 'a', namespace: 'ns' } });
  await eventually(() => calls.length === 1);
  const start = calls[0]!;
  for (const [wait, n] of [
    [2, 2],
    [10, 3],
    [20, 4],
  ] as const) {
    await clock.advance(wait);
    await eventually(() => calls.length === n, { what: `call ${n} after ${wait} ms` });
  }
  // The deadline came first once (2 ms, not the 5 ms backoff), then the backoff (10, then 20 ms,
  // not the hour); the backoff counted every retry.
  assert.deepEqual(
    calls.map((at) => at - start),
    [0, 2, 12, 32],
  );
});

void test('manager with leader election: only the leader runs controllers; the other takes over when it stops', async (t) => {
  const { api, clock, client } = await fakeApiFixture(t);
  api.put('/api/v1/pods', { metadata: { name: 'p', namespace: 'ns' } });
  const reconciledBy: string[] = [];
  const make = (id: string): Manager => {
    const m = new Manager({
      client,
      clock,
      logger: silentLogger(),
      random: testRandom(),
      leaderElection: { namespace: 'ns', name: 'op-lock', identity: id },
    });
    m.add(
      new Controller({
        name: `c-${id}`,
        informers: m.informers,
        clock,
        logger: silentLogger(),
        reconcile: async () => void reconciledBy.push(id),
      }).for(PodResource),
    );
    return m;
  };
  const a = make('a');
  const b = make('b');
  const runA = a.start();
  await eventually(() => reconciledBy.includes('a'), { clock, stepMs: 200 });
  const runB = b.start();
  await eventually(() => api.requests.filter((r) => r.includes('op-lock')).length > 15, { clock, stepMs: 500 });
  assert.equal(b.leading, false);
  assert.ok(!reconciledBy.includes('b'));
  a.stop();
  await runA;
  await eventually(() => reconciledBy.includes('b'), { clock, stepMs: 200 });
  assert.equal(b.leading, true);
  b.stop();
  await runB;
  assert.equal((api.objects.get('/apis/coordination.k8s.io/v1/leases|ns/op-lock') as Loose).spec.holderIdentity, '');
});
