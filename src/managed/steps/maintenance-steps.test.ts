import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import {
  controlPlaneComment,
  controlPlaneCriticalsComment,
  defaultSilenceMatchers,
  workerComment,
} from '../maintenance/maintenance-window.js';
import {
  DESIRED,
  MINUTE,
  NEVER,
  T0,
  condition,
  fakeStepContext,
  machineConfigPool,
  silence,
  unreachable,
  type FakeStepContext,
  type FakeStepContextOptions,
} from './step-context.test-support.js';
import {
  createControlPlaneMaintWindow,
  createWorkerMaintWindow,
  keepControlPlaneWindow,
  removeControlPlaneMaintWindow,
  removeMaintWindow,
} from './maintenance-steps.js';

const CP = controlPlaneComment(DESIRED);
const CP_CRITICALS = controlPlaneCriticalsComment(DESIRED);
const ALERTMANAGER_DOWN = {
  status: 'failed',
  error: 'Alertmanager unavailable: alertmanager: connect ECONNREFUSED 127.0.0.1:9093',
  reason: 'AlertmanagerUnavailable',
  waitFor: { until: T0 + 30_000 },
};
const windowRemoved: FakeStepContextOptions = {
  history: { conditions: [condition(C.ControlPlaneMaintenanceWindowRemoved)] },
};

/** Events as `type reason: message` lines. */
function eventLines(fake: FakeStepContext): string[] {
  return fake.events.map(({ type, reason, message }) => `${type} ${reason}: ${message}`);
}

void test('CreateControlPlaneMaintWindow: creates MUO’s silence for the control-plane time, with an Event; a second run creates nothing', async () => {
  const fake = fakeStepContext();
  assert.deepEqual(await createControlPlaneMaintWindow.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.alertmanager.silences, [
    {
      id: 'silence-1',
      status: { state: 'active' },
      updatedAt: T0,
      matchers: defaultSilenceMatchers(),
      startsAt: T0,
      endsAt: T0 + 90 * MINUTE,
      createdBy: 'managed-upgrade-operator',
      comment: CP,
    },
  ]);
  assert.deepEqual(eventLines(fake), [`Normal MaintenanceWindowCreated: silence silence-1: ${CP}`]);

  await fake.clock.advance(5 * MINUTE);
  assert.deepEqual(await createControlPlaneMaintWindow.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.alertmanager.calls, ['list', 'create silence-1', 'list']);
  assert.equal(fake.events.length, 1);
});

void test('CreateControlPlaneMaintWindow: the configured critical alerts get their own silence', async () => {
  const fake = fakeStepContext({
    operatorConfig:
      'maintenance:\n  controlPlaneTime: 60\n  ignoredAlerts:\n    controlPlaneCriticals:\n      - etcdMembersDown\n      - KubeAPIErrorBudgetBurn\n',
  });
  await createControlPlaneMaintWindow.run(fake.ctx, NEVER);
  assert.deepEqual(
    fake.alertmanager.silences.map((s) => [s.comment, s.matchers, s.endsAt]),
    [
      [CP, defaultSilenceMatchers(), T0 + 60 * MINUTE],
      [
        CP_CRITICALS,
        [{ name: 'alertname', value: '(etcdMembersDown|KubeAPIErrorBudgetBurn)', isRegex: true }],
        T0 + 60 * MINUTE,
      ],
    ],
  );
  assert.deepEqual(eventLines(fake), [
    `Normal MaintenanceWindowCreated: silence silence-1: ${CP}`,
    `Normal MaintenanceWindowCreated: silence silence-2: ${CP_CRITICALS}`,
  ]);
});

void test('CreateControlPlaneMaintWindow: a window that exists only expired is not brought back', async () => {
  const fake = fakeStepContext({
    silences: [silence('cp-old', CP, { status: { state: 'expired' }, endsAt: T0 - MINUTE })],
  });
  assert.deepEqual(await createControlPlaneMaintWindow.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual([fake.alertmanager.calls, fake.alertmanager.live(), fake.events], [['list'], [], []]);
});

void test('CreateControlPlaneMaintWindow: once the window was removed (condition True), done without asking Alertmanager', async () => {
  const fake = fakeStepContext(windowRemoved);
  fake.alertmanager.failWith(unreachable('alertmanager'));
  assert.deepEqual(await createControlPlaneMaintWindow.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.alertmanager.calls, []);
});

void test('CreateControlPlaneMaintWindow: Alertmanager failing to list or to create fails the step, retried in 30 s', async () => {
  for (const operation of ['list', 'create'] as const) {
    const fake = fakeStepContext();
    fake.alertmanager.failWith(unreachable('alertmanager'), [operation]);
    assert.deepEqual(await createControlPlaneMaintWindow.run(fake.ctx, NEVER), ALERTMANAGER_DOWN, operation);
    assert.deepEqual(fake.events, []);
  }
});

void test('CreateControlPlaneMaintWindow: an error that is not Alertmanager’s is not disguised as its unavailability', async () => {
  const fake = fakeStepContext();
  fake.alertmanager.failWith(new TypeError('silences is not iterable'), ['list']);
  await assert.rejects(createControlPlaneMaintWindow.run(fake.ctx, NEVER), TypeError);
});

void test('keepControlPlaneWindow: renews every due control-plane silence to now + control-plane time, names it in an Event, says when to look again', async () => {
  const now = T0 + 50 * MINUTE;
  const fake = fakeStepContext({
    now,
    silences: [
      silence('cp-1', CP, { endsAt: T0 + 90 * MINUTE }),
      silence('cp-2', CP_CRITICALS, { endsAt: T0 + 90 * MINUTE }),
      silence('w-1', workerComment(DESIRED, 2), { endsAt: T0 + 60 * MINUTE }),
    ],
  });
  assert.deepEqual(await keepControlPlaneWindow(fake.ctx, NEVER), { nextAt: now + 90 * MINUTE - 45 * MINUTE });
  assert.deepEqual(
    fake.alertmanager.silences.map((s) => [s.id, s.endsAt]),
    [
      ['cp-1', now + 90 * MINUTE],
      ['cp-2', now + 90 * MINUTE],
      ['w-1', T0 + 60 * MINUTE],
    ],
  );
  assert.deepEqual(eventLines(fake), [
    `Normal MaintenanceWindowExtended: silence cp-1: ${CP}, now until 2026-03-02T03:20:00Z`,
    `Normal MaintenanceWindowExtended: silence cp-2: ${CP_CRITICALS}, now until 2026-03-02T03:20:00Z`,
  ]);
  assert.deepEqual(await keepControlPlaneWindow(fake.ctx, NEVER), { nextAt: now + 45 * MINUTE }, 'run twice');
  assert.equal(fake.events.length, 2, 'nothing renewed twice');
});

void test('keepControlPlaneWindow: a silence Alertmanager replaces is named with the one it replaced', async () => {
  const now = T0 + 50 * MINUTE;
  const fake = fakeStepContext({ now, silences: [silence('cp-1', CP, { endsAt: T0 + 90 * MINUTE })] });
  fake.alertmanager.replaceOnUpdate = true;
  await keepControlPlaneWindow(fake.ctx, NEVER);
  assert.deepEqual(eventLines(fake), [
    `Normal MaintenanceWindowExtended: silence silence-1: ${CP}, now until 2026-03-02T03:20:00Z (replacing cp-1)`,
  ]);
});

void test('keepControlPlaneWindow: nothing to keep without a live window, or once it was removed', async () => {
  const none = fakeStepContext({ silences: [silence('w-1', workerComment(DESIRED, 2))] });
  assert.deepEqual(await keepControlPlaneWindow(none.ctx, NEVER), {});
  const removed = fakeStepContext({ ...windowRemoved, silences: [silence('cp-1', CP, { endsAt: T0 + MINUTE })] });
  assert.deepEqual(await keepControlPlaneWindow(removed.ctx, NEVER), {});
  assert.deepEqual(removed.alertmanager.calls, []);
  assert.deepEqual([none.events, removed.events], [[], []]);
});

void test('keepControlPlaneWindow: Alertmanager unavailable is a problem to name and a retry in 30 s, with a warning logged', async () => {
  const fake = fakeStepContext();
  fake.alertmanager.failWith(unreachable('alertmanager'));
  assert.deepEqual(await keepControlPlaneWindow(fake.ctx, NEVER), {
    nextAt: T0 + 30_000,
    problem:
      'the control-plane maintenance silence could not be extended (Alertmanager unavailable: alertmanager: connect ECONNREFUSED 127.0.0.1:9093)',
  });
  assert.deepEqual(
    fake.logs.map((line) => line.msg),
    ['could not keep the control-plane maintenance silence open'],
  );
});

/** Live silences of both windows, ours and others’, and an expired one. */
function bothWindows(): FakeStepContextOptions {
  return {
    now: T0 + 100 * MINUTE,
    silences: [
      silence('cp-1', CP, { endsAt: T0 + 190 * MINUTE }),
      silence('cp-2', CP_CRITICALS, { startsAt: T0 + 120 * MINUTE, endsAt: T0 + 190 * MINUTE }),
      silence('w-1', workerComment(DESIRED, 2), { endsAt: T0 + 300 * MINUTE }),
      silence('w-old', workerComment('4.15.37', 1), { endsAt: T0 + 300 * MINUTE }),
      silence('sre', `${CP} (kept by hand)`, { createdBy: 'sre@example.com', endsAt: T0 + 300 * MINUTE }),
      silence('cp-gone', CP, { status: { state: 'expired' }, endsAt: T0 }),
    ],
  };
}

void test('RemoveControlPlaneMaintWindow: expires the operator’s live control-plane silences (pending ones too), one Event each', async () => {
  const fake = fakeStepContext(bothWindows());
  assert.deepEqual(await removeControlPlaneMaintWindow.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.alertmanager.calls, ['list', 'expire cp-1', 'expire cp-2']);
  assert.deepEqual(fake.alertmanager.live(), [
    `active ${CP} (kept by hand)`,
    `active ${workerComment('4.15.37', 1)}`,
    `active ${workerComment(DESIRED, 2)}`,
  ]);
  assert.deepEqual(eventLines(fake), [
    `Normal MaintenanceWindowRemoved: silence cp-1: ${CP}`,
    `Normal MaintenanceWindowRemoved: silence cp-2: ${CP_CRITICALS}`,
  ]);
  assert.deepEqual(await removeControlPlaneMaintWindow.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.alertmanager.calls.slice(3), ['list'], 'run twice: nothing expired twice');
  assert.equal(fake.events.length, 2);
});

void test('RemoveMaintWindow: expires the operator’s live worker silences of any version, leaving the control plane’s', async () => {
  const fake = fakeStepContext(bothWindows());
  assert.deepEqual(await removeMaintWindow.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.alertmanager.calls, ['list', 'expire w-1', 'expire w-old']);
  assert.deepEqual(eventLines(fake), [
    `Normal MaintenanceWindowRemoved: silence w-1: ${workerComment(DESIRED, 2)}`,
    `Normal MaintenanceWindowRemoved: silence w-old: ${workerComment('4.15.37', 1)}`,
  ]);
  assert.deepEqual(await removeMaintWindow.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.alertmanager.calls.slice(3), ['list'], 'run twice: nothing expired twice');
});

void test('RemoveControlPlaneMaintWindow and RemoveMaintWindow: every expiry is tried; a failure fails the step, retried in 30 s', async () => {
  for (const [step, ids] of [
    [removeControlPlaneMaintWindow, ['cp-1', 'cp-2']],
    [removeMaintWindow, ['w-1', 'w-old']],
  ] as const) {
    const fake = fakeStepContext({ ...bothWindows(), now: T0 });
    fake.alertmanager.failWith(unreachable('alertmanager'), ['expire']);
    assert.deepEqual(await step.run(fake.ctx, NEVER), ALERTMANAGER_DOWN, step.name);
    assert.deepEqual(fake.alertmanager.calls, ['list', ...ids.map((id) => `expire ${id}`)], step.name);
    assert.deepEqual(fake.events, [], step.name);
    const down = fakeStepContext();
    down.alertmanager.failWith(unreachable('alertmanager'), ['list']);
    assert.deepEqual(await step.run(down.ctx, NEVER), ALERTMANAGER_DOWN, step.name);
  }
});

void test('CreateWorkerMaintWindow: silences the pending workers for pending × (max(PDB timeout, drain timeout) + expected drain time)', async () => {
  const fake = fakeStepContext({
    cluster: { pools: [machineConfigPool('worker', { machineCount: 3, updatedMachineCount: 1 })] },
  });
  assert.deepEqual(await createWorkerMaintWindow.run(fake.ctx, NEVER), { status: 'done' });
  const comment = workerComment(DESIRED, 2);
  assert.deepEqual(
    fake.alertmanager.silences.map((s) => [s.id, s.comment, s.matchers, s.startsAt, s.endsAt]),
    [['silence-1', comment, defaultSilenceMatchers(), T0, T0 + 2 * (60 + 8) * MINUTE]],
  );
  assert.deepEqual(eventLines(fake), [`Normal MaintenanceWindowCreated: silence silence-1: ${comment}`]);

  assert.deepEqual(await createWorkerMaintWindow.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.alertmanager.calls, ['list', 'create silence-1', 'list'], 'run twice: kept');
  assert.equal(fake.events.length, 1);
});

void test('CreateWorkerMaintWindow: a new pending count replaces the silence, the new one created before the old expires', async () => {
  const fake = fakeStepContext({
    cluster: { pools: [machineConfigPool('worker', { machineCount: 3, updatedMachineCount: 1 })] },
  });
  await createWorkerMaintWindow.run(fake.ctx, NEVER);
  await fake.clock.advance(20 * MINUTE);
  fake.cluster.pools = [machineConfigPool('worker', { machineCount: 3, updatedMachineCount: 2 })];
  assert.deepEqual(await createWorkerMaintWindow.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.alertmanager.calls.slice(2), ['list', 'create silence-2', 'expire silence-1']);
  assert.deepEqual(fake.alertmanager.live(), [`active ${workerComment(DESIRED, 1)}`]);
  assert.equal(fake.alertmanager.silences[1]?.endsAt, T0 + 20 * MINUTE + 68 * MINUTE);
  assert.deepEqual(eventLines(fake).slice(1), [
    `Normal MaintenanceWindowCreated: silence silence-2: ${workerComment(DESIRED, 1)}`,
  ]);
});

void test('CreateWorkerMaintWindow: with no PDB force-drain timeout the drain timeout sizes the window', async () => {
  const fake = fakeStepContext({
    spec: { PDBForceDrainTimeout: 0 },
    cluster: { pools: [machineConfigPool('worker', { machineCount: 2, updatedMachineCount: 1 })] },
  });
  await createWorkerMaintWindow.run(fake.ctx, NEVER);
  assert.equal(fake.alertmanager.silences[0]?.endsAt, T0 + (45 + 8) * MINUTE);
});

void test('CreateWorkerMaintWindow: counts every unpaused pool but master', async () => {
  const fake = fakeStepContext({
    cluster: {
      pools: [
        machineConfigPool('master', { machineCount: 3, updatedMachineCount: 0 }),
        machineConfigPool('worker', { machineCount: 4, updatedMachineCount: 2, paused: true }),
        machineConfigPool('infra', { machineCount: 3, updatedMachineCount: 2 }),
        machineConfigPool('gpu', { machineCount: 2 }),
      ],
    },
  });
  await createWorkerMaintWindow.run(fake.ctx, NEVER);
  assert.deepEqual(fake.alertmanager.live(), [`active ${workerComment(DESIRED, 1)}`]);
});

void test('CreateWorkerMaintWindow: done without Alertmanager when the workers are updated or none is pending', async () => {
  for (const [what, pools] of [
    ['all updated', [machineConfigPool('worker', { machineCount: 3 })]],
    ['not yet observed, none pending', [machineConfigPool('worker', { machineCount: 3, observedGeneration: 1 })]],
    ['only master rolls', [machineConfigPool('master', { machineCount: 3, updatedMachineCount: 1 })]],
  ] as const) {
    const fake = fakeStepContext({ cluster: { pools: [...pools] } });
    fake.alertmanager.failWith(unreachable('alertmanager'));
    assert.deepEqual(await createWorkerMaintWindow.run(fake.ctx, NEVER), { status: 'done' }, what);
    assert.deepEqual(fake.alertmanager.calls, [], what);
  }
});

void test('CreateWorkerMaintWindow: Alertmanager unavailable fails the step, retried in 30 s', async () => {
  const fake = fakeStepContext({
    cluster: { pools: [machineConfigPool('worker', { machineCount: 3, updatedMachineCount: 1 })] },
  });
  fake.alertmanager.failWith(unreachable('alertmanager'), ['create']);
  assert.deepEqual(await createWorkerMaintWindow.run(fake.ctx, NEVER), ALERTMANAGER_DOWN);
  assert.deepEqual(fake.events, []);
});
