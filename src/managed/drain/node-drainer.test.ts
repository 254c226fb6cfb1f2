import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PodResource } from '../../api/builtin.js';
import { isConflict, isNotFound } from '../../kube/status-error.js';
import { startTestCluster } from '../../sim/test-support/cluster.test-support.js';
import type { DrainAction } from './drain-strategies.js';
import { MINUTE, TEST_DRAIN_SETTINGS } from './drain-fixtures.test-support.js';
import { createBlockingPdb, createNamespace, createNode, createPod } from '../../kube/object-fixtures.test-support.js';
import { drainNodeWithStrategies, executeDrainActions } from './node-drainer.js';

function action(
  type: DrainAction['type'],
  pod: { metadata?: { namespace?: string; name?: string; uid?: string; resourceVersion?: string } },
): DrainAction {
  const m = pod.metadata ?? {};
  return {
    type,
    strategy: type === 'delete' ? 'DELETE' : 'DEFAULT-FINALIZER',
    pod: {
      namespace: m.namespace ?? '',
      name: m.name ?? '',
      uid: m.uid ?? '',
      resourceVersion: m.resourceVersion ?? '',
    },
    reason: 'test',
  };
}

async function exists(client: Parameters<typeof createPod>[0], ns: string, name: string): Promise<boolean> {
  try {
    await client.get(PodResource, ns, name);
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}

void test('executeDrainActions: delete (grace 0, uid precondition), clear finalizers, NotFound is success, Conflict re-reads once', async (t) => {
  const { client } = await startTestCluster(t, { openshiftCrds: false });
  await createNamespace(client, 'app');
  await createNode(client, 'worker-1');

  // Delete then clear finalizers in one pass: the resourceVersion of the delete's answer is carried on.
  const held = await createPod(client, 'app', 'held', 'worker-1', { finalizers: ['example.com/hold'] });
  // A pod replaced under the same name: the decision about its predecessor must not hit it.
  const old = await createPod(client, 'app', 'sts-0', 'worker-1');
  await client.delete(PodResource, 'app', 'sts-0', { gracePeriodSeconds: 0 });
  const replacement = await createPod(client, 'app', 'sts-0', 'worker-1');
  // A pod changed after it was read: the finalizer patch conflicts, re-reads and retries.
  const stale = await createPod(client, 'app', 'stale', 'worker-1', { finalizers: ['example.com/hold'] });
  await client.patch(PodResource, 'app', 'stale', { metadata: { labels: { touched: 'yes' } } }, { type: 'merge' });
  // The premise: a merge patch carrying a stale resourceVersion is a Conflict.
  const staleVersion = { metadata: { resourceVersion: stale.metadata?.resourceVersion ?? '', labels: { probe: 'x' } } };
  await assert.rejects(client.patch(PodResource, 'app', 'stale', staleVersion, { type: 'merge' }), (err) =>
    isConflict(err),
  );

  const result = await executeDrainActions(client, [
    action('delete', held),
    action('remove-finalizers', held),
    action('delete', old),
    action('delete', { metadata: { namespace: 'app', name: 'ghost', uid: 'u-ghost' } }),
    action('remove-finalizers', stale),
  ]);
  assert.deepEqual(result.failures, []);
  assert.deepEqual(
    result.applied.map((a) => `${a.type} ${a.pod.name}`),
    ['delete held', 'remove-finalizers held', 'remove-finalizers stale'],
  );
  assert.deepEqual(
    result.skipped.map((a) => `${a.type} ${a.pod.name}`),
    ['delete sts-0', 'delete ghost'],
  );
  assert.equal(await exists(client, 'app', 'held'), false);
  const kept = await client.get(PodResource, 'app', 'sts-0');
  assert.equal(kept.metadata?.uid, replacement.metadata?.uid);
  const unheld = await client.get(PodResource, 'app', 'stale');
  assert.equal(unheld.metadata?.finalizers, undefined);
  assert.equal(unheld.metadata?.labels?.touched, 'yes');
});

void test('drainNodeWithStrategies: reads, plans and acts at the given time; a missing node is NotFound', async (t) => {
  const { client, clock } = await startTestCluster(t, { openshiftCrds: false });
  const start = clock.now();
  await createNamespace(client, 'app');
  await createNode(client, 'worker-1', { cordonedAt: start });
  await createPod(client, 'app', 'web', 'worker-1');
  await createPod(client, 'app', 'db', 'worker-1', { labels: { app: 'db' } });
  await createPod(client, 'app', 'other-node', 'worker-2');
  await createBlockingPdb(client, 'app', 'db', { app: 'db' });

  const early = await drainNodeWithStrategies(client, 'worker-1', TEST_DRAIN_SETTINGS, start + 10 * MINUTE);
  assert.deepEqual(early.actionsTaken, []);
  assert.equal(early.nextDueAt, start + 45 * MINUTE);

  const atTimeout = await drainNodeWithStrategies(client, 'worker-1', TEST_DRAIN_SETTINGS, start + 45 * MINUTE);
  assert.deepEqual(
    atTimeout.actionsTaken.map((a) => `${a.strategy} ${a.pod.name}`),
    ['DELETE web'],
  );
  assert.equal(atTimeout.failed, false);
  assert.equal(atTimeout.nextDueAt, start + 53 * MINUTE);
  assert.equal(await exists(client, 'app', 'web'), false);
  assert.equal(await exists(client, 'app', 'db'), true);
  assert.equal(await exists(client, 'app', 'other-node'), true);

  const pdbTime = await drainNodeWithStrategies(client, 'worker-1', TEST_DRAIN_SETTINGS, start + 68 * MINUTE);
  assert.deepEqual(
    pdbTime.actionsTaken.map((a) => `${a.strategy} ${a.pod.name}`),
    ['PDB-DELETE db'],
  );
  assert.equal(pdbTime.plan.pdbDeleteFirstTime, true);
  assert.equal(await exists(client, 'app', 'db'), false);

  const done = await drainNodeWithStrategies(client, 'worker-1', TEST_DRAIN_SETTINGS, start + 76 * MINUTE);
  assert.equal(done.failed, true, 'cordoned past the last strategy + expectedNodeDrainTime');
  assert.equal(done.nextDueAt, undefined);

  await assert.rejects(drainNodeWithStrategies(client, 'worker-9', TEST_DRAIN_SETTINGS, start), (err) =>
    isNotFound(err),
  );
});
