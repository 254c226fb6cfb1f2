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

void test('failed during the pre-upgrade health check, the external-dependency check or the scale-up: MUO’s exact texts', () => {
  const failed = (type: string): string => describeNotification('StateFailed', '4.15.38', { type, message: 'm' });
  assert.equal(
    failed('ClusterHealthyBeforeUpgrade'),
    "Cluster upgrade to version 4.15.38 was cancelled during the Pre-Health Check step. Health alerts are firing in the cluster which could impact the upgrade's operation, so the upgrade did not proceed. Automated upgrades will be retried on their next scheduling cycle. If you have manually scheduled an upgrade instead, it must now be rescheduled",
  );
  assert.equal(
    failed('ExternalDependenciesAvailable'),
    'Cluster upgrade to version 4.15.38 was cancelled during the External Dependency Availability Check step. A required external dependency of the upgrade was unavailable, so the upgrade did not proceed. Automated upgrades will be retried on their next scheduling cycle. If you have manually scheduled an upgrade instead, it must now be rescheduled',
  );
  assert.equal(
    failed('ComputeCapacityReserved'),
    'Cluster upgrade to version 4.15.38 was cancelled during the Scale-Up Worker Node step. A temporary additional worker node was unable to be created to temporarily house workloads, so the upgrade did not proceed. Automated upgrades will be retried on their next scheduling cycle. If you have manually scheduled an upgrade instead, it must now be rescheduled',
  );
});

void test('MUO writes only started, delayed, completed and failed to OCM', () => {
  assert.deepEqual([...new Set(Object.values(OCM_POLICY_STATE))].sort(), ['completed', 'delayed', 'failed', 'started']);
  assert.equal(OCM_POLICY_STATE.StateControlPlaneStartedSL, undefined);
});
