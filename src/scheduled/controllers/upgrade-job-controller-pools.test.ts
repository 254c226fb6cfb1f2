import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ANNOTATION_UPGRADE_JOB } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { MachineConfigPoolResource } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import {
  completeVersion,
  cond,
  createHook,
  createUpgradeJob,
  harness,
  hookJobNames,
  hookRule,
  HOUR,
  MINUTE,
  NS,
  runTo,
  setPoolCounts,
  state,
  T0,
  until,
  type Harness,
} from './upgrade-job-controller.test-support.js';

const WORKER = { matchLabels: { 'pools.operator.machineconfiguration.openshift.io/worker': '' } };

function paused(h: Harness, pool: string): boolean {
  return h.pools.get(undefined, pool)?.spec.paused === true;
}

void test('delayMin/delayMax: the worker pool is paused from the start, Paused while it waits, unpaused at delayMin after its MachineConfigPoolUnpause hook, then Succeeded', async (t) => {
  const h = await harness(t);
  await createHook(h, 'on-unpause', ['MachineConfigPoolUnpause']);
  h.startOperator();
  const startAfter = T0 + MINUTE;
  await createUpgradeJob(h, 'delayed', {
    startAfter,
    version: '4.15.3',
    config: { machineConfigPools: [{ matchLabels: WORKER, delayUpgrade: { delayMin: '1h', delayMax: '3h' } }] },
  });
  await until(h, () => paused(h, 'worker'), 5 * MINUTE, 'worker paused');
  assert.equal(h.pools.get(undefined, 'worker')?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB], `${NS}/delayed`);
  assert.equal(paused(h, 'master'), false);
  await until(
    h,
    () => state(h, 'delayed', 'MachineConfigPoolsPaused') === 'True/DelaySet',
    MINUTE,
    'MachineConfigPoolsPaused',
  );
  // The CVO updates the masters; the paused worker pool waits with machines to update.
  await setPoolCounts(h, 'worker', 0);
  await completeVersion(h, '4.15.3');
  await until(h, () => state(h, 'delayed', 'Paused') === 'True/DelaySet', 5 * MINUTE, 'Paused');
  assert.equal(state(h, 'delayed', 'UpgradeCompleted'), 'True/Completed', 'paused pools do not hold completion');
  assert.equal(hookJobNames(h, 'delayed').length, 0);

  await until(h, () => hookJobNames(h, 'delayed').length === 1, HOUR, 'unpause hook at delayMin');
  assert.ok(Math.abs(h.cluster.clock.now() - (startAfter + HOUR)) <= 1000, 'at delayMin, not a poll later');
  assert.deepEqual(hookJobNames(h, 'delayed'), ['delayed-on-unpause-machineconfigpoolunpause-worker-hook']);
  const env = h.hookJobs.get(NS, 'delayed-on-unpause-machineconfigpoolunpause-worker-hook')!.spec!.template.spec!
    .containers[0]!.env!;
  assert.equal(env.find((e) => e.name === 'EVENT_reason')?.value, '"DelayReached"');
  assert.equal(env.find((e) => e.name === 'EVENT_pool')?.value, '"worker"');
  assert.equal(paused(h, 'worker'), true, 'still paused while its hook runs');
  await until(h, () => !paused(h, 'worker'), 5 * MINUTE, 'unpaused after the hook');
  await until(
    h,
    () => state(h, 'delayed', 'MachineConfigPoolsPaused') === 'False/DelaySet',
    MINUTE,
    'no longer should be paused',
  );
  await until(h, () => state(h, 'delayed', 'Paused') === 'False/DelaySet', MINUTE, 'not Paused: the pool updates');
  assert.equal(state(h, 'delayed', 'Succeeded'), 'absent', 'waits for the unpaused pool to update');
  await setPoolCounts(h, 'worker', 3);
  await until(h, () => state(h, 'delayed', 'Succeeded') === 'True/Succeeded', 5 * MINUTE, 'Succeeded');
  await until(
    h,
    () => h.pools.get(undefined, 'worker')?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB] === undefined,
    MINUTE,
    'pool annotation cleaned up',
  );
  assert.equal(hookJobNames(h, 'delayed').length, 1, 'no second unpause hook at cleanup: the pool was not paused');
});

void test('UnpausingPoolsExpired: a pool still paused at delayMax (its unpause hook outran it) fails the job', async (t) => {
  const h = await harness(t, { jobRules: [hookRule('slow-unpause', 'succeed', 120)] });
  await createHook(h, 'slow-unpause', ['MachineConfigPoolUnpause']);
  h.startOperator();
  const startAfter = T0 + MINUTE;
  // The pool has machines to update, so once paused the job waits Paused.
  await setPoolCounts(h, 'worker', 0);
  await createUpgradeJob(h, 'x', {
    startAfter,
    config: { machineConfigPools: [{ matchLabels: WORKER, delayUpgrade: { delayMin: '30m', delayMax: '1h' } }] },
  });
  await until(h, () => paused(h, 'worker'), 5 * MINUTE, 'worker paused');
  await until(h, () => state(h, 'x', 'Paused') === 'True/DelaySet', 5 * MINUTE, 'Paused');
  await until(h, () => hookJobNames(h, 'x').length === 1, HOUR, 'unpause hook started at delayMin');
  await until(h, () => state(h, 'x', 'Failed') === 'True/UnpausingPoolsExpired', 2 * HOUR, 'expired');
  assert.equal(cond(h, 'x', 'Failed')?.message, 'unpausing of pool "worker" expired');
  assert.ok(Math.abs(h.cluster.clock.now() - (startAfter + HOUR)) <= 1000, 'at delayMax');
  assert.equal(paused(h, 'worker'), true, 'delay-paused pools stay paused on failure (as upstream)');
});

void test('a noop job with a delayed pool that finishes before delayMin: Succeeded cleanup unpauses the pool after its MachineConfigPoolUnpause hook (reason Completed)', async (t) => {
  const h = await harness(t);
  await createHook(h, 'on-unpause', ['MachineConfigPoolUnpause']);
  h.startOperator();
  // A noop job: the paused pool has nothing to update, so the job succeeds while the pool is still paused.
  await createUpgradeJob(h, 'noop', {
    startAfter: T0 + MINUTE,
    config: { machineConfigPools: [{ matchLabels: WORKER, delayUpgrade: { delayMin: '2h' } }] },
  });
  await until(h, () => state(h, 'noop', 'Succeeded') === 'True/Succeeded', 10 * MINUTE, 'Succeeded');
  assert.equal(state(h, 'noop', 'UpgradeCompleted'), 'absent', 'no version: no UpgradeCompleted');
  await until(h, () => !paused(h, 'worker'), 10 * MINUTE, 'unpaused at cleanup');
  assert.deepEqual(hookJobNames(h, 'noop'), ['noop-on-unpause-machineconfigpoolunpause-worker-hook']);
  const env = h.hookJobs.get(NS, 'noop-on-unpause-machineconfigpoolunpause-worker-hook')!.spec!.template.spec!
    .containers[0]!.env!;
  assert.equal(env.find((e) => e.name === 'EVENT_reason')?.value, '"Completed"');
  assert.equal(h.pools.get(undefined, 'worker')?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB], undefined);
});

void test('pauseMachineConfigPoolsOnFailure: on failure the matching pools still updating are paused once; an admin unpausing them is not overridden', async (t) => {
  const h = await harness(t);
  h.startOperator();
  await createUpgradeJob(h, 'f', {
    startAfter: T0 + MINUTE,
    version: '4.15.3',
    config: { upgradeTimeout: '1h', pauseMachineConfigPoolsOnFailure: { enabled: true } },
  });
  await until(h, () => h.cvs.get(undefined, 'version')?.spec.desiredUpdate !== undefined, 5 * MINUTE, 'desiredUpdate');
  await setPoolCounts(h, 'worker', 1);
  await until(h, () => state(h, 'f', 'Failed') === 'True/TimedOut', 2 * HOUR, 'timed out');
  await until(h, () => paused(h, 'worker'), MINUTE, 'updating worker pool paused');
  assert.equal(paused(h, 'master'), false, 'the up-to-date pool is left alone');
  assert.equal(state(h, 'f', 'MachineConfigPoolsPaused'), 'True/PausedOnFailure');
  assert.equal(
    h.pools.get(undefined, 'worker')?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB],
    undefined,
    'no lock annotation on pools paused on failure',
  );
  await h.cluster.client.patch(
    MachineConfigPoolResource,
    undefined,
    'worker',
    { spec: { paused: false } },
    { type: 'merge' },
  );
  await h.cluster.client.patch(
    MachineConfigPoolResource,
    undefined,
    'master',
    { metadata: { labels: { touched: 'yes' } } },
    { type: 'merge' },
  );
  await runTo(h, h.cluster.clock.now() + HOUR);
  assert.equal(paused(h, 'worker'), false, 'not re-paused');
});
