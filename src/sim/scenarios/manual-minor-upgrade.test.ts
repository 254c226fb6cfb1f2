import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeResource } from '../../api/builtin.js';
import { ClusterOperatorResource } from '../../api/openshift/config-v1/cluster-operator.js';
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { startTestCluster, type TestCluster } from '../test-support/cluster.test-support.js';
import { runManualMinorUpgrade, type ProgressSnapshot, type ScenarioResult } from './manual-minor-upgrade.js';

async function run(
  t: Parameters<typeof startTestCluster>[0],
  seed: number,
): Promise<{ cluster: TestCluster; result: ScenarioResult; timeline: ProgressSnapshot[] }> {
  const cluster = await startTestCluster(t, { seed });
  const timeline: ProgressSnapshot[] = [];
  const result = await runManualMinorUpgrade(cluster.ctx, cluster.clock, {
    signal: cluster.signal,
    onProgress: (p) => timeline.push(p),
  });
  return { cluster, result, timeline };
}

void test('manual-minor-upgrade: the whole cluster reaches the target, and one seed gives one timeline', async (t) => {
  const first = await run(t, 3);
  const { result, cluster } = first;
  assert.equal(result.completed, true);
  assert.match(result.to, /^4\.15\.\d+$/);
  assert.ok(result.upgradeMinutes >= 40 && result.upgradeMinutes <= 200, `${result.upgradeMinutes} virtual minutes`);
  const last = first.timeline.at(-1)!;
  assert.equal(last.progressing, `Cluster version is ${result.to}`);
  assert.deepEqual(last.pools, { master: [3, 3], worker: [3, 3] });
  assert.ok(
    first.timeline.some((p) => /Working towards 4\.15\.\d+: \d+ of \d+ done \(\d+% complete\)/.test(p.progressing)),
  );

  // What a user reads afterwards: every operator at the target, every node on its pool's new
  // rendered config and schedulable, no extra machines.
  const cos = await cluster.client.list(ClusterOperatorResource);
  for (const co of cos.items)
    assert.equal(
      co.status?.versions?.find((v) => v.name === 'operator')?.version,
      result.to,
      `ClusterOperator ${co.metadata?.name}`,
    );
  const pools = (await cluster.client.list(MachineConfigPoolResource)).items;
  for (const p of pools) {
    assert.equal(p.status?.machineCount, 3);
    assert.match(p.spec.configuration?.name ?? '', new RegExp(`^rendered-${p.metadata?.name}-`));
  }
  for (const n of (await cluster.client.list(NodeResource)).items) {
    const role = n.metadata?.labels?.['node-role.kubernetes.io/master'] !== undefined ? 'master' : 'worker';
    const pool = pools.find((p) => p.metadata?.name === role)!;
    assert.equal(
      n.metadata?.annotations?.['machineconfiguration.openshift.io/currentConfig'],
      pool.spec.configuration?.name,
      `node ${n.metadata?.name}`,
    );
    assert.notEqual(n.spec?.unschedulable, true, `node ${n.metadata?.name} schedulable`);
  }

  assert.ok(cluster.invariants, 'the test cluster checks the §8.7 invariants');
  assert.deepEqual(cluster.invariants.violations(), []);

  const second = await run(t, 3);
  assert.deepEqual(second.timeline, first.timeline);
});
