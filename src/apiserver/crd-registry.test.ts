import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock, flushMicrotasks } from '../lib/clock.js';
import { silentLogger } from '../lib/log.js';
import { crdType } from './builtin/kinds.js';
import { CrdRegistry } from './crd-registry.js';
import { MemoryStore } from './storage/store.js';
import type { KubeObject } from './types.js';

function crd(name: string, plural: string, kind: string, extra: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name },
    spec: {
      group: 'example.com',
      scope: 'Cluster',
      names: { plural, kind, shortNames: ['x'] },
      versions: [
        { name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: { status: {}, scale: { specReplicasPath: '.spec.n', statusReplicasPath: '.status.n' } },
          schema: { openAPIV3Schema: { type: 'object' } },
        },
      ],
      ...extra,
    },
  };
}

function conditions(o: KubeObject | undefined): Record<string, string> {
  const conds = (o?.status as { conditions?: Array<{ type: string; status: string }> } | undefined)?.conditions ?? [];
  return Object.fromEntries(conds.map((c) => [c.type, c.status]));
}

void test('a CRD registers its type at once and gets Established status', async () => {
  const clock = new ManualClock();
  const store = new MemoryStore({ clock });
  const registry = new CrdRegistry({ store, clock, logger: silentLogger() });
  registry.start();
  store.create(crdType, crd('gizmos.example.com', 'gizmos', 'Gizmo'));
  const rt = store.resourceType('example.com', 'gizmos');
  assert.ok(rt);
  assert.equal(rt.version, 'v1');
  assert.deepEqual(rt.versions, ['v1', 'v1beta1']);
  assert.equal(rt.namespaced, false);
  assert.deepEqual(rt.subresources.sort(), ['scale', 'status']);
  assert.equal(rt.listKind, 'GizmoList');
  await flushMicrotasks();
  const stored = store.get(crdType, '', 'gizmos.example.com');
  assert.deepEqual(conditions(stored), { NamesAccepted: 'True', Established: 'True' });
  assert.deepEqual((stored?.status as { storedVersions: string[] }).storedVersions, ['v1']);
  assert.deepEqual(stored?.metadata.finalizers, ['customresourcecleanup.apiextensions.k8s.io']);

  store.create(rt, { apiVersion: 'example.com/v1', kind: 'Gizmo', metadata: { name: 'g1' } });
  store.delete(crdType, '', 'gizmos.example.com');
  await flushMicrotasks();
  await flushMicrotasks();
  assert.equal(store.get(crdType, '', 'gizmos.example.com'), undefined);
  assert.equal(store.resourceType('example.com', 'gizmos'), undefined);
  registry.stop();
});

void test('a CRD whose kind is taken is not served and says why', async () => {
  const clock = new ManualClock();
  const store = new MemoryStore({ clock });
  const registry = new CrdRegistry({ store, clock, logger: silentLogger() });
  registry.start();
  store.create(crdType, crd('gizmos.example.com', 'gizmos', 'Gizmo'));
  await flushMicrotasks();
  store.create(crdType, crd('others.example.com', 'others', 'Gizmo'));
  await flushMicrotasks();
  assert.equal(store.resourceType('example.com', 'others'), undefined);
  const other = store.get(crdType, '', 'others.example.com');
  assert.deepEqual(conditions(other), { NamesAccepted: 'False', Established: 'False' });
  registry.stop();
});

function condition(o: KubeObject | undefined, type: string): Record<string, unknown> | undefined {
  const conds = (o?.status as { conditions?: Array<Record<string, unknown>> } | undefined)?.conditions ?? [];
  const c = conds.find((x) => x.type === type);
  if (!c) return undefined;
  const { lastTransitionTime: _t, ...rest } = c;
  return rest;
}

void test('a short name taken in the group: NamesAccepted=False ShortNamesConflict, not served', async () => {
  const clock = new ManualClock();
  const store = new MemoryStore({ clock });
  const registry = new CrdRegistry({ store, clock, logger: silentLogger() });
  registry.start();
  store.create(crdType, crd('gizmos.example.com', 'gizmos', 'Gizmo'));
  await flushMicrotasks();
  store.create(crdType, crd('others.example.com', 'others', 'Other'));
  await flushMicrotasks();
  const other = store.get(crdType, '', 'others.example.com');
  assert.deepEqual(condition(other, 'NamesAccepted'), {
    type: 'NamesAccepted',
    status: 'False',
    reason: 'ShortNamesConflict',
    message: '"x" is already in use',
  });
  assert.deepEqual(condition(other, 'Established'), {
    type: 'Established',
    status: 'False',
    reason: 'NotAccepted',
    message: 'not all names are accepted',
  });
  assert.equal(store.resourceType('example.com', 'others'), undefined);
  assert.deepEqual((other?.status as { acceptedNames: unknown }).acceptedNames, {
    plural: 'others',
    singular: 'other',
    kind: 'Other',
    listKind: 'OtherList',
  });
  registry.stop();
});

void test('an established CRD asking for a taken short name stays served under its accepted names', async () => {
  const clock = new ManualClock();
  const store = new MemoryStore({ clock });
  const registry = new CrdRegistry({ store, clock, logger: silentLogger() });
  registry.start();
  store.create(crdType, crd('gizmos.example.com', 'gizmos', 'Gizmo'));
  const widgets = crd('widgets.example.com', 'widgets', 'Widget');
  (widgets.spec as { names: { shortNames: string[] } }).names.shortNames = ['wd'];
  store.create(crdType, widgets);
  await flushMicrotasks();
  const live = store.get(crdType, '', 'widgets.example.com')!;
  const next = structuredClone(live);
  (next.spec as { names: { shortNames: string[] } }).names.shortNames = ['wd', 'x'];
  store.update(crdType, next);
  await flushMicrotasks();
  const after = store.get(crdType, '', 'widgets.example.com');
  assert.equal(condition(after, 'NamesAccepted')?.reason, 'ShortNamesConflict');
  assert.equal(condition(after, 'Established')?.status, 'True');
  assert.deepEqual(store.resourceType('example.com', 'widgets')?.shortNames, ['wd']);
  registry.stop();
});

void test('two CRDs asking for one kind in the same tick: only the first is served', async () => {
  const clock = new ManualClock();
  const store = new MemoryStore({ clock });
  const registry = new CrdRegistry({ store, clock, logger: silentLogger() });
  registry.start();
  const first = crd('firsts.example.com', 'firsts', 'Same');
  const second = crd('seconds.example.com', 'seconds', 'Same');
  (second.spec as { names: { shortNames: string[] } }).names.shortNames = ['y'];
  store.create(crdType, first);
  store.create(crdType, second);
  await flushMicrotasks();
  assert.ok(store.resourceType('example.com', 'firsts'));
  assert.equal(store.resourceType('example.com', 'seconds'), undefined);
  // Kind and listKind both clash; as in kube, the last check (listKind) words the condition.
  assert.deepEqual(condition(store.get(crdType, '', 'seconds.example.com'), 'NamesAccepted'), {
    type: 'NamesAccepted',
    status: 'False',
    reason: 'ListKindConflict',
    message: '"SameList" is already in use',
  });
  assert.equal(condition(store.get(crdType, '', 'firsts.example.com'), 'NamesAccepted')?.status, 'True');
  registry.stop();
});
