import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '../lib/clock.js';
import { startApiServer, type ApiServer } from './server.js';

let server: ApiServer;

before(async () => {
  server = await startApiServer({ port: 0, clock: new ManualClock('2026-03-01T00:00:00Z') });
});

after(async () => {
  await server.close();
});

interface Reply {
  status: number;
  body: Record<string, unknown>;
  headers: Headers;
}

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Reply> {
  const res = await fetch(server.url + path, {
    method,
    headers: { 'Content-Type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, headers: res.headers };
}

const cm = (name: string, labels: Record<string, string> = {}): unknown => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, labels },
  data: { k: name },
});

void test('discovery documents', async () => {
  const api = await call('GET', '/api');
  assert.deepEqual(api.body.versions, ['v1']);
  const apis = await call('GET', '/apis');
  const groups = (apis.body.groups as Array<{ name: string }>).map((g) => g.name);
  assert.ok(groups.includes('apps') && groups.includes('policy') && groups.includes('events.k8s.io'));
  const apps = await call('GET', '/apis/apps/v1');
  const deploy = (apps.body.resources as Array<Record<string, unknown>>).find((r) => r.name === 'deployments');
  assert.deepEqual(deploy?.shortNames, ['deploy']);
  assert.deepEqual(deploy?.categories, ['all']);
  assert.ok((apps.body.resources as Array<{ name: string }>).some((r) => r.name === 'deployments/scale'));
  const missing = await call('GET', '/apis/nope/v1/things');
  assert.equal(missing.status, 404);
  assert.deepEqual(missing.body, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the server could not find the requested resource',
    reason: 'NotFound',
    details: {},
    code: 404,
  });
  const health = await fetch(`${server.url}/readyz`);
  assert.equal(await health.text(), 'ok');
});

void test('create answers 201; name and namespace mismatches are 400; unknown namespace is 404', async () => {
  const created = await call('POST', '/api/v1/namespaces/default/configmaps', cm('one'));
  assert.equal(created.status, 201);
  assert.equal((created.body.metadata as { namespace: string }).namespace, 'default');
  const put = await call('PUT', '/api/v1/namespaces/default/configmaps/other', cm('one'));
  assert.equal(put.status, 400);
  assert.equal(put.body.message, 'the name of the object (one) does not match the name on the URL (other)');
  const wrongNs = await call('POST', '/api/v1/namespaces/default/configmaps', {
    ...(cm('two') as object),
    metadata: { name: 'two', namespace: 'kube-system' },
  });
  assert.equal(wrongNs.status, 400);
  const noNs = await call('POST', '/api/v1/namespaces/nowhere/configmaps', cm('x'));
  assert.equal(noNs.status, 404);
  assert.equal(noNs.body.message, 'namespaces "nowhere" not found');
  const wrongKind = await call('POST', '/api/v1/namespaces/default/configmaps', {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'x' },
  });
  assert.equal(wrongKind.status, 400);
  const dry = await call('POST', '/api/v1/namespaces/default/configmaps?dryRun=All', cm('dry'));
  assert.equal(dry.status, 201);
  assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/dry')).status, 404);
});

void test('a body over 3 MiB is 413 RequestEntityTooLarge, and the server goes on serving', async () => {
  const huge = { ...(cm('huge') as object), data: { k: 'x'.repeat(3 * 1024 * 1024) } };
  const tooLarge = await call('POST', '/api/v1/namespaces/default/configmaps', huge);
  assert.equal(tooLarge.status, 413);
  assert.equal(tooLarge.body.reason, 'RequestEntityTooLarge');
  assert.equal(tooLarge.body.message, 'Request entity too large: limit is 3145728');
  assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/huge')).status, 404);
  assert.equal((await call('POST', '/api/v1/namespaces/default/configmaps', cm('after-huge'))).status, 201);
});

void test('list pages with limit and continue; selectors; field selector errors', async () => {
  for (const n of ['p1', 'p2', 'p3'])
    await call('POST', '/api/v1/namespaces/kube-public/configmaps', cm(n, { page: 'yes' }));
  const first = await call('GET', '/api/v1/namespaces/kube-public/configmaps?limit=2');
  const meta = first.body.metadata as { continue: string; remainingItemCount: number; resourceVersion: string };
  assert.equal(first.body.kind, 'ConfigMapList');
  assert.equal((first.body.items as unknown[]).length, 2);
  assert.equal(meta.remainingItemCount, 1);
  const second = await call(
    'GET',
    `/api/v1/namespaces/kube-public/configmaps?limit=2&continue=${encodeURIComponent(meta.continue)}`,
  );
  const names = (second.body.items as Array<{ metadata: { name: string }; kind: string }>).map((i) => i.metadata.name);
  assert.deepEqual(names, ['p3']);
  assert.equal((second.body.items as Array<{ kind: string }>)[0]?.kind, 'ConfigMap');
  assert.equal((second.body.metadata as { continue?: string }).continue, undefined);
  const bad = await call('GET', '/api/v1/configmaps?continue=garbage');
  assert.equal(bad.status, 400);
  const byField = await call('GET', '/api/v1/configmaps?fieldSelector=metadata.name%3Dp2');
  assert.deepEqual(
    (byField.body.items as Array<{ metadata: { name: string } }>).map((i) => i.metadata.name),
    ['p2'],
  );
  const unsupported = await call('GET', '/api/v1/configmaps?fieldSelector=spec.foo%3D1');
  assert.equal(unsupported.status, 400);
  assert.equal(unsupported.body.message, 'field label not supported: spec.foo');
  const pods = await call('GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dn1,status.phase%3DRunning');
  assert.equal(pods.status, 200);
});

void test('Table output for kubectl get', async () => {
  const t = await call('GET', '/api/v1/namespaces/kube-public/configmaps', undefined, {
    Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
  });
  assert.equal(t.body.kind, 'Table');
  assert.deepEqual(
    (t.body.columnDefinitions as Array<{ name: string }>).map((c) => c.name),
    ['Name', 'Data', 'Age'],
  );
  const proto = await call('GET', '/api/v1/namespaces/kube-public/configmaps', undefined, {
    Accept: 'application/vnd.kubernetes.protobuf,application/json',
  });
  assert.equal(proto.body.kind, 'ConfigMapList');
});

async function readLines(
  path: string,
  count: number,
): Promise<Array<{ type: string; object: { metadata: { name?: string; resourceVersion: string } } }>> {
  const res = await fetch(server.url + path);
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  const out: Array<{ type: string; object: { metadata: { name?: string; resourceVersion: string } } }> = [];
  while (out.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      out.push(JSON.parse(buf.slice(0, i)));
      buf = buf.slice(i + 1);
    }
  }
  await reader.cancel();
  return out;
}

void test('watch over HTTP: replay from a resourceVersion; bad selectors are 400', async () => {
  const a = await call('POST', '/api/v1/namespaces/kube-node-lease/configmaps', cm('wa'));
  const rv = (a.body.metadata as { resourceVersion: string }).resourceVersion;
  await call('POST', '/api/v1/namespaces/kube-node-lease/configmaps', cm('wb'));
  await call('DELETE', '/api/v1/namespaces/kube-node-lease/configmaps/wa');
  const events = await readLines(`/api/v1/namespaces/kube-node-lease/configmaps?watch=true&resourceVersion=${rv}`, 2);
  assert.deepEqual(
    events.map((e) => `${e.type} ${e.object.metadata.name ?? ''}`),
    ['ADDED wb', 'DELETED wa'],
  );
  const bad = await call('GET', '/api/v1/configmaps?watch=1&labelSelector=a%20in%20(b');
  assert.equal(bad.status, 400);
});

void test('a watch from a resourceVersion out of the window is a 200 stream with one ERROR 410 event', async () => {
  const small = await startApiServer({ port: 0, watchWindowSize: 2 });
  try {
    const post = (name: string): Promise<Response> =>
      fetch(`${small.url}/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(cm(name)),
      });
    const first = (await (await post('c1')).json()) as { metadata: { resourceVersion: string } };
    for (const n of ['c2', 'c3', 'c4']) await post(n);
    const rv = first.metadata.resourceVersion;
    const res = await fetch(`${small.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`);
    assert.equal(res.status, 200);
    const lines = (await res.text()).split('\n').filter((l) => l !== '');
    assert.equal(lines.length, 1, 'one event, then the stream ends');
    const event = JSON.parse(lines[0]!) as { type: string; object: Record<string, unknown> };
    assert.equal(event.type, 'ERROR');
    assert.deepEqual(event.object, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `too old resource version: ${rv} (${Number(rv) + 1})`,
      reason: 'Expired',
      code: 410,
    });
    const malformed = await fetch(`${small.url}/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=abc`);
    assert.equal(malformed.status, 400, 'a resourceVersion that does not parse is still a plain 400');
    await malformed.text();
  } finally {
    await small.close();
  }
});

void test('CRD create and update are validated (422 Invalid) after names are defaulted', async () => {
  const base = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'bolts.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'bolts', kind: 'Bolt' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
    },
  };
  const bad = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    ...base,
    metadata: { name: 'nuts.example.com' },
    spec: { ...base.spec, scope: '' },
  });
  assert.equal(bad.status, 422);
  assert.equal(
    bad.body.message,
    'CustomResourceDefinition.apiextensions.k8s.io "nuts.example.com" is invalid: [metadata.name: Invalid value: "nuts.example.com": must be spec.names.plural+"."+spec.group, spec.scope: Required value]',
  );
  const created = await call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', base);
  assert.equal(created.status, 201);
  const names = (created.body.spec as { names: Record<string, unknown> }).names;
  assert.equal(names.singular, 'bolt');
  assert.equal(names.listKind, 'BoltList');
  const renamed = await call(
    'PATCH',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/bolts.example.com',
    { spec: { names: { plural: 'screws' } } },
    { 'Content-Type': 'application/merge-patch+json' },
  );
  assert.equal(renamed.status, 422);
  assert.match(renamed.body.message as string, /spec\.names\.plural: Invalid value: "screws": field is immutable/);
  const del = await call('DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/bolts.example.com');
  assert.equal(del.status, 200);
});

void test('delete answers a Status for configmaps and the object for pods; deletecollection by selector', async () => {
  await call('POST', '/api/v1/namespaces/default/configmaps', cm('gone'));
  const del = await call('DELETE', '/api/v1/namespaces/default/configmaps/gone');
  assert.equal(del.body.kind, 'Status');
  assert.equal(del.body.status, 'Success');
  await call('POST', '/api/v1/namespaces/default/pods', {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p' },
    spec: { containers: [{ name: 'c', image: 'i' }] },
  });
  const pod = await call('DELETE', '/api/v1/namespaces/default/pods/p', {
    kind: 'DeleteOptions',
    apiVersion: 'v1',
    gracePeriodSeconds: 0,
  });
  assert.equal(pod.body.kind, 'Pod');
  for (const n of ['d1', 'd2', 'keep'])
    await call('POST', '/api/v1/namespaces/default/configmaps', cm(n, n === 'keep' ? {} : { drop: 'yes' }));
  const coll = await call('DELETE', '/api/v1/namespaces/default/configmaps?labelSelector=drop%3Dyes');
  assert.equal((coll.body.items as unknown[]).length, 2);
  assert.equal((await call('GET', '/api/v1/namespaces/default/configmaps/keep')).status, 200);
  const policy = await call('DELETE', '/api/v1/namespaces/default/configmaps/keep?propagationPolicy=Sideways');
  assert.equal(policy.status, 422);
});

void test('status and scale subresources; patch content types', async () => {
  const dep = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'd' } },
      template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } },
    },
  };
  await call('POST', '/apis/apps/v1/namespaces/default/deployments', dep);
  const status = await call(
    'PATCH',
    '/apis/apps/v1/namespaces/default/deployments/d/status',
    { status: { replicas: 1 }, spec: { replicas: 9 } },
    { 'Content-Type': 'application/merge-patch+json' },
  );
  assert.equal(status.status, 200);
  assert.deepEqual(status.body.status, { replicas: 1 });
  assert.equal((status.body.spec as { replicas: number }).replicas, 1);
  const scale = await call('GET', '/apis/apps/v1/namespaces/default/deployments/d/scale');
  assert.deepEqual(scale.body.spec, { replicas: 1 });
  assert.deepEqual(scale.body.status, { replicas: 1, selector: 'app=d' });
  const scaled = await call(
    'PATCH',
    '/apis/apps/v1/namespaces/default/deployments/d/scale',
    { spec: { replicas: 4 } },
    { 'Content-Type': 'application/merge-patch+json' },
  );
  assert.deepEqual(scaled.body.spec, { replicas: 4 });
  const json = await call(
    'PATCH',
    '/apis/apps/v1/namespaces/default/deployments/d',
    [{ op: 'test', path: '/spec/replicas', value: 4 }],
    { 'Content-Type': 'application/json-patch+json' },
  );
  assert.equal(json.status, 200);
  const unknown = await call(
    'PATCH',
    '/apis/apps/v1/namespaces/default/deployments/d',
    {},
    { 'Content-Type': 'text/plain' },
  );
  assert.equal(unknown.status, 415);
  const noManager = await call('PATCH', '/apis/apps/v1/namespaces/default/deployments/d', dep, {
    'Content-Type': 'application/apply-patch+yaml',
  });
  assert.equal(noManager.status, 422);
  assert.equal(
    noManager.body.message,
    'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
  );
  const got = await call('GET', '/apis/apps/v1/namespaces/default/deployments/d');
  const managers = ((got.body.metadata as { managedFields: Array<{ manager: string }> }).managedFields ?? []).map(
    (m) => m.manager,
  );
  assert.ok(managers.includes('node'), `managedFields record the user agent's program: ${managers.join(',')}`);
});

void test('events.k8s.io/v1 and core Events are one storage', async () => {
  await call('POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: 'ev1' },
    eventTime: '2026-03-01T00:00:00.000000Z',
    regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
    note: 'hello',
    reason: 'Tested',
    type: 'Normal',
    action: 'Test',
    reportingController: 'tests',
    reportingInstance: 'tests-1',
  });
  const core = await call('GET', '/api/v1/namespaces/default/events/ev1');
  assert.equal(core.body.message, 'hello');
  const sel = await call(
    'GET',
    '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dp,reason%3DTested',
  );
  assert.equal((sel.body.items as unknown[]).length, 1);
});

void test('persistence: a restarted server resumes objects and resourceVersion', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'apiserver-state-'));
  const dataFile = join(dir, 'state.json');
  try {
    const first = await startApiServer({ port: 0, dataFile });
    const created = await fetch(`${first.url}/api/v1/namespaces/default/configmaps`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(cm('kept')),
    });
    const rv = Number(((await created.json()) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    await first.close();
    const second = await startApiServer({ port: 0, dataFile });
    try {
      const got = await fetch(`${second.url}/api/v1/namespaces/default/configmaps/kept`);
      assert.equal(got.status, 200);
      assert.ok(Number(second.store.currentResourceVersion()) >= rv);
    } finally {
      await second.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
