import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, NodeCondition, Taint } from 'kubernetes-types/core/v1.js';
import { DeploymentResource, NamespaceResource, NodeResource, PodResource } from '../../api/builtin.js';
import type { JsonObject } from '../../lib/json.js';
import { startTestCluster, type TestCluster } from '../test-support/cluster.test-support.js';
import { createWorkloads } from '../workloads/deployment-controller.js';
import { workloadWithPdb } from '../workloads/workload-builders.js';
import { createNodeLifecycleController, lifecycleTaints } from './node-lifecycle-controller.js';

const MINUTE = 60_000;
const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';
const CORDON: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
/** What kube-apiserver's TaintNodesByCondition admission puts on every new Node. */
const ADMISSION_TAINT: Taint = { key: NOT_READY, effect: 'NoSchedule' };

function node(ready: string | undefined, taints: Taint[]): Node {
  return {
    metadata: { name: 'n' },
    spec: { taints },
    status: { conditions: ready === undefined ? [] : [{ type: 'Ready', status: ready }] },
  };
}

const keys = (taints: readonly Taint[] | undefined): string[] => (taints ?? []).map((t) => `${t.key}:${t.effect}`);

void test('lifecycleTaints: not-ready while False, unreachable while Unknown, none when True; other taints kept', () => {
  const noExecute: Taint = { key: NOT_READY, effect: 'NoExecute', timeAdded: '2026-03-02T00:00:00Z' };
  assert.deepEqual(keys(lifecycleTaints(node('True', [ADMISSION_TAINT, CORDON, noExecute]))), [
    'node.kubernetes.io/unschedulable:NoSchedule',
  ]);
  assert.deepEqual(keys(lifecycleTaints(node('False', [CORDON]))), [
    'node.kubernetes.io/unschedulable:NoSchedule',
    `${NOT_READY}:NoSchedule`,
  ]);
  // Unknown: the unreachable key; a NoExecute taint follows the key, none is added.
  assert.deepEqual(keys(lifecycleTaints(node('Unknown', [ADMISSION_TAINT, noExecute]))), [
    `${UNREACHABLE}:NoSchedule`,
    `${UNREACHABLE}:NoExecute`,
  ]);
  assert.equal(lifecycleTaints(node('Unknown', [noExecute]))?.[1]?.timeAdded, noExecute.timeAdded);
  assert.deepEqual(keys(lifecycleTaints(node('False', [{ key: UNREACHABLE, effect: 'NoSchedule' }]))), [
    `${NOT_READY}:NoSchedule`,
  ]);
  // No Ready condition (no kubelet yet): left as it is.
  assert.equal(lifecycleTaints(node(undefined, [ADMISSION_TAINT])), undefined);
});

async function setReady(cluster: TestCluster, name: string, status: 'True' | 'False' | 'Unknown'): Promise<void> {
  const condition: NodeCondition = { type: 'Ready', status, reason: status === 'True' ? 'KubeletReady' : 'Test' };
  await cluster.client.patch(
    NodeResource,
    undefined,
    name,
    { status: { conditions: [condition as unknown as JsonObject] } },
    { type: 'merge', subresource: 'status' },
  );
}

void test('Nodes tainted at admission lose the not-ready taint once Ready, and workload pods get scheduled; a reboot taints again', async (t) => {
  const cluster = await startTestCluster(t, { seed: 3 });
  const c = cluster.client;
  // As TaintNodesByCondition admits them: not-ready from creation, before any status.
  for (const name of ['worker-a', 'worker-b', 'foreign'])
    await c.create(NodeResource, {
      metadata: { name, labels: { 'node-role.kubernetes.io/worker': '' } },
      spec: { taints: [ADMISSION_TAINT] },
    });
  const w = workloadWithPdb({ name: 'web', namespace: 'shop', replicas: 2, minAvailable: 1 });
  await c.create(NamespaceResource, w.namespace);
  await c.create(DeploymentResource, w.deployment);
  await createNodeLifecycleController(cluster.ctx, { foreignNodes: new Set(['foreign']) }).start(cluster.signal);
  await createWorkloads(cluster.ctx).start(cluster.signal);
  const nodes = cluster.ctx.informers.informerFor(NodeResource);
  const pods = cluster.ctx.informers.informerFor(PodResource);
  const taintsOf = (name: string): string[] => keys(nodes.get(undefined, name)?.spec?.taints);
  const until = async (cond: () => boolean, maxMs: number, what: string): Promise<void> => {
    const deadline = cluster.clock.now() + maxMs;
    await cluster.clock.run({ until: () => cond() || cluster.clock.now() >= deadline });
    assert.ok(cond(), `${what}: not reached within ${maxMs / MINUTE} virtual minutes`);
  };

  // No Ready condition yet: the taint stays, and no pod can be placed.
  await cluster.clock.run({ until: cluster.clock.now() + MINUTE });
  assert.deepEqual(taintsOf('worker-a'), [`${NOT_READY}:NoSchedule`]);
  assert.equal(pods.list('shop').length, 0);

  for (const name of ['worker-a', 'worker-b', 'foreign']) await setReady(cluster, name, 'True');
  await until(() => taintsOf('worker-a').length === 0 && taintsOf('worker-b').length === 0, MINUTE, 'taints lifted');
  await until(
    () => pods.list('shop').filter((p) => p.status?.phase === 'Running').length === 2,
    2 * MINUTE,
    'pods run',
  );
  // Never on the foreign Node, whose taint stays.
  assert.ok(pods.list('shop').every((p) => p.spec?.nodeName === 'worker-a' || p.spec?.nodeName === 'worker-b'));
  // Not the simulation's Node: its own controllers keep it.
  assert.deepEqual(taintsOf('foreign'), [`${NOT_READY}:NoSchedule`]);

  // A reboot (Ready=False) of a cordoned node: not-ready joins the cordon, and leaves without it.
  await c.patch(
    NodeResource,
    undefined,
    'worker-a',
    { spec: { unschedulable: true, taints: [CORDON as unknown as JsonObject] } },
    { type: 'merge' },
  );
  await setReady(cluster, 'worker-a', 'False');
  await until(() => taintsOf('worker-a').includes(`${NOT_READY}:NoSchedule`), MINUTE, 'not-ready on reboot');
  assert.deepEqual(taintsOf('worker-a'), ['node.kubernetes.io/unschedulable:NoSchedule', `${NOT_READY}:NoSchedule`]);
  await setReady(cluster, 'worker-a', 'Unknown');
  await until(() => taintsOf('worker-a').includes(`${UNREACHABLE}:NoSchedule`), MINUTE, 'unreachable');
  assert.ok(!taintsOf('worker-a').includes(`${NOT_READY}:NoSchedule`));
  await setReady(cluster, 'worker-a', 'True');
  await until(() => taintsOf('worker-a').length === 1, MINUTE, 'back');
  assert.deepEqual(taintsOf('worker-a'), ['node.kubernetes.io/unschedulable:NoSchedule']);
});
