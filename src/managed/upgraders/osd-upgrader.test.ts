import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { NamespaceResource } from '../../api/builtin.js';
import { MachineSetResource, type MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import type { KubeClient } from '../../kube/client.js';
import { formatTime } from '../../lib/clock.js';
import { defaultManagedOperatorConfig } from '../config/managed-operator-config.js';
import { startTestCluster } from '../../sim/test-support/cluster.test-support.js';
import { controlPlaneComment, workerComment } from '../maintenance/maintenance-window.js';
import type { UrlProbe } from '../steps/external-dependency-step.js';
import {
  CONFIG_NAME,
  DESIRED,
  HOUR,
  MINUTE,
  T0,
  clusterVersion,
  fakeStepContext,
  noApiClient,
  silence,
  unreachable,
  type FakeStepContext,
} from '../steps/step-context.test-support.js';
import { osdSteps, osdUpgrader, upgradeWindowClosesAt, upgradeWindowMissedMessage } from './osd-upgrader.js';
import type { FailurePolicy } from './upgrader.js';
import { OSD_STEP_NAMES } from './upgrader.test-support.js';

const signal = new AbortController().signal;
const probe: UrlProbe = () => Promise.resolve(undefined);
const policy = (): FailurePolicy => {
  const p = osdUpgrader(probe).failurePolicy;
  assert.ok(p, 'the OSD upgrader has a failure policy');
  return p;
};
/** The operator's `config.yaml` setting the upgrade window (whole minutes); the delay trigger as given or its default. */
const windowConfig = (window: { timeOutMs: number; delayTriggerMs?: number }): string =>
  `upgradeWindow:\n  timeOut: ${window.timeOutMs / MINUTE}\n` +
  (window.delayTriggerMs === undefined ? '' : `  delayTrigger: ${window.delayTriggerMs / MINUTE}\n`);
/** A ClusterVersion the CVO was told to upgrade to {@link DESIRED}: the upgrade has commenced. */
const commencedCluster = { clusterVersion: clusterVersion({ desiredUpdate: { version: DESIRED } }) };
/** Silences that are still in force at the times these tests fail the upgrade. */
const inForce = { endsAt: T0 + 24 * HOUR };
const MACHINE_API = 'openshift-machine-api';
const BREACHED = 'upgradeoperator_upgrade_window_breached';

function machineSet(name: string, clone: boolean): MachineSet {
  const selector = { 'machine.openshift.io/cluster-api-machineset': name };
  return {
    apiVersion: 'machine.openshift.io/v1beta1',
    kind: 'MachineSet',
    metadata: {
      name,
      namespace: MACHINE_API,
      labels: {
        'hive.openshift.io/machine-pool': 'worker',
        ...(clone ? { 'upgrade.managed.openshift.io': 'true' } : {}),
      },
    },
    spec: {
      replicas: 1,
      selector: { matchLabels: selector },
      template: {
        metadata: { labels: selector },
        spec: { providerSpec: { value: { kind: 'AWSMachineProviderConfig' } } },
      },
    },
  };
}

/** The embedded API server with a worker MachineSet and its capacity-reservation clone. */
async function machineApi(t: TestContext): Promise<{ client: KubeClient; machineSets(): Promise<string[]> }> {
  const { client } = await startTestCluster(t, { start: T0 });
  await client.create(NamespaceResource, { metadata: { name: MACHINE_API } });
  await client.create(MachineSetResource, machineSet('w-a', false));
  await client.create(MachineSetResource, machineSet('w-a-upgrade', true));
  return {
    client,
    machineSets: async () =>
      (await client.list(MachineSetResource, { namespace: MACHINE_API })).items.map((ms) => ms.metadata?.name ?? ''),
  };
}

const created = (type: string): { type: string; status: 'True'; reason: string; message: string } => ({
  type,
  status: 'True',
  reason: `${type} done`,
  message: `${type} is completed`,
});

void test('osdUpgrader: MUO’s 17 OSD steps, in MUO’s order', () => {
  const names = OSD_STEP_NAMES;
  assert.deepEqual(
    osdUpgrader(probe).steps.map((s) => s.name),
    names,
  );
  assert.deepEqual(
    osdSteps(probe).map((s) => s.name),
    names,
  );
});

void test('upgradeWindowClosesAt: upgradeAt + upgradeWindow.timeOut; none with the window disabled or no readable upgradeAt', () => {
  const at = (timeOutMs: number, upgradeAt: string): number | undefined =>
    upgradeWindowClosesAt({
      upgradeConfig: { spec: { type: 'OSD', upgradeAt, PDBForceDrainTimeout: 60, desired: {} } },
      config: { ...defaultManagedOperatorConfig(), upgradeWindow: { timeOutMs, delayTriggerMs: 0 } },
    });
  assert.equal(at(120 * MINUTE, formatTime(T0)), T0 + 2 * HOUR);
  assert.equal(at(0, formatTime(T0)), undefined);
  assert.equal(at(120 * MINUTE, 'tomorrow'), undefined);
});

void test('the failure policy: failed only when not commenced and strictly past the window; never with the window disabled', () => {
  const hasFailed = (now: number, options: { commenced?: boolean; timeOutMs?: number } = {}): boolean =>
    policy().hasFailed(
      fakeStepContext({
        now,
        ...(options.commenced ? { cluster: commencedCluster } : {}),
        ...(options.timeOutMs !== undefined ? { operatorConfig: windowConfig({ timeOutMs: options.timeOutMs }) } : {}),
      }).ctx,
    );
  assert.equal(hasFailed(T0 + HOUR), false, 'within the window');
  assert.equal(hasFailed(T0 + 2 * HOUR), false, 'the window closes strictly after upgradeAt + timeOut');
  assert.equal(hasFailed(T0 + 2 * HOUR + 1), true);
  assert.equal(hasFailed(T0 + 30 * 24 * HOUR), true);
  assert.equal(hasFailed(T0 + 3 * HOUR, { commenced: true }), false, 'commanded to the CVO: never failed');
  assert.equal(hasFailed(T0 + 30 * 24 * HOUR, { timeOutMs: 0 }), false, 'no window, no failure');
});

void test('failing the upgrade: clones deleted, our silences ended, StateFailed sent, the entry Failed, UpgradeFailed emitted', async (t) => {
  const api = await machineApi(t);
  const foreign = silence('other', 'a silence of the SRE on call', { ...inForce, createdBy: 'sre@example.com' });
  const now = T0 + 2 * HOUR + 5 * MINUTE;
  const f = fakeStepContext({
    now,
    client: api.client,
    silences: [
      silence('cp', controlPlaneComment(DESIRED), inForce),
      silence('workers', workerComment(DESIRED, 3), inForce),
      foreign,
    ],
    history: { startTime: formatTime(T0), conditions: [created('ControlPlaneMaintenanceWindowCreated')] },
  });
  const { alertmanager } = f;
  f.ctx.metrics.setScalingFailed(CONFIG_NAME, true);

  const outcome = await policy().fail(f.ctx, signal);

  assert.deepEqual(outcome, {
    failed: true,
    reason: 'Failed',
    message: 'the upgrade window passed before the upgrade could start',
  });
  assert.deepEqual(await api.machineSets(), ['w-a'], 'the clone is deleted, the original kept');
  assert.deepEqual(
    alertmanager.silences.map((s) => `${s.id}:${s.status.state}`),
    ['cp:expired', 'workers:expired', 'other:active'],
  );
  assert.deepEqual(f.notifier.sent, ['StateFailed']);
  assert.equal(f.ctx.history.phase, 'Failed');
  const failed = f.ctx.history.conditions?.find((c) => c.type === 'FailedUpgrade');
  assert.deepEqual(
    { ...failed },
    {
      type: 'FailedUpgrade',
      status: 'True',
      reason: 'Upgrade failed',
      message: 'FailedUpgrade notification sent',
      completeTime: formatTime(now),
      lastProbeTime: formatTime(now),
      lastTransitionTime: formatTime(now),
    },
  );
  assert.deepEqual(f.events, [
    {
      type: 'Warning',
      reason: 'UpgradeFailed',
      message: `the upgrade did not start within the upgrade window (120 min after ${formatTime(T0)})`,
    },
  ]);
  assert.equal(upgradeWindowMissedMessage(120 * MINUTE, formatTime(T0)), f.events[0]?.message);
  assert.equal(await f.value(BREACHED, { upgradeconfig_name: CONFIG_NAME }), 1);
  assert.equal(
    await f.value('upgradeoperator_scaling_failed', { upgradeconfig_name: CONFIG_NAME }),
    undefined,
    'the metrics of the failed attempt are reset',
  );
});

void test('a part that cannot be done leaves FailedUpgrade False saying which, and the next try finishes the failure', async (t) => {
  const now = T0 + 3 * HOUR;
  const expectRetry = (f: FakeStepContext, outcome: Awaited<ReturnType<FailurePolicy['fail']>>, part: string): void => {
    assert.deepEqual(outcome, {
      failed: false,
      reason: 'FailingUpgrade',
      message: `the upgrade window passed; cleaning up: ${part}`,
      retryInMs: 30_000,
    });
    assert.equal(f.ctx.history.phase, 'Upgrading');
    const failed = f.ctx.history.conditions?.find((c) => c.type === 'FailedUpgrade');
    assert.deepEqual(
      { status: failed?.status, reason: failed?.reason, message: failed?.message },
      { status: 'False', reason: 'Upgrade failed', message: part },
    );
    assert.deepEqual(f.events, []);
  };

  // The API server does not answer: nothing else is tried.
  const down = fakeStepContext({ now, client: noApiClient('the API server is unavailable') });
  expectRetry(
    down,
    await policy().fail(down.ctx, signal),
    'failed to remove the extra capacity: the API server is unavailable',
  );
  assert.deepEqual(down.notifier.sent, []);
  assert.equal(await down.value(BREACHED, { upgradeconfig_name: CONFIG_NAME }), undefined);

  // Alertmanager is down once a maintenance window was created: our silences could be left behind.
  const api = await machineApi(t);
  const silenced = fakeStepContext({
    now,
    client: api.client,
    silences: [silence('cp', controlPlaneComment(DESIRED), inForce)],
    history: { conditions: [created('ControlPlaneMaintenanceWindowCreated')] },
  });
  const { alertmanager } = silenced;
  alertmanager.failWith(unreachable('alertmanager'));
  expectRetry(
    silenced,
    await policy().fail(silenced.ctx, signal),
    'failed to end the maintenance silences: alertmanager: connect ECONNREFUSED 127.0.0.1:9093',
  );
  assert.deepEqual(silenced.notifier.sent, []);
  alertmanager.failWith(undefined);
  await silenced.clock.advanceTo(now + 30_000);
  assert.equal((await policy().fail(silenced.ctx, signal)).failed, true);
  assert.deepEqual(
    alertmanager.silences.map((s) => s.status.state),
    ['expired'],
  );
  const failed = silenced.ctx.history.conditions?.find((c) => c.type === 'FailedUpgrade');
  assert.deepEqual([failed?.status, failed?.lastTransitionTime], ['True', formatTime(now + 30_000)]);

  // The notification cannot be sent.
  const unsent = fakeStepContext({ now, client: api.client });
  unsent.notifier.failWith(new Error('ocm: HTTP 503'));
  expectRetry(
    unsent,
    await policy().fail(unsent.ctx, signal),
    'failed to send the FailedUpgrade notification: ocm: HTTP 503',
  );
  unsent.notifier.failWith(undefined);
  assert.equal((await policy().fail(unsent.ctx, signal)).failed, true);
  assert.deepEqual(unsent.notifier.sent, ['StateFailed']);
  assert.equal(unsent.ctx.history.phase, 'Failed');
});

void test('an unreachable Alertmanager before any maintenance window was created does not keep the upgrade from failing', async (t) => {
  const api = await machineApi(t);
  const f = fakeStepContext({
    now: T0 + 3 * HOUR,
    client: api.client,
    history: {
      conditions: [
        {
          type: 'ControlPlaneMaintenanceWindowCreated',
          status: 'False',
          reason: 'ControlPlaneMaintenanceWindowCreated not done',
        },
      ],
    },
  });
  f.alertmanager.failWith(unreachable('alertmanager'));
  assert.equal((await policy().fail(f.ctx, signal)).failed, true);
  assert.deepEqual(f.notifier.sent, ['StateFailed']);
  assert.equal(f.ctx.history.phase, 'Failed');
  assert.deepEqual(await api.machineSets(), ['w-a']);
});

void test('wake-ups until commenced: 1 ms after the delayed notification falls due and after the window closes, those ahead', () => {
  const wakeUps = (
    now: number,
    options: { commenced?: boolean; startTime?: number; window?: { timeOutMs: number; delayTriggerMs: number } } = {},
  ): number[] => {
    const f = fakeStepContext({
      now,
      ...(options.commenced ? { cluster: commencedCluster } : {}),
      history: options.startTime !== undefined ? { startTime: formatTime(options.startTime) } : {},
      ...(options.window ? { operatorConfig: windowConfig(options.window) } : {}),
    });
    return osdUpgrader(probe).wakeUps(f.ctx);
  };
  const started = { startTime: T0 + 5 * MINUTE };
  assert.deepEqual(wakeUps(T0 + 10 * MINUTE, started), [T0 + 35 * MINUTE + 1, T0 + 2 * HOUR + 1]);
  assert.deepEqual(wakeUps(T0 + 40 * MINUTE, started), [T0 + 2 * HOUR + 1], 'the delayed notification is past');
  assert.deepEqual(wakeUps(T0 + 3 * HOUR, started), [], 'both are past');
  assert.deepEqual(wakeUps(T0 + 10 * MINUTE), [T0 + 2 * HOUR + 1], 'no start time, no delayed notification');
  assert.deepEqual(wakeUps(T0 + 10 * MINUTE, { ...started, commenced: true }), [], 'commenced: none');
  assert.deepEqual(
    wakeUps(T0 + 10 * MINUTE, { ...started, window: { timeOutMs: 0, delayTriggerMs: 0 } }),
    [],
    'window and delay trigger disabled',
  );

  // A spec that names no target cannot be judged commenced: the wake-ups stay.
  const f = fakeStepContext({ now: T0 + 10 * MINUTE });
  f.ctx.upgradeConfig.spec!.desired = {};
  assert.deepEqual(osdUpgrader(probe).wakeUps(f.ctx), [T0 + 2 * HOUR + 1]);
});
