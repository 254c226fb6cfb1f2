import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import { SeededRandom } from '../../lib/random.js';
import { ApiError } from '../status.js';
import type { KubeObject, StoreEvent } from '../types.js';
import {
  configMapType,
  deploymentType,
  eventType,
  eventsV1Type,
  namespaceType,
  podType,
  secretType,
} from '../builtin/kinds.js';
import { MemoryStore } from './store.js';
import type { ServedType } from './served-type.js';

function setup(podTermination: 'expire' | 'kubelet' = 'expire'): {
  store: MemoryStore;
  clock: ManualClock;
  events: StoreEvent[];
} {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const store = new MemoryStore({ clock, random: new SeededRandom(1), podTermination });
  const events: StoreEvent[] = [];
  store.subscribe((e) => events.push(e));
  return { store, clock, events };
}

function cm(
  name: string,
  data: Record<string, string> = {},
  extra: Record<string, string | string[]> = {},
): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default', ...extra }, data };
}

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected an error');
}

void test('create assigns uid, creationTimestamp and increasing resourceVersions', () => {
  const { store, events } = setup();
  const a = store.create(configMapType, cm('a'));
  const b = store.create(configMapType, cm('b'));
  assert.match(a.metadata.uid as string, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(a.metadata.creationTimestamp, '2026-01-01T00:00:00Z');
  assert.equal(a.metadata.generation, undefined, 'ConfigMaps have no generation');
  assert.ok(Number(b.metadata.resourceVersion) > Number(a.metadata.resourceVersion));
  assert.equal(store.currentResourceVersion(), b.metadata.resourceVersion);
  assert.deepEqual(
    events.map((e) => [e.type, e.object.metadata.name]),
    [
      ['ADDED', 'a'],
      ['ADDED', 'b'],
    ],
  );
  assert.equal(apiError(() => store.create(configMapType, cm('a'))).code, 409);
});

void test('generateName makes a name with 5 random characters', () => {
  const { store } = setup();
  const o = store.create(configMapType, {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { generateName: 'job-', namespace: 'default' },
  });
  assert.match(o.metadata.name as string, /^job-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
});

void test('invalid names are refused with the apimachinery message', () => {
  const { store } = setup();
  const err = apiError(() => store.create(configMapType, cm('Bad_Name')));
  assert.equal(err.code, 422);
  assert.equal(
    err.message,
    `ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
  );
  const missing = apiError(() =>
    store.create(configMapType, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default' } }),
  );
  assert.match(missing.message, /metadata.name: Required value: name or generateName is required/);
});

void test('update checks resourceVersion and keeps immutable metadata', () => {
  const { store } = setup();
  const a = store.create(configMapType, cm('a', { k: '1' }));
  const stale = { ...cm('a', { k: '2' }), metadata: { ...a.metadata } };
  const b = store.update(configMapType, stale);
  assert.equal(b.data && (b.data as Record<string, string>).k, '2');
  assert.equal(b.metadata.uid, a.metadata.uid);
  assert.equal(b.metadata.creationTimestamp, a.metadata.creationTimestamp);
  const err = apiError(() => store.update(configMapType, { ...cm('a', { k: '3' }), metadata: { ...a.metadata } }));
  assert.equal(err.code, 409);
  assert.equal(
    err.message,
    'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
  );
  assert.equal(apiError(() => store.update(configMapType, cm('zzz'))).code, 404);
});

void test('a no-op update writes nothing', () => {
  const { store, events } = setup();
  const a = store.create(configMapType, cm('a', { k: '1' }));
  const b = store.update(configMapType, cm('a', { k: '1' }));
  assert.equal(b.metadata.resourceVersion, a.metadata.resourceVersion);
  assert.equal(events.length, 1);
});

void test('generation moves on spec changes only; status subresource rules', () => {
  const { store } = setup();
  const d0 = store.create(deploymentType, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'default' },
    spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'x:1' }] } } },
    status: { replicas: 5 },
  });
  assert.deepEqual(d0.status, {}, 'status is reset on create');
  assert.equal(d0.metadata.generation, 1);
  const d1 = store.update(deploymentType, { ...d0, metadata: { ...d0.metadata, labels: { a: 'b' } } });
  assert.equal(d1.metadata.generation, 1, 'metadata change keeps generation');
  const d2 = store.update(deploymentType, {
    ...d1,
    spec: { ...(d1.spec as object), replicas: 3 },
    status: { replicas: 9 },
  });
  assert.equal(d2.metadata.generation, 2);
  assert.deepEqual(d2.status, {}, 'main update keeps old status');
  const d3 = store.update(
    deploymentType,
    { ...d2, spec: { replicas: 100 }, metadata: { ...d2.metadata, labels: {} }, status: { replicas: 3 } },
    { subresource: 'status' },
  );
  assert.deepEqual(d3.status, { replicas: 3 });
  assert.equal((d3.spec as { replicas: number }).replicas, 3, 'status write ignores spec');
  assert.deepEqual(d3.metadata.labels, { a: 'b' }, 'status write ignores labels');
  assert.equal(d3.metadata.generation, 2);
});

const widgetType: ServedType = {
  group: 'example.com',
  version: 'v1',
  versions: ['v1'],
  resource: 'widgets',
  singular: 'widget',
  kind: 'Widget',
  listKind: 'WidgetList',
  namespaced: true,
  shortNames: [],
  categories: [],
  subresources: [],
  custom: true,
};

void test('custom resources without a status subresource bump generation on any non-metadata change', () => {
  const { store } = setup();
  store.registerResourceType(widgetType);
  const a = store.create(widgetType, {
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name: 'w', namespace: 'default' },
    spec: { n: 1 },
  });
  assert.equal(a.metadata.generation, 1);
  const b = store.update(widgetType, { ...a, status: { seen: true } });
  assert.equal(b.metadata.generation, 2);
  const c = store.update(widgetType, { ...b, metadata: { ...b.metadata, labels: { x: 'y' } } });
  assert.equal(c.metadata.generation, 2, 'metadata changes keep it');
});

void test('only kinds whose kube strategy keeps a generation have one', () => {
  const { store } = setup();
  const ns = store.create(namespaceType, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n1' } });
  assert.equal(ns.metadata.generation, undefined);
  const pod = store.create(podType, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'x:1' }] },
  });
  assert.equal(pod.metadata.generation, undefined);
  const a = store.create(configMapType, cm('g', { k: '1' }));
  const b = store.update(configMapType, { ...a, data: { k: '2' } });
  assert.equal(b.metadata.generation, undefined, 'a client-sent generation is not kept either');
  const c = store.update(configMapType, { ...b, metadata: { ...b.metadata, generation: 7 } });
  assert.equal(c.metadata.generation, undefined);
});

void test('a Deployment moves its generation on annotation changes; marking for deletion moves it too', () => {
  const { store } = setup();
  const d0 = store.create(deploymentType, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'ann', namespace: 'default', finalizers: ['example.com/hold'] },
    spec: { replicas: 1, template: { spec: { containers: [{ name: 'c', image: 'x:1' }] } } },
  });
  const d1 = store.update(deploymentType, { ...d0, metadata: { ...d0.metadata, annotations: { a: 'b' } } });
  assert.equal(d1.metadata.generation, 2);
  const d2 = store.update(deploymentType, { ...d1, metadata: { ...d1.metadata, labels: { a: 'b' } } });
  assert.equal(d2.metadata.generation, 2, 'labels do not move it');
  const marked = store.delete(deploymentType, 'default', 'ann');
  assert.equal(marked.metadata.generation, 3, 'setting deletionTimestamp bumps a generation that exists');
  const again = store.delete(deploymentType, 'default', 'ann');
  assert.equal(again.metadata.generation, 3, 'a second delete does not');
});

void test('finalizers hold deletion; no new finalizers while deleting; removal when they go', () => {
  const { store, events } = setup();
  store.create(configMapType, cm('a', {}, { finalizers: ['x/y'] }));
  const marked = store.delete(configMapType, 'default', 'a');
  assert.equal(marked.metadata.deletionTimestamp, '2026-01-01T00:00:00Z');
  assert.equal(marked.metadata.deletionGracePeriodSeconds, 0);
  assert.ok(store.get(configMapType, 'default', 'a'));
  const again = store.delete(configMapType, 'default', 'a');
  assert.equal(again.metadata.resourceVersion, marked.metadata.resourceVersion, 'second delete is a no-op');
  const err = apiError(() =>
    store.update(configMapType, { ...marked, metadata: { ...marked.metadata, finalizers: ['x/y', 'new'] } }),
  );
  assert.equal(err.code, 422);
  assert.match(
    err.message,
    /no new finalizers can be added if the object is being deleted, found new finalizers \[\]string\{"new"\}/,
  );
  store.update(configMapType, { ...marked, metadata: { ...marked.metadata, finalizers: [] } });
  assert.equal(store.get(configMapType, 'default', 'a'), undefined);
  assert.deepEqual(
    events.map((e) => e.type),
    ['ADDED', 'MODIFIED', 'DELETED'],
  );
});

void test('propagation policies add the garbage collector finalizers', () => {
  const { store } = setup();
  store.create(configMapType, cm('o'));
  store.create(configMapType, cm('f'));
  store.create(configMapType, cm('b'));
  assert.deepEqual(store.delete(configMapType, 'default', 'o', { propagationPolicy: 'Orphan' }).metadata.finalizers, [
    'orphan',
  ]);
  assert.deepEqual(
    store.delete(configMapType, 'default', 'f', { propagationPolicy: 'Foreground' }).metadata.finalizers,
    ['foregroundDeletion'],
  );
  store.delete(configMapType, 'default', 'b', { propagationPolicy: 'Background' });
  assert.equal(store.get(configMapType, 'default', 'b'), undefined);
});

void test('delete preconditions', () => {
  const { store } = setup();
  store.create(configMapType, cm('a'));
  const err = apiError(() => store.delete(configMapType, 'default', 'a', { preconditions: { uid: 'nope' } }));
  assert.equal(err.code, 409);
  assert.match(err.message, /Precondition failed: UID in precondition: nope, UID in object meta: /);
  assert.equal(
    apiError(() => store.delete(configMapType, 'default', 'a', { preconditions: { resourceVersion: '999' } })).code,
    409,
  );
  assert.equal(apiError(() => store.delete(configMapType, 'default', 'missing')).code, 404);
});

function pod(name: string, nodeName?: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { containers: [{ name: 'c', image: 'i' }], ...(nodeName ? { nodeName } : {}) },
  };
}

void test('pods: defaults, graceful deletion expiring on the clock, unbound pods go at once', async () => {
  const { store, clock } = setup();
  const p = store.create(podType, pod('p', 'node-1'));
  assert.equal((p.status as { phase: string }).phase, 'Pending');
  assert.equal((p.spec as { terminationGracePeriodSeconds: number }).terminationGracePeriodSeconds, 30);
  const marked = store.delete(podType, 'default', 'p', { gracePeriodSeconds: 10 });
  assert.equal(marked.metadata.deletionTimestamp, '2026-01-01T00:00:10Z');
  assert.equal(marked.metadata.deletionGracePeriodSeconds, 10);
  await clock.advance(9_000);
  assert.ok(store.get(podType, 'default', 'p'));
  await clock.advance(1_000);
  assert.equal(store.get(podType, 'default', 'p'), undefined);
  store.create(podType, pod('u'));
  store.delete(podType, 'default', 'u');
  assert.equal(store.get(podType, 'default', 'u'), undefined);
});

void test('pods in kubelet mode wait for a grace-0 delete', async () => {
  const { store, clock } = setup('kubelet');
  store.create(podType, pod('p', 'node-1'));
  store.delete(podType, 'default', 'p');
  await clock.advance(60_000);
  assert.ok(store.get(podType, 'default', 'p'));
  store.delete(podType, 'default', 'p', { gracePeriodSeconds: 0 });
  assert.equal(store.get(podType, 'default', 'p'), undefined);
});

void test('namespaces: defaults, Terminating on delete, removed after finalize', () => {
  const { store } = setup();
  const ns = store.create(namespaceType, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } });
  assert.deepEqual(ns.spec, { finalizers: ['kubernetes'] });
  assert.deepEqual(ns.status, { phase: 'Active' });
  assert.equal((ns.metadata.labels as Record<string, string>)['kubernetes.io/metadata.name'], 'team');
  const del = store.delete(namespaceType, '', 'team');
  assert.equal((del.status as { phase: string }).phase, 'Terminating');
  store.update(namespaceType, { ...del, spec: { finalizers: [] } }, { subresource: 'finalize' });
  assert.equal(store.get(namespaceType, '', 'team'), undefined);
});

void test('list is sorted and filtered by namespace; secrets default their type', () => {
  const { store } = setup();
  store.create(configMapType, { ...cm('b'), metadata: { name: 'b', namespace: 'z' } });
  store.create(configMapType, cm('c'));
  store.create(configMapType, cm('a'));
  assert.deepEqual(
    store.list(configMapType).map((o) => `${o.metadata.namespace as string}/${o.metadata.name as string}`),
    ['default/a', 'default/c', 'z/b'],
  );
  assert.equal(store.list(configMapType, 'z').length, 1);
  const s = store.create(secretType, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 's', namespace: 'default' },
  });
  assert.equal(s.type, 'Opaque');
});

void test('core and events.k8s.io Events share one storage', () => {
  const { store } = setup();
  store.create(eventType, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'e1', namespace: 'default' },
    involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' },
    message: 'hello',
    reason: 'Started',
    type: 'Normal',
    count: 2,
    source: { component: 'kubelet' },
  });
  const v1 = store.get(eventsV1Type, 'default', 'e1')!;
  assert.equal(v1.apiVersion, 'events.k8s.io/v1');
  assert.equal(v1.note, 'hello');
  assert.deepEqual(v1.regarding, { kind: 'Pod', name: 'p', namespace: 'default' });
  assert.equal(v1.deprecatedCount, 2);
  assert.deepEqual(v1.deprecatedSource, { component: 'kubelet' });
  store.create(eventsV1Type, {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: 'e2', namespace: 'default' },
    regarding: { kind: 'Node', name: 'n' },
    note: 'from v1',
    reason: 'X',
    type: 'Warning',
    reportingController: 'me',
    reportingInstance: 'me-1',
    action: 'Do',
    eventTime: '2026-01-01T00:00:00.000000Z',
  });
  const core = store.get(eventType, 'default', 'e2')!;
  assert.equal(core.apiVersion, 'v1');
  assert.equal(core.message, 'from v1');
  assert.deepEqual(core.involvedObject, { kind: 'Node', name: 'n' });
  assert.equal(core.reportingComponent, 'me');
  assert.equal(store.list(eventsV1Type).length, 2);
});

void test('snapshot and restore keep objects and the resourceVersion', () => {
  const { store, clock } = setup();
  store.create(configMapType, cm('a'));
  const snap = store.snapshot();
  const other = new MemoryStore({ clock });
  other.restore(JSON.parse(JSON.stringify(snap)));
  assert.equal(other.currentResourceVersion(), store.currentResourceVersion());
  assert.equal(
    other.get(configMapType, 'default', 'a')?.metadata.uid,
    store.get(configMapType, 'default', 'a')?.metadata.uid,
  );
  const b = other.create(configMapType, cm('b'));
  assert.equal(Number(b.metadata.resourceVersion), Number(snap.resourceVersion) + 1);
});

void test('a write copies its input unless the caller hands it over (owned)', () => {
  const { store } = setup();
  const input = cm('copied', { a: '1' });
  const stored = store.create(configMapType, input);
  assert.notEqual(stored, input);
  assert.equal(input.metadata.uid, undefined, 'the input is left as it was');
  const given = cm('given', { a: '1' });
  const kept = store.create(configMapType, given, { owned: true });
  assert.equal(kept, given, 'kept as is, without a copy');
  assert.equal(store.get(configMapType, 'default', 'given'), given);
  const update = {
    ...cm('given', { a: '2' }),
    metadata: { ...cm('given').metadata, resourceVersion: kept.metadata.resourceVersion as string },
  };
  const updated = store.update(configMapType, update, { owned: true });
  assert.deepEqual(updated.data, { a: '2' });
  assert.deepEqual(given.data, { a: '1' }, 'the stored previous version is unchanged');
});
