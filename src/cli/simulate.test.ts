import { test } from 'node:test';
import assert from 'node:assert/strict';
import { managedLine } from './scenarios/catalog.js';
import { formatElapsed, poolsText } from './scenarios/progress-line.js';

void test('progress lines show virtual elapsed time and pools in name order', () => {
  assert.equal(formatElapsed(0), '+00:00:00');
  assert.equal(formatElapsed(((1 * 60 + 30) * 60 + 5) * 1000 + 999), '+01:30:05');
  assert.equal(poolsText({ worker: [0, 3], master: [1, 3] }), 'master 1/3  worker 0/3');
});

void test('a managed progress line shows the phase, the wait or the step, the pools and ClusterVersion', () => {
  const base = { elapsedMs: 75_000, phase: 'Upgrading', step: 'ControlPlaneUpgraded=False', stepMessage: 'ControlPlaneUpgraded still in progress', waiting: '', pools: { worker: [0, 3] as [number, number], master: [1, 3] as [number, number] }, clusterVersion: { version: '4.15.38', state: 'Partial', progressing: 'Working towards 4.15.38: 105 of 863 done (12% complete)' }, doneSteps: [] };
  assert.equal(managedLine(base), '[+00:01:15] Upgrading ControlPlaneUpgraded still in progress  |  master 1/3  worker 0/3  |  ClusterVersion Working towards 4.15.38: 105 of 863 done (12% complete)');
  assert.match(managedLine({ ...base, clusterVersion: { version: '4.15.38', state: 'Completed', progressing: 'Cluster version is 4.15.38' } }), /ClusterVersion 4\.15\.38 Completed$/);
  assert.match(managedLine({ ...base, phase: '', waiting: 'the upgrade is scheduled for 2026-03-02T00:10:00Z' }), /^\[\+00:01:15\] - {9}the upgrade is scheduled/);
});
