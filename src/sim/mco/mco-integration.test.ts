import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createMachineConfigDaemons } from './daemon/daemon.js';
import { createDrainController } from './drain/drain-controller.js';
import { nodeSpecs, startMcoHarness } from './mco.test-support.js';
import { renderedConfigName } from './rendered-config.js';

void test('with the real daemons and drain controller: a 4.14 → 4.15 rollout cordons, reboots and completes every pool', async (t) => {
  const h = await startMcoHarness(t, {
    version: '4.14.10',
    nodes: [...nodeSpecs('master', 'm', 3), ...nodeSpecs('worker', 'w', 2)],
    inTestMcd: false,
  });
  const { ctx, signal } = h.cluster;
  await createMachineConfigDaemons(ctx).start(signal);
  await createDrainController(ctx).start(signal);
  await h.until(() => h.co().status?.versions?.some((v) => v.version === '4.14.10') ?? false);
  let sawCordonedUnavailable = false;
  await h.applyMcoDeployment('4.15.3');
  await h.until(() => {
    const w = h.pool('worker').status;
    if ((w?.unavailableMachineCount ?? 0) > 0 && h.nodes().some((n) => n.spec?.unschedulable))
      sawCordonedUnavailable = true;
    return ['master', 'worker'].every((p) => h.pool(p).status?.configuration.name === renderedConfigName(p, '4.15.3'));
  }, 240);
  const master = h.poolConfigs.find((p) => p.pool === 'master' && p.config === renderedConfigName('master', '4.15.3'))!;
  await h.until(
    () => h.co().status?.versions?.some((v) => v.name === 'operator' && v.version === '4.15.3') ?? false,
    5,
  );
  assert.ok(h.coVersions.find((v) => v.version === '4.15.3')!.at >= master.at);
  assert.ok(sawCordonedUnavailable, 'a node was cordoned and counted unavailable during the rollout');
  assert.equal(h.done.filter((d) => d.config.includes('worker')).length, 2);
  assert.deepEqual(
    h
      .nodes()
      .filter((n) => n.spec?.unschedulable)
      .map((n) => n.metadata?.name),
    [],
  );
  assert.deepEqual(h.violations, []);
});
