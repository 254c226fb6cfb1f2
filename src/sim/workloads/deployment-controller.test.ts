import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import {
  DeploymentResource,
  NamespaceResource,
  NodeResource,
  PodDisruptionBudgetResource,
  PodResource,
} from '../../api/builtin.js';
import { startTestCluster } from '../test-support/cluster.test-support.js';
import { createWorkloads, deploymentStatus, maxUnavailableOf } from './deployment-controller.js';
import { evictPod, setUnschedulable } from './drain.js';
import { workloadWithPdb } from './workload-builders.js';

const MINUTE = 60_000;

function readyNode(name: string, role: 'worker' | 'master'): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { [`node-role.kubernetes.io/${role}`]: '', 'kubernetes.io/hostname': name } },
    spec: role === 'master' ? { taints: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule' }] } : {},
    status: {
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
    },
  };
}

void test('maxUnavailable resolves percentages downwards; status counts ready pods', () => {
  const d = { spec: { replicas: 4, selector: {}, template: {} } };
  assert.equal(maxUnavailableOf(d, 4), 1);
  assert.equal(maxUnavailableOf({ spec: { ...d.spec, strategy: { rollingUpdate: { maxUnavailable: 0 } } } }, 4), 0);
  const s = deploymentStatus({ metadata: { generation: 3 }, ...d }, [], 'x-abc', 0);
  assert.equal(s.observedGeneration, 3);
  assert.equal(s.unavailableReplicas, 4);
  assert.equal(s.conditions?.[0]?.reason, 'MinimumReplicasUnavailable');
});

void test('workload pods spread over schedulable workers, start after a delay, and are rescheduled after an eviction', async (t) => {
  const cluster = await startTestCluster(t, { seed: 7 });
  const c = cluster.client;
  for (const n of ['master-0', 'worker-a', 'worker-b', 'worker-c'])
    await c.create(NodeResource, readyNode(n, n.startsWith('master') ? 'master' : 'worker'));
  const w = workloadWithPdb({ name: 'web', namespace: 'shop', replicas: 3, minAvailable: 2 });
  await c.create(NamespaceResource, w.namespace);
  await c.create(DeploymentResource, w.deployment);
  await c.create(PodDisruptionBudgetResource, w.pdb);
  await createWorkloads(cluster.ctx).start(cluster.signal);
  const start = cluster.clock.now();

  const podInf = cluster.ctx.informers.informerFor(PodResource);
  const pdbInf = cluster.ctx.informers.informerFor(PodDisruptionBudgetResource);
  await pdbInf.waitForSync(cluster.signal);
  const live = (): Pod[] => podInf.list('shop').filter((p) => p.metadata?.deletionTimestamp === undefined);
  const runningCount = (): number =>
    live().filter(
      (p) =>
        p.status?.phase === 'Running' && p.status.conditions?.some((x) => x.type === 'Ready' && x.status === 'True'),
    ).length;
  const until = async (cond: () => boolean, maxMs: number): Promise<void> => {
    const deadline = cluster.clock.now() + maxMs;
    await cluster.clock.run({ until: () => cond() || cluster.clock.now() >= deadline });
    assert.ok(cond(), `condition not reached within ${maxMs / MINUTE} virtual minutes`);
  };

  await until(() => live().length === 3, MINUTE);
  assert.ok(
    live().every((p) => p.status?.phase === 'Pending'),
    'pods start Pending',
  );
  assert.equal(cluster.clock.now(), start, 'pods are created at once');
  await until(() => runningCount() === 3, 2 * MINUTE);
  assert.ok(cluster.clock.now() > start, 'pods start after a delay');
  const nodesOf = (): string[] =>
    live()
      .map((p) => p.spec?.nodeName ?? '')
      .sort();
  assert.deepEqual(nodesOf(), ['worker-a', 'worker-b', 'worker-c']);
  for (const p of live()) {
    assert.match(p.metadata?.name ?? '', /^web-[bcdfghjklmnpqrstvwxz2456789]+-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.equal(p.metadata?.ownerReferences?.[0]?.kind, 'Deployment');
  }
  await until(() => pdbInf.get('shop', 'web')?.status?.disruptionsAllowed === 1, MINUTE);
  const dep = await c.get(DeploymentResource, 'shop', 'web');
  assert.equal(dep.status?.readyReplicas, 3);
  assert.equal(dep.status?.conditions?.find((x) => x.type === 'Available')?.status, 'True');

  // Cordon worker-a and evict its pod: the replacement lands on another worker after a delay.
  const nodeA = await c.get(NodeResource, undefined, 'worker-a');
  await setUnschedulable(c, nodeA, true, cluster.clock.now());
  const victim = live().find((p) => p.spec?.nodeName === 'worker-a')!;
  const first = await evictPod(c, victim);
  assert.equal(first.result, 'evicted');
  // The budget is now at its limit: a second eviction is refused with 429.
  await until(() => pdbInf.get('shop', 'web')?.status?.disruptionsAllowed === 0, MINUTE);
  const other = live().find((p) => p.spec?.nodeName === 'worker-b')!;
  const second = await evictPod(c, other);
  assert.equal(second.result, 'blocked');
  assert.match(second.message ?? '', /The disruption budget web needs 2 healthy pods and has 2 currently/);
  await until(() => runningCount() === 3 && live().length === 3, 3 * MINUTE);
  assert.ok(!live().some((p) => p.spec?.nodeName === 'worker-a'), 'nothing is scheduled on the cordoned node');
  assert.ok(!live().some((p) => p.metadata?.name === victim.metadata?.name));
  await until(() => pdbInf.get('shop', 'web')?.status?.disruptionsAllowed === 1, MINUTE);

  // Scale down to 1: two pods go.
  await c.patch(DeploymentResource, 'shop', 'web', { spec: { replicas: 1 } }, { type: 'merge' });
  await until(() => live().length === 1, MINUTE);
  await until(() => podInf.list('shop').length === 1, 2 * MINUTE);
});
