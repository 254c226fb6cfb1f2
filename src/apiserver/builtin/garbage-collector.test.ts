import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import { ActivityCounter } from '../../lib/activity.js';
import { silentLogger } from '../../lib/log.js';
import { SeededRandom } from '../../lib/random.js';
import type { KubeObject, ResourceType } from '../types.js';
import { MemoryStore } from '../storage/store.js';
import { configMapType, deploymentType, nodeType, podType, secretType } from './kinds.js';
import { GarbageCollector } from './garbage-collector.js';

function setup(): { store: MemoryStore; clock: ManualClock; gc: GarbageCollector; activity: ActivityCounter } {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const store = new MemoryStore({ clock, random: new SeededRandom(7) });
  const activity = new ActivityCounter();
  const gc = new GarbageCollector({ store, clock, logger: silentLogger(), activity });
  gc.start();
  return { store, clock, gc, activity };
}

interface Ref {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  blockOwnerDeletion?: boolean;
  controller?: boolean;
}

function refTo(owner: KubeObject, extra: Partial<Ref> = {}): Ref {
  return {
    apiVersion: owner.apiVersion,
    kind: owner.kind,
    name: owner.metadata.name as string,
    uid: owner.metadata.uid as string,
    ...extra,
  };
}

function obj(
  rt: ResourceType,
  name: string,
  owners: Ref[] = [],
  extra: Record<string, unknown> = {},
  namespace = 'default',
): KubeObject {
  const metadata: Record<string, unknown> = { name, ...extra };
  if (rt.namespaced) metadata.namespace = namespace;
  if (owners.length > 0) metadata.ownerReferences = owners;
  const o = { apiVersion: rt.group ? `${rt.group}/${rt.version}` : rt.version, kind: rt.kind, metadata } as KubeObject;
  if (rt === deploymentType)
    o.spec = {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } },
    };
  return o;
}

function exists(store: MemoryStore, rt: ResourceType, name: string, ns = 'default'): boolean {
  return store.get(rt, ns, name) !== undefined;
}

void test('background: deleting an owner collects dependents across two levels', async () => {
  const { store, gc } = setup();
  const d = store.create(deploymentType, obj(deploymentType, 'web'));
  const a = store.create(configMapType, obj(configMapType, 'a', [refTo(d, { controller: true })]));
  store.create(secretType, obj(secretType, 'b', [refTo(a)]));
  const unrelated = store.create(configMapType, obj(configMapType, 'unrelated'));
  await gc.idle();
  assert.ok(exists(store, configMapType, 'a') && exists(store, secretType, 'b'), 'live owners keep dependents');

  store.delete(deploymentType, 'default', 'web');
  await gc.idle();
  assert.equal(exists(store, configMapType, 'a'), false);
  assert.equal(exists(store, secretType, 'b'), false);
  assert.equal(store.get(configMapType, 'default', 'unrelated')?.metadata.uid, unrelated.metadata.uid);
});

void test('a dependent with another live owner only loses the reference to the deleted one', async () => {
  const { store, gc } = setup();
  const o1 = store.create(configMapType, obj(configMapType, 'o1'));
  const o2 = store.create(configMapType, obj(configMapType, 'o2'));
  store.create(secretType, obj(secretType, 'dep', [refTo(o1), refTo(o2)]));
  store.delete(configMapType, 'default', 'o1');
  await gc.idle();
  const dep = store.get(secretType, 'default', 'dep');
  assert.ok(dep);
  assert.deepEqual(
    (dep.metadata.ownerReferences as unknown as Ref[]).map((r) => r.name),
    ['o2'],
  );
});

void test('foreground: the owner waits for blocking dependents, which are deleted in foreground too', async () => {
  const { store, gc } = setup();
  const d = store.create(deploymentType, obj(deploymentType, 'web'));
  const a = store.create(configMapType, obj(configMapType, 'a', [refTo(d, { blockOwnerDeletion: true })]));
  store.create(
    secretType,
    obj(secretType, 'b', [refTo(a, { blockOwnerDeletion: true })], { finalizers: ['example.com/hold'] }),
  );
  store.create(secretType, obj(secretType, 'loose', [refTo(d)]));
  await gc.idle();

  store.delete(deploymentType, 'default', 'web', { propagationPolicy: 'Foreground' });
  await gc.idle();
  const owner = store.get(deploymentType, 'default', 'web');
  assert.ok(owner, 'owner stays while a blocking dependent remains');
  assert.deepEqual(owner.metadata.finalizers, ['foregroundDeletion']);
  const mid = store.get(configMapType, 'default', 'a');
  assert.ok(mid?.metadata.deletionTimestamp, 'the dependent with dependents is deleted in foreground');
  assert.deepEqual(mid.metadata.finalizers, ['foregroundDeletion']);
  assert.ok(store.get(secretType, 'default', 'b')?.metadata.deletionTimestamp, 'the grandchild is being deleted');
  assert.equal(exists(store, secretType, 'loose'), false, 'non-blocking dependents are deleted without blocking');

  const b = store.get(secretType, 'default', 'b')!;
  store.update(secretType, { ...b, metadata: { ...b.metadata, finalizers: [] } });
  await gc.idle();
  assert.equal(exists(store, secretType, 'b'), false);
  assert.equal(exists(store, configMapType, 'a'), false);
  assert.equal(exists(store, deploymentType, 'web'), false);
});

void test('foreground with no dependents removes the finalizer at once', async () => {
  const { store, gc } = setup();
  store.create(configMapType, obj(configMapType, 'alone'));
  store.delete(configMapType, 'default', 'alone', { propagationPolicy: 'Foreground' });
  await gc.idle();
  assert.equal(exists(store, configMapType, 'alone'), false);
});

void test('orphan: dependents lose the owner reference and stay; the owner goes', async () => {
  const { store, gc } = setup();
  const d = store.create(deploymentType, obj(deploymentType, 'web'));
  const other = store.create(configMapType, obj(configMapType, 'other'));
  const a = store.create(
    configMapType,
    obj(configMapType, 'a', [refTo(d, { controller: true, blockOwnerDeletion: true })]),
  );
  store.create(secretType, obj(secretType, 'b', [refTo(a)]));
  store.create(secretType, obj(secretType, 'both', [refTo(d), refTo(other)]));
  await gc.idle();

  store.delete(deploymentType, 'default', 'web', { propagationPolicy: 'Orphan' });
  await gc.idle();
  assert.equal(exists(store, deploymentType, 'web'), false);
  const orphan = store.get(configMapType, 'default', 'a');
  assert.ok(orphan);
  assert.equal(orphan.metadata.ownerReferences, undefined);
  assert.ok(exists(store, secretType, 'b'), 'grandchildren keep their (live) owner');
  assert.deepEqual(
    (store.get(secretType, 'default', 'both')!.metadata.ownerReferences as unknown as Ref[]).map((r) => r.name),
    ['other'],
  );
});

void test('dangling references: unknown uid, or a name whose uid differs, are collected', async () => {
  const { store, gc } = setup();
  const real = store.create(configMapType, obj(configMapType, 'real'));
  store.create(
    secretType,
    obj(secretType, 'ghost-owner', [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'never', uid: '00000000-0000-4000-8000-000000000000' },
    ]),
  );
  store.create(
    secretType,
    obj(secretType, 'uid-mismatch', [{ ...refTo(real), uid: '11111111-1111-4111-8111-111111111111' }]),
  );
  store.create(secretType, obj(secretType, 'fine', [refTo(real)]));
  await gc.idle();
  assert.equal(exists(store, secretType, 'ghost-owner'), false);
  assert.equal(exists(store, secretType, 'uid-mismatch'), false);
  assert.ok(exists(store, secretType, 'fine'));
});

void test('a namespaced owner only owns dependents in its own namespace', async () => {
  const { store, gc } = setup();
  const owner = store.create(configMapType, obj(configMapType, 'owner', [], {}, 'ns-a'));
  store.create(secretType, obj(secretType, 'same-ns', [refTo(owner)], {}, 'ns-a'));
  store.create(secretType, obj(secretType, 'other-ns', [refTo(owner)], {}, 'ns-b'));
  await gc.idle();
  assert.ok(exists(store, secretType, 'same-ns', 'ns-a'));
  assert.equal(exists(store, secretType, 'other-ns', 'ns-b'), false);
});

void test('namespaced dependents of a cluster-scoped owner are collected with it', async () => {
  const { store, gc } = setup();
  const node = store.create(nodeType, obj(nodeType, 'worker-1'));
  store.create(podType, obj(podType, 'mirror', [refTo(node, { controller: true })], {}, 'kube-system'));
  store.create(configMapType, obj(configMapType, 'cm', [refTo(node)], {}, 'other'));
  await gc.idle();
  assert.ok(exists(store, podType, 'mirror', 'kube-system'));
  store.delete(nodeType, '', 'worker-1');
  await gc.idle();
  assert.equal(exists(store, podType, 'mirror', 'kube-system'), false);
  assert.equal(exists(store, configMapType, 'cm', 'other'), false);
});

void test('references to kinds that are not served are left alone', async () => {
  const { store, gc } = setup();
  store.create(
    secretType,
    obj(secretType, 'keep', [
      { apiVersion: 'example.com/v1', kind: 'Widget', name: 'w', uid: '22222222-2222-4222-8222-222222222222' },
    ]),
  );
  await gc.idle();
  assert.ok(exists(store, secretType, 'keep'));
});

void test('start() collects what was already dangling and finishes pending propagation', async () => {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const store = new MemoryStore({ clock, random: new SeededRandom(3) });
  const owner = store.create(configMapType, obj(configMapType, 'owner'));
  store.create(secretType, obj(secretType, 'dep', [refTo(owner)]));
  store.create(
    secretType,
    obj(secretType, 'stale', [
      { apiVersion: 'v1', kind: 'ConfigMap', name: 'gone', uid: '33333333-3333-4333-8333-333333333333' },
    ]),
  );
  store.delete(configMapType, 'default', 'owner', { propagationPolicy: 'Orphan' });
  assert.ok(exists(store, configMapType, 'owner'), 'waits for the orphan finalizer');
  const gc = new GarbageCollector({ store, clock, logger: silentLogger() });
  gc.start();
  await gc.idle();
  assert.equal(exists(store, configMapType, 'owner'), false);
  assert.equal(store.get(secretType, 'default', 'dep')?.metadata.ownerReferences, undefined);
  assert.equal(exists(store, secretType, 'stale'), false);
  gc.stop();
});

void test('work is reported to the activity tracker and stop() ends reactions', async () => {
  const { store, gc, activity } = setup();
  const owner = store.create(configMapType, obj(configMapType, 'owner'));
  store.create(secretType, obj(secretType, 'dep', [refTo(owner)]));
  assert.equal(activity.busy, 1, 'queued work counts as activity');
  await gc.idle();
  assert.equal(activity.busy, 0);
  gc.stop();
  store.delete(configMapType, 'default', 'owner');
  await gc.idle();
  assert.ok(exists(store, secretType, 'dep'), 'a stopped collector does nothing');
});

void test('a stopped collector can be started again and catches up', async () => {
  const { store, gc } = setup();
  gc.stop();
  const owner = store.create(configMapType, obj(configMapType, 'owner'));
  store.create(secretType, obj(secretType, 'dep', [refTo(owner)]));
  store.delete(configMapType, 'default', 'owner');
  await gc.idle();
  assert.ok(exists(store, secretType, 'dep'));
  gc.start();
  await gc.idle();
  assert.equal(exists(store, secretType, 'dep'), false);
  gc.stop();
});
