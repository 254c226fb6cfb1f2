import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { SeededRandom } from '../../lib/random.js';
import type { JsonObject } from '../../lib/json.js';
import type { KubeObject } from '../types.js';
import { MemoryStore } from '../storage/store.js';
import { daemonSetType, deploymentType, pdbType, podType } from './kinds.js';
import { DisruptionController, labelSelectorMatcher, scaledValue } from './disruption.js';

interface Fixture {
  store: MemoryStore;
  clock: ManualClock;
  dc: DisruptionController;
}

function setup(): Fixture {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const store = new MemoryStore({ clock, random: new SeededRandom(21) });
  const dc = new DisruptionController({ store, clock, logger: silentLogger() });
  dc.start();
  return { store, clock, dc };
}

function deployment(store: MemoryStore, name: string, replicas: number): KubeObject {
  return store.create(deploymentType, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } },
    },
  });
}

function pod(
  store: MemoryStore,
  name: string,
  opts: { labels?: Record<string, string>; owner?: KubeObject; ready?: boolean; phase?: string } = {},
): KubeObject {
  const metadata: JsonObject = { name, namespace: 'default', labels: opts.labels ?? { app: 'web' } };
  if (opts.owner) {
    metadata.ownerReferences = [
      {
        apiVersion: opts.owner.apiVersion,
        kind: opts.owner.kind,
        name: opts.owner.metadata.name as string,
        uid: opts.owner.metadata.uid as string,
        controller: true,
        blockOwnerDeletion: true,
      },
    ];
  }
  const created = store.create(podType, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata,
    spec: { containers: [{ name: 'c', image: 'i:1' }] },
  });
  return setReady(store, created, opts.ready ?? true, opts.phase ?? 'Running');
}

function setReady(store: MemoryStore, p: KubeObject, ready: boolean, phase = 'Running'): KubeObject {
  const cur = store.get(podType, 'default', p.metadata.name as string)!;
  return store.update(
    podType,
    { ...cur, status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] } },
    { subresource: 'status' },
  );
}

function pdb(store: MemoryStore, name: string, spec: JsonObject): KubeObject {
  return store.create(pdbType, {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, namespace: 'default' },
    spec,
  });
}

function status(store: MemoryStore, name: string): JsonObject {
  return store.get(pdbType, 'default', name)!.status as JsonObject;
}

function summary(store: MemoryStore, name: string): Record<string, unknown> {
  const s = status(store, name);
  const cond = (s.conditions as JsonObject[] | undefined)?.find((c) => c.type === 'DisruptionAllowed');
  return {
    currentHealthy: s.currentHealthy,
    desiredHealthy: s.desiredHealthy,
    expectedPods: s.expectedPods,
    disruptionsAllowed: s.disruptionsAllowed,
    reason: cond?.reason,
  };
}

void test('minAvailable as a number: expected pods are the selected pods', async () => {
  const { store, dc } = setup();
  for (const n of ['a', 'b', 'c']) pod(store, n);
  pod(store, 'other', { labels: { app: 'db' } });
  pdb(store, 'web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
  await dc.idle();
  const s = status(store, 'web');
  assert.deepEqual(s, {
    observedGeneration: 1,
    disruptionsAllowed: 1,
    currentHealthy: 3,
    desiredHealthy: 2,
    expectedPods: 3,
    conditions: [
      {
        type: 'DisruptionAllowed',
        status: 'True',
        observedGeneration: 1,
        lastTransitionTime: '2026-01-01T00:00:00Z',
        reason: 'SufficientPods',
        message: '',
      },
    ],
  });
});

void test('minAvailable percentage rounds up against the controller scale', async () => {
  const { store, dc } = setup();
  const d = deployment(store, 'web', 3);
  pod(store, 'a', { owner: d });
  pod(store, 'b', { owner: d });
  pdb(store, 'web', { minAvailable: '50%', selector: { matchLabels: { app: 'web' } } });
  await dc.idle();
  assert.deepEqual(summary(store, 'web'), {
    currentHealthy: 2,
    desiredHealthy: 2,
    expectedPods: 3,
    disruptionsAllowed: 0,
    reason: 'InsufficientPods',
  });

  // Scaling the Deployment down re-evaluates the budget.
  const cur = store.get(deploymentType, 'default', 'web')!;
  store.update(deploymentType, { ...cur, spec: { ...(cur.spec as JsonObject), replicas: 1 } });
  await dc.idle();
  assert.deepEqual(summary(store, 'web'), {
    currentHealthy: 2,
    desiredHealthy: 1,
    expectedPods: 1,
    disruptionsAllowed: 1,
    reason: 'SufficientPods',
  });
});

void test('maxUnavailable as a number and as a percentage (rounded up)', async () => {
  const { store, dc } = setup();
  const d = deployment(store, 'web', 3);
  for (const n of ['a', 'b', 'c']) pod(store, n, { owner: d });
  pdb(store, 'one', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
  pdb(store, 'pct', { maxUnavailable: '34%', selector: { matchLabels: { app: 'web' } } });
  await dc.idle();
  assert.deepEqual(summary(store, 'one'), {
    currentHealthy: 3,
    desiredHealthy: 2,
    expectedPods: 3,
    disruptionsAllowed: 1,
    reason: 'SufficientPods',
  });
  assert.deepEqual(summary(store, 'pct'), {
    currentHealthy: 3,
    desiredHealthy: 1,
    expectedPods: 3,
    disruptionsAllowed: 2,
    reason: 'SufficientPods',
  });
});

void test('unready and terminating pods are not healthy; the condition flips with a new transition time', async () => {
  const { store, clock, dc } = setup();
  const d = deployment(store, 'web', 3);
  const pods = ['a', 'b', 'c'].map((n) => pod(store, n, { owner: d }));
  pdb(store, 'web', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
  await dc.idle();
  assert.equal(summary(store, 'web').disruptionsAllowed, 1);

  await clock.advance(60_000);
  setReady(store, pods[0]!, false);
  await dc.idle();
  assert.deepEqual(summary(store, 'web'), {
    currentHealthy: 2,
    desiredHealthy: 2,
    expectedPods: 3,
    disruptionsAllowed: 0,
    reason: 'InsufficientPods',
  });
  const cond = (status(store, 'web').conditions as JsonObject[])[0]!;
  assert.equal(cond.lastTransitionTime, '2026-01-01T00:01:00Z');
  assert.equal(cond.status, 'False');

  // A terminating pod (finalizer keeps it) is not counted either.
  setReady(store, pods[0]!, true);
  const b = store.get(podType, 'default', 'b')!;
  store.update(podType, { ...b, metadata: { ...b.metadata, finalizers: ['example.com/hold'] } });
  store.delete(podType, 'default', 'b');
  await dc.idle();
  assert.equal(summary(store, 'web').currentHealthy, 2);
});

void test('selectors: empty matches every pod in the namespace, missing matches none, invalid fails safe', async () => {
  const { store, dc } = setup();
  pod(store, 'a', { labels: { app: 'web' } });
  pod(store, 'b', { labels: { app: 'db' } });
  pdb(store, 'all', { minAvailable: 1, selector: {} });
  pdb(store, 'none', { minAvailable: 1 });
  pdb(store, 'bad', { minAvailable: 1, selector: { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] } });
  await dc.idle();
  assert.deepEqual(summary(store, 'all'), {
    currentHealthy: 2,
    desiredHealthy: 1,
    expectedPods: 2,
    disruptionsAllowed: 1,
    reason: 'SufficientPods',
  });
  assert.deepEqual(summary(store, 'none'), {
    currentHealthy: 0,
    desiredHealthy: 1,
    expectedPods: 0,
    disruptionsAllowed: 0,
    reason: 'InsufficientPods',
  });
  const bad = status(store, 'bad');
  assert.equal(bad.disruptionsAllowed, 0);
  assert.deepEqual((bad.conditions as JsonObject[])[0], {
    type: 'DisruptionAllowed',
    status: 'False',
    lastTransitionTime: '2026-01-01T00:00:00Z',
    reason: 'SyncFailed',
    message: "for 'in', 'notin' operators, values set can't be empty",
  });
});

void test('percentages ignore unmanaged pods; controllers without a scale count their pods', async () => {
  const { store, dc } = setup();
  pod(store, 'bare');
  const ds = store.create(daemonSetType, {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'agent', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } },
    },
  });
  pod(store, 'agent-1', { labels: { app: 'agent' }, owner: ds });
  pod(store, 'agent-2', { labels: { app: 'agent' }, owner: ds });
  pdb(store, 'bare', { maxUnavailable: '50%', selector: { matchLabels: { app: 'web' } } });
  pdb(store, 'agents', { maxUnavailable: 1, selector: { matchLabels: { app: 'agent' } } });
  await dc.idle();
  assert.deepEqual(summary(store, 'bare'), {
    currentHealthy: 1,
    desiredHealthy: 0,
    expectedPods: 0,
    disruptionsAllowed: 0,
    reason: 'InsufficientPods',
  });
  assert.deepEqual(summary(store, 'agents'), {
    currentHealthy: 2,
    desiredHealthy: 1,
    expectedPods: 2,
    disruptionsAllowed: 1,
    reason: 'SufficientPods',
  });
});

void test('disruptedPods entries keep a pod out of the healthy count until they expire after 2 minutes', async () => {
  const { store, clock, dc } = setup();
  for (const n of ['a', 'b', 'c']) pod(store, n);
  pdb(store, 'web', { minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
  await dc.idle();
  assert.equal(summary(store, 'web').disruptionsAllowed, 2);

  // What an eviction records; pod "gone" no longer exists, so its entry is dropped.
  const cur = store.get(pdbType, 'default', 'web')!;
  store.update(
    pdbType,
    {
      ...cur,
      status: {
        ...(cur.status as JsonObject),
        disruptionsAllowed: 1,
        disruptedPods: { a: '2026-01-01T00:00:00Z', gone: '2026-01-01T00:00:00Z' },
      },
    },
    { subresource: 'status' },
  );
  await dc.idle();
  let s = status(store, 'web');
  assert.deepEqual(s.disruptedPods, { a: '2026-01-01T00:00:00Z' });
  assert.equal(s.currentHealthy, 2);
  assert.equal(s.disruptionsAllowed, 1);

  await clock.advance(119_000);
  await dc.idle();
  assert.deepEqual(status(store, 'web').disruptedPods, { a: '2026-01-01T00:00:00Z' }, 'still waiting for the deletion');
  await clock.advance(2_000);
  await dc.idle();
  s = status(store, 'web');
  assert.equal(s.disruptedPods, undefined, 'expired entry removed');
  assert.equal(s.currentHealthy, 3);
  assert.equal(s.disruptionsAllowed, 2);
  dc.stop();
});

void test('observedGeneration follows spec changes', async () => {
  const { store, dc } = setup();
  pod(store, 'a');
  pdb(store, 'web', { minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
  await dc.idle();
  const cur = store.get(pdbType, 'default', 'web')!;
  store.update(pdbType, { ...cur, spec: { minAvailable: 0, selector: { matchLabels: { app: 'web' } } } });
  await dc.idle();
  const s = status(store, 'web');
  assert.equal(store.get(pdbType, 'default', 'web')!.metadata.generation, 2);
  assert.equal(s.observedGeneration, 2);
  assert.equal(s.disruptionsAllowed, 1);
  assert.equal((s.conditions as JsonObject[])[0]!.observedGeneration, 2);
});

void test('helpers: scaled values and selector operators', () => {
  assert.equal(scaledValue('10%', 5, true), 1);
  assert.equal(scaledValue('10%', 5, false), 0);
  assert.equal(scaledValue(3, 5, true), 3);
  assert.throws(() => scaledValue('3', 5, true), /string is not a percentage/);
  const m = labelSelectorMatcher({
    matchLabels: { app: 'web' },
    matchExpressions: [
      { key: 'tier', operator: 'NotIn', values: ['db'] },
      { key: 'zone', operator: 'Exists' },
      { key: 'legacy', operator: 'DoesNotExist' },
    ],
  });
  assert.equal(m({ app: 'web', zone: 'a' }), true);
  assert.equal(m({ app: 'web', zone: 'a', tier: 'db' }), false);
  assert.equal(m({ app: 'web', zone: 'a', legacy: '' }), false);
  assert.equal(m({ app: 'web' }), false);
  assert.equal(labelSelectorMatcher(undefined)({}), false);
  assert.equal(labelSelectorMatcher({})({ any: 'thing' }), true);
});
