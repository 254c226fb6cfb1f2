import { test } from 'node:test';
import assert from 'node:assert/strict';
import { workerComment } from '../maintenance/maintenance-window.js';
import {
  CLUSTER_ID,
  CONFIG_NAME,
  DESIRED,
  NEVER,
  T0,
  fakeStepContext,
  machineConfigPool,
  silence,
  unreachable,
  type FakeStepContext,
} from './step-context.test-support.js';
import { allWorkersUpgraded } from './worker-step.js';

const MINUTE = 60_000;
const rolling = [
  machineConfigPool('master', { machineCount: 3 }),
  machineConfigPool('infra', { machineCount: 3, updatedMachineCount: 2 }),
  machineConfigPool('worker', { machineCount: 4, updatedMachineCount: 1 }),
];
const WAITING = {
  status: 'pending',
  waitFor: { kinds: ['MachineConfigPool'] },
  why: 'waiting for worker pool(s) infra, worker to update (4 machine(s) left)',
  reason: 'WaitingForWorkers',
};

async function workerTimeout(fake: FakeStepContext): Promise<number | undefined> {
  return fake.value('upgradeoperator_worker_timeout', { upgradeconfig_name: CONFIG_NAME, version: DESIRED });
}

void test('AllWorkersUpgraded: every pool but master updated is done: StateWorkerPlaneFinishedSL, the timestamp, worker_timeout 0', async () => {
  const fake = fakeStepContext({
    now: T0 + 200 * MINUTE,
    cluster: {
      pools: [
        machineConfigPool('master', { machineCount: 3, updatedMachineCount: 1 }),
        machineConfigPool('worker', { machineCount: 4 }),
        machineConfigPool('paused', { machineCount: 2, updatedMachineCount: 0, paused: true }),
      ],
    },
  });
  fake.alertmanager.failWith(unreachable('alertmanager'));
  assert.deepEqual(await allWorkersUpgraded.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.notifier.calls, [{ state: 'StateWorkerPlaneFinishedSL' }]);
  assert.deepEqual(await fake.series('upgradeoperator_workernode_upgrade_completed_timestamp'), [
    {
      labels: { _id: CLUSTER_ID, upgradeconfig_name: CONFIG_NAME, version: DESIRED },
      value: (T0 + 200 * MINUTE) / 1000,
    },
  ]);
  assert.equal(await workerTimeout(fake), 0);
  assert.deepEqual(fake.alertmanager.calls, [], 'Alertmanager is not asked once the workers are done');
  await allWorkersUpgraded.run(fake.ctx, NEVER);
  assert.deepEqual(fake.notifier.sent, ['StateWorkerPlaneFinishedSL'], 'run twice: sent once');
});

void test('AllWorkersUpgraded: while pools roll under a maintenance silence it waits for MachineConfigPools; worker_timeout 0', async () => {
  const fake = fakeStepContext({ cluster: { pools: rolling }, silences: [silence('w-1', workerComment(DESIRED, 4))] });
  assert.deepEqual(await allWorkersUpgraded.run(fake.ctx, NEVER), WAITING);
  assert.equal(await workerTimeout(fake), 0);
  assert.deepEqual([fake.notifier.calls, fake.events], [[], []]);
  assert.deepEqual(await fake.series('upgradeoperator_workernode_upgrade_completed_timestamp'), []);
});

void test('AllWorkersUpgraded: rolling with no active silence of the operator sets worker_timeout 1', async () => {
  const fake = fakeStepContext({
    cluster: { pools: rolling },
    silences: [
      silence('w-1', workerComment(DESIRED, 4), { status: { state: 'expired' }, endsAt: T0 - MINUTE }),
      silence('w-2', workerComment(DESIRED, 4), { startsAt: T0 + MINUTE, endsAt: T0 + 60 * MINUTE }),
      silence('sre', 'maintenance by hand', { createdBy: 'sre@example.com' }),
    ],
  });
  assert.deepEqual(await allWorkersUpgraded.run(fake.ctx, NEVER), WAITING);
  assert.equal(await workerTimeout(fake), 1);
});

void test('AllWorkersUpgraded: Alertmanager unavailable still waits, retried in 30 s, worker_timeout left as it was', async () => {
  const fake = fakeStepContext({ cluster: { pools: rolling } });
  fake.metrics.setWorkerTimeout(CONFIG_NAME, DESIRED, true);
  fake.alertmanager.failWith(unreachable('alertmanager'));
  assert.deepEqual(await allWorkersUpgraded.run(fake.ctx, NEVER), {
    ...WAITING,
    waitFor: { kinds: ['MachineConfigPool'], until: T0 + 30_000 },
  });
  assert.equal(await workerTimeout(fake), 1);
});

void test('AllWorkersUpgraded: an error that is not Alertmanager’s is not turned into a retry', async () => {
  const fake = fakeStepContext({ cluster: { pools: rolling } });
  fake.alertmanager.failWith(new TypeError('silences is not iterable'));
  await assert.rejects(allWorkersUpgraded.run(fake.ctx, NEVER), TypeError);
});

void test('AllWorkersUpgraded: a failed notification fails the run before the timestamp is set', async () => {
  const fake = fakeStepContext({ cluster: { pools: [machineConfigPool('worker', { machineCount: 2 })] } });
  fake.notifier.failWith(new Error('OCM answered 503'));
  await assert.rejects(allWorkersUpgraded.run(fake.ctx, NEVER), /OCM answered 503/);
  assert.deepEqual(await fake.series('upgradeoperator_workernode_upgrade_completed_timestamp'), []);
});
