import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  axisEnd,
  formatElapsed,
  historySpans,
  mergeMarkers,
  nodeNames,
  nodePhase,
  packRows,
  periodsWith,
  phaseTone,
  timelineOf,
  type Lane,
} from './timeline-lanes.js';
import { readUpgradeReport, type UpgradeReport } from './upgrade-report.js';
import { at, change, ms, sampleReport } from './report-fixture.test-support.js';

function report(): UpgradeReport {
  const read = readUpgradeReport(sampleReport());
  assert.ok(read.ok);
  return read.report;
}

function laneOf(id: string): Lane {
  const found = timelineOf(report()).lanes.find((l) => l.id === id);
  assert.ok(found, `no lane ${id}`);
  return found;
}

/** A lane's segments as `tone label from–to` in minutes after the start. */
function pieces(l: Lane): string[] {
  return l.segments.map((s) => `${s.tone} ${s.label} ${(s.startMs - ms(0)) / 60_000}-${(s.endMs - ms(0)) / 60_000}`);
}

void test('packRows puts overlapping intervals on rows of their own and reuses a row once free', () => {
  assert.deepEqual(
    packRows([
      { startMs: 0, endMs: 10 },
      { startMs: 5, endMs: 15 },
      { startMs: 10, endMs: 20 },
      { startMs: 12, endMs: 13 },
    ]),
    { rows: [0, 1, 0, 2], count: 3 },
  );
  assert.deepEqual(packRows([]), { rows: [], count: 1 });
});

void test('lanes come in order: window, operator, waits, steps, cluster, pools, one per node, alerts (not Watchdog), silences', () => {
  assert.deepEqual(
    timelineOf(report()).lanes.map((l) => l.id),
    [
      'window',
      'operator',
      'waits',
      'steps',
      'clusterversion',
      'clusteroperators',
      'pool/master',
      'node/master-0',
      'node/worker-clone-1',
      'alert/KubeNodeNotReady',
      'silences',
    ],
  );
  // A node created and deleted in the run has its lane too.
  assert.deepEqual(nodeNames(report()).sort(), ['master-0', 'worker-clone-1']);
});

void test('a node lane shows cordon and drain, the reboot, ready while still cordoned, and ready again', () => {
  const node = laneOf('node/master-0');
  assert.deepEqual(pieces(node), [
    'node-present  0-20',
    'node-update update 20-21',
    'node-drain cordon, drain 21-25',
    'node-reboot reboot (NotReady) 25-27',
    'node-uncordon ready, cordoned 27-28',
    'node-present  28-60',
  ]);
  assert.equal(node.sublabel, 'master, zone-a');
  assert.ok(node.segments[3]?.detail.some((d) => d.includes('condition/Ready: True → False (KubeletNotReady)')));
  const clone = laneOf('node/worker-clone-1');
  assert.deepEqual(pieces(clone), ['node-present  0-55']);
  assert.equal(clone.sublabel, 'master, created and deleted in the run');
});

void test('node phases follow what the node shows, a reboot only counting while its update runs', () => {
  const base = { present: true, unschedulable: false, ready: true, mcdState: 'Done', rebooted: false };
  assert.equal(nodePhase({ ...base, present: false }), undefined);
  assert.equal(nodePhase(base)?.tone, 'node-present');
  assert.equal(nodePhase({ ...base, unschedulable: true })?.tone, 'node-cordon');
  assert.equal(nodePhase({ ...base, unschedulable: true, mcdState: 'Working' })?.tone, 'node-drain');
  assert.equal(nodePhase({ ...base, unschedulable: true, mcdState: 'Working', ready: false })?.tone, 'node-reboot');
  assert.equal(nodePhase({ ...base, unschedulable: true, mcdState: 'Working', rebooted: true })?.tone, 'node-uncordon');
  assert.equal(nodePhase({ ...base, mcdState: 'Degraded' })?.tone, 'node-degraded');
});

void test('the operator lane merges states of one phase; the waits lane keeps each reason with its messages', () => {
  assert.deepEqual(pieces(laneOf('operator')), [
    'op-pending Pending 0-5',
    'op-active Upgrading 5-50',
    'op-done Upgraded 50-60',
  ]);
  const waits = laneOf('waits');
  assert.deepEqual(pieces(waits), ['wait WaitingForUpgradeTime 0-5', 'wait WaitingForControlPlane 5-50']);
  assert.ok(waits.segments[1]?.detail.includes('+5m00s control plane 10%'));
  assert.ok(waits.segments[1]?.detail.includes('+20m00s control plane 50%'));
  // The Warning Event once, when it appeared.
  assert.deepEqual(
    laneOf('operator').markers.map((m) => m.atMs),
    [ms(20)],
  );
  // A step that took time is a bar; one of an instant a mark.
  const steps = laneOf('steps');
  assert.deepEqual(pieces(steps), ['step ControlPlaneUpgraded 5-40']);
  assert.equal(steps.markers.length, 1);
  assert.equal(phaseTone('failed/Failed'), 'op-failed');
  assert.equal(phaseTone('succeeded/Succeeded'), 'op-done');
  assert.equal(phaseTone('active'), 'op-active');
});

void test('ClusterVersion: the old version until the new one starts, Partial until it completes, then Completed; progress from the messages', () => {
  const cv = laneOf('clusterversion');
  assert.deepEqual(pieces(cv), [
    'cv-old 4.14.30 Completed 0-7',
    'cv-partial → 4.15.38 Partial 7-40',
    'cv-completed 4.15.38 Completed 40-60',
  ]);
  assert.deepEqual(cv.progress, [
    { atMs: ms(10), fraction: 0.01 },
    { atMs: ms(40), fraction: 1 },
  ]);
  assert.ok(cv.markers.some((m) => m.detail.some((d) => d.includes('spec.desiredUpdate.version: null → 4.15.38'))));
  // An entry still Partial at the end runs to the end.
  assert.deepEqual(
    historySpans(
      [{ state: 'Partial', version: '4.16.1', image: 'i', verified: false, startedTime: at(30), completionTime: null }],
      ms(0),
      ms(60),
    ).map((s) => `${s.tone} ${s.startMs}-${s.endMs}`),
    [`cv-partial ${ms(30)}-${ms(60)}`],
  );
});

void test('pools, alerts, silences and the window are bands with their times in the hover text', () => {
  assert.deepEqual(pieces(laneOf('pool/master')), ['pool-updating 0/1 20-29', 'pool-updating 1/1 29-30']);
  assert.deepEqual(pieces(laneOf('alert/KubeNodeNotReady')), [
    'alert-pending pending 25-26',
    'alert-warning firing 26-27',
  ]);
  const silence = laneOf('silences').segments[0];
  assert.equal(silence?.label, 'control plane');
  assert.ok(silence?.detail.includes('2026-03-02T00:06:00Z (+6m00s) → 2026-03-02T00:40:00Z (+40m00s), 34.0 min'));
  // The window beyond the run runs on for at most half the run; the hover text keeps its real end.
  const window = laneOf('window').segments[0];
  assert.equal(window?.endMs, ms(90));
  assert.ok(window?.detail.some((d) => d.includes('2026-03-02T02:05:00Z')));
});

void test('the axis runs past the run to show a window that began during it, by at most half the run', () => {
  const base = { originMs: ms(0), endMs: ms(60) };
  const window = (start: number, end: number | null) => ({
    kind: 'UpgradeJob' as const,
    name: 'job',
    start: at(start),
    end: end === null ? null : at(end),
    what: '',
  });
  assert.equal(axisEnd({ ...base, windows: [] }), ms(60));
  assert.equal(axisEnd({ ...base, windows: [window(60, 70)] }), ms(70));
  assert.equal(axisEnd({ ...base, windows: [window(30, 45)] }), ms(60));
  assert.equal(axisEnd({ ...base, windows: [window(61, 70)] }), ms(60));
  assert.equal(axisEnd({ ...base, windows: [window(10, null)] }), ms(60));
  assert.equal(axisEnd({ ...base, windows: [window(10, 600)] }), ms(90));
  const timeline = timelineOf(report());
  assert.deepEqual([timeline.endMs, timeline.runEndMs], [ms(90), ms(60)]);
  // Only the windows reach past the run's end.
  assert.ok(timeline.lanes.filter((l) => l.id !== 'window').every((l) => l.segments.every((s) => s.endMs <= ms(60))));
});

void test('helpers: elapsed time, merged markers, periods of a value', () => {
  assert.equal(formatElapsed(0), '+0s');
  assert.equal(formatElapsed(65_000), '+1m05s');
  assert.equal(formatElapsed(3_725_000), '+1h02m05s');
  assert.equal(formatElapsed(-30_000), '-30s');
  assert.deepEqual(
    mergeMarkers([
      { atMs: 5, tone: 'step', detail: ['b'] },
      { atMs: 1, tone: 'step', detail: ['a'] },
      { atMs: 5, tone: 'step', detail: ['c'] },
    ]),
    [
      { atMs: 1, tone: 'step', detail: ['a'] },
      { atMs: 5, tone: 'step', detail: ['b', 'c'] },
    ],
  );
  assert.deepEqual(
    periodsWith(
      [
        { atMs: Number.NEGATIVE_INFINITY, value: 'True', t: undefined },
        { atMs: 10, value: 'False', t: undefined },
        { atMs: 20, value: 'True', t: undefined },
      ],
      'True',
      0,
      30,
    ).map((p) => [p.startMs, p.endMs]),
    [
      [0, 10],
      [20, 30],
    ],
  );
});

void test('an operator that is Degraded and a paused pool are bands with the reason and message of the change', () => {
  const sample = sampleReport();
  const read = readUpgradeReport({
    ...sample,
    transitions: [
      ...(sample['transitions'] as unknown[]),
      change(15, 'ClusterOperator', 'etcd', 'condition/Degraded', 'False', 'True', {
        reason: 'Quorum',
        message: 'one member down',
      }),
      change(18, 'ClusterOperator', 'etcd', 'condition/Degraded', 'True', 'False', { reason: 'AsExpected' }),
      change(50, 'MachineConfigPool', 'master', 'spec.paused', false, true),
    ],
  });
  assert.ok(read.ok);
  const lanes = timelineOf(read.report).lanes;
  const operators = lanes.find((l) => l.id === 'clusteroperators');
  assert.deepEqual(operators && pieces(operators), ['co-degraded etcd Degraded=True 15-18']);
  assert.deepEqual(operators?.segments[0]?.detail.slice(0, 2), ['etcd Degraded=True (Quorum)', 'one member down']);
  const pool = lanes.find((l) => l.id === 'pool/master');
  assert.ok(pool && pieces(pool).includes('pool-paused paused 50-60'), pool && pieces(pool).join('; '));
});
