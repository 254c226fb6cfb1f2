import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventResource, NodeResource } from '../../../api/builtin.js';
import { MachineConfigNodeAnnotation as A } from '../../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { formatTime } from '../../../lib/clock.js';
import { startTestCluster, type TestCluster } from '../../test-support/cluster.test-support.js';
import {
  annotation,
  cachedNode,
  createDaemonSet,
  createMcoNamespace,
  createNode,
  createPdb,
  createPod,
  NEW_WORKER,
  podAlive,
  recordNodes,
} from '../daemon/mco-nodes.test-support.js';
import { createDrainController, type DrainController } from './drain-controller.js';

async function setup(
  t: Parameters<typeof startTestCluster>[0],
): Promise<{ cluster: TestCluster; drain: DrainController }> {
  const cluster = await startTestCluster(t, { seed: 3 });
  await createMcoNamespace(cluster.client);
  await createNode(cluster.client, 'worker-0', { now: cluster.clock.now() });
  await createNode(cluster.client, 'worker-1', { now: cluster.clock.now() });
  const drain = createDrainController(cluster.ctx);
  await drain.start(cluster.signal);
  return { cluster, drain };
}

async function request(cluster: TestCluster, node: string, value: string): Promise<void> {
  await cluster.client.patch(
    NodeResource,
    undefined,
    node,
    { metadata: { annotations: { [A.DesiredDrain]: value } } },
    { type: 'merge' },
  );
}

void test('drain: cordon with a timed taint, evict all but mirror and DaemonSet pods, wait for them to go, then lastAppliedDrain; uncordon undoes it', async (t) => {
  const { cluster } = await setup(t);
  const c = cluster.client;
  const timeline = recordNodes(cluster);
  const ds = await createDaemonSet(c, 'dns');
  await createPod(c, 'dns-x', 'worker-0', { labels: { app: 'dns' }, owner: ds });
  await createPod(c, 'bare', 'worker-0', { labels: { app: 'bare' } });
  await createPod(c, 'web-1', 'worker-0');
  await createPod(c, 'web-2', 'worker-1');
  await createPod(c, 'static-etcd', 'worker-0', {
    labels: { app: 'static' },
    annotations: { 'kubernetes.io/config.mirror': 'abc' },
  });

  const t0 = cluster.clock.now();
  await request(cluster, 'worker-0', `drain-${NEW_WORKER}`);
  await cluster.clock.run({
    until: () => annotation(cluster, 'worker-0', A.LastAppliedDrain) === `drain-${NEW_WORKER}`,
  });

  const cordonedAt = timeline.find((s) => s.node.spec?.unschedulable === true)!.at;
  assert.equal(cordonedAt, t0 + 5_000, 'acted on 5 s after the request');
  const node = cachedNode(cluster, 'worker-0')!;
  assert.deepEqual(
    node.spec?.taints?.filter((x) => x.key === 'node.kubernetes.io/unschedulable'),
    [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: formatTime(cordonedAt) }],
  );
  assert.ok(cluster.clock.now() - cordonedAt >= 60_000, 'at least the drawn worker drain time (1 min)');
  assert.equal(await podAlive(c, 'bare'), false, 'pods without a controller are removed too (Force)');
  assert.equal(await podAlive(c, 'web-1'), false);
  assert.equal(await podAlive(c, 'dns-x'), true, 'DaemonSet pods are ignored');
  assert.equal(await podAlive(c, 'static-etcd'), true, 'mirror pods are ignored');
  assert.equal(await podAlive(c, 'web-2'), true, 'other nodes are untouched');
  assert.equal(cachedNode(cluster, 'worker-1')?.spec?.unschedulable, undefined);

  await request(cluster, 'worker-0', `uncordon-${NEW_WORKER}`);
  await cluster.clock.run({
    until: () => annotation(cluster, 'worker-0', A.LastAppliedDrain) === `uncordon-${NEW_WORKER}`,
  });
  const after = cachedNode(cluster, 'worker-0')!;
  assert.equal(after.spec?.unschedulable, undefined);
  assert.ok(!(after.spec?.taints ?? []).some((x) => x.key === 'node.kubernetes.io/unschedulable'));
});

void test('a blocked drain retries every 1 min, then every 5 min with DrainThresholdExceeded, then DrainFailed and mcc_drain_err', async (t) => {
  const { cluster, drain } = await setup(t);
  const c = cluster.client;
  await createPod(c, 'web-a', 'worker-0');
  await createPod(c, 'web-b', 'worker-1');
  await createPdb(c, 'web', 'web', 2);
  await cluster.clock.run({ until: cluster.clock.now() + 30_000 });
  const t0 = cluster.clock.now();
  await request(cluster, 'worker-0', `drain-${NEW_WORKER}`);
  const cordon = t0 + 5_000;
  // Attempts (90 s each, 1 min apart) start at cordon + 0, 150, ..., 750 s: the one at 750 s is
  // the first after more than 10 min of failing, so it ends at 840 s with the event and a 5 min wait.
  await cluster.clock.run({ until: cordon + 61 * 60_000 });
  const events = (await c.list(EventResource, { namespace: 'openshift-machine-config-operator' })).items.filter(
    (e) => e.involvedObject.name === 'worker-0',
  );
  const threshold = events.find((e) => e.reason === 'DrainThresholdExceeded')!;
  assert.equal(threshold.firstTimestamp, formatTime(cordon + 840_000));
  assert.equal(threshold.type, 'Warning');
  assert.ok((threshold.count ?? 0) >= 2, 'aggregated repeats');
  assert.deepEqual(drain.drainErrorNodes(), [], 'not before an attempt starts past the hour');
  await cluster.clock.run({ until: () => drain.drainErrorNodes().length > 0 });
  assert.deepEqual(drain.drainErrorNodes(), ['worker-0']);
  assert.ok(cluster.clock.now() > cordon + 60 * 60_000);
  const failed = (await c.list(EventResource, { namespace: 'openshift-machine-config-operator' })).items.find(
    (e) => e.reason === 'DrainFailed',
  );
  assert.equal(failed?.message, 'node worker-0: drain exceeded timeout: 1h0m0s. Will continue to retry.');
  assert.equal(failed?.source?.component, 'machineconfigcontroller-nodecontroller');
  assert.equal(failed?.involvedObject.kind, 'Node');
  assert.equal(await podAlive(c, 'web-a'), true);
});

void test('a node uncordoned by someone else mid-drain is cordoned again', async (t) => {
  const { cluster } = await setup(t);
  const c = cluster.client;
  await createPod(c, 'web-a', 'worker-0');
  await createPod(c, 'web-b', 'worker-1');
  await createPdb(c, 'web', 'web', 2);
  await cluster.clock.run({ until: cluster.clock.now() + 30_000 });
  await request(cluster, 'worker-0', `drain-${NEW_WORKER}`);
  await cluster.clock.run({ until: cluster.clock.now() + 3 * 60_000 });
  assert.equal(cachedNode(cluster, 'worker-0')?.spec?.unschedulable, true);
  await c.patch(NodeResource, undefined, 'worker-0', { spec: { unschedulable: null } }, { type: 'merge' });
  await cluster.clock.run({ until: cluster.clock.now() + 6 * 60_000 });
  assert.equal(cachedNode(cluster, 'worker-0')?.spec?.unschedulable, true);
  assert.notEqual(annotation(cluster, 'worker-0', A.LastAppliedDrain), `drain-${NEW_WORKER}`);
});
