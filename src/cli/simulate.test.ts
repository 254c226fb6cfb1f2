import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatElapsed, poolsText, progressLine, type ScenarioProgress } from './scenarios/scenario-progress.js';

void test('progress lines show virtual elapsed time and pools in name order', () => {
  assert.equal(formatElapsed(0), '+00:00:00');
  assert.equal(formatElapsed(((1 * 60 + 30) * 60 + 5) * 1000 + 999), '+01:30:05');
  assert.equal(poolsText({ worker: [0, 3], master: [1, 3] }), 'master 1/3  worker 0/3');
});

void test('a progress line shows the phase, the wait or the step, the pools and ClusterVersion; without an operator, pools and Progressing', () => {
  const base: ScenarioProgress = {
    elapsedMs: 75_000,
    phase: 'Upgrading',
    step: 'ControlPlaneUpgraded=False',
    stepMessage: 'ControlPlaneUpgraded still in progress',
    waiting: '',
    pools: { worker: [0, 3], master: [1, 3] },
    clusterVersion: { version: '4.15.38', state: 'Partial', progressing: 'Working towards 4.15.38: 105 of 863 done (12% complete)', desired: '4.15.38' },
    doneSteps: [],
    upgradeJob: { name: '', state: '', reason: '', message: '', trueConditions: [] },
  };
  assert.equal(progressLine(base, 'managed'), '[+00:01:15] Upgrading ControlPlaneUpgraded still in progress  |  master 1/3  worker 0/3  |  ClusterVersion Working towards 4.15.38: 105 of 863 done (12% complete)');
  assert.match(progressLine({ ...base, clusterVersion: { ...base.clusterVersion, state: 'Completed' } }, 'managed'), /ClusterVersion 4\.15\.38 Completed$/);
  assert.match(progressLine({ ...base, phase: '', waiting: 'the upgrade is scheduled for 2026-03-02T00:10:00Z' }, 'managed'), /^\[\+00:01:15\] - {9}the upgrade is scheduled/);
  assert.equal(progressLine(base, 'none'), '[+00:01:15] master 1/3  worker 0/3  Working towards 4.15.38: 105 of 863 done (12% complete)');
});

void test('the scheduled flow\'s progress line shows the newest UpgradeJob, its state and newest message', () => {
  const base: ScenarioProgress = {
    elapsedMs: 3_600_000,
    phase: '',
    step: '',
    stepMessage: '',
    waiting: '',
    pools: { worker: [3, 3], master: [3, 3] },
    clusterVersion: { version: '4.14.30', state: 'Completed', progressing: '', desired: '4.14.30' },
    doneSteps: [],
    upgradeJob: { name: '', state: '', reason: '', message: '', trueConditions: [] },
  };
  assert.equal(progressLine(base, 'scheduled'), '[+01:00:00] no UpgradeJob yet  |  master 3/3  worker 3/3  |  ClusterVersion 4.14.30 Completed');
  const job = { name: 'weekly-4-15-38-1773176400', state: 'active', reason: '', message: 'Health checks ok', trueConditions: ['Started'] };
  assert.equal(progressLine({ ...base, upgradeJob: job }, 'scheduled'), '[+01:00:00] active  weekly-4-15-38-1773176400: Health checks ok  |  master 3/3  worker 3/3  |  ClusterVersion 4.14.30 Completed');
  assert.match(progressLine({ ...base, upgradeJob: { ...job, state: 'failed', reason: 'HookFailed', message: 'hook "ack" failed' } }, 'scheduled'), /\] failed\/HookFailed {2}weekly-4-15-38-1773176400: hook "ack" failed {2}\|/);
});
