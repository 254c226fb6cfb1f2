import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import { PodDisruptionBudgetResource } from '../../../api/builtin.js';
import { MachineConfigNodeAnnotation as A } from '../../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { startTestCluster, type TestCluster } from '../../test-support/cluster.test-support.js';
import { isNodeReady } from '../../workloads/scheduling.js';
import { createNodeLifecycleController } from '../../nodes/node-lifecycle-controller.js';
import { createDrainController, type DrainController } from '../drain/drain-controller.js';
import { createMachineConfigDaemons, nextPoll, type MachineConfigDaemons } from './daemon.js';
import {
  annotation,
  cachedNode,
  createDaemonSet,
  createMcoNamespace,
  createNode,
  createPdb,
  createPod,
  NEW_WORKER,
  nodeEvents,
  OLD_WORKER,
  podAlive,
  recordNodes,
  setDesiredConfig,
  type Snapshot,
} from './mco-nodes.test-support.js';
import { readyCondition } from './node-state.js';

const MIN = 60_000;

interface Rig {
  cluster: TestCluster;
  daemons: MachineConfigDaemons;
  drain: DrainController;
  timeline: Snapshot[];
}

async function rig(t: TestContext, nodes: Array<{ name: string; topology?: string }>, seed = 7): Promise<Rig> {
  const cluster = await startTestCluster(t, { seed });
  await createMcoNamespace(cluster.client);
  for (const n of nodes)
    await createNode(cluster.client, n.name, {
      now: cluster.clock.now(),
      ...(n.topology ? { topology: n.topology } : {}),
    });
  const timeline = recordNodes(cluster);
  const daemons = createMachineConfigDaemons(cluster.ctx);
  const drain = createDrainController(cluster.ctx);
  // The not-ready taint of a reboot is the node lifecycle controller's.
  await createNodeLifecycleController(cluster.ctx).start(cluster.signal);
  await daemons.start(cluster.signal);
  await drain.start(cluster.signal);
  return { cluster, daemons, drain, timeline };
}

function ann(n: Node, key: string): string | undefined {
  return n.metadata?.annotations?.[key];
}

/** The first time a snapshot of the node satisfies the predicate. */
function firstAt(timeline: Snapshot[], name: string, p: (n: Node) => boolean): number | undefined {
  return timeline.find((s) => s.node.metadata?.name === name && p(s.node))?.at;
}

function isDone(cluster: TestCluster, name: string, config: string): boolean {
  return annotation(cluster, name, A.State) === 'Done' && annotation(cluster, name, A.CurrentConfig) === config;
}

void test('a worker goes Working, drained, rebooting (NotReady), uncordoned, Done; DaemonSet pods stay', async (t) => {
  const { cluster, timeline } = await rig(t, [{ name: 'worker-0' }]);
  const c = cluster.client;
  const ds = await createDaemonSet(c, 'node-agent');
  await createPod(c, 'web-1', 'worker-0');
  await createPod(c, 'node-agent-x', 'worker-0', { labels: { app: 'node-agent' }, owner: ds });
  const t0 = cluster.clock.now();
  await setDesiredConfig(c, 'worker-0', NEW_WORKER);

  await cluster.clock.run({ until: () => isDone(cluster, 'worker-0', NEW_WORKER) });

  const working = firstAt(timeline, 'worker-0', (n) => ann(n, A.State) === 'Working');
  const drainRequested = firstAt(timeline, 'worker-0', (n) => ann(n, A.DesiredDrain) === `drain-${NEW_WORKER}`);
  const cordoned = firstAt(timeline, 'worker-0', (n) => n.spec?.unschedulable === true);
  const drained = firstAt(timeline, 'worker-0', (n) => ann(n, A.LastAppliedDrain) === `drain-${NEW_WORKER}`);
  const rebooting = firstAt(timeline, 'worker-0', (n) => ann(n, A.PostConfigAction) === 'Rebooting');
  const down = firstAt(timeline, 'worker-0', (n) => readyCondition(n)?.status === 'False');
  const downIndex = timeline.findIndex((s) => readyCondition(s.node)?.status === 'False');
  const up = firstAt(timeline.slice(downIndex), 'worker-0', (n) => isNodeReady(n));
  const uncordonRequested = firstAt(timeline, 'worker-0', (n) => ann(n, A.DesiredDrain) === `uncordon-${NEW_WORKER}`);
  const uncordoned = firstAt(timeline, 'worker-0', (n) => ann(n, A.LastAppliedDrain) === `uncordon-${NEW_WORKER}`);
  const done = firstAt(
    timeline,
    'worker-0',
    (n) => ann(n, A.State) === 'Done' && ann(n, A.CurrentConfig) === NEW_WORKER,
  );
  const steps = [working, drainRequested, cordoned, drained, rebooting, down, up, uncordonRequested, uncordoned, done];
  assert.ok(
    steps.every((s) => s !== undefined),
    `every step observed: ${JSON.stringify(steps)}`,
  );
  for (let i = 1; i < steps.length; i++)
    assert.ok(steps[i]! >= steps[i - 1]!, `step ${i} in order: ${JSON.stringify(steps)}`);
  assert.equal(working, t0, 'Working at once');
  assert.ok(cordoned! - drainRequested! >= 5_000, 'the drain controller acts after its 5 s delay');
  assert.ok(drained! - cordoned! >= 1 * MIN, 'the drawn worker drain (at least 1 min)');
  assert.ok(
    down! - drained! >= 1 * MIN && down! - drained! <= 3 * MIN + 10_000,
    'OS update 1-3 min (after the next 10 s poll)',
  );
  assert.ok(up! - down! >= 1 * MIN && up! - down! <= 4 * MIN, 'reboot 1-4 min');
  assert.ok(uncordonRequested! - up! >= 0.5 * MIN && uncordonRequested! - up! <= 2 * MIN, 'rejoin 0.5-2 min');
  // currentConfig moves only at Done, and the node is never schedulable while NotReady.
  for (const s of timeline.filter((x) => x.at < done!)) assert.equal(ann(s.node, A.CurrentConfig), OLD_WORKER);
  for (const s of timeline.filter((x) => readyCondition(x.node)?.status === 'False')) {
    assert.equal(s.node.spec?.unschedulable, true);
    assert.ok(
      s.node.spec?.taints?.some(
        (tt) =>
          tt.key === 'node.kubernetes.io/unschedulable' &&
          tt.effect === 'NoSchedule' &&
          typeof tt.timeAdded === 'string',
      ),
    );
    assert.equal(readyCondition(s.node)?.reason, 'KubeletNotReady');
  }

  const node = cachedNode(cluster, 'worker-0')!;
  assert.equal(node.spec?.unschedulable, undefined, 'uncordoned');
  assert.ok(
    !(node.spec?.taints ?? []).some((tt) => tt.key === 'node.kubernetes.io/unschedulable'),
    'cordon taint removed',
  );
  assert.ok(isNodeReady(node));
  assert.equal(ann(node, A.Reason), '');
  assert.equal(await podAlive(c, 'web-1'), false, 'the workload pod was evicted');
  assert.equal(await podAlive(c, 'node-agent-x'), true, 'the DaemonSet pod was not');

  const events = await nodeEvents(c, 'worker-0');
  const daemonEvents = events
    .filter((e) => e.component === 'machineconfigdaemon')
    .map((e) => `${e.reason}: ${e.message}`);
  assert.deepEqual(daemonEvents, [
    'Cordon: Cordoned node to apply update',
    'Drain: Draining node to update config.',
    'OSUpdateStarted: Upgrading OS',
    'OSUpdateStaged: Changes to OS staged',
    `Reboot: Node will reboot into config ${NEW_WORKER}`,
    `Uncordon: Update completed for config ${NEW_WORKER} and node has been uncordoned`,
    `NodeDone: Setting node worker-0, currentConfig ${NEW_WORKER} to Done`,
  ]);
});

void test('a PDB at its limit blocks the drain; after 1 h the node is Degraded with the daemon reason, then finishes once the PDB frees', async (t) => {
  const { cluster, drain, timeline } = await rig(t, [{ name: 'worker-0' }, { name: 'worker-1' }]);
  const c = cluster.client;
  await createPod(c, 'web-a', 'worker-0');
  await createPod(c, 'web-b', 'worker-1');
  await createPdb(c, 'web', 'web', 2);
  await cluster.clock.run({ until: cluster.clock.now() + 30_000 }); // the disruption controller catches up
  const t0 = cluster.clock.now();
  await setDesiredConfig(c, 'worker-0', NEW_WORKER);

  await cluster.clock.run({ until: t0 + 59 * MIN });
  assert.equal(annotation(cluster, 'worker-0', A.State), 'Working');
  assert.equal(cachedNode(cluster, 'worker-0')?.spec?.unschedulable, true, 'cordoned and held there');
  assert.equal(await podAlive(c, 'web-a'), true, 'the budget refused the eviction');
  assert.deepEqual(drain.drainErrorNodes(), []);
  const early = await nodeEvents(c, 'worker-0');
  const threshold = early.filter((e) => e.reason === 'DrainThresholdExceeded');
  assert.ok(threshold.length > 0, 'DrainThresholdExceeded after 10 min');
  assert.equal(threshold[0]!.namespace, 'openshift-machine-config-operator');
  assert.equal(threshold[0]!.component, 'machineconfigcontroller-nodecontroller');
  assert.equal(
    threshold[0]!.message,
    'Drain failed. Drain has been failing for more than 10 minutes. Waiting 5 minutes then retrying. Error message from drain: error when evicting pods/"web-a" -n "default": global timeout reached: 1m30s',
  );

  await cluster.clock.run({ until: () => annotation(cluster, 'worker-0', A.State) === 'Degraded' });
  const degradedAt = cluster.clock.now();
  const requestedAt = firstAt(timeline, 'worker-0', (n) => ann(n, A.DesiredDrain) === `drain-${NEW_WORKER}`)!;
  assert.equal(degradedAt - requestedAt, 60 * MIN, 'the daemon waits exactly one hour');
  assert.equal(
    annotation(cluster, 'worker-0', A.Reason),
    'failed to drain node: worker-0 after 1 hour. Please see machine-config-controller logs for more information',
  );

  await cluster.clock.run({ until: () => drain.drainErrorNodes().includes('worker-0') });
  const failed = (await nodeEvents(c, 'worker-0')).filter(
    (e) => e.reason === 'DrainFailed' || e.reason === 'FailedToDrain',
  );
  assert.deepEqual(
    failed.map((e) => `${e.type} ${e.reason}: ${e.message}`),
    [
      'Warning FailedToDrain: failed to drain node: worker-0 after 1 hour. Please see machine-config-controller logs for more information',
      'Warning DrainFailed: node worker-0: drain exceeded timeout: 1h0m0s. Will continue to retry.',
    ],
  );
  await cluster.clock.run({ until: cluster.clock.now() + 20 * MIN });
  assert.equal(annotation(cluster, 'worker-0', A.State), 'Degraded', 'a retry does not write Working over Degraded');

  await c.patch(PodDisruptionBudgetResource, 'default', 'web', { spec: { minAvailable: 1 } }, { type: 'merge' });
  await cluster.clock.run({ until: () => isDone(cluster, 'worker-0', NEW_WORKER) });
  assert.equal(annotation(cluster, 'worker-0', A.Reason), '');
  assert.deepEqual(drain.drainErrorNodes(), [], 'mcc_drain_err cleared by the successful drain');
  assert.equal(await podAlive(c, 'web-a'), false);
  assert.ok(cluster.clock.now() - degradedAt > 20 * MIN);
});

void test('a PDB freed mid-drain lets the drain finish without degrading the node', async (t) => {
  const { cluster, timeline } = await rig(t, [{ name: 'worker-0' }, { name: 'worker-1' }]);
  const c = cluster.client;
  await createPod(c, 'web-a', 'worker-0');
  await createPod(c, 'web-b', 'worker-1');
  await createPdb(c, 'web', 'web', 2);
  await cluster.clock.run({ until: cluster.clock.now() + 30_000 });
  const t0 = cluster.clock.now();
  await setDesiredConfig(c, 'worker-0', NEW_WORKER);
  await cluster.clock.run({ until: t0 + 4 * MIN });
  assert.equal(await podAlive(c, 'web-a'), true);
  await c.patch(PodDisruptionBudgetResource, 'default', 'web', { spec: { minAvailable: 1 } }, { type: 'merge' });
  await cluster.clock.run({ until: () => isDone(cluster, 'worker-0', NEW_WORKER) });
  const drained = firstAt(timeline, 'worker-0', (n) => ann(n, A.LastAppliedDrain) === `drain-${NEW_WORKER}`)!;
  assert.ok(drained > t0 + 4 * MIN && drained < t0 + 8 * MIN, 'drained at the next attempt after the budget freed');
  assert.ok(!timeline.some((s) => ann(s.node, A.State) === 'Degraded'));
  assert.equal(await podAlive(c, 'web-b'), true);
});

void test('neverReturn keeps the rebooting node NotReady until the fault is cleared', async (t) => {
  const { cluster, daemons } = await rig(t, [{ name: 'worker-0' }]);
  daemons.neverReturn('worker-0');
  await setDesiredConfig(cluster.client, 'worker-0', NEW_WORKER);
  await cluster.clock.run({ until: () => readyCondition(cachedNode(cluster, 'worker-0')!)?.status === 'False' });
  const downAt = cluster.clock.now();
  await cluster.clock.run({ until: downAt + 3 * 60 * MIN });
  const node = cachedNode(cluster, 'worker-0')!;
  assert.equal(readyCondition(node)?.status, 'False');
  assert.equal(readyCondition(node)?.reason, 'KubeletNotReady');
  assert.equal(ann(node, A.State), 'Working');
  assert.equal(ann(node, A.CurrentConfig), OLD_WORKER);
  assert.ok(node.spec?.taints?.some((tt) => tt.key === 'node.kubernetes.io/not-ready'));

  daemons.clearFaults('worker-0');
  await cluster.clock.run({ until: () => isDone(cluster, 'worker-0', NEW_WORKER) });
  assert.ok(isNodeReady(cachedNode(cluster, 'worker-0')!));
  assert.ok(
    !(cachedNode(cluster, 'worker-0')!.spec?.taints ?? []).some((tt) => tt.key === 'node.kubernetes.io/not-ready'),
  );
});

void test('single-node (SingleReplica) skips drain and cordon', async (t) => {
  const { cluster, timeline } = await rig(t, [{ name: 'sno-0', topology: 'SingleReplica' }]);
  const c = cluster.client;
  await createPod(c, 'web-a', 'sno-0');
  await createPdb(c, 'web', 'web', 1);
  await setDesiredConfig(c, 'sno-0', NEW_WORKER);
  await cluster.clock.run({ until: () => isDone(cluster, 'sno-0', NEW_WORKER) });
  assert.ok(!timeline.some((s) => s.node.spec?.unschedulable === true), 'never cordoned');
  assert.ok(!timeline.some((s) => ann(s.node, A.DesiredDrain) === `drain-${NEW_WORKER}`), 'no drain requested');
  assert.ok(
    timeline.some((s) => readyCondition(s.node)?.status === 'False'),
    'it still rebooted',
  );
  assert.equal(await podAlive(c, 'web-a'), true, 'nothing evicted');
  const reasons = (await nodeEvents(c, 'sno-0')).map((e) => e.reason);
  assert.ok(!reasons.includes('Cordon') && !reasons.includes('Drain'));
});

void test('osUpdateError degrades the node until its window ends; unreconcilable holds it', async (t) => {
  const { cluster, daemons } = await rig(t, [{ name: 'worker-0' }, { name: 'worker-1' }]);
  const until = cluster.clock.now() + 30 * MIN;
  daemons.osUpdateError('worker-0', { until, message: 'failed to update OS: boom' });
  daemons.unreconcilable(
    'worker-1',
    "can't reconcile config rendered-worker-old with rendered-worker-new: ignition disks section contains changes: unreconcilable",
  );
  await setDesiredConfig(cluster.client, 'worker-0', NEW_WORKER);
  await setDesiredConfig(cluster.client, 'worker-1', NEW_WORKER);
  await cluster.clock.run({ until: () => annotation(cluster, 'worker-0', A.State) === 'Degraded' });
  assert.equal(annotation(cluster, 'worker-0', A.Reason), 'failed to update OS: boom');
  assert.equal(annotation(cluster, 'worker-1', A.State), 'Unreconcilable');
  assert.match(annotation(cluster, 'worker-1', A.Reason) ?? '', /^can't reconcile config/);
  await cluster.clock.run({ until: () => isDone(cluster, 'worker-0', NEW_WORKER) });
  assert.ok(cluster.clock.now() >= until);
  assert.equal(annotation(cluster, 'worker-1', A.State), 'Unreconcilable', 'still held');
  assert.equal(annotation(cluster, 'worker-1', A.CurrentConfig), OLD_WORKER);
});

void test('the same seed gives the same timeline', async (t) => {
  const run = async (): Promise<string[]> => {
    const { cluster, timeline } = await rig(t, [{ name: 'worker-0' }, { name: 'worker-1' }], 42);
    const start = cluster.clock.now();
    await setDesiredConfig(cluster.client, 'worker-0', NEW_WORKER);
    await setDesiredConfig(cluster.client, 'worker-1', NEW_WORKER);
    await cluster.clock.run({
      until: () => isDone(cluster, 'worker-0', NEW_WORKER) && isDone(cluster, 'worker-1', NEW_WORKER),
    });
    await cluster.close();
    return timeline.map(
      (s) =>
        `${s.at - start} ${s.node.metadata?.name} ${ann(s.node, A.State)} ${ann(s.node, A.DesiredDrain)} ${ann(s.node, A.LastAppliedDrain)} ${readyCondition(s.node)?.status}`,
    );
  };
  const a = await run();
  const b = await run();
  assert.deepEqual(a, b);
});

void test('nextPoll: every period from the start of the wait, never at once', () => {
  assert.equal(nextPoll(0, 0, 10_000), 10_000);
  assert.equal(nextPoll(0, 10_000, 10_000), 10_000);
  assert.equal(nextPoll(0, 10_001, 10_000), 20_000);
  assert.equal(nextPoll(5, 3_600_000, 10_000), 3_600_005);
});
