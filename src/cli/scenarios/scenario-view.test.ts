import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LiveView } from '../live-view.js';
import { NO_EXTRAS, type ScenarioProgress } from './scenario-progress.js';
import {
  changeLines,
  controlPlaneBar,
  nextPace,
  poolBars,
  progressChanges,
  scenarioLiveView,
  scenarioPresenter,
} from './scenario-view.js';

const T0 = Date.parse('2026-03-02T00:00:00Z');

function progress(over: Partial<ScenarioProgress> = {}): ScenarioProgress {
  return {
    ...NO_EXTRAS,
    elapsedMs: 0,
    virtualNow: T0,
    phase: 'Upgrading',
    step: 'ControlPlaneUpgraded=False',
    stepMessage: 'ControlPlaneUpgraded: waiting for the control plane to complete 4.15.38',
    waiting: '',
    waitingReason: '',
    pools: { master: [3, 3], worker: [3, 3] },
    clusterVersion: { version: '4.14.30', state: 'Completed', progressing: '', desired: '4.15.38' },
    doneSteps: ['UpgradeCommenced', 'ComputeCapacityReserved'],
    upgradeJob: { name: '', state: '', reason: '', message: '', trueConditions: [] },
    ...over,
  };
}

void test('changes: steps done in the order they were done, the new wait reason, ClusterVersion starting, pools, alerts, a Warning', () => {
  const before = progress();
  const after = progress({
    elapsedMs: 60_000,
    doneSteps: ['ControlPlaneUpgraded', 'ControlPlaneMaintenanceWindowRemoved', ...before.doneSteps],
    stepMessage: 'WorkerNodesUpgraded: waiting for worker pool(s) worker to update (3 machine(s) left)',
    clusterVersion: {
      ...before.clusterVersion,
      version: '4.15.38',
      state: 'Partial',
      progressing: 'Working towards 4.15.38',
    },
    pools: { master: [3, 3], worker: [1, 3] },
    alerts: ['KubeNodeNotReady'],
    warning: 'ControlPlaneTimeout: ControlPlaneUpgraded: the control plane has not completed 4.15.38',
  });
  assert.deepEqual(progressChanges(before, after, 'managed'), [
    'done ControlPlaneMaintenanceWindowRemoved, ControlPlaneUpgraded',
    'Upgrading · WorkerNodesUpgraded: waiting for worker pool(s) worker to update (3 machine(s) left)',
    'ClusterVersion updating to 4.15.38',
    'pool worker 1/3',
    'alert KubeNodeNotReady firing',
    'warning ControlPlaneTimeout: ControlPlaneUpgraded: the control plane has not completed 4.15.38',
  ]);
  assert.deepEqual(progressChanges(after, { ...after, alerts: [] }, 'managed'), ['alert KubeNodeNotReady resolved']);
});

void test('no line for a percentage tick, nor for a fully updated pool that only changed size', () => {
  const working = progress({
    clusterVersion: {
      version: '4.15.38',
      state: 'Partial',
      progressing: 'Working towards 4.15.38: 9 of 883 done (1% complete)',
      desired: '4.15.38',
    },
  });
  const tick = {
    ...working,
    clusterVersion: {
      ...working.clusterVersion,
      progressing: 'Working towards 4.15.38: 600 of 883 done (67% complete)',
    },
  };
  assert.deepEqual(progressChanges(working, tick, 'managed'), []);
  assert.deepEqual(progressChanges(working, { ...working, pools: { master: [3, 3], worker: [4, 4] } }, 'managed'), []);
  assert.deepEqual(progressChanges(working, { ...working, pools: { master: [3, 3], worker: [3, 4] } }, 'managed'), [
    'pool worker 3/4',
  ]);
});

void test('the scheduled flow: the UpgradeJob state and newest message; no operator: no operator line', () => {
  const job = progress({
    upgradeJob: { name: 'weekly-1', state: 'active', reason: '', message: 'Upgrade in progress', trueConditions: [] },
  });
  assert.deepEqual(progressChanges(undefined, job, 'scheduled'), [
    'done ComputeCapacityReserved, UpgradeCommenced',
    'UpgradeJob weekly-1 active: Upgrade in progress',
    'ClusterVersion 4.14.30 Completed',
  ]);
  assert.deepEqual(progressChanges(undefined, progress({ doneSteps: [] }), 'none'), [
    'ClusterVersion 4.14.30 Completed',
  ]);
});

void test('lines: changes of one instant share a line while it fits; every line at most 160 characters', () => {
  assert.deepEqual(changeLines(3_723_000, ['a', 'b']), ['[+01:02:03] a · b']);
  const long = 'x'.repeat(150);
  const lines = changeLines(0, [long, 'short', 'y'.repeat(400)]);
  assert.deepEqual(
    lines.map((l) => l.length),
    [12 + 150, 12 + 5, 160].map((n) => Math.min(n, 160)),
  );
  assert.ok(lines[0]!.endsWith('…') && lines[2]!.endsWith('…'));
});

void test('the control-plane bar: the CVO counts, the operators waited on and an ETA at the pace so far', () => {
  const started = new Date(T0).toISOString();
  const bar = controlPlaneBar(
    progress({
      virtualNow: T0 + 30 * 60_000,
      clusterVersion: {
        version: '4.15.38',
        state: 'Partial',
        progressing: 'Working towards 4.15.38: 300 of 900 done (33% complete), waiting on etcd, kube-apiserver',
        desired: '4.15.38',
        startedTime: started,
      },
    }),
  );
  assert.deepEqual(bar, {
    label: 'control plane',
    done: 300,
    total: 900,
    detail: 'waiting on etcd, kube-apiserver',
    eta: 'ETA 01:00:00',
    complete: false,
  });
  assert.deepEqual(controlPlaneBar(progress()), {
    label: 'control plane',
    done: 1,
    total: 1,
    detail: '4.14.30 completed',
    eta: '',
    complete: true,
  });
});

void test('pool bars: the nodes at work and an ETA from when the pool started updating', () => {
  const start = progress({ pools: { master: [3, 3], worker: [0, 4] } });
  let pace = nextPace({ pools: {} }, start);
  const later = progress({
    virtualNow: T0 + 20 * 60_000,
    pools: { master: [3, 3], worker: [1, 4] },
    poolActivity: { worker: 'draining w-2' },
  });
  pace = nextPace(pace, later);
  assert.deepEqual(pace, { pools: { worker: T0 } });
  assert.deepEqual(poolBars(later, pace), [
    { label: 'master', done: 3, total: 3, detail: '', eta: '', complete: true },
    { label: 'worker', done: 1, total: 4, detail: 'draining w-2', eta: 'ETA 01:00:00', complete: false },
  ]);
  assert.deepEqual(nextPace(pace, progress()), { pools: {} }, 'forgotten once updated');
});

void test('the presenter holds the changes of one virtual second, logs them together, and keeps the view current', () => {
  const logged: string[][] = [];
  let view: (() => LiveView) | undefined;
  let wall = 1000;
  const presenter = scenarioPresenter(
    { log: (lines) => void logged.push([...lines]), view: (v) => void (view = v) },
    { title: 'Scenario s', flow: 'managed', wallNow: () => wall },
  );
  presenter.update(progress({ doneSteps: [] }));
  presenter.update(progress({ elapsedMs: 500, doneSteps: [], alerts: ['A'] }));
  assert.deepEqual(logged, [], 'held within the second');
  presenter.update(
    progress({ elapsedMs: 61_000, doneSteps: [], alerts: ['A'], pools: { master: [3, 3], worker: [2, 3] } }),
  );
  assert.deepEqual(logged, [
    [
      '[+00:00:00] Upgrading · ControlPlaneUpgraded: waiting for the control plane to complete 4.15.38 · ClusterVersion 4.14.30 Completed · alert A firing',
    ],
  ]);
  presenter.flush();
  assert.deepEqual(logged[1], ['[+00:01:01] pool worker 2/3']);
  wall = 3500;
  const shown = view?.();
  assert.equal(shown?.clock, 'virtual +00:01:01 · wall 2.5 s');
  assert.deepEqual(
    shown?.pools.map((p) => `${p.label} ${p.done}/${p.total}`),
    ['master 3/3', 'worker 2/3'],
  );
});

void test('the live view marks the wait that is the newest Warning as needing attention', () => {
  const waiting =
    'ControlPlaneUpgraded: the control plane has not completed 4.15.38 within the maintenance window (90 min)';
  const about = { title: 't', wallMs: 0, pace: { pools: {} } };
  const p = progress({ waiting, waitingReason: 'ControlPlaneTimeout', warning: `ControlPlaneTimeout: ${waiting}` });
  assert.equal(scenarioLiveView(p, 'managed', about).attention, true);
  assert.equal(scenarioLiveView({ ...p, warning: 'Other: x' }, 'managed', about).attention, false);
});
