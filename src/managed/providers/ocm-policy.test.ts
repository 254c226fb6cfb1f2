import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { OcmCluster, OcmUpgradePolicy } from '../../integrations/ocm-model.js';
import { byNextRun, drainGraceMinutes, isActionable, ocmChannel, policyMatches, specFromPolicy } from './ocm-policy.js';

const CLUSTER: OcmCluster = {
  id: 'c',
  externalId: 'e',
  version: '4.14.10',
  channelGroup: 'stable',
  nodeDrainGracePeriod: { value: 1, unit: 'hours' },
};
const policy = (id: string, nextRun: string, extra: Partial<OcmUpgradePolicy> = {}): OcmUpgradePolicy => ({
  id,
  version: '4.15.3',
  nextRun,
  scheduleType: 'manual',
  upgradeType: 'OSD',
  ...extra,
});

test('pending, completed and cancelled (any case) and an empty version are not actionable', () => {
  for (const value of ['pending', 'Completed', 'CANCELLED'])
    assert.equal(isActionable(policy('p', ''), { value, description: '' }), false, value);
  for (const value of ['scheduled', 'started', 'delayed', 'failed'])
    assert.equal(isActionable(policy('p', ''), { value, description: '' }), true, value);
  assert.equal(isActionable(policy('p', '', { version: '' }), { value: 'scheduled', description: '' }), false);
});

test('policies are considered earliest next_run first; unparsable ones last', () => {
  const sorted = byNextRun([
    policy('late', '2026-04-02T00:00:00Z'),
    policy('bad', 'soon'),
    policy('early', '2026-04-01T10:00:00.000+02:00'),
  ]);
  assert.deepEqual(
    sorted.map((p) => p.id),
    ['early', 'late', 'bad'],
  );
});

test('channel: <group or stable>-<major>.<minor>, an odd minor rounded up for eus', () => {
  assert.equal(ocmChannel('', '4.15.3'), 'stable-4.15');
  assert.equal(ocmChannel('fast', '4.15.3'), 'fast-4.15');
  assert.equal(ocmChannel('eus', '4.13.20'), 'eus-4.14');
  assert.equal(ocmChannel('eus', '4.14.2'), 'eus-4.14');
  assert.equal(ocmChannel('candidate', '4.16.0-rc.1'), 'candidate-4.16');
});

test('a version that is not a semantic version has no channel, and its policy no spec but MUO’s error', () => {
  for (const version of ['crashme', '4.15', 'v4.15.3', '4.015.3', '4.15.3 '])
    assert.equal(ocmChannel('fast', version), undefined, version);
  assert.deepEqual(specFromPolicy(CLUSTER, policy('p-1', '2026-04-01T12:00:00Z', { version: 'crashme' }), 'OSD'), {
    ok: false,
    error:
      "unable to determine channel from channel group 'stable' and version 'crashme' for policy ID 'p-1': \"crashme\" is not a semantic version (expected MAJOR.MINOR.PATCH with optional -PRERELEASE and +BUILD, without a v prefix or leading zeros)",
  });
  // The group is named as OCM sent it (MUO's text), empty included.
  const noGroup = specFromPolicy({ ...CLUSTER, channelGroup: '' }, policy('p', '', { version: 'x' }), 'OSD');
  assert.match(noGroup.ok ? '' : noGroup.error, /^unable to determine channel from channel group '' and version 'x'/);
});

test('node_drain_grace_period honours its unit; missing means 0', () => {
  assert.equal(drainGraceMinutes({ value: 45, unit: 'minutes' }), 45);
  assert.equal(drainGraceMinutes({ value: 2, unit: 'hours' }), 120);
  assert.equal(drainGraceMinutes({ value: 90, unit: 'seconds' }), 2);
  assert.equal(drainGraceMinutes({ value: 30, unit: '' }), 30);
  assert.equal(drainGraceMinutes(undefined), 0);
});

test('the spec of a policy; capacity_reservation honoured when sent, true otherwise', () => {
  assert.deepEqual(specFromPolicy(CLUSTER, policy('p', '2026-04-01T12:00:00.000Z'), 'OSD'), {
    ok: true,
    spec: {
      desired: { version: '4.15.3', channel: 'stable-4.15' },
      upgradeAt: '2026-04-01T12:00:00Z',
      PDBForceDrainTimeout: 60,
      type: 'OSD',
      capacityReservation: true,
    },
  });
  const aro = specFromPolicy(CLUSTER, policy('p', '2026-04-01T12:00:00Z', { capacityReservation: false }), 'ARO');
  assert.equal(aro.ok && aro.spec.capacityReservation, false);
});

test('a notification matches the policy of the same version at the same instant', () => {
  const p = policy('p', '2026-04-01T12:00:00.000Z');
  assert.equal(policyMatches(p, '4.15.3', '2026-04-01T12:00:00Z'), true);
  assert.equal(policyMatches(p, '4.15.3', '2026-04-01T12:00:01Z'), false);
  assert.equal(policyMatches(p, '4.15.4', '2026-04-01T12:00:00Z'), false);
  // OCM's next_run may carry a fraction; upgradeAt holds it to the second, so they still match.
  const fractional = { ...p, nextRun: '2026-04-01T12:00:00.734512Z' };
  const spec = specFromPolicy(CLUSTER, fractional, 'OSD');
  assert.equal(policyMatches(fractional, '4.15.3', spec.ok ? spec.spec.upgradeAt : ''), true);
  assert.equal(policyMatches(fractional, '4.15.3', '2026-04-01T12:00:00Z'), true);
  assert.equal(policyMatches(fractional, '4.15.3', '2026-04-01T12:00:01Z'), false);
});
