// The official @kubernetes/client-node (1.4) against the embedded API server, unchanged, through
// the kubeconfig the server writes. Waits are on conditions with a deadline, never fixed sleeps.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  PolicyV1Api,
  Watch,
  makeInformer,
  setHeaderOptions,
  type KubernetesObject,
  type V1ConfigMap,
  type V1Pod,
} from '@kubernetes/client-node';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.js';

let server: ApiServer;
let kc: KubeConfig;
let core: CoreV1Api;

function configFor(s: ApiServer): KubeConfig {
  const config = new KubeConfig();
  config.loadFromString(s.kubeconfig());
  return config;
}

before(async () => {
  server = await startApiServer({ port: 0 });
  kc = configFor(server);
  core = kc.makeApiClient(CoreV1Api);
});

after(async () => {
  await server.close();
});

/** Polls `check` until it returns a value other than undefined/false, or fails after the deadline. */
async function waitFor<T>(
  what: string,
  check: () => T | undefined | false | Promise<T | undefined | false>,
  deadlineMs = 10_000,
): Promise<T> {
  const start = performance.now();
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (performance.now() - start > deadlineMs) assert.fail(`timed out waiting for ${what}`);
    await delay(10);
  }
}

/** The ApiException a call fails with, with its Status body parsed (client-node keeps it as a string). */
async function apiException(
  call: Promise<unknown>,
): Promise<{ code: number; status: { reason?: string; message?: string; code?: number } }> {
  try {
    await call;
  } catch (err) {
    assert.ok(err instanceof ApiException, `expected ApiException, got ${String(err)}`);
    const body: unknown = err.body;
    return { code: err.code, status: (typeof body === 'string' ? JSON.parse(body) : body) as { reason?: string } };
  }
  return assert.fail('expected the call to fail');
}

function configMap(name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}): V1ConfigMap {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data };
}

function pod(name: string, labels: Record<string, string>): V1Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels },
    spec: { containers: [{ name: 'c', image: 'registry.example/app:1.0' }] },
  };
}

test('CoreV1Api: ConfigMaps and Pods through create, read, list, replace, delete; 404 and 409 as ApiException', async () => {
  const created = await core.createNamespacedConfigMap({
    namespace: 'default',
    body: configMap('cn-one', { tier: 'web' }, { k: 'v' }),
  });
  assert.equal(created.metadata?.namespace, 'default');
  assert.ok(created.metadata?.creationTimestamp instanceof Date, 'timestamps decode to Date');
  const read = await core.readNamespacedConfigMap({ name: 'cn-one', namespace: 'default' });
  assert.deepEqual(read.data, { k: 'v' });
  const replaced = await core.replaceNamespacedConfigMap({
    name: 'cn-one',
    namespace: 'default',
    body: { ...read, data: { k: 'w' } },
  });
  assert.deepEqual(replaced.data, { k: 'w' });
  assert.notEqual(replaced.metadata?.resourceVersion, read.metadata?.resourceVersion);

  const stale = await apiException(
    core.replaceNamespacedConfigMap({ name: 'cn-one', namespace: 'default', body: { ...read, data: { k: 'x' } } }),
  );
  assert.equal(stale.code, 409);
  assert.equal(stale.status.reason, 'Conflict');
  const dup = await apiException(core.createNamespacedConfigMap({ namespace: 'default', body: configMap('cn-one') }));
  assert.equal(dup.code, 409);
  assert.equal(dup.status.reason, 'AlreadyExists');
  assert.equal(dup.status.message, 'configmaps "cn-one" already exists');

  await core.createNamespacedPod({ namespace: 'default', body: pod('cn-pod', { app: 'cn' }) });
  const pods = await core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=cn' });
  assert.deepEqual(
    pods.items.map((p) => p.metadata?.name),
    ['cn-pod'],
  );
  assert.equal(pods.items[0]?.status?.phase, 'Pending');
  assert.equal(pods.items[0]?.spec?.restartPolicy, 'Always', 'server defaults arrive in the typed model');
  const p = pods.items.at(0);
  assert.ok(p?.metadata);
  p.metadata.labels = { app: 'cn', extra: 'yes' };
  const replacedPod = await core.replaceNamespacedPod({ name: 'cn-pod', namespace: 'default', body: p });
  assert.equal(replacedPod.metadata?.labels?.extra, 'yes');
  await core.deleteNamespacedPod({ name: 'cn-pod', namespace: 'default' });
  await core.deleteNamespacedConfigMap({ name: 'cn-one', namespace: 'default' });

  const missing = await apiException(core.readNamespacedConfigMap({ name: 'cn-one', namespace: 'default' }));
  assert.equal(missing.code, 404);
  assert.equal(missing.status.reason, 'NotFound');
  assert.equal(missing.status.message, 'configmaps "cn-one" not found');
});

test('label and field selectors', async () => {
  await core.createNamespacedConfigMap({
    namespace: 'default',
    body: configMap('sel-a', { tier: 'web', env: 'prod' }),
  });
  await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('sel-b', { tier: 'db', env: 'prod' }) });
  await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('sel-c', { tier: 'web' }) });
  const names = async (q: { labelSelector?: string; fieldSelector?: string }): Promise<string[]> =>
    (await core.listNamespacedConfigMap({ namespace: 'default', ...q })).items
      .map((c) => c.metadata?.name ?? '')
      .filter((n) => n.startsWith('sel-'));
  assert.deepEqual(await names({ labelSelector: 'tier=web' }), ['sel-a', 'sel-c']);
  assert.deepEqual(await names({ labelSelector: 'tier in (web,db),env' }), ['sel-a', 'sel-b']);
  assert.deepEqual(await names({ labelSelector: '!env' }), ['sel-c']);
  assert.deepEqual(await names({ fieldSelector: 'metadata.name=sel-b' }), ['sel-b']);
  assert.deepEqual(await names({ fieldSelector: 'metadata.name!=sel-b', labelSelector: 'tier' }), ['sel-a', 'sel-c']);
  const bad = await apiException(core.listNamespacedConfigMap({ namespace: 'default', fieldSelector: 'data.k=v' }));
  assert.equal(bad.code, 400);
  await core.deleteCollectionNamespacedConfigMap({ namespace: 'default', labelSelector: 'tier' });
  assert.deepEqual(await names({}), []);
});

test('AppsV1Api: Deployment create, strategic merge patch and JSON patch', async () => {
  const apps = kc.makeApiClient(AppsV1Api);
  const created = await apps.createNamespacedDeployment({
    namespace: 'default',
    body: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              { name: 'app', image: 'registry.example/web:1.0' },
              { name: 'sidecar', image: 'registry.example/side:1.0' },
            ],
          },
        },
      },
    },
  });
  assert.equal(created.metadata?.generation, 1);
  const strategic = await apps.patchNamespacedDeployment(
    {
      name: 'web',
      namespace: 'default',
      body: {
        spec: { replicas: 3, template: { spec: { containers: [{ name: 'app', image: 'registry.example/web:2.0' }] } } },
      },
    },
    setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
  );
  assert.equal(strategic.spec?.replicas, 3);
  assert.deepEqual(
    strategic.spec?.template.spec?.containers.map((c) => `${c.name}=${c.image ?? ''}`),
    ['app=registry.example/web:2.0', 'sidecar=registry.example/side:1.0'],
    'strategic merge merges containers by name',
  );
  assert.equal(strategic.metadata?.generation, 2);
  const jsonPatched = await apps.patchNamespacedDeployment(
    {
      name: 'web',
      namespace: 'default',
      body: [
        { op: 'test', path: '/spec/replicas', value: 3 },
        { op: 'replace', path: '/spec/replicas', value: 5 },
        { op: 'add', path: '/metadata/labels/patched', value: 'json' },
      ],
    },
    setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
  );
  assert.equal(jsonPatched.spec?.replicas, 5);
  assert.equal(jsonPatched.metadata?.labels?.patched, 'json');
  const failed = await apiException(
    apps.patchNamespacedDeployment(
      { name: 'web', namespace: 'default', body: [{ op: 'test', path: '/spec/replicas', value: 1 }] },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    ),
  );
  assert.equal(failed.code, 422);
  await apps.deleteNamespacedDeployment({ name: 'web', namespace: 'default' });
});

const widgetCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.interop.example.com' },
  spec: {
    group: 'interop.example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wdg'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  size: { type: 'integer', minimum: 1 },
                  color: { type: 'string', default: 'blue' },
                  owner: { type: 'string' },
                },
              },
              status: { type: 'object', properties: { phase: { type: 'string' } } },
            },
          },
        },
      },
    ],
  },
};

interface Widget {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    generation?: number;
    resourceVersion?: string;
    managedFields?: Array<{ manager: string; operation: string }>;
  };
  spec?: { size?: number; color?: string; owner?: string };
  status?: { phase?: string };
}

test('CustomObjectsApi on a CRD registered at runtime: create, get, list, merge patch, status patch, server-side apply', async () => {
  const custom = kc.makeApiClient(CustomObjectsApi);
  await custom.createClusterCustomObject({
    group: 'apiextensions.k8s.io',
    version: 'v1',
    plural: 'customresourcedefinitions',
    body: widgetCrd,
  });
  await waitFor('the Widget CRD to be established', async () => {
    const crd = (await custom.getClusterCustomObject({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      plural: 'customresourcedefinitions',
      name: widgetCrd.metadata.name,
    })) as {
      status?: { conditions?: Array<{ type: string; status: string }> };
    };
    return crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
  });
  const gvp = { group: 'interop.example.com', version: 'v1', namespace: 'default', plural: 'widgets' };
  const created = (await custom.createNamespacedCustomObject({
    ...gvp,
    body: { apiVersion: 'interop.example.com/v1', kind: 'Widget', metadata: { name: 'w1' }, spec: { size: 2 } },
  })) as Widget;
  assert.equal(created.spec?.color, 'blue', 'schema default applied');
  assert.equal(created.metadata.generation, 1);
  const invalid = await apiException(
    custom.createNamespacedCustomObject({
      ...gvp,
      body: { apiVersion: 'interop.example.com/v1', kind: 'Widget', metadata: { name: 'w0' }, spec: { size: 0 } },
    }),
  );
  assert.equal(invalid.code, 422);
  assert.equal(invalid.status.reason, 'Invalid');

  const got = (await custom.getNamespacedCustomObject({ ...gvp, name: 'w1' })) as Widget;
  assert.equal(got.spec?.size, 2);
  const list = (await custom.listNamespacedCustomObject(gvp)) as { kind: string; items: Widget[] };
  assert.equal(list.kind, 'WidgetList');
  assert.deepEqual(
    list.items.map((w) => w.metadata.name),
    ['w1'],
  );

  const defaultPatch = await apiException(
    custom.patchNamespacedCustomObject({ ...gvp, name: 'w1', body: { spec: { size: 3 } } }),
  );
  assert.equal(
    defaultPatch.code,
    400,
    'without an override client-node sends a JSON patch, which an object body is not',
  );
  assert.equal(defaultPatch.status.message, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  const merged = (await custom.patchNamespacedCustomObject(
    { ...gvp, name: 'w1', body: { spec: { size: 3 } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  )) as Widget;
  assert.equal(merged.spec?.size, 3);
  assert.equal(merged.metadata.generation, 2);

  const status = (await custom.patchNamespacedCustomObjectStatus(
    { ...gvp, name: 'w1', body: { status: { phase: 'Ready' }, spec: { size: 99 } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  )) as Widget;
  assert.equal(status.status?.phase, 'Ready');
  assert.equal(status.spec?.size, 3, 'the status subresource ignores spec');
  assert.equal(status.metadata.generation, 2);
  const jsonStatus = (await custom.patchNamespacedCustomObjectStatus({
    ...gvp,
    name: 'w1',
    body: [{ op: 'replace', path: '/status/phase', value: 'Degraded' }],
  })) as Widget;
  assert.equal(jsonStatus.status?.phase, 'Degraded', 'the default JSON patch works on status');

  const applied = (await custom.patchNamespacedCustomObject(
    {
      ...gvp,
      name: 'w1',
      body: {
        apiVersion: 'interop.example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1' },
        spec: { size: 4, owner: 'interop' },
      },
      fieldManager: 'interop',
      force: true,
    },
    setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
  )) as Widget;
  assert.equal(applied.spec?.size, 4);
  assert.equal(applied.spec?.owner, 'interop');
  assert.ok(applied.metadata.managedFields?.some((m) => m.manager === 'interop' && m.operation === 'Apply'));
  const createdByApply = (await custom.patchNamespacedCustomObject(
    {
      ...gvp,
      name: 'w2',
      body: { apiVersion: 'interop.example.com/v1', kind: 'Widget', metadata: { name: 'w2' }, spec: { size: 1 } },
      fieldManager: 'interop',
      force: true,
    },
    setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
  )) as Widget;
  assert.equal(createdByApply.metadata.name, 'w2', 'apply creates a missing object');

  await custom.deleteNamespacedCustomObject({ ...gvp, name: 'w1' });
  await custom.deleteNamespacedCustomObject({ ...gvp, name: 'w2' });
  const gone = await apiException(custom.getNamespacedCustomObject({ ...gvp, name: 'w1' }));
  assert.equal(gone.code, 404);
});

test('KubernetesObjectApi: create, read, patch (strategic by default), delete by apiVersion/kind', async () => {
  const objects = KubernetesObjectApi.makeApiClient(kc);
  const spec: KubernetesObject & { data?: Record<string, string> } = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'koa', namespace: 'default' },
    data: { a: '1' },
  };
  await objects.create(spec);
  const read = await objects.read<V1ConfigMap>({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'koa', namespace: 'default' },
  });
  assert.deepEqual(read.data, { a: '1' });
  const patched = (await objects.patch({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: 'koa', namespace: 'default' },
    data: { b: '2' },
  } as KubernetesObject)) as V1ConfigMap;
  assert.deepEqual(patched.data, { a: '1', b: '2' });
  const listed = await objects.list('v1', 'ConfigMap', 'default', undefined, undefined, undefined, 'metadata.name=koa');
  assert.equal(listed.items.length, 1);
  await objects.delete({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'koa', namespace: 'default' } });
  const gone = await apiException(
    objects.read({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'koa', namespace: 'default' } }),
  );
  assert.equal(gone.code, 404);
});

test('Watch receives ADDED, MODIFIED and DELETED', async () => {
  const seen: string[] = [];
  const list = await core.listNamespacedConfigMap({ namespace: 'kube-public' });
  let ended: unknown = 'open';
  const watch = await new Watch(kc).watch(
    '/api/v1/namespaces/kube-public/configmaps',
    { resourceVersion: list.metadata?.resourceVersion },
    (type: string, obj: V1ConfigMap) => seen.push(`${type} ${obj.metadata?.name ?? ''}`),
    (err: unknown) => (ended = err),
  );
  await core.createNamespacedConfigMap({ namespace: 'kube-public', body: configMap('watched') });
  await core.patchNamespacedConfigMap(
    { name: 'watched', namespace: 'kube-public', body: { data: { k: 'v' } } },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  await core.deleteNamespacedConfigMap({ name: 'watched', namespace: 'kube-public' });
  await waitFor('three watch events', () => seen.length >= 3);
  assert.deepEqual(seen, ['ADDED watched', 'MODIFIED watched', 'DELETED watched']);
  watch.abort();
  await waitFor('the watch to end', () => ended !== 'open');
});

test('policy/v1 eviction against a PodDisruptionBudget: allowed, then 429', async () => {
  const policy = kc.makeApiClient(PolicyV1Api);
  for (const name of ['ev-1', 'ev-2']) {
    await core.createNamespacedPod({ namespace: 'default', body: pod(name, { app: 'ev' }) });
    await core.patchNamespacedPodStatus(
      {
        name,
        namespace: 'default',
        body: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
  }
  await policy.createNamespacedPodDisruptionBudget({
    namespace: 'default',
    body: {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'ev' },
      spec: { minAvailable: 1, selector: { matchLabels: { app: 'ev' } } },
    },
  });
  await waitFor('the budget to allow one disruption', async () => {
    const pdb = await policy.readNamespacedPodDisruptionBudget({ name: 'ev', namespace: 'default' });
    return pdb.status?.observedGeneration === pdb.metadata?.generation && pdb.status?.disruptionsAllowed === 1;
  });
  const eviction = (name: string): Parameters<CoreV1Api['createNamespacedPodEviction']>[0] => ({
    name,
    namespace: 'default',
    body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } },
  });
  await core.createNamespacedPodEviction(eviction('ev-1'));
  await waitFor(
    'ev-1 to be gone',
    async () =>
      (await core.listNamespacedPod({ namespace: 'default', fieldSelector: 'metadata.name=ev-1' })).items.length === 0,
  );
  const refused = await apiException(core.createNamespacedPodEviction(eviction('ev-2')));
  assert.equal(refused.code, 429);
  assert.equal(refused.status.reason, 'TooManyRequests');
  assert.equal(refused.status.message, "Cannot evict pod as it would violate the pod's disruption budget.");
  await core.readNamespacedPod({ name: 'ev-2', namespace: 'default' });
});

test('the informer sees add/update/delete and re-lists after a 410 while its watch was down', async () => {
  const small = await startApiServer({ port: 0, watchWindowSize: 3 });
  const smallConfig = configFor(small);
  const smallCore = smallConfig.makeApiClient(CoreV1Api);
  let lists = 0;
  const informer = makeInformer<V1ConfigMap>(smallConfig, '/api/v1/namespaces/default/configmaps', () => {
    lists++;
    return smallCore.listNamespacedConfigMap({ namespace: 'default' });
  });
  const events: string[] = [];
  const errors: unknown[] = [];
  informer.on('add', (o) => events.push(`add ${o.metadata?.name ?? ''}`));
  informer.on('update', (o) => events.push(`update ${o.metadata?.name ?? ''} ${o.data?.k ?? ''}`));
  informer.on('delete', (o) => events.push(`delete ${o.metadata?.name ?? ''}`));
  informer.on('error', (err) => errors.push(err));
  try {
    await smallCore.createNamespacedConfigMap({ namespace: 'default', body: configMap('before') });
    await informer.start();
    assert.deepEqual(events, ['add before']);
    await smallCore.createNamespacedConfigMap({ namespace: 'default', body: configMap('a') });
    await smallCore.replaceNamespacedConfigMap({
      name: 'a',
      namespace: 'default',
      body: configMap('a', {}, { k: '1' }),
    });
    await smallCore.deleteNamespacedConfigMap({ name: 'a', namespace: 'default' });
    await waitFor('add, update and delete of a', () => events.length >= 4);
    assert.deepEqual(events.slice(1), ['add a', 'update a 1', 'delete a']);
    assert.equal(lists, 1);

    // Take the informer's watch down; its abort is reported as an error, which must arrive
    // before the restart (it would otherwise abort the new watch).
    await informer.stop();
    await waitFor('the aborted watch to report', () => errors.length >= 1);
    events.length = 0;
    for (const n of ['c1', 'c2', 'c3', 'c4', 'c5'])
      await smallCore.createNamespacedConfigMap({ namespace: 'default', body: configMap(n) });
    await smallCore.deleteNamespacedConfigMap({ name: 'before', namespace: 'default' });

    // Resuming from its last resourceVersion is now 410 (an ERROR event); it re-lists and diffs.
    await informer.start();
    await waitFor('the re-list to deliver the changes', () => events.length >= 6);
    assert.deepEqual([...events].sort(), ['add c1', 'add c2', 'add c3', 'add c4', 'add c5', 'delete before']);
    assert.equal(lists, 2, 'one re-list after the expired resourceVersion');
    assert.deepEqual(
      informer
        .list('default')
        .map((o) => o.metadata?.name)
        .sort(),
      ['c1', 'c2', 'c3', 'c4', 'c5'],
    );
    assert.equal(errors.length, 1, 'the 410 is handled, not reported');

    // The raw Watch sees that ERROR event itself.
    const seen: Array<{ type: string; code?: number; reason?: string }> = [];
    let ended = false;
    await new Watch(smallConfig).watch(
      '/api/v1/namespaces/default/configmaps',
      { resourceVersion: '1' },
      (type: string, obj: { code?: number; reason?: string }) =>
        seen.push({ type, code: obj.code, reason: obj.reason } as never),
      () => (ended = true),
    );
    await waitFor('the expired watch to end', () => ended);
    assert.deepEqual(seen, [{ type: 'ERROR', code: 410, reason: 'Expired' }]);
  } finally {
    await informer.stop();
    await small.close();
  }
});
