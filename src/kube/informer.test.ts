import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { PodResource } from '../api/builtin.js';
import { ManualClock } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { startFakeApi, type FakeApi } from './fake-api.test-support.js';
import { eventually, testClient, testRandom, type Loose } from './test-helpers.test-support.js';
import { diffRelist, Informer, stripManagedFields } from './informer.js';
import { InformerFactory } from './informer-factory.js';
import type { KubeClient } from './client.js';

const PODS = '/api/v1/pods';
const pod = (name: string, node = 'n1', extra: Record<string, unknown> = {}): Loose => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns', managedFields: [{ manager: 'x' }] },
  spec: { nodeName: node, containers: [] },
  ...extra,
});

interface Harness {
  api: FakeApi;
  clock: ManualClock;
  client: KubeClient;
  informer: Informer<Pod>;
  log: string[];
  abort: AbortController;
  run: Promise<void>;
}

async function harness(
  t: { after(fn: () => Promise<void>): void },
  options: { inactivityTimeoutMs?: number } = {},
): Promise<Harness> {
  const api = await startFakeApi();
  const clock = new ManualClock();
  const client = testClient(api.url, clock);
  const informer = new Informer<Pod>({
    client,
    descriptor: PodResource,
    clock,
    logger: silentLogger(),
    random: testRandom(),
    pageSize: 2,
    indexers: { byNode: (p) => (p.spec?.nodeName ? [p.spec.nodeName] : []) },
    ...options,
  });
  const log: string[] = [];
  informer.addHandlers({
    onAdd: (o) => log.push(`add ${o.metadata?.name}`),
    onUpdate: (o, n) =>
      log.push(`update ${n.metadata?.name} ${o.metadata?.resourceVersion}->${n.metadata?.resourceVersion}`),
    onDelete: (o) => log.push(`delete ${o.metadata?.name} ${o.metadata?.resourceVersion}`),
  });
  const abort = new AbortController();
  const run = informer.run(abort.signal);
  t.after(async () => {
    abort.abort();
    await run;
    await client.close();
    await api.close();
  });
  return { api, clock, client, informer, log, abort, run };
}

const watchCount = (api: FakeApi): number => api.requests.filter((r) => r.includes('watch=true')).length;

void test('diffRelist reports adds, updates with old and new, and deletes', () => {
  const a1 = { metadata: { name: 'a', namespace: 'ns', resourceVersion: '1' } };
  const b1 = { metadata: { name: 'b', namespace: 'ns', resourceVersion: '2' } };
  const b2 = { metadata: { name: 'b', namespace: 'ns', resourceVersion: '5' } };
  const c = { metadata: { name: 'c', namespace: 'ns', resourceVersion: '6' } };
  const d = diffRelist(
    new Map([
      ['ns/a', a1],
      ['ns/b', b1],
    ]),
    [b2, c],
  );
  assert.deepEqual(d.added, [c]);
  assert.deepEqual(d.updated, [[b1, b2]]);
  assert.deepEqual(d.deleted, [a1]);
  assert.deepEqual(diffRelist(new Map([['ns/a', a1]]), [a1]), { added: [], updated: [], deleted: [] });
});

void test('stripManagedFields removes only managedFields', () => {
  const o = { metadata: { name: 'a', managedFields: [{}], labels: { x: 'y' } }, spec: {} };
  assert.deepEqual(stripManagedFields(o), { metadata: { name: 'a', labels: { x: 'y' } }, spec: {} });
});

void test('lists in pages, watches with bookmarks and a 5–10 min timeout, keeps the cache and indexes current', async (t) => {
  const h = await harness(t);
  for (const n of ['a', 'b', 'c']) h.api.put(PODS, pod(n, n === 'c' ? 'n2' : 'n1'));
  // The informer was started before the objects existed; it may have listed already. Wait for sync + all three.
  await eventually(() => h.informer.hasSynced() && h.informer.list().length === 3 && watchCount(h.api) === 1, {
    what: 'synced',
  });
  assert.equal(await h.informer.waitForSync(), true);
  assert.equal(h.informer.get('ns', 'a')?.metadata?.managedFields, undefined, 'transform strips managedFields');
  assert.deepEqual(
    h.informer
      .byIndex('byNode', 'n1')
      .map((p) => p.metadata?.name)
      .sort(),
    ['a', 'b'],
  );
  const watchReq = h.api.requests.find((r) => r.includes('watch=true')) ?? '';
  assert.match(watchReq, /allowWatchBookmarks=true/);
  const timeout = Number(/timeoutSeconds=(\d+)/.exec(watchReq)?.[1]);
  assert.ok(timeout >= 300 && timeout <= 600, `timeoutSeconds ${timeout}`);
  const before = h.informer.get('ns', 'c')?.metadata?.resourceVersion;
  h.api.put(PODS, pod('c', 'n1'));
  await eventually(() => h.informer.byIndex('byNode', 'n1').length === 3, { what: 'moved to n1' });
  assert.deepEqual(h.informer.byIndex('byNode', 'n2'), []);
  assert.ok(h.log.includes(`update c ${before}->${h.informer.get('ns', 'c')?.metadata?.resourceVersion}`));
  const lastA = h.informer.get('ns', 'a')?.metadata?.resourceVersion;
  h.api.remove(PODS, 'ns', 'a');
  await eventually(() => h.log.some((l) => l.startsWith('delete a')));
  assert.ok(h.log.includes(`delete a ${lastA}`), 'delete carries the last known object');
  assert.deepEqual(
    h.informer
      .list('ns')
      .map((p) => p.metadata?.name)
      .sort(),
    ['b', 'c'],
  );
});

void test('resumes from the last resourceVersion (bookmarks included) when the server ends a watch', async (t) => {
  const h = await harness(t);
  await eventually(() => h.informer.hasSynced() && watchCount(h.api) === 1);
  h.api.put(PODS, pod('a'));
  await eventually(() => h.informer.list().length === 1);
  h.api.put('/api/v1/configmaps', { metadata: { name: 'x', namespace: 'ns' } }); // advances the rv only
  h.api.bookmark();
  await eventually(() => h.informer.resourceVersion === String(h.api.rv()), { what: 'bookmark' });
  const lists = h.api.requests.filter((r) => r.startsWith('GET /api/v1/pods?') && !r.includes('watch')).length;
  h.api.closeWatches();
  await eventually(() => watchCount(h.api) === 2, { what: 're-watch' });
  assert.match(
    h.api.requests.filter((r) => r.includes('watch=true'))[1] ?? '',
    new RegExp(`resourceVersion=${h.api.rv()}`),
  );
  assert.equal(
    h.api.requests.filter((r) => r.startsWith('GET /api/v1/pods?') && !r.includes('watch')).length,
    lists,
    'no re-list',
  );
});

for (const mode of ['http', 'event'] as const) {
  void test(`a 410 (${mode === 'http' ? 'HTTP status' : 'ERROR event'}) re-lists and diffs into add/update/delete`, async (t) => {
    const h = await harness(t);
    h.api.goneMode = mode;
    h.api.put(PODS, pod('a'));
    h.api.put(PODS, pod('b'));
    await eventually(() => h.informer.list().length === 2 && watchCount(h.api) >= 1);
    h.log.length = 0;
    // Changes the informer never sees on its watch: a silent delete, update and add, then compaction.
    const oldA = h.informer.get('ns', 'a')?.metadata?.resourceVersion;
    h.api.objects.delete(`${PODS}|ns/a`);
    const b = h.api.objects.get(`${PODS}|ns/b`) as Loose;
    h.api.objects.set(`${PODS}|ns/b`, { ...b, metadata: { ...b.metadata, resourceVersion: '9000' } });
    h.api.objects.set(`${PODS}|ns/c`, {
      ...pod('c'),
      metadata: { name: 'c', namespace: 'ns', resourceVersion: '9001' },
    });
    h.api.compactedBelow = 1_000_000;
    h.api.closeWatches();
    await eventually(() => h.log.length === 3, { clock: h.clock, stepMs: 500, what: 'relist events' });
    assert.deepEqual(h.log.sort(), [`add c`, `delete a ${oldA}`, `update b ${b.metadata.resourceVersion}->9000`]);
    assert.deepEqual(
      h.informer
        .list()
        .map((p) => p.metadata?.name)
        .sort(),
      ['b', 'c'],
    );
  });
}

void test('restarts after other failures with backoff on the clock, never stopping', async (t) => {
  const h = await harness(t);
  h.api.failNext('GET /api/v1/pods', 500, 3);
  await eventually(() => h.api.requests.length === 1);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(h.api.requests.length, 1, 'waits for the backoff before retrying');
  await eventually(() => h.informer.hasSynced(), { clock: h.clock, stepMs: 500, what: 'synced after failures' });
  assert.ok(h.api.requests.length >= 4);
  // A failing watch is retried too.
  h.api.failNext('GET /api/v1/pods', 503, 2);
  h.api.closeWatches();
  await eventually(() => watchCount(h.api) >= 2 && h.api.requests.at(-1)?.includes('watch=true') === true, {
    clock: h.clock,
    stepMs: 500,
  });
  h.api.put(PODS, pod('z'));
  await eventually(() => h.informer.get('ns', 'z') !== undefined, { clock: h.clock, stepMs: 500 });
});

void test('the inactivity watchdog restarts a silent watch', async (t) => {
  const h = await harness(t, { inactivityTimeoutMs: 10_000 });
  await eventually(() => watchCount(h.api) === 1);
  await h.clock.advance(9_000);
  assert.equal(watchCount(h.api), 1);
  await eventually(() => watchCount(h.api) === 2, { clock: h.clock, stepMs: 1000, what: 'watch restarted' });
});

void test('the factory shares one informer per resource and scope', async (t) => {
  const api = await startFakeApi();
  const clock = new ManualClock();
  const client = testClient(api.url, clock);
  const f = new InformerFactory({ client, clock, logger: silentLogger(), random: testRandom() });
  const a = f.informerFor(PodResource);
  const b = f.informerFor(PodResource, { indexers: { x: () => [] } });
  const c = f.informerFor(PodResource, { namespace: 'other' });
  assert.equal(a, b);
  assert.notEqual(a, c);
  const abort = new AbortController();
  f.start(abort.signal);
  const late = f.informerFor(PodResource, { labelSelector: 'app=x' });
  assert.equal(await f.waitForSync(), true);
  assert.equal(late.hasSynced(), true);
  abort.abort();
  await f.stopped();
  await client.close();
  await api.close();
  t.diagnostic(`requests ${api.requests.length}`);
});
