import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '../../lib/random.js';
import { drawMs } from '../durations.js';
import { HA_CLOUD_DURATIONS, nodeScaledRange, rolloutRange, SINGLE_NODE_DURATIONS } from './durations.js';
import { operatorProfile, profiledOperators } from './profiles.js';

void test('the lead of a stage draws the stage range; every operator of a parallel stage stays inside it', () => {
  assert.deepEqual(rolloutRange(operatorProfile('kube-apiserver'), HA_CLOUD_DURATIONS, 6), [8, 15, 25]);
  assert.deepEqual(rolloutRange(operatorProfile('monitoring'), HA_CLOUD_DURATIONS, 6), [8, 12, 20]);
  assert.deepEqual(rolloutRange(operatorProfile('config-operator'), HA_CLOUD_DURATIONS, 6), [1, 2, 4]);
  for (const name of profiledOperators()) {
    const profile = operatorProfile(name);
    const [min, mode, max] = rolloutRange(profile, HA_CLOUD_DURATIONS, 6);
    assert.ok(min <= mode && mode <= max, `${name}: (${min}, ${mode}, ${max})`);
    const stage = HA_CLOUD_DURATIONS[profile.stage];
    const stageMax = Array.isArray(stage)
      ? (stage as readonly number[])[2]!
      : nodeScaledRange(stage as { base: number; perNode: number; cap: number }, 6)[2];
    assert.ok(max <= stageMax + 1e-9, `${name} may exceed its stage`);
  }
});

void test('sequential runlevels of one stage add up to the stage range', () => {
  const sum = (names: string[], i: 0 | 2): number =>
    names.reduce((a, n) => a + rolloutRange(operatorProfile(n), HA_CLOUD_DURATIONS, 6)[i], 0);
  // 25 → 26 and 30 → 31 → 40 run one after another.
  assert.ok(Math.abs(sum(['kube-controller-manager', 'cloud-controller-manager'], 2) - 10) < 1e-9);
  assert.ok(Math.abs(sum(['kube-controller-manager', 'cloud-controller-manager'], 0) - 3) < 1e-9);
  assert.ok(Math.abs(sum(['machine-api', 'baremetal', 'kube-storage-version-migrator'], 2) - 8) < 1e-9);
  assert.ok(Math.abs(sum(['machine-api', 'baremetal', 'kube-storage-version-migrator'], 0) - 3) < 1e-9);
});

void test('network scales with the node count up to the cap; single-node uses a fixed range', () => {
  assert.deepEqual(
    rolloutRange(operatorProfile('network'), HA_CLOUD_DURATIONS, 6).map((x) => Math.round(x * 100) / 100),
    [10.08, 11.2, 12.32],
  );
  assert.deepEqual(rolloutRange(operatorProfile('network'), HA_CLOUD_DURATIONS, 100), [22.5, 25, 25]);
  assert.deepEqual(rolloutRange(operatorProfile('network'), SINGLE_NODE_DURATIONS, 1), [3, 5, 8]);
});

void test('draws are in milliseconds, divided by the time scale, and reproducible', () => {
  const a = drawMs(new SeededRandom(5), [1, 2, 4], 1);
  assert.ok(a >= 60_000 && a <= 240_000);
  assert.equal(drawMs(new SeededRandom(5), [1, 2, 4], 60), Math.round(a / 60));
  assert.equal(drawMs(new SeededRandom(5), [1, 2, 4], 1), a);
});
