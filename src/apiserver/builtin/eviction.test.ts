import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import { silentLogger } from '../../lib/log.js';
import { SeededRandom } from '../../lib/random.js';
import type { JsonObject } from '../../lib/json.js';
import { ApiError } from '../status.js';
import type { KubeObject } from '../types.js';
import { MemoryStore } from '../storage/store.js';
import { pdbType, podType } from './kinds.js';
import { DisruptionController } from './disruption.js';
import { evictPod } from './eviction.js';

interface Fixture {
  store: MemoryStore;
  clock: ManualClock;
  dc: DisruptionController;
}

function setup(): Fixture {
  const clock = new ManualClock('2026-01-01T00:00:00Z');
  const store = new MemoryStore({ clock, random: new SeededRandom(31) });
  const dc = new DisruptionController({ store, clock, logger: silentLogger() });
  dc.start();
  return { store, clock, dc };
}

function pod(
  store: MemoryStore,
  name: string,
  opts: { labels?: Record<string, string>; ready?: boolean; phase?: string } = {},
): KubeObject {
  const created = store.create(podType, {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: opts.labels ?? { app: 'web' } },
    spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'i:1' }] },
  });
  return store.update(
    podType,
    {
      ...created,
      status: {
        phase: opts.phase ?? 'Running',
        conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }],
      },
    },
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

function eviction(name: string, deleteOptions?: JsonObject, apiVersion = 'policy/v1'): JsonObject {
  return {
    apiVersion,
    kind: 'Eviction',
    metadata: { name, namespace: 'default' },
    ...(deleteOptions ? { deleteOptions } : {}),
  };
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

const SUCCESS = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 };

function pdbStatus(store: MemoryStore, name: string): JsonObject {
  return store.get(pdbType, 'default', name)!.status as JsonObject;
}

void test('an allowed eviction spends the budget, records the pod and deletes it with a DisruptionTarget condition', async () => {
  const { store, clock, dc } = setup();
  for (const n of ['a', 'b', 'c']) pod(store, n);
  pdb(store, 'web', { minAvailable: 2, selector: { matchLabels: { app: 'web' } } });
  await dc.idle();
  await clock.advance(10_000);

  assert.deepEqual(evictPod(store, clock, 'default', 'a', eviction('a')), SUCCESS);
  const evicted = store.get(podType, 'default', 'a');
  assert.ok(evicted?.metadata.deletionTimestamp, 'the running pod is terminating (grace period)');
  const cond = ((evicted.status as JsonObject).conditions as JsonObject[]).find((c) => c.type === 'DisruptionTarget');
  assert.deepEqual(cond, {
    type: 'DisruptionTarget',
    status: 'True',
    lastProbeTime: null,
    lastTransitionTime: '2026-01-01T00:00:10Z',
    reason: 'EvictionByEvictionAPI',
    message: 'Eviction API: evicting',
  });
  const s = pdbStatus(store, 'web');
  assert.equal(s.disruptionsAllowed, 0);
  assert.deepEqual(s.disruptedPods, { a: '2026-01-01T00:00:10Z' });
  assert.equal((s.conditions as JsonObject[])[0]!.reason, 'InsufficientPods');

  // The budget is now spent: the next eviction is refused with kube's exact 429.
  await dc.idle();
  const blocked = apiError(() => evictPod(store, clock, 'default', 'b', eviction('b')));
  assert.deepEqual(blocked.toStatus(), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: "Cannot evict pod as it would violate the pod's disruption budget.",
    reason: 'TooManyRequests',
    details: {
      causes: [
        { reason: 'DisruptionBudget', message: 'The disruption budget web needs 2 healthy pods and has 2 currently' },
      ],
    },
    code: 429,
  });
  assert.equal(store.get(podType, 'default', 'b')?.metadata.deletionTimestamp, undefined);
});

void test('more than one budget: a 500 Status, nothing deleted', async () => {
  const { store, clock, dc } = setup();
  pod(store, 'a');
  pdb(store, 'one', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
  pdb(store, 'two', { maxUnavailable: 1, selector: {} });
  await dc.idle();
  assert.deepEqual(evictPod(store, clock, 'default', 'a', eviction('a')), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    code: 500,
  });
  assert.equal(store.get(podType, 'default', 'a')?.metadata.deletionTimestamp, undefined);
});

void test('no budget: the pod is deleted, honouring deleteOptions', () => {
  const { store, clock } = setup();
  pod(store, 'a');
  pdb(store, 'db', { minAvailable: 5, selector: { matchLabels: { app: 'db' } } });
  assert.deepEqual(evictPod(store, clock, 'default', 'a', eviction('a', { gracePeriodSeconds: 0 })), SUCCESS);
  assert.equal(store.get(podType, 'default', 'a'), undefined, 'grace period 0 removes it at once');
});

void test('terminating, pending and finished pods are deleted without looking at the budget', async () => {
  const { store, clock, dc } = setup();
  pod(store, 'done', { phase: 'Succeeded' });
  pod(store, 'waiting', { phase: 'Pending', ready: false });
  const t = pod(store, 'going');
  store.update(podType, { ...t, metadata: { ...t.metadata, finalizers: ['example.com/hold'] } });
  store.delete(podType, 'default', 'going');
  pdb(store, 'web', { minAvailable: 10, selector: { matchLabels: { app: 'web' } } });
  await dc.idle();
  assert.equal(pdbStatus(store, 'web').disruptionsAllowed, 0);
  for (const name of ['done', 'waiting', 'going'])
    assert.deepEqual(evictPod(store, clock, 'default', name, eviction(name)), SUCCESS, name);
  assert.equal(store.get(podType, 'default', 'done'), undefined);
  assert.ok(store.get(podType, 'default', 'waiting')?.metadata.deletionTimestamp);
  assert.deepEqual(pdbStatus(store, 'web').disruptedPods, undefined, 'the budget is not used');
});

void test('a budget whose status is behind its generation answers 429 "still being processed"', () => {
  const { store, clock } = setup();
  pod(store, 'a');
  pdb(store, 'web', { maxUnavailable: 1, selector: { matchLabels: { app: 'web' } } });
  // No DisruptionController running: observedGeneration stays unset.
  const err = apiError(() => evictPod(store, clock, 'default', 'a', eviction('a')));
  assert.deepEqual(err.toStatus(), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: "Cannot evict pod as it would violate the pod's disruption budget.",
    reason: 'TooManyRequests',
    details: {
      retryAfterSeconds: 10,
      causes: [
        { reason: 'DisruptionBudget', message: 'The disruption budget web is still being processed by the server.' },
      ],
    },
    code: 429,
  });
});

void test('unready pods: IfHealthyBudget deletes while the budget is met; AlwaysAllow always does', async () => {
  const { store, clock, dc } = setup();
  for (const n of ['a', 'b', 'c']) pod(store, n);
  pod(store, 'sick', { ready: false });
  pdb(store, 'web', { minAvailable: 3, selector: { matchLabels: { app: 'web' } } });
  await dc.idle();
  assert.equal(pdbStatus(store, 'web').disruptionsAllowed, 0);
  assert.deepEqual(
    evictPod(store, clock, 'default', 'sick', eviction('sick')),
    SUCCESS,
    'healthy budget: unready pod may go',
  );
  assert.equal(pdbStatus(store, 'web').disruptedPods, undefined, 'without spending the budget');
  await dc.idle();

  // Budget not met (one healthy pod lost): an unready pod is protected under IfHealthyBudget...
  const a = store.get(podType, 'default', 'a')!;
  store.update(
    podType,
    { ...a, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'False' }] } },
    { subresource: 'status' },
  );
  await dc.idle();
  assert.equal(apiError(() => evictPod(store, clock, 'default', 'a', eviction('a'))).code, 429);

  // ...but not under AlwaysAllow.
  const cur = store.get(pdbType, 'default', 'web')!;
  store.update(pdbType, { ...cur, spec: { ...(cur.spec as JsonObject), unhealthyPodEvictionPolicy: 'AlwaysAllow' } });
  await dc.idle();
  assert.deepEqual(evictPod(store, clock, 'default', 'a', eviction('a', undefined, 'policy/v1beta1')), SUCCESS);
  assert.ok(store.get(podType, 'default', 'a')?.metadata.deletionTimestamp);
});

void test('request errors: missing pod, name mismatch, failed precondition; dry run changes nothing', async () => {
  const { store, clock, dc } = setup();
  const a = pod(store, 'a');
  pdb(store, 'web', { minAvailable: 0, selector: { matchLabels: { app: 'web' } } });
  await dc.idle();

  const missing = apiError(() => evictPod(store, clock, 'default', 'nope', eviction('nope')));
  assert.equal(missing.code, 404);
  assert.equal(missing.message, 'pods "nope" not found');
  const mismatch = apiError(() => evictPod(store, clock, 'default', 'a', eviction('b')));
  assert.equal(mismatch.code, 400);
  assert.equal(mismatch.message, 'name in URL does not match name in Eviction object');

  assert.deepEqual(evictPod(store, clock, 'default', 'a', eviction('a', { dryRun: ['All'] })), SUCCESS);
  assert.equal(
    store.get(podType, 'default', 'a')?.metadata.resourceVersion,
    a.metadata.resourceVersion,
    'dry run: pod untouched',
  );
  assert.equal(pdbStatus(store, 'web').disruptionsAllowed, 1, 'dry run: budget untouched');

  const conflict = apiError(() =>
    evictPod(store, clock, 'default', 'a', eviction('a', { preconditions: { uid: 'other-uid' } })),
  );
  assert.equal(conflict.code, 409);
  assert.equal(
    conflict.message,
    `Operation cannot be fulfilled on Pod "a": the UID in the precondition (other-uid) does not match the UID in record (${a.metadata.uid as string}). The object might have been deleted and then recreated`,
  );
});
