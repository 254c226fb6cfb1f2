import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import { ActivityCounter } from '../../lib/activity.js';
import { silentLogger } from '../../lib/log.js';
import { SeededRandom } from '../../lib/random.js';
import { ApiError } from '../status.js';
import type { KubeObject } from '../types.js';
import { MemoryStore } from '../storage/store.js';
import { configMapType, namespaceType, nodeType, podType, secretType } from './kinds.js';
import { GarbageCollector } from './garbage-collector.js';
import { admitNamespace, mergeNamespaceConditions, NamespaceController } from './namespace-lifecycle.js';

function setup(): { store: MemoryStore; clock: ManualClock; nc: NamespaceController } {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const store = new MemoryStore({ clock, random: new SeededRandom(11) });
  const nc = new NamespaceController({ store, clock, logger: silentLogger() });
  nc.start();
  return { store, clock, nc };
}

function ns(name: string, finalizers?: string[]): KubeObject {
  return { apiVersion: 'v1', kind: 'Namespace', metadata: { name }, ...(finalizers ? { spec: { finalizers } } : {}) };
}

function item(kind: 'ConfigMap' | 'Secret', name: string, namespace: string, finalizers?: string[]): KubeObject {
  return { apiVersion: 'v1', kind, metadata: { name, namespace, ...(finalizers ? { finalizers } : {}) } };
}

function conditions(
  store: MemoryStore,
  name: string,
): Record<string, { status: string; reason: string; message: string; lastTransitionTime: string }> {
  const o = store.get(namespaceType, '', name);
  const list =
    (
      o?.status as {
        conditions?: Array<{
          type: string;
          status: string;
          reason: string;
          message: string;
          lastTransitionTime: string;
        }>;
      }
    ).conditions ?? [];
  return Object.fromEntries(
    list.map((c) => [
      c.type,
      { status: c.status, reason: c.reason, message: c.message, lastTransitionTime: c.lastTransitionTime },
    ]),
  );
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

void test('deleting a namespace deletes its content, reports what remains, and finalizes once empty', async () => {
  const { store, clock, nc } = setup();
  store.create(namespaceType, ns('app'));
  store.create(configMapType, item('ConfigMap', 'c1', 'app'));
  store.create(configMapType, item('ConfigMap', 'c2', 'app'));
  store.create(secretType, item('Secret', 's1', 'app', ['example.com/hold']));
  store.create(secretType, item('Secret', 's2', 'app', ['example.com/hold', 'example.com/other']));
  store.create(configMapType, item('ConfigMap', 'elsewhere', 'default'));
  await nc.idle();

  store.delete(namespaceType, '', 'app');
  await nc.idle();
  const terminating = store.get(namespaceType, '', 'app');
  assert.ok(terminating);
  assert.equal((terminating.status as { phase: string }).phase, 'Terminating');
  assert.deepEqual(store.list(configMapType, 'app'), []);
  assert.equal(store.list(secretType, 'app').length, 2, 'objects with finalizers stay, marked for deletion');
  assert.ok(store.list(secretType, 'app').every((s) => s.metadata.deletionTimestamp !== undefined));
  assert.ok(store.get(configMapType, 'default', 'elsewhere'), 'other namespaces are untouched');
  const t0 = '2026-01-01T00:00:00Z';
  assert.deepEqual(conditions(store, 'app'), {
    NamespaceDeletionDiscoveryFailure: {
      status: 'False',
      reason: 'ResourcesDiscovered',
      message: 'All resources successfully discovered',
      lastTransitionTime: t0,
    },
    NamespaceDeletionGroupVersionParsingFailure: {
      status: 'False',
      reason: 'ParsedGroupVersions',
      message: 'All legacy kube types successfully parsed',
      lastTransitionTime: t0,
    },
    NamespaceDeletionContentFailure: {
      status: 'False',
      reason: 'ContentDeleted',
      message: 'All content successfully deleted, may be waiting on finalization',
      lastTransitionTime: t0,
    },
    NamespaceContentRemaining: {
      status: 'True',
      reason: 'SomeResourcesRemain',
      message: 'Some resources are remaining: secrets. has 2 resource instances',
      lastTransitionTime: t0,
    },
    NamespaceFinalizersRemaining: {
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message:
        'Some content in the namespace has finalizers remaining: example.com/hold in 2 resource instances, example.com/other in 1 resource instances',
      lastTransitionTime: t0,
    },
  });
  assert.deepEqual((terminating.spec as { finalizers: string[] }).finalizers, ['kubernetes']);

  await clock.advance(5000);
  const s1 = store.get(secretType, 'app', 's1')!;
  store.update(secretType, { ...s1, metadata: { ...s1.metadata, finalizers: [] } });
  await nc.idle();
  const c = conditions(store, 'app');
  assert.equal(c.NamespaceContentRemaining?.message, 'Some resources are remaining: secrets. has 1 resource instances');
  assert.equal(c.NamespaceContentRemaining?.lastTransitionTime, t0, 'no status flip, no new transition time');

  const s2 = store.get(secretType, 'app', 's2')!;
  store.update(secretType, { ...s2, metadata: { ...s2.metadata, finalizers: [] } });
  await nc.idle();
  assert.equal(store.get(namespaceType, '', 'app'), undefined, 'finalized and removed');
  nc.stop();
});

void test('other spec finalizers stay: only "kubernetes" is removed', async () => {
  const { store, nc } = setup();
  store.create(namespaceType, ns('keep', ['kubernetes', 'example.com/ns']));
  store.create(configMapType, item('ConfigMap', 'c', 'keep'));
  store.delete(namespaceType, '', 'keep');
  await nc.idle();
  const o = store.get(namespaceType, '', 'keep');
  assert.ok(o);
  assert.deepEqual((o.spec as { finalizers: string[] }).finalizers, ['example.com/ns']);
  assert.deepEqual(store.list(configMapType, 'keep'), []);
  const c = conditions(store, 'keep');
  assert.equal(c.NamespaceContentRemaining?.status, 'False');
  assert.equal(c.NamespaceContentRemaining?.reason, 'ContentRemoved');
  assert.equal(c.NamespaceFinalizersRemaining?.reason, 'ContentHasNoFinalizers');
  assert.equal(c.NamespaceFinalizersRemaining?.message, 'All content-preserving finalizers finished');
});

void test('running pods are waited for through their grace period', async () => {
  const { store, clock, nc } = setup();
  store.create(nodeType, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
  store.create(namespaceType, ns('work'));
  const pod = store.create(podType, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'p', namespace: 'work' },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'i:1' }] },
  });
  store.update(podType, { ...pod, status: { phase: 'Running' } }, { subresource: 'status' });
  store.delete(namespaceType, '', 'work');
  await nc.idle();
  assert.ok(store.get(podType, 'work', 'p')?.metadata.deletionTimestamp, 'pod is terminating');
  assert.ok(store.get(namespaceType, '', 'work'), 'namespace waits for the pod');
  assert.equal(
    conditions(store, 'work').NamespaceContentRemaining?.message,
    'Some resources are remaining: pods. has 1 resource instances',
  );
  await clock.advance(30_000);
  await nc.idle();
  assert.equal(store.get(podType, 'work', 'p'), undefined);
  assert.equal(store.get(namespaceType, '', 'work'), undefined);
});

void test('start() picks up namespaces already terminating', async () => {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const store = new MemoryStore({ clock, random: new SeededRandom(5) });
  store.create(namespaceType, ns('old'));
  store.create(configMapType, item('ConfigMap', 'c', 'old'));
  store.delete(namespaceType, '', 'old');
  const nc = new NamespaceController({ store, clock, logger: silentLogger() });
  nc.start();
  await nc.idle();
  assert.equal(store.get(namespaceType, '', 'old'), undefined);
  nc.stop();
});

void test('mergeNamespaceConditions moves lastTransitionTime only when the status flips', () => {
  const t0 = Date.UTC(2026, 0, 1);
  const first = mergeNamespaceConditions(
    [],
    [{ type: 'NamespaceContentRemaining', reason: 'SomeResourcesRemain', message: 'x' }],
    t0,
  );
  assert.ok(first);
  assert.equal(first.length, 5);
  assert.equal(
    mergeNamespaceConditions(
      first,
      [{ type: 'NamespaceContentRemaining', reason: 'SomeResourcesRemain', message: 'x' }],
      t0 + 1000,
    ),
    undefined,
  );
  const flipped = mergeNamespaceConditions(first, [], t0 + 60_000);
  assert.ok(flipped);
  const remaining = flipped.find((c) => c.type === 'NamespaceContentRemaining');
  assert.deepEqual(remaining, {
    type: 'NamespaceContentRemaining',
    status: 'False',
    lastTransitionTime: '2026-01-01T00:01:00Z',
    reason: 'ContentRemoved',
    message: 'All content successfully removed',
  });
  assert.equal(
    flipped.find((c) => c.type === 'NamespaceDeletionDiscoveryFailure')?.lastTransitionTime,
    '2026-01-01T00:00:00Z',
  );
});

void test('admitNamespace: 404 for a missing namespace, 403 while terminating, nothing otherwise', () => {
  const { store } = setup();
  store.create(namespaceType, ns('live'));
  store.create(namespaceType, ns('dying'));
  store.delete(namespaceType, '', 'dying');

  admitNamespace(store, configMapType, 'live', item('ConfigMap', 'x', 'live'));
  admitNamespace(store, nodeType, '', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' } });

  const missing = apiError(() => admitNamespace(store, configMapType, 'nope', item('ConfigMap', 'x', 'nope')));
  assert.deepEqual(missing.toStatus(), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'namespaces "nope" not found',
    reason: 'NotFound',
    details: { name: 'nope', group: '', kind: 'namespaces' },
    code: 404,
  });

  const forbidden = apiError(() =>
    admitNamespace(store, podType, 'dying', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-1', namespace: 'dying' },
    }),
  );
  assert.deepEqual(forbidden.toStatus(), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message:
      'pods "web-1" is forbidden: unable to create new content in namespace dying because it is being terminated',
    reason: 'Forbidden',
    details: {
      name: 'web-1',
      group: '',
      kind: 'pods',
      causes: [
        { reason: 'NamespaceTerminating', message: 'namespace dying is being terminated', field: 'metadata.namespace' },
      ],
    },
    code: 403,
  });
  const generated = apiError(() =>
    admitNamespace(store, configMapType, 'dying', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { generateName: 'cfg-' },
    }),
  );
  assert.equal(
    generated.message,
    'configmaps "cfg-" is forbidden: unable to create new content in namespace dying because it is being terminated',
  );
});

void test('with the garbage collector: owners held in foreground deletion are waited for, then everything goes', async () => {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const store = new MemoryStore({ clock, random: new SeededRandom(13) });
  const activity = new ActivityCounter();
  const nc = new NamespaceController({ store, clock, logger: silentLogger(), activity });
  const gc = new GarbageCollector({ store, clock, logger: silentLogger(), activity });
  nc.start();
  gc.start();
  store.create(namespaceType, ns('team'));
  const owner = store.create(configMapType, item('ConfigMap', 'owner', 'team'));
  const ref = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: 'owner',
    uid: owner.metadata.uid as string,
    blockOwnerDeletion: true,
  };
  store.create(secretType, {
    ...item('Secret', 'child', 'team', ['example.com/hold']),
    metadata: { name: 'child', namespace: 'team', finalizers: ['example.com/hold'], ownerReferences: [ref] },
  });
  store.delete(configMapType, 'team', 'owner', { propagationPolicy: 'Foreground' });
  store.delete(namespaceType, '', 'team');
  await activity.idle();
  assert.ok(store.get(namespaceType, '', 'team'));
  assert.equal(
    conditions(store, 'team').NamespaceFinalizersRemaining?.message,
    'Some content in the namespace has finalizers remaining: example.com/hold in 1 resource instances, foregroundDeletion in 1 resource instances',
  );
  const child = store.get(secretType, 'team', 'child')!;
  store.update(secretType, { ...child, metadata: { ...child.metadata, finalizers: [] } });
  await activity.idle();
  assert.equal(store.get(configMapType, 'team', 'owner'), undefined);
  assert.equal(store.get(namespaceType, '', 'team'), undefined);
  assert.equal(activity.busy, 0);
  nc.stop();
  gc.stop();
});
