// Integration tests of the kube runtime against the embedded API server (src/apiserver). Only
// test files may import the API server; operator code never does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigMapResource, LeaseResource, PodResource } from '../api/builtin.js';
import { startApiServer } from '../apiserver/server.js';
import { configMapType } from '../apiserver/builtin/kinds.js';
import { ManualClock } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { KubeClient } from './client.js';
import { Informer } from './informer.js';
import { loadRestConfig } from './kubeconfig.js';
import { LeaderElector } from './leader-election.js';
import { isConflict, isNotFound } from './status-error.js';
import { updateStatusWithRetry } from './status-writer.js';
import { eventually, startProxy, testRandom, type Loose } from './test-helpers.test-support.js';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';

async function setup(t: {
  after(fn: () => Promise<void>): void;
}): Promise<{ server: Awaited<ReturnType<typeof startApiServer>>; clock: ManualClock; client: KubeClient }> {
  const clock = new ManualClock();
  const server = await startApiServer({ port: 0, clock });
  const dir = mkdtempSync(join(tmpdir(), 'kube-int-'));
  await server.writeKubeconfig(join(dir, 'config'));
  const config = loadRestConfig({ kubeconfig: join(dir, 'config'), clock });
  const client = new KubeClient({ config, clock, logger: silentLogger() });
  t.after(async () => {
    await client.close();
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { server, clock, client };
}

const pod = (name: string): Loose => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'registry.example/app:1' }] },
});

void test('real server: CRUD, conflicts, merge patch on status, delete', async (t) => {
  const { client } = await setup(t);
  const created = await client.create(PodResource, pod('a'));
  assert.ok(created.metadata?.uid);
  assert.equal(created.metadata?.managedFields?.[0]?.manager, 'upgrade-operator');
  const updated = await client.update(PodResource, {
    ...created,
    metadata: { ...created.metadata, labels: { x: 'y' } },
  });
  await assert.rejects(client.update(PodResource, created), (e) => isConflict(e));
  const patched = await client.patch(
    PodResource,
    'default',
    'a',
    { status: { phase: 'Running' } },
    { type: 'merge', subresource: 'status' },
  );
  assert.equal(patched.status?.phase, 'Running');
  assert.equal(patched.metadata?.labels?.x, 'y');
  const applied = await client.patch(
    PodResource,
    'default',
    'a',
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a', annotations: { owner: 'me' } } },
    { type: 'apply', force: true },
  );
  assert.equal(applied.metadata?.annotations?.owner, 'me');
  const list = await client.list(PodResource, { namespace: 'default', limit: 1 });
  assert.equal(list.items.length, 1);
  assert.notEqual(updated.metadata?.resourceVersion, created.metadata?.resourceVersion);
  await client.delete(PodResource, 'default', 'a', { gracePeriodSeconds: 0 });
  await assert.rejects(client.get(PodResource, 'default', 'a'), (e) => isNotFound(e));
  await assert.rejects(client.delete(PodResource, 'default', 'a'), (e) => isNotFound(e));
});

void test('real server: status writer retries a conflict', async (t) => {
  const { client, server } = await setup(t);
  await client.create(PodResource, pod('s'));
  let calls = 0;
  const result = await updateStatusWithRetry(
    client,
    PodResource,
    'default/s',
    (p) => {
      calls++;
      if (calls === 1) {
        const podRt = server.store.resourceType('', 'pods');
        const cur = server.store.get(podRt!, 'default', 's')!;
        server.store.update(podRt!, { ...cur, metadata: { ...cur.metadata, labels: { bumped: 'yes' } } });
      }
      return { ...p, status: { ...p.status, phase: 'Running', message: `attempt ${calls}` } };
    },
    { clock: new ManualClock(), backoffMs: 0 },
  );
  assert.equal(calls, 2);
  assert.equal(result.status?.message, 'attempt 2');
  assert.equal(result.metadata?.labels?.bumped, 'yes');
});

void test('real server: informer lists, watches, and re-lists after 410 with a diff', async (t) => {
  const { client, server, clock } = await setup(t);
  const proxy = await startProxy(new URL(server.url));
  const viaProxy = new KubeClient({ config: { ...client.config, server: proxy.url }, clock, logger: silentLogger() });
  for (const n of ['keep', 'drop', 'change'])
    await client.create(ConfigMapResource, { metadata: { name: n, namespace: 'default' }, data: { v: '0' } });
  const inf = new Informer<ConfigMap>({
    client: viaProxy,
    descriptor: ConfigMapResource,
    clock,
    logger: silentLogger(),
    random: testRandom(),
    namespace: 'default',
  });
  const log: string[] = [];
  inf.addHandlers({
    onAdd: (o) => log.push(`add ${o.metadata?.name}`),
    onUpdate: (_, n) => log.push(`update ${n.metadata?.name} ${n.data?.v}`),
    onDelete: (o) => log.push(`delete ${o.metadata?.name}`),
  });
  const abort = new AbortController();
  const run = inf.run(abort.signal);
  t.after(async () => {
    abort.abort();
    await run;
    await viaProxy.close();
    await proxy.close();
  });
  assert.equal(await inf.waitForSync(), true);
  await client.patch(ConfigMapResource, 'default', 'keep', { data: { v: '1' } }, { type: 'merge' });
  await eventually(() => log.includes('update keep 1'), { what: 'watch event' });
  // Cut the informer off, then make more changes than the server's watch window holds.
  proxy.pause();
  await client.delete(ConfigMapResource, 'default', 'drop');
  await client.create(ConfigMapResource, { metadata: { name: 'new', namespace: 'default' } });
  let cm = server.store.get(configMapType, 'default', 'change')!;
  for (let i = 1; i <= 10_001; i++) cm = server.store.update(configMapType, { ...cm, data: { v: String(i) } });
  log.length = 0;
  proxy.resume();
  await eventually(() => log.length >= 3, {
    clock,
    stepMs: 1000,
    limitMs: 15_000,
    what: `relist ${JSON.stringify(log)}`,
  });
  assert.deepEqual(log.sort(), ['add new', 'delete drop', 'update change 10001']);
  assert.deepEqual(
    inf
      .list()
      .map((c) => c.metadata?.name)
      .sort(),
    ['change', 'keep', 'new', ...(inf.get('default', 'kube-root-ca.crt') ? ['kube-root-ca.crt'] : [])].sort(),
  );
});

void test('real server: two electors, one leads, the other takes over after release and after the holder dies', async (t) => {
  const { client, clock } = await setup(t);
  const leading = new Set<string>();
  const make = (id: string, releaseOnCancel: boolean): LeaderElector =>
    new LeaderElector({
      client,
      clock,
      logger: silentLogger(),
      random: testRandom(),
      namespace: 'default',
      name: 'lock',
      identity: id,
      releaseOnCancel,
    });
  const run = (e: LeaderElector, id: string, signal: AbortSignal): Promise<boolean> =>
    e.run(signal, {
      onStartedLeading: async (s) => {
        leading.add(id);
        await new Promise<void>((resolve) => s.addEventListener('abort', () => resolve(), { once: true }));
        leading.delete(id);
      },
    });
  const a = make('a', true);
  const b = make('b', false);
  const sa = new AbortController();
  const sb = new AbortController();
  const ra = run(a, 'a', sa.signal);
  await eventually(() => leading.has('a'), { clock, stepMs: 200 });
  const rb = run(b, 'b', sb.signal);
  await clock.advance(30_000);
  await eventually(() => b.leader() === 'a');
  assert.deepEqual([...leading], ['a']);
  sa.abort();
  await ra;
  await eventually(() => leading.has('b'), { clock, stepMs: 200 });
  sb.abort();
  await rb;
  const diedAt = clock.now();
  const sa2 = new AbortController();
  const ra2 = run(a, 'a', sa2.signal);
  await eventually(() => leading.has('a'), { clock, stepMs: 500 });
  assert.ok(clock.now() - diedAt >= 15_000);
  const lease = await client.get(LeaseResource, 'default', 'lock');
  assert.equal(lease.spec?.holderIdentity, 'a');
  assert.equal(lease.spec?.leaseTransitions, 2);
  sa2.abort();
  await ra2;
});
