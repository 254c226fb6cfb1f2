import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UpgradeHistory } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { workerTimesUpdate } from './worker-times.js';

const NOW = '2026-03-02T10:00:00Z';
const upgrading = (extra: Partial<UpgradeHistory> = {}): UpgradeHistory => ({
  version: '4.15.38',
  phase: 'Upgrading',
  ...extra,
});

void test('the start is stamped when the worker pool is first seen rolling, also after MUO’s updatedMachineCount == 0 instant', () => {
  assert.deepEqual(workerTimesUpdate(upgrading(), { machineCount: 3, updatedMachineCount: 0 }, NOW), {
    workerStartTime: NOW,
  });
  assert.deepEqual(workerTimesUpdate(upgrading(), { machineCount: 3, updatedMachineCount: 1 }, NOW), {
    workerStartTime: NOW,
  });
  assert.equal(
    workerTimesUpdate(upgrading(), { machineCount: 3, updatedMachineCount: 3 }, NOW),
    undefined,
    'not rolling yet',
  );
});

void test('the completion is stamped once every machine is updated, after a start, and only once', () => {
  const started = upgrading({ workerStartTime: '2026-03-02T09:00:00Z' });
  assert.equal(workerTimesUpdate(started, { machineCount: 3, updatedMachineCount: 2 }, NOW), undefined);
  assert.deepEqual(workerTimesUpdate(started, { machineCount: 3, updatedMachineCount: 3 }, NOW), {
    workerCompleteTime: NOW,
  });
  assert.equal(
    workerTimesUpdate(
      { ...started, workerCompleteTime: '2026-03-02T09:30:00Z' },
      { machineCount: 3, updatedMachineCount: 3 },
      NOW,
    ),
    undefined,
  );
  assert.equal(
    workerTimesUpdate(started, { machineCount: 0, updatedMachineCount: 0 }, NOW),
    undefined,
    'an empty pool completes nothing',
  );
});

void test('an Upgraded entry that lost the race with the last worker still gets its completion, never after its completeTime', () => {
  const upgraded: UpgradeHistory = {
    version: '4.15.38',
    phase: 'Upgraded',
    workerStartTime: '2026-03-02T09:00:00Z',
    completeTime: NOW,
  };
  assert.deepEqual(
    workerTimesUpdate(upgraded, { machineCount: 3, updatedMachineCount: 3 }, NOW),
    { workerCompleteTime: NOW },
    'the same instant',
  );
  assert.deepEqual(
    workerTimesUpdate(upgraded, { machineCount: 3, updatedMachineCount: 3 }, '2026-03-02T12:00:00Z'),
    { workerCompleteTime: NOW },
    'stamped later (a restart): the upgrade’s end bounds it',
  );
  assert.equal(
    workerTimesUpdate({ ...upgraded, workerCompleteTime: NOW }, { machineCount: 3, updatedMachineCount: 3 }, NOW),
    undefined,
    'only once',
  );
  assert.equal(
    workerTimesUpdate(
      { version: '4.15.38', phase: 'Upgraded', completeTime: NOW },
      { machineCount: 3, updatedMachineCount: 3 },
      NOW,
    ),
    undefined,
    'no start, no completion',
  );
  assert.equal(
    workerTimesUpdate(upgraded, { machineCount: 3, updatedMachineCount: 2 }, NOW),
    undefined,
    'a pool rolling again (e.g. paused, then unpaused) is not complete',
  );
});

void test('nothing is stamped outside the Upgrading phase (but the completion above)', () => {
  for (const phase of ['New', 'Pending', 'Upgraded', 'Failed'] as const) {
    assert.equal(
      workerTimesUpdate({ version: '4.15.38', phase }, { machineCount: 3, updatedMachineCount: 0 }, NOW),
      undefined,
      phase,
    );
  }
  assert.equal(workerTimesUpdate(undefined, { machineCount: 3, updatedMachineCount: 0 }, NOW), undefined);
});
