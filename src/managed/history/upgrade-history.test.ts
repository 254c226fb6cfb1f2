import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { UpgradeHistory } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { firstFalseCondition, HistoryStepRecorder, historyFor, setCondition, setHistory } from './upgrade-history.js';

const T = (m: number): number => Date.UTC(2026, 10, 22, 2, m);
const iso = (m: number): string => new Date(T(m)).toISOString().replace('.000Z', 'Z');

void test('setHistory replaces the same version or prepends; historyFor finds the first match', () => {
  const a: UpgradeHistory = { version: '4.15.1', phase: 'New' };
  const b: UpgradeHistory = { version: '4.15.2', phase: 'New' };
  let list = setHistory(undefined, a);
  list = setHistory(list, b);
  assert.deepEqual(
    list.map((h) => h.version),
    ['4.15.2', '4.15.1'],
  );
  list = setHistory(list, { version: '4.15.1', phase: 'Upgraded' });
  assert.deepEqual(
    list.map((h) => `${h.version}:${h.phase}`),
    ['4.15.2:New', '4.15.1:Upgraded'],
  );
  assert.equal(historyFor(list, '4.15.1')?.phase, 'Upgraded');
});

void test('setCondition prepends new types, keeps lastTransitionTime while the status holds', () => {
  let c = setCondition(undefined, { type: 'A', status: 'False' }, T(0));
  c = setCondition(c, { type: 'B', status: 'False' }, T(1));
  assert.deepEqual(
    c.map((x) => x.type),
    ['B', 'A'],
  );
  c = setCondition(c, { type: 'A', status: 'False', message: 'x' }, T(2));
  assert.equal(c[1]!.lastTransitionTime, iso(0));
  assert.equal(c[1]!.lastProbeTime, iso(2));
  c = setCondition(c, { type: 'A', status: 'True' }, T(3));
  assert.equal(c[1]!.lastTransitionTime, iso(3));
});

void test('the recorder writes MUO’s texts; completeTime is set once and cleared when not done', () => {
  const entry: UpgradeHistory = { version: '4.15.38', phase: 'Upgrading' };
  const r = new HistoryStepRecorder(entry);
  const step = { name: 'ControlPlaneUpgraded', condition: 'ControlPlaneUpgraded' };
  r.begin(step, T(0));
  assert.deepEqual(
    { ...entry.conditions![0] },
    {
      type: 'ControlPlaneUpgraded',
      status: 'False',
      reason: 'ControlPlaneUpgraded not done',
      message: 'ControlPlaneUpgraded has started',
      startTime: iso(0),
      lastProbeTime: iso(0),
      lastTransitionTime: iso(0),
    },
  );
  r.pending(step, T(1), { status: 'pending', waitFor: {} });
  assert.equal(entry.conditions![0]!.message, 'ControlPlaneUpgraded still in progress');
  r.done(step, T(5));
  assert.equal(entry.conditions![0]!.status, 'True');
  assert.equal(entry.conditions![0]!.reason, 'ControlPlaneUpgraded done');
  assert.equal(entry.conditions![0]!.message, 'ControlPlaneUpgraded is completed');
  assert.equal(entry.conditions![0]!.completeTime, iso(5));
  assert.equal(entry.conditions![0]!.startTime, iso(0));
  r.begin(step, T(6));
  r.done(step, T(6));
  assert.equal(entry.conditions![0]!.completeTime, iso(5), 'completeTime is kept on later passes');
  r.failed(step, T(7), { status: 'failed', error: 'boom' });
  assert.equal(entry.conditions![0]!.message, 'boom');
  assert.equal(entry.conditions![0]!.completeTime, undefined);
  assert.equal(entry.conditions!.length, 1);
});

void test('firstFalseCondition: the earliest step not True, FailedUpgrade never', () => {
  const entry: UpgradeHistory = {
    version: '4.15.38',
    phase: 'Upgrading',
    conditions: [
      { type: 'FailedUpgrade', status: 'False', message: 'failed to end the maintenance silences' },
      { type: 'ExternalDependenciesAvailable', status: 'False', message: 'external dependencies unavailable' },
      { type: 'ClusterHealthyBeforeUpgrade', status: 'False' },
      { type: 'StartedNotificationSent', status: 'True', message: 'StartedNotificationSent is completed' },
    ],
  };
  assert.deepEqual(firstFalseCondition(entry), { type: 'ClusterHealthyBeforeUpgrade' });
  entry.conditions = entry.conditions!.slice(0, 2);
  assert.deepEqual(firstFalseCondition(entry), {
    type: 'ExternalDependenciesAvailable',
    message: 'external dependencies unavailable',
  });
  assert.equal(firstFalseCondition({ version: '4.15.38', phase: 'New' }), undefined);
});
