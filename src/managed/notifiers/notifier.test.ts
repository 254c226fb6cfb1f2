import { test } from 'node:test';
import assert from 'node:assert/strict';
import { describeNotification, OCM_POLICY_STATE } from './notifier.js';

void test('descriptions follow MUO for the states with fixed texts', () => {
  assert.equal(
    describeNotification('StateStarted', '4.15.38'),
    'Cluster is currently being upgraded to version 4.15.38',
  );
  assert.equal(
    describeNotification('StateCompleted', '4.15.38'),
    'Cluster has been successfully upgraded to version 4.15.38',
  );
  assert.match(
    describeNotification('StateDelayed', 'V', { type: 'ClusterHealthyBeforeUpgrade' }),
    /delay as health alerts are firing/,
  );
  assert.match(
    describeNotification('StateDelayed', 'V', { type: 'UpgradeCommenced' }),
    /necessary pre-upgrade procedures/,
  );
  assert.equal(
    describeNotification('StateFailed', 'V', {
      type: 'IsClusterUpgradable',
      message: 'cluster upgrade to version V … cancelled',
    }),
    'cluster upgrade to version V … cancelled',
  );
  assert.match(
    describeNotification('StateFailed', 'V', { type: 'Other' }),
    /did not pass its pre-upgrade verification checks/,
  );
});

void test('MUO writes only started, delayed, completed and failed to OCM', () => {
  assert.deepEqual([...new Set(Object.values(OCM_POLICY_STATE))].sort(), ['completed', 'delayed', 'failed', 'started']);
  assert.equal(OCM_POLICY_STATE.StateControlPlaneStartedSL, undefined);
});
