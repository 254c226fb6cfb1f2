import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { NamespaceResource, NodeResource } from '../../api/builtin.js';
import { MachineResource } from '../../api/openshift/machine-v1beta1/machine.js';
import { MachineSetResource, type MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import type { KubeClient } from '../../kube/client.js';
import { ManualClock } from '../../lib/clock.js';
import {
  CONFIG_NAME,
  MINUTE,
  NEVER,
  T0,
  commencedCluster,
  fakeStepContext,
  startStepApi,
  type FakeStepContext,
  type FakeStepContextOptions,
} from './step-context.test-support.js';
import { ensureExtraUpgradeWorkers, removeExtraScaledNodes } from './capacity-steps.js';

const NS = 'openshift-machine-api';
const CAPACITY_WAIT = ['MachineSet', 'Machine', 'Node'];

function machineSet(name: string, pool: string): MachineSet {
  const selector = { 'machine.openshift.io/cluster-api-machineset': name };
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: { name, namespace: NS, labels: { 'hive.openshift.io/machine-pool': pool } },
    spec: {
      replicas: 2,
      selector: { matchLabels: selector },
      template: { metadata: { labels: selector }, spec: { providerSpec: { value: { instanceType: 'm6i.xlarge' } } } },
    },
  };
}

interface Fixture {
  fake: FakeStepContext;
  client: KubeClient;
  /** Copies the API's MachineSets into the fake's cache, as the informer would. */
  sync: () => Promise<void>;
  /** MachineSet names in the API, sorted. */
  machineSetNames: () => Promise<string[]>;
}

/** The embedded API server holding `machineSets`, a fake context with capacity reservation requested on it. */
async function fixture(
  t: TestContext,
  machineSets: MachineSet[],
  options: FakeStepContextOptions = {},
): Promise<Fixture> {
  const clock = new ManualClock(T0);
  const client = await startStepApi(t, clock);
  await client.create(NamespaceResource, { metadata: { name: NS } });
  for (const ms of machineSets) await client.create(MachineSetResource, ms);
  const fake = fakeStepContext({ clock, client, spec: { capacityReservation: true }, ...options });
  const list = async (): Promise<MachineSet[]> => (await client.list(MachineSetResource, { namespace: NS })).items;
  const sync = async (): Promise<void> => {
    fake.cluster.machineSets = await list();
  };
  await sync();
  return {
    fake,
    client,
    sync,
    machineSetNames: async () => (await list()).map((ms) => ms.metadata?.name ?? '').sort(),
  };
}

/** A clone Machine of `machineSet` in `phase`, on `node` (created Ready when given). */
async function cloneMachine(
  client: KubeClient,
  machineSet: string,
  options: { node?: string; phase?: 'Running' | 'Deleting' | 'Provisioned' } = {},
): Promise<void> {
  const name = `${machineSet}-x7k2p`;
  const created = await client.create(MachineResource, {
    metadata: {
      name,
      namespace: NS,
      labels: { 'machine.openshift.io/cluster-api-machineset': machineSet, 'upgrade.managed.openshift.io': 'true' },
    },
    spec: {},
  });
  await client.updateStatus(MachineResource, {
    ...created,
    status: {
      phase: options.phase ?? 'Running',
      ...(options.node ? { nodeRef: { kind: 'Node', name: options.node } } : {}),
    },
  });
  if (options.node) {
    const node = await client.create(NodeResource, { metadata: { name: options.node } });
    await client.updateStatus(NodeResource, {
      ...node,
      status: { conditions: [{ type: 'Ready', status: 'True' }] },
    });
  }
}

/** Marks a clone MachineSet's one replica ready. */
async function cloneReady(client: KubeClient, name: string): Promise<void> {
  const ms = await client.get(MachineSetResource, NS, name);
  await client.updateStatus(MachineSetResource, { ...ms, status: { replicas: 1, readyReplicas: 1 } });
}

void test('EnsureExtraUpgradeWorkers: without capacityReservation, or once commenced, done without the API', async () => {
  for (const [what, options] of [
    ['not requested', { spec: {} }],
    ['false', { spec: { capacityReservation: false } }],
    [
      'commenced',
      {
        spec: { capacityReservation: true },
        cluster: commencedCluster(),
      },
    ],
  ] as const) {
    const fake = fakeStepContext(options);
    assert.deepEqual(await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER), { status: 'done' }, what);
    assert.deepEqual([fake.notifier.calls, fake.events], [[], []], what);
  }
});

void test('EnsureExtraUpgradeWorkers: no worker MachineSet and no extra pools skips reservation, with StateScaleSkipped', async (t) => {
  const { fake, machineSetNames } = await fixture(t, [machineSet('infra-a', 'infra')]);
  assert.deepEqual(await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.notifier.calls, [{ state: 'StateScaleSkipped' }]);
  assert.deepEqual(fake.events, [
    {
      type: 'Normal',
      reason: 'CapacityReservationSkipped',
      message:
        'no MachineSet labelled hive.openshift.io/machine-pool=worker and no extra machine pools; upgrading without extra capacity',
    },
  ]);
  assert.deepEqual(await machineSetNames(), ['infra-a']);
});

void test('EnsureExtraUpgradeWorkers: extra pools configured but nothing to clone fails, waiting for MachineSets', async (t) => {
  const { fake, machineSetNames } = await fixture(t, [machineSet('infra-a', 'infra')], {
    operatorConfig: 'scale:\n  timeOut: 30\n  extraMachinePools:\n    - gpu-*\n',
  });
  assert.deepEqual(await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER), {
    status: 'failed',
    error: 'failed to get any machinesets to scale',
    reason: 'CapacityReservationFailed',
    waitFor: { kinds: ['MachineSet'] },
  });
  assert.deepEqual([fake.notifier.calls, fake.events, await machineSetNames()], [[], [], ['infra-a']]);
});

void test('EnsureExtraUpgradeWorkers: creates one clone per worker (and extra-pool) MachineSet once, then waits for it until the first clone times out', async (t) => {
  const { fake, client, sync, machineSetNames } = await fixture(
    t,
    [
      machineSet('w-a', 'worker'),
      machineSet('w-b', 'worker'),
      machineSet('gpu-a', 'gpu-1'),
      machineSet('infra-a', 'infra'),
    ],
    { operatorConfig: 'scale:\n  timeOut: 30\n  extraMachinePools:\n    - gpu-*\n' },
  );
  const created = 'created MachineSet(s) gpu-a-upgrade, w-a-upgrade, w-b-upgrade for the upgrade';
  assert.deepEqual(await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER), {
    status: 'pending',
    waitFor: { kinds: CAPACITY_WAIT, until: T0 + 30 * MINUTE },
    why: created,
    reason: 'WaitingForCapacity',
  });
  assert.deepEqual(fake.events, [{ type: 'Normal', reason: 'CapacityReserved', message: created }]);
  assert.deepEqual(await machineSetNames(), [
    'gpu-a',
    'gpu-a-upgrade',
    'infra-a',
    'w-a',
    'w-a-upgrade',
    'w-b',
    'w-b-upgrade',
  ]);
  const clone = await client.get(MachineSetResource, NS, 'w-a-upgrade');
  assert.deepEqual([clone.spec?.replicas, clone.metadata?.labels?.['upgrade.managed.openshift.io']], [1, 'true']);

  // The cache has not seen the clones yet: the wait runs from now.
  await fake.clock.advance(5 * MINUTE);
  const waiting =
    'MachineSet gpu-a-upgrade has 0 machines, expected 1; MachineSet w-a-upgrade has 0 machines, expected 1; MachineSet w-b-upgrade has 0 machines, expected 1';
  assert.deepEqual(await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER), {
    status: 'pending',
    waitFor: { kinds: CAPACITY_WAIT, until: T0 + 35 * MINUTE },
    why: waiting,
    reason: 'WaitingForCapacity',
  });
  // Once it has, until the oldest clone's timeout.
  await sync();
  assert.deepEqual(await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER), {
    status: 'pending',
    waitFor: { kinds: CAPACITY_WAIT, until: T0 + 30 * MINUTE + 1 },
    why: waiting,
    reason: 'WaitingForCapacity',
  });
  assert.equal((await machineSetNames()).length, 7, 'run again: nothing created twice');
  assert.equal(fake.events.length, 1);
  assert.deepEqual(await fake.series('upgradeoperator_scaling_failed'), []);
});

void test('EnsureExtraUpgradeWorkers: every clone with a Ready node is done, scaling_failed 0', async (t) => {
  const { fake, client } = await fixture(t, [machineSet('w-a', 'worker')]);
  await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER);
  await fake.clock.advance(10 * MINUTE);
  await cloneReady(client, 'w-a-upgrade');
  await cloneMachine(client, 'w-a-upgrade', { node: 'ip-10-0-1-1' });
  assert.deepEqual(await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER), { status: 'done' });
  assert.equal(await fake.value('upgradeoperator_scaling_failed', { upgradeconfig_name: CONFIG_NAME }), 0);
  assert.deepEqual(fake.notifier.calls, []);
  assert.deepEqual(
    fake.events.map((event) => event.reason),
    ['CapacityReserved'],
  );
});

void test('EnsureExtraUpgradeWorkers: a clone not ready past the timeout continues without it: scaling_failed 1, StateSkipped, a Warning', async (t) => {
  const { fake, client } = await fixture(t, [machineSet('w-a', 'worker'), machineSet('w-b', 'worker')]);
  await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER);
  await cloneReady(client, 'w-a-upgrade');
  await cloneMachine(client, 'w-a-upgrade', { node: 'ip-10-0-1-1' });
  await fake.clock.advance(30 * MINUTE);
  assert.equal((await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER)).status, 'pending', 'at the timeout: not yet');
  await fake.clock.advance(1_000);
  assert.deepEqual(await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER), { status: 'done' });
  assert.equal(await fake.value('upgradeoperator_scaling_failed', { upgradeconfig_name: CONFIG_NAME }), 1);
  assert.deepEqual(fake.notifier.calls, [{ state: 'StateSkipped' }]);
  assert.deepEqual(fake.events.slice(1), [
    {
      type: 'Warning',
      reason: 'CapacityReservationTimedOut',
      message:
        'MachineSet w-b-upgrade provisioning timed out after 30m: MachineSet w-b-upgrade has 0 machines, expected 1; continuing without extra capacity',
    },
  ]);
});

void test('RemoveExtraScaledNodes: without capacityReservation, done without the API', async () => {
  const fake = fakeStepContext();
  assert.deepEqual(await removeExtraScaledNodes.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.drainer.calls, []);
});

void test('RemoveExtraScaledNodes: deletes the clones, drains their nodes, and waits for their Machines to go', async (t) => {
  const { fake, client, machineSetNames } = await fixture(t, [
    machineSet('w-a', 'worker'),
    machineSet('w-b', 'worker'),
  ]);
  await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER);
  await cloneMachine(client, 'w-a-upgrade', { node: 'ip-10-0-1-1' });
  await cloneMachine(client, 'w-b-upgrade', { node: 'ip-10-0-2-1', phase: 'Deleting' });
  const waiting = {
    status: 'pending',
    waitFor: { kinds: [...CAPACITY_WAIT, 'Pod'] },
    why: 'waiting for the extra Machine(s) w-a-upgrade-x7k2p, w-b-upgrade-x7k2p to go away',
    reason: 'RemovingCapacity',
  };
  assert.deepEqual(await removeExtraScaledNodes.run(fake.ctx, NEVER), waiting);
  assert.deepEqual(await machineSetNames(), ['w-a', 'w-b']);
  assert.deepEqual(fake.drainer.calls, ['ip-10-0-1-1', 'ip-10-0-2-1']);

  assert.deepEqual(await removeExtraScaledNodes.run(fake.ctx, NEVER), waiting, 'run again: the same wait');
  assert.deepEqual(await machineSetNames(), ['w-a', 'w-b']);

  await client.delete(MachineResource, NS, 'w-a-upgrade-x7k2p');
  await client.delete(MachineResource, NS, 'w-b-upgrade-x7k2p');
  const drains = fake.drainer.calls.length;
  assert.deepEqual(await removeExtraScaledNodes.run(fake.ctx, NEVER), { status: 'done' });
  assert.equal(fake.drainer.calls.length, drains, 'nothing left to drain');
});

void test('RemoveExtraScaledNodes: a drain that will act later wakes the step then', async (t) => {
  const { fake, client } = await fixture(t, [machineSet('w-a', 'worker'), machineSet('w-b', 'worker')]);
  await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER);
  await cloneMachine(client, 'w-a-upgrade', { node: 'ip-10-0-1-1' });
  await cloneMachine(client, 'w-b-upgrade', { node: 'ip-10-0-2-1' });
  fake.drainer.answer = (node) => ({
    failed: false,
    nextDueAt: node === 'ip-10-0-1-1' ? T0 + 45 * MINUTE : T0 + 20 * MINUTE,
  });
  const outcome = await removeExtraScaledNodes.run(fake.ctx, NEVER);
  assert.deepEqual(outcome.status === 'pending' ? outcome.waitFor : outcome, {
    kinds: [...CAPACITY_WAIT, 'Pod'],
    until: T0 + 20 * MINUTE,
  });
});

void test('RemoveExtraScaledNodes: a failed drain fails the step with node_drain_timeout 1; the gauges are cleared once the capacity is gone', async (t) => {
  const { fake, client } = await fixture(t, [machineSet('w-a', 'worker'), machineSet('w-b', 'worker')]);
  await ensureExtraUpgradeWorkers.run(fake.ctx, NEVER);
  await cloneMachine(client, 'w-a-upgrade', { node: 'ip-10-0-1-1' });
  await cloneMachine(client, 'w-b-upgrade', { node: 'ip-10-0-2-1' });
  fake.drainer.answer = (node) =>
    node === 'ip-10-0-1-1'
      ? { failed: true, nextDueAt: T0 + 50 * MINUTE }
      : { failed: false, nextDueAt: T0 + 40 * MINUTE };
  assert.deepEqual(await removeExtraScaledNodes.run(fake.ctx, NEVER), {
    status: 'failed',
    error: 'failed to drain node(s) ip-10-0-1-1 of the extra capacity',
    reason: 'NodeDrainFailed',
    waitFor: { kinds: CAPACITY_WAIT, until: T0 + 40 * MINUTE },
  });
  assert.deepEqual(await fake.series('upgradeoperator_node_drain_timeout'), [
    { labels: { node_name: 'ip-10-0-1-1' }, value: 1 },
  ]);

  fake.drainer.answer = () => ({ failed: true });
  const again = await removeExtraScaledNodes.run(fake.ctx, NEVER);
  assert.deepEqual(again.status === 'failed' ? [again.error, again.waitFor] : again, [
    'failed to drain node(s) ip-10-0-1-1, ip-10-0-2-1 of the extra capacity',
    { kinds: CAPACITY_WAIT },
  ]);

  await client.delete(MachineResource, NS, 'w-a-upgrade-x7k2p');
  await client.delete(MachineResource, NS, 'w-b-upgrade-x7k2p');
  assert.deepEqual(await removeExtraScaledNodes.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(await fake.series('upgradeoperator_node_drain_timeout'), []);
});
