import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import {
  defaultManagedOperatorConfig,
  parseManagedOperatorConfig,
} from '../../managed/config/managed-operator-config.js';
import { managedWindow, operatorStates, scheduledWindows } from './operator-record.js';
import { NO_EXTRAS, type ScenarioProgress } from './scenario-progress.js';

const T0 = Date.parse('2026-03-02T00:00:00Z');

function progress(minutes: number, over: Partial<ScenarioProgress> = {}): ScenarioProgress {
  return {
    elapsedMs: minutes * 60_000,
    virtualNow: T0 + minutes * 60_000,
    phase: '',
    step: '',
    stepMessage: '',
    waiting: '',
    waitingReason: '',
    pools: { worker: [3, 3] },
    clusterVersion: { version: '4.14.30', state: 'Completed', progressing: '', desired: '4.14.30' },
    doneSteps: [],
    upgradeJob: { name: '', state: '', reason: '', message: '', trueConditions: [] },
    ...NO_EXTRAS,
    ...over,
  };
}

void test('operator states: one entry per change of what the operator says, not per snapshot', () => {
  const timeline = [
    progress(0),
    progress(0, { phase: 'Pending', waitingReason: 'WaitingForUpgradeTime', waiting: 'at 00:10' }),
    // Only the pools moved: no new state.
    progress(1, {
      phase: 'Pending',
      waitingReason: 'WaitingForUpgradeTime',
      waiting: 'at 00:10',
      pools: { worker: [2, 3] },
    }),
    progress(10, { phase: 'Upgrading', step: 'ControlPlaneUpgraded=False', stepMessage: 'in progress' }),
  ];
  const states = operatorStates(timeline, 'managed');
  assert.deepEqual(
    states.map((s) => [s.at, s.elapsedMs, s.phase, s.waitingReason, s.step]),
    [
      ['2026-03-02T00:00:00.000Z', 0, '', '', ''],
      ['2026-03-02T00:00:00.000Z', 0, 'Pending', 'WaitingForUpgradeTime', ''],
      ['2026-03-02T00:10:00.000Z', 600_000, 'Upgrading', '', 'ControlPlaneUpgraded=False'],
    ],
  );
  assert.equal(states[2]?.message, 'in progress');
  assert.deepEqual(operatorStates(timeline, 'none'), []);
});

void test('the scheduled flow: the UpgradeJob state with its final reason, the job as the step', () => {
  const job = { name: 'job-1', state: 'failed', reason: 'Failed', message: 'timed out', trueConditions: [] };
  const states = operatorStates([progress(0), progress(5, { upgradeJob: job })], 'scheduled');
  assert.deepEqual(
    states.map((s) => [s.phase, s.step, s.message]),
    [
      ['', '', ''],
      ['failed/Failed', 'job-1', 'timed out'],
    ],
  );
});

void test('the OSD upgrade window runs from upgradeAt for upgradeWindow.timeOut; none without upgradeAt; open-ended when disabled', () => {
  const config = {
    metadata: { name: 'managed-upgrade-config' },
    spec: { upgradeAt: '2026-03-02T00:10:00Z' },
  } as ManagedUpgradeConfig;
  assert.deepEqual(managedWindow(config, defaultManagedOperatorConfig()), {
    kind: 'UpgradeConfig',
    name: 'managed-upgrade-config',
    start: '2026-03-02T00:10:00.000Z',
    end: '2026-03-02T02:10:00.000Z',
    what: 'upgrade window: the upgrade must start within 120 min of upgradeAt (upgradeWindow.timeOut)',
  });
  const disabled = parseManagedOperatorConfig('upgradeWindow:\n  timeOut: 0\n').config;
  assert.equal(managedWindow(config, disabled)?.end, null);
  assert.equal(managedWindow({ metadata: { name: 'x' }, spec: {} } as ManagedUpgradeConfig, disabled), undefined);
  assert.equal(managedWindow(undefined, disabled), undefined);
});

void test('the scheduled windows: each job from startAfter to startBefore, each suspension window, by start', () => {
  const jobs = [
    {
      metadata: { name: 'job-b' },
      spec: {
        startAfter: '2026-03-03T22:00:00Z',
        startBefore: '2026-03-03T23:00:00Z',
        desiredVersion: { version: '4.15.38' },
      },
    },
    { metadata: { name: 'job-a' }, spec: { startAfter: '2026-03-02T22:00:00Z' } },
    { metadata: { name: 'no-time' }, spec: {} },
  ] as UpgradeJob[];
  const suspensions = [
    {
      metadata: { name: 'freeze' },
      spec: { start: '2026-03-03T00:00:00Z', end: '2026-03-04T00:00:00Z', reason: 'sale' },
    },
  ] as UpgradeSuspensionWindow[];
  const windows = scheduledWindows(jobs, suspensions);
  assert.deepEqual(
    windows.map((w) => [w.kind, w.name, w.start, w.end]),
    [
      ['UpgradeJob', 'job-a', '2026-03-02T22:00:00.000Z', null],
      ['UpgradeSuspensionWindow', 'freeze', '2026-03-03T00:00:00.000Z', '2026-03-04T00:00:00.000Z'],
      ['UpgradeJob', 'job-b', '2026-03-03T22:00:00.000Z', '2026-03-03T23:00:00.000Z'],
    ],
  );
  assert.match(windows[1]?.what ?? '', /\(sale\)/);
  assert.match(
    windows[2]?.what ?? '',
    /to 4\.15\.38: starts after startAfter, fails unless started before startBefore/,
  );
});
