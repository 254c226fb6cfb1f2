import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { silentLogger } from '../lib/log.js';
import { defaultUserAgent, KubeClient } from './client.js';
import { PodResource, NodeResource } from '../api/builtin.js';
import { ManualClock } from '../lib/clock.js';
import { startFakeApi } from './fake-api.test-support.js';
import { eventually, fakeApiFixture, type Loose, testClient } from './test-helpers.test-support.js';
import { isAlreadyExists, isConflict, isNotFound, isTooManyRequests, KubeApiError } from './status-error.js';
import type { WatchEvent } from './watch-decoder.js';

const pod = (name: string, extra: Record<string, unknown> = {}): Loose => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, namespace: 'ns' },
  spec: { containers: [] },
  ...extra,
});

void test('CRUD keeps unknown fields, reports conflicts and not-found as typed errors', async (t) => {
  const { api, client } = await fakeApiFixture(t);
  const created = await client.create(PodResource, pod('a', { futureField: { x: 1 } }));
  assert.deepEqual(created.futureField, { x: 1 });
  assert.ok(api.requests.some((r) => r === 'POST /api/v1/namespaces/ns/pods?fieldManager=upgrade-operator'));
  await assert.rejects(client.create(PodResource, pod('a')), (e) => isAlreadyExists(e));
  const got = await client.get(PodResource, 'ns', 'a');
  assert.equal(got.metadata?.name, 'a');
  const updated = await client.update(PodResource, { ...got, spec: { containers: [{ name: 'c' }] } });
  assert.notEqual(updated.metadata?.resourceVersion, got.metadata?.resourceVersion);
  const err = await client.update(PodResource, got).catch((e: unknown) => e);
  assert.ok(err instanceof KubeApiError);
  assert.equal(err.code, 409);
  assert.ok(isConflict(err));
  assert.match(err.message, /has been modified/);
  const status = await client.updateStatus(PodResource, { ...updated, status: { phase: 'Running' } });
  assert.equal(status.status?.phase, 'Running');
  const patched = await client.patch(
    PodResource,
    'ns',
    'a',
    { metadata: {}, status: { phase: 'Succeeded' } },
    { type: 'merge', subresource: 'status' },
  );
  assert.equal(patched.status?.phase, 'Succeeded');
  // The fake answers 415 to anything but merge patch: the content type follows the patch type.
  await assert.rejects(
    client.patch(PodResource, 'ns', 'a', [], { type: 'json' }),
    (e) => e instanceof KubeApiError && e.code === 415,
  );
  await client.delete(PodResource, 'ns', 'a', {
    propagationPolicy: 'Foreground',
    preconditions: { uid: created.metadata?.uid ?? '' },
  });
  await assert.rejects(client.get(PodResource, 'ns', 'a'), (e) => isNotFound(e));
  await assert.rejects(client.create(PodResource, { metadata: { name: 'x' } }), /metadata.namespace is required/);
});

void test('list follows continue tokens and fills apiVersion/kind; one page on request', async (t) => {
  const { api, client } = await fakeApiFixture(t);
  for (let i = 0; i < 5; i++) api.put('/api/v1/nodes', { metadata: { name: `n${i}` } });
  const all = await client.list(NodeResource, { limit: 2 });
  assert.deepEqual(
    all.items.map((n) => n.metadata?.name),
    ['n0', 'n1', 'n2', 'n3', 'n4'],
  );
  assert.equal(all.items[0]?.kind, 'Node');
  assert.equal(all.items[0]?.apiVersion, 'v1');
  assert.equal(all.metadata.continue, undefined);
  assert.equal(api.requests.filter((r) => r.startsWith('GET /api/v1/nodes')).length, 3);
  const page = await client.list(NodeResource, { limit: 2, allPages: false });
  assert.equal(page.items.length, 2);
  assert.equal(page.metadata.continue, '2');
});

void test('reads are retried on 429 after Retry-After (on the clock); writes are not', async (t) => {
  const { api, clock, client } = await fakeApiFixture(t);
  api.put('/api/v1/pods', pod('a'));
  api.failNext('GET /api/v1/namespaces/ns/pods/a', 429, 1, 3);
  let done = false;
  const p = client.get(PodResource, 'ns', 'a').then((r) => {
    done = true;
    return r;
  });
  await eventually(() => api.requests.length === 1);
  await clock.advance(2999);
  assert.equal(done, false, 'waits for Retry-After');
  await clock.advance(1);
  assert.equal((await p).metadata?.name, 'a');
  api.failNext('POST /api/v1/namespaces/ns/pods', 429, 1, 1);
  await assert.rejects(
    client.create(PodResource, pod('b')),
    (e) => isTooManyRequests(e) && e instanceof KubeApiError && e.retryAfterSeconds === 1,
  );
});

void test('a 401 drops cached credentials and retries once', async (t) => {
  const api = await startFakeApi();
  const clock = new ManualClock();
  let invalidations = 0;
  const client = testClient(api.url, clock, { invalidateAuth: () => invalidations++ });
  t.after(async () => {
    await client.close();
    await api.close();
  });
  api.put('/api/v1/pods', pod('a'));
  api.failNext('GET /api/v1', 401, 1);
  assert.equal((await client.get(PodResource, 'ns', 'a')).metadata?.name, 'a');
  assert.equal(invalidations, 1);
  api.failNext('GET /api/v1', 401, 2);
  await assert.rejects(
    client.get(PodResource, 'ns', 'a'),
    (e) => e instanceof KubeApiError && e.reason === 'Unauthorized',
  );
});

void test('watch streams events from a resourceVersion and stops quietly on abort', async (t) => {
  const { api, client } = await fakeApiFixture(t);
  const first = api.put('/api/v1/pods', pod('a'));
  const abort = new AbortController();
  const seen: WatchEvent<Loose>[] = [];
  const done = (async () => {
    for await (const ev of client.watch(PodResource, {
      namespace: 'ns',
      resourceVersion: first.metadata && (first.metadata as Loose).resourceVersion,
      allowWatchBookmarks: true,
      timeoutSeconds: 300,
      signal: abort.signal,
    })) {
      seen.push(ev);
    }
  })();
  await eventually(() => api.requests.some((r) => r.includes('watch=true')));
  assert.ok(api.requests.some((r) => r.includes('allowWatchBookmarks=true') && r.includes('timeoutSeconds=300')));
  api.put('/api/v1/pods', pod('b'));
  api.remove('/api/v1/pods', 'ns', 'a');
  await eventually(() => seen.length === 2);
  assert.deepEqual(
    seen.map((e) => `${e.type} ${e.object.metadata.name}`),
    ['ADDED b', 'DELETED a'],
  );
  abort.abort();
  await done;
  api.compactedBelow = 10_000;
  await assert.rejects(
    async () => {
      for await (const _ of client.watch(PodResource, { resourceVersion: '5' })) void _;
    },
    (e) => e instanceof KubeApiError && e.code === 410,
  );
});

void test('every request carries a client-go-like User-Agent whose program is the field manager', async (t) => {
  const seen: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    seen.push(req.headers['user-agent']);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ kind: 'NodeList', metadata: {}, items: [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const clock = new ManualClock();
  const config = {
    server: `http://127.0.0.1:${port}`,
    insecureSkipTLSVerify: false,
    auth: () => Promise.resolve(undefined),
    namespace: 'default',
  };
  const byManager = new KubeClient({ config, clock, logger: silentLogger(), fieldManager: 'my-controller' });
  const explicit = new KubeClient({
    config,
    clock,
    logger: silentLogger(),
    userAgent: 'kubectl/v1.32.0 (linux/amd64) kubernetes/abcdef0',
  });
  t.after(() => Promise.all([byManager.close(), explicit.close()]));
  await byManager.list(NodeResource);
  await explicit.list(NodeResource);
  assert.deepEqual(seen, [
    `my-controller/unknown (${process.platform}/${process.arch}) kubernetes/unknown`,
    'kubectl/v1.32.0 (linux/amd64) kubernetes/abcdef0',
  ]);
  assert.equal(
    defaultUserAgent('upgrade-operator', 'v0.1.0', '0123456789abcdef'),
    `upgrade-operator/v0.1.0 (${process.platform}/${process.arch}) kubernetes/0123456`,
  );
});

void test('serverTimes: the server stamps of reads, lists and watch events are read in the client time base', async (t) => {
  const stamped = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'n1', resourceVersion: '5', creationTimestamp: '2026-11-27T12:00:00Z' },
  };
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    if (req.url?.includes('watch=true')) {
      res.end(`${JSON.stringify({ type: 'ADDED', object: stamped })}\n`);
      return;
    }
    res.end(JSON.stringify(req.url?.endsWith('/n1') ? stamped : { kind: 'NodeList', metadata: {}, items: [stamped] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const { port } = server.address() as AddressInfo;
  const client = new KubeClient({
    config: {
      server: `http://127.0.0.1:${port}`,
      insecureSkipTLSVerify: false,
      auth: () => Promise.resolve(undefined),
      namespace: 'default',
    },
    clock: new ManualClock(),
    logger: silentLogger(),
    // The server runs 270 days ahead of the client.
    serverTimes: (serverMs) => serverMs - 270 * 86_400_000,
  });
  t.after(() => client.close());
  const expected = '2026-03-02T12:00:00Z';
  assert.equal((await client.get(NodeResource, undefined, 'n1')).metadata?.creationTimestamp, expected);
  assert.equal((await client.list(NodeResource)).items[0]?.metadata?.creationTimestamp, expected);
  for await (const event of client.watch(NodeResource)) {
    assert.equal(event.object.metadata?.creationTimestamp, expected);
    break;
  }
});
