import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventResource } from '../../api/builtin.js';
import { MachineConfigResource } from '../../api/openshift/machineconfiguration-v1/machine-config.js';
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { nodeSpecs, startMcoHarness, type McoHarness } from './mco.test-support.js';
import { renderedConfigName } from './rendered-config.js';

const MIN = 60_000;
const cond = (h: McoHarness, type: string): { status: string; reason?: string; message?: string } | undefined =>
  h.co().status?.conditions?.find((c) => c.type === type);
const poolCond = (
  h: McoHarness,
  pool: string,
  type: string,
): { status: string; reason: string; message: string } | undefined =>
  h.pool(pool).status?.conditions?.find((c) => c.type === type);
const coVersion = (h: McoHarness): string | undefined =>
  h.co().status?.versions?.find((v) => v.name === 'operator')?.version;
const poolDone = (h: McoHarness, pool: string, version: string): boolean =>
  h.pool(pool).status?.configuration.name === renderedConfigName(pool, version);

void test('4.14 → 4.15: render, masters one by one, version only after master Updated, PoolUpdating while workers roll', async (t) => {
  const h = await startMcoHarness(t, {
    version: '4.14.10',
    nodes: [...nodeSpecs('master', 'm', 3), ...nodeSpecs('worker', 'w', 3)],
  });
  await h.until(() => cond(h, 'Upgradeable')?.reason === 'AsExpected' && coVersion(h) === '4.14.10');
  assert.equal(
    poolCond(h, 'worker', 'Updated')?.message,
    `All nodes are updated with MachineConfig ${renderedConfigName('worker', '4.14.10')}`,
  );
  assert.deepEqual([h.pool('worker').status?.machineCount, h.pool('worker').status?.readyMachineCount], [3, 3]);

  await h.applyMcoDeployment('4.14.10');
  await h.until(() => h.cluster.clock.now() > 0 && cond(h, 'Progressing')?.message === 'Cluster version is 4.14.10', 5);
  const start = h.cluster.clock.now();
  await h.applyMcoDeployment('4.15.3');
  await h.until(() => cond(h, 'Progressing')?.message === 'Working towards 4.15.3', 1);
  assert.equal(cond(h, 'Progressing')?.status, 'True');
  assert.equal(coVersion(h), '4.14.10');

  // Render after the self-rollout (3–10 virtual minutes).
  await h.until(() => h.pool('worker').spec.configuration?.name === renderedConfigName('worker', '4.15.3'), 15);
  const renderedAt = h.cluster.clock.now() - start;
  assert.ok(renderedAt >= 3 * MIN && renderedAt <= 10 * MIN, `render after ${renderedAt / MIN} min`);
  const mc = await h.cluster.client.get(MachineConfigResource, undefined, renderedConfigName('worker', '4.15.3'));
  assert.equal(mc.metadata?.annotations?.['machineconfiguration.openshift.io/release-image-version'], '4.15.3');
  assert.ok(mc.metadata?.annotations?.['machineconfiguration.openshift.io/generated-by-controller-version']);
  assert.deepEqual(
    mc.metadata?.ownerReferences?.map((r) => [r.kind, r.name, r.controller]),
    [['MachineConfigPool', 'worker', true]],
  );
  assert.match(renderedConfigName('worker', '4.15.3'), /^rendered-worker-[0-9a-f]{32}$/);

  // Mid-rollout: Updating with the exact message; PoolUpdating on a 4.15 MCO.
  await h.until(
    () =>
      poolCond(h, 'worker', 'Updating')?.status === 'True' && (h.pool('worker').status?.updatedMachineCount ?? 0) >= 1,
    60,
  );
  assert.equal(
    poolCond(h, 'worker', 'Updating')?.message,
    `All nodes are updating to MachineConfig ${renderedConfigName('worker', '4.15.3')}`,
  );
  assert.equal(poolCond(h, 'worker', 'Updated')?.status, 'False');
  await h.until(() => cond(h, 'Upgradeable')?.reason === 'PoolUpdating', 1);
  assert.equal(
    cond(h, 'Upgradeable')?.message,
    'One or more machine config pools are updating, please see `oc get mcp` for further details',
  );

  await h.until(
    () => coVersion(h) === '4.15.3' && poolDone(h, 'worker', '4.15.3') && cond(h, 'Upgradeable')?.status === 'True',
    120,
  );
  const masterDone = h.poolConfigs.find(
    (p) => p.pool === 'master' && p.config === renderedConfigName('master', '4.15.3'),
  )!;
  const bumped = h.coVersions.find((v) => v.version === '4.15.3')!;
  assert.ok(
    masterDone && bumped && bumped.at >= masterDone.at,
    'machine-config reports 4.15.3 only after the master pool is Updated',
  );
  assert.equal(cond(h, 'Progressing')?.message, 'Cluster version is 4.15.3');
  assert.equal(cond(h, 'Progressing')?.status, 'False');
  assert.equal(cond(h, 'Degraded')?.status, 'False');
  assert.match(
    cond(h, 'Available')?.message ?? '',
    /^Cluster has deployed \[\{operator 4\.15\.3\} \{operator-image quay\.io\/\S+\}\]$/,
  );
  // maxUnavailable 1: each pool moved one node at a time.
  for (const role of ['m', 'w']) {
    const tg = h.targeted.filter((x) => x.node.startsWith(role));
    const dn = h.done.filter((x) => x.node.startsWith(role));
    assert.equal(tg.length, 3);
    for (let i = 1; i < 3; i++)
      assert.ok(
        tg[i]!.at >= dn[i - 1]!.at,
        `${tg[i]!.node} targeted only after ${dn[i - 1]!.node} finished: ${JSON.stringify({ tg, dn })}`,
      );
  }
  assert.deepEqual(h.violations, []);
  const taints = h.nodes().flatMap((n) => n.spec?.taints ?? []);
  assert.deepEqual(taints, [], 'UpdateInProgress taints removed once nodes are done');
  const events = (await h.cluster.client.list(EventResource, { namespace: 'default' })).items;
  const reasons = events
    .filter((e) => e.involvedObject.kind === 'MachineConfigPool')
    .map((e) => `${e.reason ?? ''}: ${e.message ?? ''}`);
  assert.ok(
    reasons.includes(`SetDesiredConfig: Targeted node w0 to MachineConfig: ${renderedConfigName('worker', '4.15.3')}`),
    reasons.join('\n'),
  );
  assert.ok(
    reasons.includes(
      `Completed: Pool worker has completed update to MachineConfig ${renderedConfigName('worker', '4.15.3')}`,
    ),
  );
});

void test('the seed walkthrough: 5 nodes, maxUnavailable 3, nodes finishing out of order', async (t) => {
  // Node i finishes after these minutes: 2 first, then 1, 3, 5, 4 (as in the documentation's example).
  const minutes: Record<string, number> = { n1: 20, n2: 10, n3: 40, n4: 60, n5: 30 };
  const nodes = [1, 2, 3, 4, 5].map((i) => ({ name: `n${i}`, role: 'worker', zone: `zone-${i}` }));
  const h = await startMcoHarness(t, {
    version: '4.15.3',
    nodes: [...nodeSpecs('master', 'm', 1), ...nodes],
    pools: [{ name: 'master' }, { name: 'worker', maxUnavailable: 3 }],
    mcdDelay: (n) => (minutes[n] ?? 1) * MIN,
  });
  await h.until(() => coVersion(h) === '4.15.3');
  await h.applyMcoDeployment('4.15.8');
  await h.until(() => poolDone(h, 'worker', '4.15.8'), 300);
  const order = h.targeted.filter((x) => x.node.startsWith('n'));
  const t0 = order[0]!.at;
  assert.deepEqual(
    order.slice(0, 3).map((x) => [x.node, x.at]),
    [
      ['n1', t0],
      ['n2', t0],
      ['n3', t0],
    ],
  );
  const done = (n: string): number => h.done.find((d) => d.node === n)!.at;
  assert.equal(order[3]!.node, 'n4');
  assert.equal(order[3]!.at, done('n2'));
  assert.equal(order[4]!.node, 'n5');
  assert.equal(order[4]!.at, done('n1'));
  assert.deepEqual(
    h.done.filter((d) => d.node.startsWith('n')).map((d) => d.node),
    ['n2', 'n1', 'n3', 'n5', 'n4'],
  );
  assert.deepEqual(h.violations, []);
  const s = h.pool('worker').status!;
  assert.deepEqual(
    [s.machineCount, s.updatedMachineCount, s.readyMachineCount, s.unavailableMachineCount, s.degradedMachineCount],
    [5, 5, 5, 0, 0],
  );
});

void test('maxUnavailable as a percentage rounds down: 40% of 5 workers moves 2 at a time', async (t) => {
  const h = await startMcoHarness(t, {
    version: '4.15.3',
    nodes: [...nodeSpecs('master', 'm', 1), ...nodeSpecs('worker', 'w', 5)],
    pools: [{ name: 'master' }, { name: 'worker', maxUnavailable: '40%' }],
  });
  await h.until(() => coVersion(h) === '4.15.3');
  let maxMoving = 0;
  const moving = (): number =>
    h
      .nodes()
      .filter(
        (n) =>
          n.metadata?.name?.startsWith('w') &&
          n.metadata.annotations?.['machineconfiguration.openshift.io/desiredConfig'] !==
            n.metadata.annotations?.['machineconfiguration.openshift.io/currentConfig'],
      ).length;
  await h.applyMcoDeployment('4.15.8');
  await h.until(() => {
    maxMoving = Math.max(maxMoving, moving());
    return poolDone(h, 'worker', '4.15.8');
  }, 300);
  assert.equal(maxMoving, 2);
  assert.equal(h.pool('worker').status?.unavailableMachineCount, 0);
  assert.deepEqual(h.violations, []);
});

void test('a paused worker pool gets the new target but no node moves; the version still completes; unpausing resumes', async (t) => {
  const h = await startMcoHarness(t, {
    version: '4.15.3',
    nodes: [...nodeSpecs('master', 'm', 3), ...nodeSpecs('worker', 'w', 2)],
    pools: [{ name: 'master' }, { name: 'worker', paused: true }],
  });
  await h.until(() => coVersion(h) === '4.15.3');
  await h.applyMcoDeployment('4.16.0');
  await h.until(() => coVersion(h) === '4.16.0', 120);
  const target = renderedConfigName('worker', '4.16.0');
  assert.equal(h.pool('worker').spec.configuration?.name, target);
  assert.equal(h.pool('worker').status?.configuration.name, renderedConfigName('worker', '4.15.3'));
  assert.deepEqual(poolCond(h, 'worker', 'Updating'), {
    ...poolCond(h, 'worker', 'Updating'),
    status: 'False',
    message: `Pool is paused; will not update to MachineConfig ${target}`,
  });
  assert.equal(poolCond(h, 'worker', 'Updated')?.status, 'False');
  assert.equal(h.pool('worker').status?.updatedMachineCount, 0);
  assert.equal(h.targeted.filter((x) => x.node.startsWith('w')).length, 0);

  await h.mco.unpausePool('worker');
  await h.until(() => h.targeted.some((x) => x.node === 'w0'), 5);
  // Pause again while w0 is in flight: w0 finishes, w1 is not started.
  await h.mco.pausePool('worker');
  await h.until(() => h.done.some((x) => x.node === 'w0'), 30);
  await h.until(() => h.pool('worker').status?.updatedMachineCount === 1, 5);
  await h.cluster.clock.run({ until: h.cluster.clock.now() + 30 * MIN });
  assert.equal(h.targeted.filter((x) => x.node === 'w1').length, 0);
  assert.equal(
    poolCond(h, 'worker', 'Updating')?.message,
    `Pool is paused; will not update to MachineConfig ${target}`,
  );
  assert.deepEqual(h.violations, []);
});

void test('on a 4.16 MCO an updating pool does not make machine-config Upgradeable=False', async (t) => {
  const h = await startMcoHarness(t, {
    version: '4.15.3',
    nodes: [...nodeSpecs('master', 'm', 1), ...nodeSpecs('worker', 'w', 2)],
  });
  await h.until(() => coVersion(h) === '4.15.3');
  const upgradeable = new Set<string>();
  await h.applyMcoDeployment('4.16.0');
  await h.until(() => {
    upgradeable.add(cond(h, 'Upgradeable')?.reason ?? '');
    return poolDone(h, 'worker', '4.16.0');
  }, 120);
  assert.equal(h.pool('worker').status?.conditions?.length, 5);
  assert.deepEqual([...upgradeable], ['AsExpected']);
});

void test('masters that never finish: Degraded RequiredPoolsFailed after 10 min × masters, version not bumped', async (t) => {
  const h = await startMcoHarness(t, {
    version: '4.14.10',
    nodes: [...nodeSpecs('master', 'm', 3), ...nodeSpecs('worker', 'w', 1)],
    mcdDelay: (n) => (n === 'm0' ? undefined : 3 * MIN),
  });
  await h.until(() => coVersion(h) === '4.14.10');
  await h.applyMcoDeployment('4.15.3');
  await h.until(() => h.pool('master').spec.configuration?.name === renderedConfigName('master', '4.15.3'), 15);
  const renderedAt = h.cluster.clock.now();
  await h.until(() => cond(h, 'Degraded')?.status === 'True', 60);
  assert.equal(h.cluster.clock.now() - renderedAt, 30 * MIN);
  assert.equal(cond(h, 'Degraded')?.reason, 'RequiredPoolsFailed');
  assert.equal(
    cond(h, 'Degraded')?.message,
    'Unable to apply 4.15.3: error during syncRequiredMachineConfigPools: [context deadline exceeded, error required MachineConfigPool master is not ready, retrying. Status: (total: 3, ready 0, updated: 0, unavailable: 1, degraded: 0)]',
  );
  assert.deepEqual(
    [cond(h, 'Progressing')?.status, cond(h, 'Progressing')?.message],
    ['True', 'Unable to apply 4.15.3'],
  );
  assert.equal(coVersion(h), '4.14.10');
  assert.deepEqual(h.violations, []);
});

void test('a degraded worker degrades the pool and makes machine-config Upgradeable=False DegradedPool', async (t) => {
  const h = await startMcoHarness(t, {
    version: '4.15.3',
    nodes: [...nodeSpecs('master', 'm', 1), ...nodeSpecs('worker', 'w', 2)],
    mcdDegrade: (n) =>
      n === 'w0'
        ? 'failed to drain node: w0 after 1 hour. Please see machine-config-controller logs for more information'
        : undefined,
  });
  await h.until(() => coVersion(h) === '4.15.3');
  await h.applyMcoDeployment('4.15.8');
  await h.until(() => poolCond(h, 'worker', 'Degraded')?.status === 'True', 60);
  assert.deepEqual(poolCond(h, 'worker', 'NodeDegraded'), {
    ...poolCond(h, 'worker', 'NodeDegraded'),
    status: 'True',
    reason: '1 nodes are reporting degraded status on sync',
    message:
      'Node w0 is reporting: "failed to drain node: w0 after 1 hour. Please see machine-config-controller logs for more information"',
  });
  assert.equal(h.pool('worker').status?.degradedMachineCount, 1);
  await h.until(() => cond(h, 'Upgradeable')?.reason === 'DegradedPool', 1);
  assert.equal(
    cond(h, 'Upgradeable')?.message,
    'One or more machine config pools are degraded, please see `oc get mcp` for further details and resolve before upgrading',
  );
  // The degraded w0 is retargetable, but it is failing on the target: it holds the only slot.
  assert.equal(h.targeted.filter((x) => x.node === 'w1').length, 0);
  // After 10 min × 1 master the MCO itself goes Degraded (the worker pool is degraded).
  await h.until(() => cond(h, 'Degraded')?.status === 'True', 60);
  assert.match(
    cond(h, 'Degraded')?.message ?? '',
    /^Failed to resync 4\.15\.8 because: error during syncRequiredMachineConfigPools: \[context deadline exceeded, error MachineConfigPool worker is not ready, retrying\. Status: \(pool degraded: true total: 2, ready 0, updated: 0, unavailable: 0/,
  );
  assert.deepEqual(h.violations, []);
});

void test('a render failure degrades the pool until it ends, then the pool renders and rolls', async (t) => {
  const h = await startMcoHarness(t, {
    version: '4.15.3',
    nodes: [...nodeSpecs('master', 'm', 1), ...nodeSpecs('worker', 'w', 1)],
  });
  await h.until(() => coVersion(h) === '4.15.3');
  const until = h.cluster.clock.now() + 60 * MIN;
  h.mco.renderFailure('worker', { until });
  await h.applyMcoDeployment('4.15.8');
  await h.until(() => poolCond(h, 'worker', 'RenderDegraded')?.status === 'True', 15);
  assert.match(
    poolCond(h, 'worker', 'RenderDegraded')?.message ?? '',
    /^Failed to render configuration for pool worker: /,
  );
  await h.until(() => poolCond(h, 'worker', 'Degraded')?.status === 'True', 1);
  assert.equal(h.pool('worker').spec.configuration?.name, renderedConfigName('worker', '4.15.8'.replace('8', '3')));
  await h.until(() => poolDone(h, 'worker', '4.15.8'), 120);
  assert.ok(h.cluster.clock.now() >= until);
  assert.equal(poolCond(h, 'worker', 'RenderDegraded')?.status, 'False');
  assert.equal(poolCond(h, 'worker', 'Degraded')?.status, 'False');
  const pool = await h.cluster.client.get(MachineConfigPoolResource, undefined, 'worker');
  assert.equal(pool.status?.observedGeneration, pool.metadata?.generation);
  assert.deepEqual(h.violations, []);
});

void test('the same seed gives the same timeline', async (t) => {
  const run = async (): Promise<string> => {
    const h = await startMcoHarness(t, {
      version: '4.14.10',
      nodes: [...nodeSpecs('master', 'm', 3), ...nodeSpecs('worker', 'w', 3)],
    });
    await h.until(() => coVersion(h) === '4.14.10');
    await h.applyMcoDeployment('4.15.3');
    await h.until(() => poolDone(h, 'worker', '4.15.3') && coVersion(h) === '4.15.3', 240);
    const t0 = h.targeted[0]!.at;
    return JSON.stringify(
      [h.targeted, h.done, h.coVersions, h.poolConfigs].map((xs) => xs.map((x) => ({ ...x, at: x.at - t0 }))),
    );
  };
  assert.equal(await run(), await run());
});
