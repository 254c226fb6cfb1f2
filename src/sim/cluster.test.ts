import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeResource } from '../api/builtin.js';
import { ClusterOperatorResource } from '../api/openshift/config-v1/cluster-operator.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../api/openshift/config-v1/cluster-version.js';
import { MachineResource } from '../api/openshift/machine-v1beta1/machine.js';
import { MachineConfigPoolResource, type MachineConfigPool } from '../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { createSimulatedCluster } from './cluster.js';
import { haCloudProfile } from './profiles.js';
import { buildCatalogue, findRelease } from './releases/catalogue.js';
import { startTestCluster } from './test-support/cluster.test-support.js';

const MINUTE = 60_000;
const FROM = '4.14.30';
const CHANNEL = 'stable-4.15';

function poolUpdated(p: MachineConfigPool): boolean {
  const s = p.status;
  return (
    s !== undefined &&
    s.machineCount > 0 &&
    s.updatedMachineCount === s.machineCount &&
    s.configuration?.name === p.spec.configuration?.name &&
    (s.conditions ?? []).some((c) => c.type === 'Updated' && c.status === 'True')
  );
}

test('ha-cloud profile: 3 masters and 3 workers over three zones, one worker MachineSet per zone', () => {
  const p = haCloudProfile();
  assert.equal(p.nodes.filter((n) => n.role === 'master').length, 3);
  assert.equal(p.nodes.filter((n) => n.role === 'worker').length, 3);
  assert.deepEqual(new Set(p.nodes.map((n) => n.zone)).size, 3);
  for (const n of p.nodes) {
    assert.equal(n.labels[`node-role.kubernetes.io/${n.role}`], '');
    assert.equal(n.labels['kubernetes.io/hostname'], n.name);
    assert.equal(n.labels['topology.kubernetes.io/zone'], n.zone);
  }
  assert.deepEqual(p.machineSets.map((m) => m.zone).sort(), p.nodes.filter((n) => n.role === 'worker').map((n) => n.zone).sort());
});

test('assembled ha-cloud cluster completes a 4.14 → 4.15 update requested as `oc adm upgrade` does', async (t) => {
  const catalogue = buildCatalogue();
  const cluster = await startTestCluster(t, { seed: 7 });
  const { ctx, client, clock } = cluster;
  const sim = createSimulatedCluster(ctx, { profile: 'ha-cloud', version: FROM, channel: 'stable-4.14', catalogue });
  t.after(() => sim.close());
  const cvs = ctx.informers.informerFor(ClusterVersionResource);
  const pools = ctx.informers.informerFor(MachineConfigPoolResource);
  const nodes = ctx.informers.informerFor(NodeResource);
  const cos = ctx.informers.informerFor(ClusterOperatorResource);
  ctx.informers.informerFor(MachineResource);
  await sim.start(cluster.signal);
  ctx.informers.start(cluster.signal);
  await ctx.informers.waitForSync(cluster.signal);

  // Installed state: 6 Ready nodes, pools idle at the installed release.
  assert.equal(nodes.list().length, 6);
  await clock.run({ until: () => pools.list().length === 2 && pools.list().every(poolUpdated) });

  const installedConfigs = new Map(pools.list().map((p) => [p.metadata?.name, p.spec.configuration?.name]));

  // `oc adm upgrade channel stable-4.15`, then wait for the graph.
  await client.patch(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, { spec: { channel: CHANNEL } }, { type: 'merge' });
  const minor15 = (): string[] => (cvs.get(undefined, CLUSTER_VERSION_NAME)?.status?.availableUpdates ?? []).map((r) => r.version ?? '').filter((v) => v.startsWith('4.15.'));
  await clock.run({ until: () => minor15().length > 0 || clock.now() > Date.UTC(2026, 2, 2) + 30 * MINUTE });
  const offered = minor15();
  const target = offered.length > 0 ? offered.sort((a, b) => Number(b.split('.')[2]) - Number(a.split('.')[2]))[0]! : '4.15.30';
  const release = findRelease(catalogue, target);
  assert.ok(release, `target ${target} is in the catalogue`);
  // `oc adm upgrade --to-image` of a recommended release; force only when the graph did not offer it.
  const force = offered.length === 0;
  await client.patch(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME, { spec: { desiredUpdate: { version: target, image: release.pullSpec, force, architecture: '' } } }, { type: 'merge' });
  const started = clock.now();

  const done = (): boolean => {
    const cv = cvs.get(undefined, CLUSTER_VERSION_NAME);
    const h = cv?.status?.history?.[0];
    return h?.state === 'Completed' && h.version === target && pools.list().length === 2 && pools.list().every(poolUpdated);
  };
  const result = await clock.run({ until: () => done() || clock.now() > started + 300 * MINUTE });
  const elapsedMin = (clock.now() - started) / MINUTE;
  if (!done()) {
    const cv = cvs.get(undefined, CLUSTER_VERSION_NAME);
    const stall = {
      reason: result.reason,
      elapsedMin,
      history: cv?.status?.history?.slice(0, 2),
      conditions: cv?.status?.conditions?.map((c) => `${c.type}=${c.status} ${c.reason ?? ''}: ${c.message ?? ''}`),
      notAtTarget: cos.list().filter((co) => co.status?.versions?.find((v) => v.name === 'operator')?.version !== target).map((co) => `${co.metadata?.name}: ${(co.status?.conditions ?? []).map((c) => `${c.type}=${c.status}`).join(',')}`),
      pools: pools.list().map((p) => ({ name: p.metadata?.name, spec: p.spec.configuration?.name, status: p.status })),
      nodes: nodes.list().map((n) => ({ name: n.metadata?.name, unschedulable: n.spec?.unschedulable, annotations: n.metadata?.annotations })),
    };
    assert.fail(`update did not complete:\n${JSON.stringify(stall, null, 2)}`);
  }

  t.diagnostic(`${FROM} → ${target} (force=${force}, offered ${offered.length}) completed in ${elapsedMin.toFixed(1)} virtual minutes`);
  // Every ClusterOperator reports the new operator version.
  for (const co of cos.list()) {
    assert.equal(co.status?.versions?.find((v) => v.name === 'operator')?.version, target, `ClusterOperator ${co.metadata?.name}`);
  }
  // Every node runs its pool's new rendered config and is schedulable again.
  const all = pools.list();
  for (const n of nodes.list()) {
    const role = n.metadata?.labels?.['node-role.kubernetes.io/master'] !== undefined ? 'master' : 'worker';
    const pool = all.find((p) => p.metadata?.name === role);
    assert.ok(pool, `pool ${role}`);
    assert.equal(n.metadata?.annotations?.['machineconfiguration.openshift.io/currentConfig'], pool.spec.configuration?.name, `node ${n.metadata?.name} config`);
    assert.notEqual(n.spec?.unschedulable, true, `node ${n.metadata?.name} schedulable`);
  }
  for (const p of all) {
    assert.equal(p.status?.machineCount, 3);
    assert.notEqual(p.spec.configuration?.name, installedConfigs.get(p.metadata?.name), `pool ${p.metadata?.name} moved to a new rendered config`);
  }
  assert.ok(elapsedMin >= 40 && elapsedMin <= 200, `virtual duration ${elapsedMin.toFixed(1)} min within 40–200`);
});
