import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTime } from '../../lib/clock.js';
import type { UrlProbe } from '../steps/external-dependency-step.js';
import { aroSteps, aroUpgrader } from './aro-upgrader.js';
import { osdSteps } from './osd-upgrader.js';
import { clusterVersion, fakeStepContext, MINUTE } from './upgrader.test-support.js';

const T0 = Date.UTC(2026, 2, 2, 8);
const probe: UrlProbe = () => Promise.resolve(undefined);

void test('aroUpgrader: MUO’s 14 ARO steps, in MUO’s order: the OSD list without three steps', () => {
  const names = [
    'SendStartedNotification',
    'PreUpgradeHealthCheck',
    'ExternalDependencyAvailabilityCheck',
    'EnsureExtraUpgradeWorkers',
    'CreateControlPlaneMaintWindow',
    'CommenceUpgrade',
    'ControlPlaneUpgraded',
    'RemoveControlPlaneMaintWindow',
    'CreateWorkerMaintWindow',
    'AllWorkersUpgraded',
    'RemoveExtraScaledNodes',
    'RemoveMaintWindow',
    'PostUpgradeHealthCheck',
    'SendCompletedNotification',
  ];
  assert.deepEqual(
    aroUpgrader(probe).steps.map((s) => s.name),
    names,
  );
  assert.deepEqual(
    aroSteps(probe).map((s) => s.name),
    names,
  );
  assert.deepEqual(
    osdSteps(probe)
      .map((s) => s.name)
      .filter((name) => !names.includes(name)),
    ['UpgradeDelayedCheck', 'IsUpgradeable', 'PostUpgradeProcedures'],
  );
});

void test('aroUpgrader: no failure policy, however long past the window', () => {
  assert.equal(aroUpgrader(probe).failurePolicy, undefined);
});

void test('aroUpgrader: no wake-ups, even before the delayed notification and the window close', () => {
  const f = fakeStepContext({
    type: 'ARO',
    upgradeAt: T0,
    now: T0 + 10 * MINUTE,
    clusterVersion: clusterVersion('before'),
    history: { startTime: formatTime(T0) },
  });
  assert.deepEqual(aroUpgrader(probe).wakeUps(f.ctx), []);
});
