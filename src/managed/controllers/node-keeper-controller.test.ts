import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { EventResource, NodeResource, PodResource } from '../../api/builtin.js';
import { EventRecorder } from '../../kube/event-recorder.js';
import { silentLogger } from '../../lib/log.js';
import { startTestCluster, type TestCluster } from '../../sim/test-support/cluster.test-support.js';
import type { DrainSettings } from '../drain/drain-strategies.js';
import { MINUTE, TEST_DRAIN_SETTINGS } from '../drain/drain-fixtures.test-support.js';
import { createBlockingPdb, createNamespace, createNode, createPod } from '../../kube/object-fixtures.test-support.js';
import { createNodeKeeperController, type NodeKeeper, type NodeKeeperState } from './node-keeper-controller.js';

interface Harness {
  cluster: TestCluster;
  keeper: NodeKeeper;
  events: EventRecorder;
  state: NodeKeeperState;
  /** [node, on, virtual time] per onDrainTimeout call. */
  timeouts: Array<[string, boolean, number]>;
  pdbStarted: Array<[string, number]>;
  /** Pod name → virtual time the informer saw it deleted. */
  deletedAt: Map<string, number>;
}

async function harness(t: TestContext, settings: DrainSettings, active: boolean): Promise<Harness> {
  const cluster = await startTestCluster(t, { openshiftCrds: false });
  const { clock, ctx } = cluster;
  const logger = silentLogger();
  const events = new EventRecorder({
    client: ctx.client,
    clock,
    logger,
    activity: clock.activity,
    component: 'upgrade-operator',
  });
  const state: NodeKeeperState = { active, settings };
  const timeouts: Harness['timeouts'] = [];
  const pdbStarted: Harness['pdbStarted'] = [];
  const keeper = createNodeKeeperController({
    informers: ctx.informers,
    client: ctx.client,
    clock,
    logger,
    activity: clock.activity,
    events,
    state: () => state,
    onDrainTimeout: (node, on) => timeouts.push([node, on, clock.now()]),
    onPdbForceDrainStarted: (node) => {
      pdbStarted.push([node, clock.now()]);
      return Promise.resolve();
    },
  });
  const deletedAt = new Map<string, number>();
  ctx.informers
    .informerFor(PodResource)
    .addHandlers({ onDelete: (p) => deletedAt.set(p.metadata?.name ?? '', clock.now()) });
  const running = keeper.controller.start(cluster.signal);
  t.after(() => running);
  return { cluster, keeper, events, state, timeouts, pdbStarted, deletedAt };
}

async function nodeEvents(h: Harness, node: string): Promise<Array<{ reason: string; message: string }>> {
  await h.events.flush();
  const list = await h.cluster.client.list(EventResource, { namespace: 'default' });
  return list.items
    .filter((e) => e.involvedObject.name === node && e.involvedObject.kind === 'Node')
    .map((e) => ({ reason: e.reason ?? '', message: e.message ?? '' }));
}

void test('a PDB-blocked pod is force-drained exactly PDBForceDrainTimeout + expectedNodeDrainTime after the cordon', async (t) => {
  const h = await harness(t, TEST_DRAIN_SETTINGS, true);
  const { client, clock } = h.cluster;
  const t0 = clock.now();
  await createNamespace(client, 'app');
  await createNode(client, 'worker-1', {
    cordonedAt: t0,
    annotations: { 'machineconfiguration.openshift.io/state': 'Working' },
  });
  await createNode(client, 'master-0', { cordonedAt: t0, labels: { 'node-role.kubernetes.io/master': '' } });
  await createPod(client, 'app', 'web', 'worker-1');
  await createPod(client, 'app', 'db-0', 'worker-1', { labels: { app: 'db' } });
  await createPod(client, 'app', 'guard', 'master-0');
  await createBlockingPdb(client, 'app', 'db', { app: 'db' });

  // The non-PDB pod goes at nodeDrain.timeOut (45m).
  await clock.run({ until: t0 + 50 * MINUTE });
  assert.equal(h.deletedAt.get('web'), t0 + 45 * MINUTE);
  assert.equal(h.deletedAt.has('db-0'), false);
  // A pod that appears on the node later wakes it at once (DELETE is already due).
  await createPod(client, 'app', 'late', 'worker-1');
  await clock.run({ until: () => h.deletedAt.has('late') });
  assert.equal(h.deletedAt.get('late'), t0 + 50 * MINUTE);

  // The PDB pod goes at PDBForceDrainTimeout 60m + expectedNodeDrainTime 8m.
  await clock.run({ until: () => h.deletedAt.has('db-0') });
  assert.equal(h.deletedAt.get('db-0'), t0 + 68 * MINUTE);
  assert.deepEqual(h.pdbStarted, [['worker-1', t0 + 68 * MINUTE]]);

  // Failed once cordoned for the last strategy's wait + expectedNodeDrainTime (76m): the node is Working ⇒ alert.
  await clock.run({ until: () => h.timeouts.some(([, on]) => on) });
  assert.deepEqual(
    h.timeouts.find(([, on]) => on),
    ['worker-1', true, t0 + 76 * MINUTE],
  );
  assert.ok(
    h.timeouts.every(([node]) => node === 'worker-1'),
    'control-plane nodes are never reconciled',
  );
  assert.ok(await client.get(PodResource, 'app', 'guard'), 'pods on control-plane nodes are untouched');

  const events = await nodeEvents(h, 'worker-1');
  assert.deepEqual(
    events.map((e) => e.reason),
    ['ForceDrainPodDeleted', 'ForceDrainPodDeleted', 'ForceDrainPodDeleted', 'NodeDrainTimeout'],
  );
  assert.match(
    events[0]?.message ?? '',
    /^Drain strategy DELETE deleted pod app\/web: pod is not covered by a PodDisruptionBudget; node worker-1 has been cordoned for 45m0s \(nodeDrain.timeOut 45m0s\)$/,
  );
  assert.match(
    events[2]?.message ?? '',
    /^Drain strategy PDB-DELETE deleted pod app\/db-0: pod is covered by PodDisruptionBudget db; /,
  );
  assert.match(
    events[3]?.message ?? '',
    /^Node worker-1 has not drained 1h16m0s after it was cordoned at 2026-03-02T00:00:00Z/,
  );
  assert.deepEqual(await nodeEvents(h, 'master-0'), []);

  // Uncordoning resets the alert; no requeue is left behind for the node.
  await client.patch(
    NodeResource,
    undefined,
    'worker-1',
    { spec: { unschedulable: null, taints: null } },
    { type: 'merge' },
  );
  await clock.run({ until: () => h.timeouts.at(-1)?.[1] === false });
  assert.deepEqual(h.timeouts.at(-1), ['worker-1', false, t0 + 76 * MINUTE]);
  const reconciles = h.timeouts.length;
  await clock.run({ until: t0 + 600 * MINUTE });
  assert.equal(h.timeouts.length, reconciles);
});

void test('with drain strategies disabled the pods stay and the alert fires after nodeDrain.timeOut; wakeAll() starts an inactive keeper', async (t) => {
  const h = await harness(t, { ...TEST_DRAIN_SETTINGS, disableDrainStrategies: true }, false);
  const { client, clock } = h.cluster;
  const t0 = clock.now();
  await createNamespace(client, 'app');
  await createNode(client, 'worker-1', {
    cordonedAt: t0,
    annotations: { 'machineconfiguration.openshift.io/state': 'Working' },
  });
  await createPod(client, 'app', 'web', 'worker-1');
  await createPod(client, 'app', 'db-0', 'worker-1', { labels: { app: 'db' } });
  await createBlockingPdb(client, 'app', 'db', { app: 'db' });

  // Not active (no managed upgrade rolling the workers): nothing happens, whatever the time.
  await clock.run({ until: t0 + 10 * MINUTE });
  assert.deepEqual(h.timeouts, []);
  h.state.active = true;
  h.keeper.wakeAll();
  await clock.run({ until: () => h.timeouts.length > 0 });
  assert.deepEqual(h.timeouts, [['worker-1', false, t0 + 10 * MINUTE]]);

  await clock.run({ until: () => h.timeouts.some(([, on]) => on) });
  assert.deepEqual(h.timeouts.at(-1), ['worker-1', true, t0 + 45 * MINUTE]);
  await clock.run({ until: t0 + 200 * MINUTE });
  assert.equal(h.deletedAt.size, 0);
  assert.ok(await client.get(PodResource, 'app', 'web'));
  assert.ok(await client.get(PodResource, 'app', 'db-0'));
  assert.deepEqual(h.pdbStarted, []);
  const events = await nodeEvents(h, 'worker-1');
  assert.deepEqual(
    events.map((e) => e.reason),
    ['NodeDrainTimeout'],
  );
  assert.match(events[0]?.message ?? '', /drain strategies are disabled\)$/);
});

void test('a cordoned node without timeAdded is reported, not drained', async (t) => {
  const h = await harness(t, TEST_DRAIN_SETTINGS, true);
  const { client, clock } = h.cluster;
  await createNamespace(client, 'app');
  await client.create(NodeResource, {
    metadata: { name: 'worker-1' },
    spec: { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] },
  });
  await createPod(client, 'app', 'web', 'worker-1');
  await clock.run({ until: clock.now() + 300 * MINUTE });
  assert.ok(await client.get(PodResource, 'app', 'web'));
  assert.deepEqual(h.timeouts, []);
  const events = await nodeEvents(h, 'worker-1');
  assert.deepEqual(
    events.map((e) => e.reason),
    ['NodeDrainStartUnknown'],
  );
  assert.match(
    events[0]?.message ?? '',
    /^cannot determine drain commencement time for node worker-1: the node.kubernetes.io\/unschedulable taint has no timeAdded$/,
  );
});
