import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterOperatorStatusCondition } from '../../api/openshift/config-v1/cluster-version.js';
import { DESIRED, NEVER, UPGRADE_AT, clusterVersion, fakeStepContext } from './step-context.test-support.js';
import { goUnixDateUtc, isUpgradeable, upgradeableBlock } from './upgradeable-step.js';

const ADMIN_ACK = { status: 'False', reason: 'AdminAckRequired', message: 'Kubernetes 1.28 removes APIs' };

function upgradeable(status: 'True' | 'False'): ClusterOperatorStatusCondition {
  return {
    type: 'Upgradeable',
    status,
    reason: status === 'False' ? ADMIN_ACK.reason : 'AsExpected',
    message: status === 'False' ? ADMIN_ACK.message : '',
    lastTransitionTime: '2026-03-01T00:00:00Z',
  };
}

void test('goUnixDateUtc: Go’s time.UnixDate in UTC, the day padded with a space', () => {
  assert.equal(goUnixDateUtc(Date.parse(UPGRADE_AT)), 'Mon Mar  2 01:00:00 UTC 2026');
  assert.equal(goUnixDateUtc(Date.parse('2025-12-25T23:04:05.999Z')), 'Thu Dec 25 23:04:05 UTC 2025');
});

void test('upgradeableBlock: Upgradeable absent or True never blocks', () => {
  const base = { desired: '4.15.38', current: '4.14.30', upgradeAt: UPGRADE_AT };
  assert.equal(upgradeableBlock({ ...base, upgradeable: undefined }), undefined);
  assert.equal(upgradeableBlock({ ...base, upgradeable: { status: 'True', reason: '', message: '' } }), undefined);
  assert.equal(upgradeableBlock({ ...base, upgradeable: { ...ADMIN_ACK, status: 'Unknown' } }), undefined);
});

void test('upgradeableBlock: Upgradeable=False blocks a y-stream upgrade with MUO’s text, not a z-stream one', () => {
  assert.equal(
    upgradeableBlock({ desired: '4.15.38', current: '4.14.30', upgradeable: ADMIN_ACK, upgradeAt: UPGRADE_AT }),
    'cluster upgrade to version 4.15.38 on Mon Mar  2 01:00:00 UTC 2026 has been cancelled: AdminAckRequired: Kubernetes 1.28 removes APIs',
  );
  assert.equal(
    upgradeableBlock({ desired: '4.15.38', current: '4.15.2', upgradeable: ADMIN_ACK, upgradeAt: UPGRADE_AT }),
    undefined,
  );
});

void test('upgradeableBlock: an upgradeAt that does not parse is quoted as written', () => {
  assert.match(
    upgradeableBlock({ desired: '4.15.38', current: '4.14.30', upgradeable: ADMIN_ACK, upgradeAt: 'soon' }) ?? '',
    /^cluster upgrade to version 4\.15\.38 on soon has been cancelled: /,
  );
});

void test('upgradeableBlock: with Upgradeable=False, versions that cannot be compared throw', () => {
  assert.throws(
    () => upgradeableBlock({ desired: '4.15.38', current: undefined, upgradeable: ADMIN_ACK, upgradeAt: UPGRADE_AT }),
    { message: 'cannot compare versions (none) and 4.15.38' },
  );
  assert.throws(
    () => upgradeableBlock({ desired: 'latest', current: '4.14.30', upgradeable: ADMIN_ACK, upgradeAt: UPGRADE_AT }),
    { message: 'cannot compare versions 4.14.30 and latest' },
  );
});

void test('IsUpgradeable: Upgradeable=False on a minor upgrade fails, waiting for ClusterVersion to change', async () => {
  const fake = fakeStepContext({ cluster: { clusterVersion: clusterVersion({ conditions: [upgradeable('False')] }) } });
  const want = {
    status: 'failed',
    error: `cluster upgrade to version ${DESIRED} on Mon Mar  2 01:00:00 UTC 2026 has been cancelled: AdminAckRequired: Kubernetes 1.28 removes APIs`,
    reason: 'ClusterNotUpgradeable',
    waitFor: { kinds: ['ClusterVersion'] },
  };
  assert.deepEqual(await isUpgradeable.run(fake.ctx, NEVER), want);
  assert.deepEqual(await isUpgradeable.run(fake.ctx, NEVER), want, 'run twice: the same answer');
  assert.deepEqual([fake.notifier.calls, fake.events], [[], []]);
});

void test('IsUpgradeable: done on Upgradeable=True, on a z-stream upgrade, and once commenced whatever Upgradeable says', async () => {
  const cases = [
    ['Upgradeable=True', clusterVersion({ conditions: [upgradeable('True')] })],
    ['z-stream', clusterVersion({ current: '4.15.2', conditions: [upgradeable('False')] })],
    ['commenced', clusterVersion({ desiredUpdate: { version: DESIRED }, conditions: [upgradeable('False')] })],
  ] as const;
  for (const [what, cv] of cases)
    assert.deepEqual(
      await isUpgradeable.run(fakeStepContext({ cluster: { clusterVersion: cv } }).ctx, NEVER),
      { status: 'done' },
      what,
    );
});
