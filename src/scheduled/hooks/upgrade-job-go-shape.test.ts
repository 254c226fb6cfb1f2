import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../lib/json.js';
import { normalizeGoTime, upgradeJobAsGoJson } from './upgrade-job-go-shape.js';

test('times become UTC with whole seconds; missing creationTimestamp is null', () => {
  assert.equal(normalizeGoTime('2021-01-01T22:00:00+01:00'), '2021-01-01T21:00:00Z');
  assert.equal(normalizeGoTime('2022-12-04T15:45:00.987Z'), '2022-12-04T15:45:00Z');
  assert.equal(normalizeGoTime('2022-12-04T15:45:00Z'), '2022-12-04T15:45:00Z');
  assert.equal(normalizeGoTime(undefined), null);
  assert.equal(normalizeGoTime('not a time'), 'not a time');
});

test('an UpgradeJob comes out as the Go types marshal it', () => {
  const stored: JsonObject = {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    metadata: { name: 'cu-4-15-3-1700000000', namespace: 'appuio', labels: { a: 'b' } },
    spec: {
      startAfter: '2023-11-14T23:13:20+01:00',
      startBefore: '2023-11-15T00:13:20+01:00',
      desiredVersion: { version: '4.15.3', image: 'quay.io/x@sha256:1' },
      desiredVersionCheckAvailability: false,
      config: {
        upgradeTimeout: '12h',
        preUpgradeHealthChecks: { timeout: '1h' },
        postUpgradeHealthChecks: { timeout: '90m', skipDegradedOperatorsCheck: true },
        machineConfigPools: [
          { matchLabels: { matchLabels: { name: 'x' } }, delayUpgrade: { delayMin: '1h' } },
          { matchLabels: {} },
        ],
      },
    },
    status: {
      conditions: [{ type: 'Started', status: 'True', lastTransitionTime: '2023-11-14T22:13:20Z', reason: 'Started' }],
      hookTracker: [{ hookEvent: 'Create', upgradeJobHook: 'h', trackingKey: '', status: 'complete', message: '' }],
    },
  };
  assert.deepEqual(upgradeJobAsGoJson(stored), {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    metadata: { name: 'cu-4-15-3-1700000000', namespace: 'appuio', labels: { a: 'b' }, creationTimestamp: null },
    spec: {
      startAfter: '2023-11-14T22:13:20Z',
      startBefore: '2023-11-14T23:13:20Z',
      desiredVersion: { architecture: '', force: false, image: 'quay.io/x@sha256:1', version: '4.15.3' },
      desiredVersionCheckAvailability: false,
      config: {
        upgradeTimeout: '12h0m0s',
        preUpgradeHealthChecks: { timeout: '1h0m0s', skipDegradedOperatorsCheck: false },
        postUpgradeHealthChecks: { timeout: '1h30m0s', skipDegradedOperatorsCheck: true },
        machineConfigPools: [
          { matchLabels: { matchLabels: { name: 'x' } }, delayUpgrade: { delayMin: '1h0m0s', delayMax: '0s' } },
          { matchLabels: {}, delayUpgrade: { delayMin: '0s', delayMax: '0s' } },
        ],
      },
    },
    status: {
      conditions: [
        { type: 'Started', status: 'True', lastTransitionTime: '2023-11-14T22:13:20Z', reason: 'Started', message: '' },
      ],
      hookTracker: [{ hookEvent: 'Create', upgradeJobHook: 'h', status: 'complete' }],
    },
  });
});

test('a noop job has no desiredVersion; empty status lists disappear; status stays; apiVersion and kind are filled', () => {
  const out = upgradeJobAsGoJson({
    metadata: {
      name: 'cu-noop-1',
      creationTimestamp: '2023-11-14T22:13:20Z',
      deletionTimestamp: '2023-11-14T23:00:00+00:00',
    },
    spec: {
      startAfter: '2023-11-14T22:13:20Z',
      startBefore: '2023-11-14T23:13:20Z',
      config: { upgradeTimeout: '2h', machineConfigPools: [] },
    },
    status: { conditions: [] },
  });
  assert.equal(out['apiVersion'], 'managedupgrade.appuio.io/v1beta1');
  assert.equal(out['kind'], 'UpgradeJob');
  assert.deepEqual(out['metadata'], {
    name: 'cu-noop-1',
    creationTimestamp: '2023-11-14T22:13:20Z',
    deletionTimestamp: '2023-11-14T23:00:00Z',
  });
  assert.deepEqual(out['status'], {});
  const spec = out['spec'] as JsonObject;
  assert.equal(spec['desiredVersion'], undefined);
  assert.deepEqual(spec['config'], {
    upgradeTimeout: '2h0m0s',
    preUpgradeHealthChecks: { timeout: '0s', skipDegradedOperatorsCheck: false },
    postUpgradeHealthChecks: { timeout: '0s', skipDegradedOperatorsCheck: false },
  });
});
