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
import { MachineResource, type Machine } from '../../api/openshift/machine-v1beta1/machine.js';
import { MachineSetResource, type MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import {
  MachineConfigPoolResource,
  type MachineConfigPool,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { startTestCluster, type TestCluster } from '../test-support/cluster.test-support.js';
import { createWorkloads } from '../workloads/deployment-controller.js';
import { isCordoned } from '../workloads/drain.js';
import { workloadWithPdb } from '../workloads/workload-builders.js';
import { createMachineApi } from './machine-api.js';

const MINUTE = 60_000;
const NS = 'openshift-machine-api';
const INFRA = 'mycluster-x7k2p';
const MS = `${INFRA}-worker-us-east-1a`;
const OLD = 'rendered-worker-3b8f0c6d1e2a4957b8c0d9e1f2a3b4c5';
const NEW = 'rendered-worker-9c1d7e52b0a44f3e8d6a21b7c5f0e3a9';
const CURRENT = 'machineconfiguration.openshift.io/currentConfig';

function machineSet(
  name: string,
  replicas: number,
  extra: { deletePolicy?: 'Random' | 'Oldest' | 'Newest'; nodeLabels?: Record<string, string>; upgrade?: boolean } = {},
): MachineSet {
  const selector: Record<string, string> = {
    'machine.openshift.io/cluster-api-cluster': INFRA,
    'machine.openshift.io/cluster-api-machineset': name,
  };
  if (extra.upgrade) selector['upgrade.managed.openshift.io'] = 'true';
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: {
      name,
      namespace: NS,
      labels: extra.upgrade
        ? { 'upgrade.managed.openshift.io': 'true' }
        : { 'machine.openshift.io/cluster-api-cluster': INFRA },
    },
    spec: {
      replicas,
      ...(extra.deletePolicy ? { deletePolicy: extra.deletePolicy } : {}),
      selector: { matchLabels: selector },
      template: {
        metadata: {
          labels: {
            ...selector,
            'machine.openshift.io/cluster-api-machine-role': 'worker',
            'machine.openshift.io/cluster-api-machine-type': 'worker',
          },
        },
        spec: {
          metadata: extra.nodeLabels ? { labels: extra.nodeLabels } : {},
          providerSpec: {
            value: {
              apiVersion: 'machine.openshift.io/v1beta1',
              kind: 'AWSMachineProviderConfig',
              instanceType: 'm6i.xlarge',
              placement: { availabilityZone: 'us-east-1a', region: 'us-east-1' },
            },
          },
        },
      },
    },
  };
}

async function setup(
  t: Parameters<typeof startTestCluster>[0],
  seed: number,
): Promise<{ cluster: TestCluster; api: ReturnType<typeof createMachineApi> }> {
  const cluster = await startTestCluster(t, { seed });
  const c = cluster.client;
  await c.create(NamespaceResource, { metadata: { name: NS } });
  const pool: MachineConfigPool = {
    apiVersion: 'machineconfiguration.openshift.io/v1',
    kind: 'MachineConfigPool',
    metadata: { name: 'worker' },
    spec: {
      nodeSelector: { matchLabels: { 'node-role.kubernetes.io/worker': '' } },
      paused: false,
      maxUnavailable: 1,
      configuration: { name: NEW },
    },
  };
  const created = await c.create(MachineConfigPoolResource, pool);
  await setPoolStatus(cluster, created, 0);
  const api = createMachineApi(cluster.ctx);
  await api.start(cluster.signal);
  await createWorkloads(cluster.ctx).start(cluster.signal);
  return { cluster, api };
}

async function setPoolStatus(cluster: TestCluster, pool: MachineConfigPool, updated: number): Promise<void> {
  const fresh = await cluster.client.get(MachineConfigPoolResource, undefined, pool.metadata?.name ?? '');
  await cluster.client.updateStatus(MachineConfigPoolResource, {
    ...fresh,
    status: {
      observedGeneration: 1,
      configuration: { name: OLD },
      machineCount: 2,
      updatedMachineCount: updated,
      readyMachineCount: updated,
      unavailableMachineCount: 0,
      degradedMachineCount: 0,
    },
  });
}

function views(cluster: TestCluster) {
  const machines = cluster.ctx.informers.informerFor(MachineResource);
  const sets = cluster.ctx.informers.informerFor(MachineSetResource);
  const nodes = cluster.ctx.informers.informerFor(NodeResource);
  const pods = cluster.ctx.informers.informerFor(PodResource);
  const of = (set: string): Machine[] =>
    machines.list(NS).filter((m) => m.metadata?.labels?.['machine.openshift.io/cluster-api-machineset'] === set);
  const running = (set: string): Machine[] => of(set).filter((m) => m.status?.phase === 'Running');
  const nodeOf = (m: Machine): Node | undefined => nodes.get(undefined, m.status?.nodeRef?.name ?? '');
  const until = async (cond: () => boolean, maxMs: number, what: string): Promise<void> => {
    const deadline = cluster.clock.now() + maxMs;
    await cluster.clock.run({ until: () => cond() || cluster.clock.now() >= deadline });
    assert.ok(cond(), `${what}: not reached within ${maxMs / MINUTE} virtual minutes`);
  };
  return { machines, sets, nodes, pods, of, running, nodeOf, until };
}

void test('scale-up 2 → 3 (through /scale): Machines go Provisioning → Provisioned → Running, Nodes join the pool with the §5.8 config', async (t) => {
  const { cluster } = await setup(t, 11);
  const v = views(cluster);
  const c = cluster.client;
  const t0 = cluster.clock.now();
  await c.create(MachineSetResource, machineSet(MS, 2, { deletePolicy: 'Oldest' }));
  await v.until(() => v.of(MS).length === 2, MINUTE, 'two machines');
  for (const m of v.of(MS)) {
    assert.match(m.metadata?.name ?? '', new RegExp(`^${MS}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
    assert.equal(m.metadata?.ownerReferences?.[0]?.kind, 'MachineSet');
    assert.equal(m.metadata?.labels?.['machine.openshift.io/cluster-api-machineset'], MS);
  }
  await v.until(() => v.of(MS).every((m) => m.status?.phase === 'Provisioned'), 3 * MINUTE, 'provisioned');
  const provisioned = v.of(MS)[0]!;
  assert.equal(provisioned.status?.nodeRef, undefined);
  assert.match(provisioned.spec?.providerID ?? '', /^aws:\/\/\/us-east-1a\/i-0[0-9a-f]{16}$/);
  assert.equal(provisioned.status?.addresses?.[0]?.type, 'InternalIP');
  assert.equal(provisioned.metadata?.finalizers?.[0], 'machine.machine.openshift.io');
  await v.until(
    () => v.running(MS).length === 2 && v.sets.get(NS, MS)?.status?.readyReplicas === 2,
    10 * MINUTE,
    'two running',
  );
  const elapsed = cluster.clock.now() - t0;
  assert.ok(elapsed >= 3 * MINUTE && elapsed <= 8 * MINUTE, `Running after ${elapsed / MINUTE} min`);
  // No node of the pool is updated yet: new nodes boot the pool's current (old) config.
  for (const m of v.running(MS)) {
    const node = v.nodeOf(m)!;
    assert.equal(node.metadata?.annotations?.[CURRENT], OLD);
    assert.equal(node.metadata?.annotations?.['machineconfiguration.openshift.io/desiredConfig'], OLD);
    assert.equal(node.metadata?.annotations?.['machineconfiguration.openshift.io/state'], 'Done');
    assert.equal(node.metadata?.annotations?.['machine.openshift.io/machine'], `${NS}/${m.metadata?.name}`);
    assert.equal(node.metadata?.labels?.['node-role.kubernetes.io/worker'], '');
    assert.equal(node.metadata?.labels?.['topology.kubernetes.io/zone'], 'us-east-1a');
    assert.match(node.metadata?.name ?? '', /^ip-10-0-\d+-\d+\.ec2\.internal$/);
    assert.equal(m.status?.nodeRef?.name, node.metadata?.name);
  }
  const status = v.sets.get(NS, MS)?.status;
  assert.deepEqual(
    [
      status?.replicas,
      status?.fullyLabeledReplicas,
      status?.readyReplicas,
      status?.availableReplicas,
      status?.observedGeneration,
    ],
    [2, 2, 2, 2, 1],
  );

  // One node of the pool has updated: a node joining now gets the target config.
  const pool = await c.get(MachineConfigPoolResource, undefined, 'worker');
  await setPoolStatus(cluster, pool, 1);
  await c.patch(MachineSetResource, NS, MS, { spec: { replicas: 3 } }, { type: 'merge', subresource: 'scale' });
  const before = new Set(v.of(MS).map((m) => m.metadata?.name));
  const t1 = cluster.clock.now();
  await v.until(
    () => v.running(MS).length === 3 && v.sets.get(NS, MS)?.status?.readyReplicas === 3,
    10 * MINUTE,
    'three running',
  );
  const added = v.running(MS).find((m) => !before.has(m.metadata?.name))!;
  assert.equal(v.nodeOf(added)?.metadata?.annotations?.[CURRENT], NEW);
  assert.ok(cluster.clock.now() - t1 >= 3 * MINUTE);
});

void test('an -upgrade clone scaled 0 → 1 → 0: its Node joins; on scale-down the drain waits for a blocking PDB, then the Node and Machine go', async (t) => {
  const { cluster } = await setup(t, 12);
  const v = views(cluster);
  const c = cluster.client;
  const CLONE = `${MS}-upgrade`;
  await c.create(
    MachineSetResource,
    machineSet(CLONE, 0, { upgrade: true, nodeLabels: { 'sim.example.com/extra': 'true' } }),
  );
  await v.until(() => v.sets.get(NS, CLONE)?.status?.replicas === 0, MINUTE, 'clone observed');
  assert.equal(v.of(CLONE).length, 0);
  await c.patch(MachineSetResource, NS, CLONE, { spec: { replicas: 1 } }, { type: 'merge', subresource: 'scale' });
  // MUO waits for status.replicas == readyReplicas and a Ready node behind the one Machine.
  await v.until(() => v.sets.get(NS, CLONE)?.status?.readyReplicas === 1, 10 * MINUTE, 'clone ready');
  const machine = v.of(CLONE)[0]!;
  const nodeName = machine.status?.nodeRef?.name ?? '';
  assert.equal(v.nodes.get(undefined, nodeName)?.metadata?.labels?.['sim.example.com/extra'], 'true');

  // A workload pinned to that node whose PDB allows no disruption.
  const w = workloadWithPdb({
    name: 'pinned',
    namespace: 'shop',
    replicas: 1,
    maxUnavailable: 0,
    nodeSelector: { 'sim.example.com/extra': 'true' },
  });
  await c.create(NamespaceResource, w.namespace);
  await c.create(DeploymentResource, w.deployment);
  await c.create(PodDisruptionBudgetResource, w.pdb);
  const shopPods = (): Pod[] => v.pods.list('shop');
  await v.until(() => shopPods().some((p) => p.status?.phase === 'Running'), 3 * MINUTE, 'pinned pod running');

  await c.patch(MachineSetResource, NS, CLONE, { spec: { replicas: 0 } }, { type: 'merge', subresource: 'scale' });
  await v.until(
    () => v.machines.get(NS, machine.metadata?.name ?? '')?.status?.phase === 'Deleting',
    MINUTE,
    'deleting',
  );
  const blockedFrom = cluster.clock.now();
  await v.until(() => cluster.clock.now() >= blockedFrom + 10 * MINUTE, 11 * MINUTE, 'ten minutes pass');
  // Still blocked: cordoned, the pod still there, the Machine and Node still there.
  assert.ok(isCordoned(v.nodes.get(undefined, nodeName)!), 'node cordoned');
  assert.equal(shopPods().filter((p) => p.metadata?.deletionTimestamp === undefined).length, 1);
  assert.equal(v.machines.get(NS, machine.metadata?.name ?? '')?.status?.phase, 'Deleting');
  assert.equal(v.sets.get(NS, CLONE)?.status?.replicas, 1, 'a deleting machine still counts');

  // Free the budget: the drain succeeds at its next retry, then the instance and Node go.
  await c.patch(PodDisruptionBudgetResource, 'shop', 'pinned', { spec: { maxUnavailable: 1 } }, { type: 'merge' });
  await v.until(() => v.machines.get(NS, machine.metadata?.name ?? '') === undefined, 5 * MINUTE, 'machine gone');
  assert.equal(v.nodes.get(undefined, nodeName), undefined, 'node deleted');
  await v.until(() => v.sets.get(NS, CLONE)?.status?.replicas === 0, MINUTE, 'status replicas 0');
  // The evicted pod's replacement cannot be placed anywhere (its node is gone): nothing is Running.
  assert.ok(!shopPods().some((p) => p.spec?.nodeName === nodeName && p.metadata?.deletionTimestamp === undefined));
});

void test('deletePolicy Newest and the delete-machine annotation pick the machines to remove; deleting a MachineSet removes its machines', async (t) => {
  const { cluster } = await setup(t, 13);
  const v = views(cluster);
  const c = cluster.client;
  await c.create(MachineSetResource, machineSet(MS, 1, { deletePolicy: 'Newest' }));
  await v.until(() => v.running(MS).length === 1, 10 * MINUTE, 'first');
  const first = v.of(MS)[0]!.metadata?.name ?? '';
  await c.patch(MachineSetResource, NS, MS, { spec: { replicas: 2 } }, { type: 'merge' });
  await v.until(() => v.running(MS).length === 2, 10 * MINUTE, 'second');
  const second = v.of(MS).find((m) => m.metadata?.name !== first)!.metadata?.name ?? '';
  await c.patch(MachineSetResource, NS, MS, { spec: { replicas: 3 } }, { type: 'merge' });
  await v.until(() => v.running(MS).length === 3, 10 * MINUTE, 'third');
  const third = v.of(MS).find((m) => m.metadata?.name !== first && m.metadata?.name !== second)!.metadata?.name ?? '';

  await c.patch(MachineSetResource, NS, MS, { spec: { replicas: 2 } }, { type: 'merge' });
  await v.until(() => v.of(MS).length === 2, 5 * MINUTE, 'newest removed');
  assert.deepEqual(
    v
      .of(MS)
      .map((m) => m.metadata?.name)
      .sort(),
    [first, second].sort(),
  );
  assert.ok(v.machines.get(NS, third) === undefined);

  await c.patch(
    MachineResource,
    NS,
    first,
    { metadata: { annotations: { 'machine.openshift.io/delete-machine': 'true' } } },
    { type: 'merge' },
  );
  await c.patch(MachineSetResource, NS, MS, { spec: { replicas: 1 } }, { type: 'merge' });
  await v.until(() => v.of(MS).length === 1, 5 * MINUTE, 'annotated removed');
  assert.equal(v.of(MS)[0]?.metadata?.name, second);
  const survivorNode = v.of(MS)[0]?.status?.nodeRef?.name ?? '';

  await c.delete(MachineSetResource, NS, MS);
  await v.until(() => v.of(MS).length === 0, 5 * MINUTE, 'machines of a deleted MachineSet');
  assert.equal(v.nodes.get(undefined, survivorNode), undefined);
});
