import { test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  ManagedUpgradeConfig,
  UpgradeHistory,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { NOTIFICATIONS_ANNOTATION } from '../controllers/upgrade-config-pass.js';
import { upgradeConfigProgress } from './upgrade-config-progress.js';

const NOW = Date.parse('2026-11-27T01:30:00Z');

function config(history: UpgradeHistory[], sent: string[] = []): ManagedUpgradeConfig {
  return {
    apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
    kind: 'UpgradeConfig',
    metadata: {
      namespace: 'openshift-managed-upgrade-operator',
      name: 'managed-upgrade-config',
      uid: 'u1',
      annotations: { [NOTIFICATIONS_ANNOTATION]: JSON.stringify(sent) },
    },
    spec: {
      type: 'OSD',
      upgradeAt: '2026-11-27T01:00:00Z',
      PDBForceDrainTimeout: 60,
      desired: { version: '4.14.31', channel: 'stable-4.14' },
    },
    status: { history },
  };
}

void test('no history entry for the desired version: nothing to report yet', () => {
  assert.equal(upgradeConfigProgress(config([{ version: '4.14.30', phase: 'Upgraded' }]), NOW), undefined);
});

void test('a pending entry is scheduled for upgradeAt; an upgrading one started and waits on its newest unfinished step', () => {
  const pending = upgradeConfigProgress(config([{ version: '4.14.31', phase: 'Pending' }]), NOW);
  assert.deepEqual(pending?.scheduled, { at: '2026-11-27T01:30:00Z', for: '2026-11-27T01:00:00Z' });
  assert.equal(pending?.started, undefined);
  const upgrading = upgradeConfigProgress(
    config([
      {
        version: '4.14.31',
        phase: 'Upgrading',
        startTime: '2026-11-27T01:00:02Z',
        conditions: [
          {
            type: 'ControlPlaneUpgraded',
            status: 'False',
            reason: 'ControlPlaneUpgraded not done',
            message: 'ControlPlaneUpgraded still in progress',
            startTime: '2026-11-27T01:05:00Z',
          },
          {
            type: 'SendStartedNotification',
            status: 'True',
            reason: 'SendStartedNotification done',
            message: 'SendStartedNotification is completed',
            startTime: '2026-11-27T01:00:02Z',
          },
        ],
      },
    ]),
    NOW,
  );
  assert.deepEqual(upgrading?.started, { at: '2026-11-27T01:00:02Z', message: 'upgrading to 4.14.31 (OSD)' });
  assert.deepEqual(upgrading?.wait, {
    step: 'ControlPlaneUpgraded',
    reason: 'StepInProgress',
    message: 'ControlPlaneUpgraded: ControlPlaneUpgraded still in progress',
    since: '2026-11-27T01:05:00Z',
  });
  assert.deepEqual(upgrading?.problems, []);
});

void test("a failed step and MUO's delayed notification are problems; Upgraded completes and Failed fails", () => {
  const p = upgradeConfigProgress(
    config(
      [
        {
          version: '4.14.31',
          phase: 'Upgrading',
          startTime: '2026-11-27T01:00:02Z',
          conditions: [
            {
              type: 'ClusterHealthyBeforeUpgrade',
              status: 'False',
              reason: 'ClusterHealthyBeforeUpgrade not done',
              message: 'critical alerts firing: KubeAPIDown',
              startTime: '2026-11-27T01:00:03Z',
              lastTransitionTime: '2026-11-27T01:00:03Z',
            },
          ],
        },
      ],
      ['StateStarted@4.14.31', 'StateDelayed@4.14.31', 'StateDelayed@4.14.30'],
    ),
    NOW,
  );
  assert.deepEqual(
    p?.problems.map((x) => [x.key, x.reason, x.message]),
    [
      [
        'StateDelayed',
        'Delayed',
        'Cluster upgrade to version 4.14.31 is experiencing a delay whilst it performs necessary pre-upgrade procedures. The upgrade will continue to retry.',
      ],
      [
        'step/ClusterHealthyBeforeUpgrade',
        'StepFailed',
        'ClusterHealthyBeforeUpgrade: critical alerts firing: KubeAPIDown',
      ],
    ],
  );
  const done = upgradeConfigProgress(
    config([
      {
        version: '4.14.31',
        phase: 'Upgraded',
        startTime: '2026-11-27T01:00:02Z',
        completeTime: '2026-11-27T02:00:00Z',
      },
    ]),
    NOW,
  );
  assert.deepEqual(done?.completed, { at: '2026-11-27T02:00:00Z', reason: 'Upgraded', message: 'upgraded to 4.14.31' });
  assert.equal(done?.wait, undefined);
  const failed = upgradeConfigProgress(
    config([
      {
        version: '4.14.31',
        phase: 'Failed',
        conditions: [
          {
            type: 'FailedUpgrade',
            status: 'True',
            reason: 'Upgrade failed',
            message: 'sent',
            completeTime: '2026-11-27T01:40:00Z',
          },
        ],
      },
    ]),
    NOW,
  );
  assert.equal(failed?.failed?.at, '2026-11-27T01:40:00Z');
  assert.equal(failed?.failed?.reason, 'UpgradeFailed');
  assert.deepEqual(failed?.problems, [], 'FailedUpgrade itself is not a step problem');
});
