/**
 * The profiles installed and upgraded on the embedded API server: single-node and bare-metal
 * through their scenario files, infra nodes in their own pool, and a 100-worker cloud cluster
 * whose workers all roll.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import { EventResource, NodeResource } from '../api/builtin.js';
import { INFRASTRUCTURE_NAME, InfrastructureResource } from '../api/openshift/config-v1/infrastructure.js';
import { MachineResource } from '../api/openshift/machine-v1beta1/machine.js';
import { MachineSetResource } from '../api/openshift/machine-v1beta1/machine-set.js';
import { MachineConfigPoolResource } from '../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { runCheckedScenario } from '../api/deploy/operator-requests.test-support.js';
import { loadScenario, type ScenarioOutcome } from '../cli/scenarios/catalog.js';
import type { ScenarioFile } from '../cli/scenarios/scenario-file.js';
import type { ScenarioRun } from '../cli/scenarios/scenario-runner.js';
import { startSimEnvironment } from '../cli/scenarios/sim-environment.js';
import { createSimulatedCluster } from './cluster.js';
import { startTestCluster } from './test-support/cluster.test-support.js';

/** What happened to the nodes during a run, seen through a watch like any client. */
interface NodeHistory {
  cordoned: Set<string>;
  notReady: Set<string>;
  names: Set<string>;
}

function watchNodes(run: ScenarioRun, history: NodeHistory): void {
  const observe = (n: Node): void => {
    const name = n.metadata?.name ?? '';
    history.names.add(name);
    if (
      n.spec?.unschedulable === true ||
      (n.spec?.taints ?? []).some((t) => t.key === 'node.kubernetes.io/unschedulable')
    )
      history.cordoned.add(name);
    if (n.status?.conditions?.some((c) => c.type === 'Ready' && c.status !== 'True')) history.notReady.add(name);
  };
  const informer = run.env.ctx.informers.informerFor(NodeResource);
  informer.addHandlers({ onAdd: observe, onUpdate: (_old, n) => observe(n) });
  for (const n of informer.list()) observe(n);
}

async function run(
  t: TestContext,
  name: string,
  file: ScenarioFile,
  onStart?: (run: ScenarioRun) => void,
): Promise<ScenarioOutcome & { nodes: NodeHistory }> {
  const env = await startSimEnvironment({ seed: 1 });
  t.after(() => env.close());
  const nodes: NodeHistory = { cordoned: new Set(), notReady: new Set(), names: new Set() };
  const outcome = await runCheckedScenario(env, name, file, {
    seed: 1,
    beforeManifests: (r) => {
      watchNodes(r, nodes);
      onStart?.(r);
    },
  });
  t.after(() => outcome.run.close());
  return { ...outcome, nodes };
}

void test('sno-manual-upgrade: one node rebooted, never cordoned or drained; SingleReplica Infrastructure; worker pool empty', async (t) => {
  const outcome = await run(t, 'sno-manual-upgrade', loadScenario('sno-manual-upgrade').file);
  assert.ok(outcome.ok, outcome.summary);
  const client = outcome.run.env.client;

  const infra = await client.get(InfrastructureResource, undefined, INFRASTRUCTURE_NAME);
  assert.equal(infra.status?.controlPlaneTopology, 'SingleReplica');
  assert.equal(infra.status?.infrastructureTopology, 'SingleReplica');
  assert.equal(infra.status?.platformStatus?.type, 'None');

  assert.deepEqual([...outcome.nodes.names], ['sno-0']);
  assert.deepEqual([...outcome.nodes.notReady], ['sno-0'], 'the node rebooted once into the new OS');
  assert.deepEqual([...outcome.nodes.cordoned], [], 'the node was never cordoned');
  const events = (await client.list(EventResource)).items.map((e) => e.reason);
  assert.ok(
    !events.includes('Cordon') && !events.includes('Drain'),
    `no cordon or drain: ${[...new Set(events)].join(', ')}`,
  );

  const pools = Object.fromEntries(
    (await client.list(MachineConfigPoolResource)).items.map((p) => [
      p.metadata?.name,
      [p.status?.updatedMachineCount, p.status?.machineCount],
    ]),
  );
  assert.deepEqual(pools, { master: [1, 1], worker: [0, 0] });
  const minutes = Number(outcome.report['virtualMinutes']);
  assert.ok(
    minutes > 35 && minutes < 90,
    `a single-node minor upgrade takes about 45–60 virtual minutes, took ${minutes}`,
  );
});

void test('bare-metal-managed-upgrade: the operator upgrades a cluster without MachineSets; platform BareMetal; slow reboots', async (t) => {
  const outcome = await run(t, 'bare-metal-managed-upgrade', loadScenario('bare-metal-managed-upgrade').file);
  assert.ok(outcome.ok, outcome.summary);
  const client = outcome.run.env.client;

  const infra = await client.get(InfrastructureResource, undefined, INFRASTRUCTURE_NAME);
  assert.equal(infra.status?.platformStatus?.type, 'BareMetal');
  assert.equal(infra.status?.controlPlaneTopology, 'HighlyAvailable');
  assert.equal(infra.status?.infrastructureName, 'metal-q4r8t');

  assert.equal((await client.list(MachineSetResource)).items.length, 0);
  assert.equal((await client.list(MachineResource)).items.length, 0);
  assert.deepEqual([...outcome.nodes.names].sort(), [
    'master-0',
    'master-1',
    'master-2',
    'worker-0',
    'worker-1',
    'worker-2',
  ]);
  // Every node was cordoned for its drain and rebooted.
  assert.equal(outcome.nodes.cordoned.size, 6);
  assert.equal(outcome.nodes.notReady.size, 6);
  const minutes = Number(outcome.report['virtualMinutes']);
  assert.ok(minutes > 110, `bare-metal reboots make the upgrade long, took ${minutes} virtual minutes`);
});

void test('100 workers install over three zones and all roll to the new release', async (t) => {
  const file: ScenarioFile = {
    description: 'a 100-worker ha-cloud cluster upgraded 4.14 → 4.15 by hand',
    cluster: { profile: 'ha-cloud', version: '4.14.30', channel: 'stable-4.14', workers: 100 },
    actions: [
      { name: 'channel', do: { setChannel: 'stable-4.15' } },
      { name: 'upgrade', when: { offered: '4.15.' }, do: { upgradeToLatest: '4.15.' } },
    ],
    end: { clusterUpgraded: true, timeout: '12h' },
    expect: { clusterVersionCompleted: true, poolsUpdated: true },
  };
  let widened: Promise<unknown> = Promise.resolve();
  let mostUnavailable = 0;
  // What an administrator of a large cluster does: roll a quarter of the workers at a time.
  const outcome = await run(t, '100 workers', file, (r) => {
    widened = r.env.client.patch(
      MachineConfigPoolResource,
      undefined,
      'worker',
      { spec: { maxUnavailable: '25%' } },
      { type: 'merge' },
    );
    r.env.ctx.informers.informerFor(MachineConfigPoolResource).addHandlers({
      onUpdate: (_old, p) => {
        if (p.metadata?.name === 'worker')
          mostUnavailable = Math.max(mostUnavailable, p.status?.unavailableMachineCount ?? 0);
      },
    });
  });
  await widened;
  assert.ok(outcome.ok, outcome.summary);
  const client = outcome.run.env.client;

  const nodes = (await client.list(NodeResource)).items;
  assert.equal(nodes.length, 103);
  const workers = nodes.filter((n) => n.metadata?.labels?.['node-role.kubernetes.io/worker'] !== undefined);
  assert.equal(workers.length, 100);
  const zones = new Map<string, number>();
  for (const w of workers)
    zones.set(
      w.metadata?.labels?.['topology.kubernetes.io/zone'] ?? '',
      (zones.get(w.metadata?.labels?.['topology.kubernetes.io/zone'] ?? '') ?? 0) + 1,
    );
  assert.deepEqual([...zones.values()].sort(), [33, 33, 34]);
  const sets = (await client.list(MachineSetResource)).items.map((m) => m.spec?.replicas);
  assert.deepEqual(sets.sort(), [33, 33, 34]);
  assert.equal((await client.list(MachineResource)).items.length, 100);

  const worker = await client.get(MachineConfigPoolResource, undefined, 'worker');
  assert.deepEqual([worker.status?.updatedMachineCount, worker.status?.machineCount], [100, 100]);
  for (const w of workers)
    assert.equal(
      w.metadata?.annotations?.['machineconfiguration.openshift.io/currentConfig'],
      worker.spec.configuration?.name,
      w.metadata?.name,
    );
  assert.equal(outcome.nodes.notReady.size, 103, 'every node rebooted');
  // A quarter of the workers at a time, never more.
  assert.ok(mostUnavailable > 1 && mostUnavailable <= 25, `at most ${mostUnavailable} workers unavailable at once`);
});

void test('infraNodes install an infra pool with its nodes and one infra MachineSet per zone', async (t) => {
  const c = await startTestCluster(t);
  const sim = createSimulatedCluster(c.ctx, { profile: 'ha-cloud', workers: 4, infraNodes: 3, serveMonitoring: false });
  t.after(() => sim.close());
  await sim.start(c.signal);
  const pools = Object.fromEntries(
    (await c.client.list(MachineConfigPoolResource)).items.map((p) => [
      p.metadata?.name,
      [p.status?.updatedMachineCount, p.status?.machineCount],
    ]),
  );
  assert.deepEqual(pools, { master: [3, 3], worker: [4, 4], infra: [3, 3] });
  const infraPool = await c.client.get(MachineConfigPoolResource, undefined, 'infra');
  assert.match(infraPool.spec.configuration?.name ?? '', /^rendered-infra-/);
  const sets = (await c.client.list(MachineSetResource)).items.map(
    (m) => `${m.metadata?.name}=${m.spec?.replicas}:${m.metadata?.labels?.['hive.openshift.io/machine-pool']}`,
  );
  assert.deepEqual(sets.sort(), [
    'sim-x7k2p-infra-us-east-1a=1:infra',
    'sim-x7k2p-infra-us-east-1b=1:infra',
    'sim-x7k2p-infra-us-east-1c=1:infra',
    'sim-x7k2p-worker-us-east-1a=2:worker',
    'sim-x7k2p-worker-us-east-1b=1:worker',
    'sim-x7k2p-worker-us-east-1c=1:worker',
  ]);
  const infraMachines = (await c.client.list(MachineResource)).items.filter(
    (m) => m.metadata?.labels?.['machine.openshift.io/cluster-api-machine-role'] === 'infra',
  );
  assert.equal(infraMachines.length, 3);
  const infra = await c.client.get(InfrastructureResource, undefined, INFRASTRUCTURE_NAME);
  assert.deepEqual(
    [infra.status?.platformStatus?.type, infra.status?.controlPlaneTopology, infra.status?.infrastructureName],
    ['AWS', 'HighlyAvailable', 'sim-x7k2p'],
  );
});
