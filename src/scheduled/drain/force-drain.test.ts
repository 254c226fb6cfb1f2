import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { NodeForceDrainSpec } from '../../api/managedupgrade.appuio.io/v1beta1/node-force-drain.js';
import { formatTime } from '../../lib/clock.js';
import {
  daemonSetOf,
  drainingNodes,
  isNodeDraining,
  isStaticPod,
  observeNodeDrains,
  parseForceDrainSpec,
  podAction,
  requeueAfter,
  timeUntilDrain,
  type RequeueInputs,
} from './force-drain.js';

const T0 = Date.UTC(2026, 2, 2);
const MIN = 60_000;
const DESIRED = 'machineconfiguration.openshift.io/desiredDrain';
const APPLIED = 'machineconfiguration.openshift.io/lastAppliedDrain';

function node(
  name: string,
  annotations: Record<string, string>,
  labels: Record<string, string> = { 'node-role.kubernetes.io/worker': '' },
): Node {
  return { metadata: { name, labels, annotations } };
}

function spec(extra: Partial<NodeForceDrainSpec> = {}): NodeForceDrainSpec {
  return { nodeSelector: {}, nodeDrainGracePeriod: '10m', podForceDeleteGracePeriod: '5m', ...extra };
}

void test('a node drains while desiredDrain differs from lastAppliedDrain; missing annotations count as ""', () => {
  const cases: Array<[Record<string, string>, boolean]> = [
    [{}, false],
    [{ [DESIRED]: '' }, false],
    [{ [DESIRED]: 'drain-rendered-worker-2', [APPLIED]: 'uncordon-rendered-worker-1' }, true],
    [{ [DESIRED]: 'drain-rendered-worker-2', [APPLIED]: 'drain-rendered-worker-2' }, false],
    [{ [DESIRED]: 'drain-rendered-worker-2' }, true],
    [{ [APPLIED]: 'uncordon-rendered-worker-1' }, true],
  ];
  for (const [annotations, want] of cases)
    assert.equal(isNodeDraining(node('n', annotations)), want, JSON.stringify(annotations));
});

void test('draining nodes are the selected ones, with lastAppliedDrain as drain ID', () => {
  const nodes = [
    node('worker-1', { [DESIRED]: 'drain-b', [APPLIED]: 'uncordon-a' }),
    node('worker-2', { [DESIRED]: 'drain-b', [APPLIED]: 'drain-b' }),
    node('worker-3', { [DESIRED]: 'drain-b' }),
    node('master-0', { [DESIRED]: 'drain-b', [APPLIED]: 'uncordon-a' }, { 'node-role.kubernetes.io/master': '' }),
  ];
  assert.deepEqual(drainingNodes(nodes, {}), [
    { name: 'worker-1', drainID: 'uncordon-a' },
    { name: 'worker-3', drainID: '' },
    { name: 'master-0', drainID: 'uncordon-a' },
  ]);
  assert.deepEqual(
    drainingNodes(nodes, { matchExpressions: [{ key: 'node-role.kubernetes.io/worker', operator: 'Exists' }] }).map(
      (n) => n.name,
    ),
    ['worker-1', 'worker-3'],
  );
});

void test('observed drains: first sighting and drain ID change take now; nodes no longer draining are dropped', () => {
  const at = (m: number): string => formatTime(T0 + m * MIN);
  const current = [
    { nodeName: 'a', drainID: 'uncordon-1', observedTime: at(0) },
    { nodeName: 'b', drainID: 'uncordon-1', observedTime: at(0) },
    { nodeName: 'gone', drainID: 'x', observedTime: at(0) },
  ];
  const cases: Array<{
    name: string;
    current: typeof current | undefined;
    draining: Array<{ name: string; drainID: string }>;
    want: typeof current;
    changed: boolean;
  }> = [
    { name: 'nothing drains, no status', current: undefined, draining: [], want: [], changed: false },
    {
      name: 'first sighting',
      current: undefined,
      draining: [{ name: 'a', drainID: 'uncordon-1' }],
      want: [{ nodeName: 'a', drainID: 'uncordon-1', observedTime: at(7) }],
      changed: true,
    },
    {
      name: 'unchanged drains keep their time; a changed ID is observed anew; a stopped drain is dropped; new nodes follow',
      current,
      draining: [
        { name: 'c', drainID: '' },
        { name: 'b', drainID: 'drain-2' },
        { name: 'a', drainID: 'uncordon-1' },
      ],
      want: [
        { nodeName: 'a', drainID: 'uncordon-1', observedTime: at(0) },
        { nodeName: 'b', drainID: 'drain-2', observedTime: at(7) },
        { nodeName: 'c', drainID: '', observedTime: at(7) },
      ],
      changed: true,
    },
    {
      name: 'steady state',
      current: current.slice(0, 2),
      draining: [
        { name: 'a', drainID: 'uncordon-1' },
        { name: 'b', drainID: 'uncordon-1' },
      ],
      want: current.slice(0, 2),
      changed: false,
    },
    {
      name: 'an unreadable time is replaced',
      current: [{ nodeName: 'a', drainID: 'x', observedTime: 'yesterday' }],
      draining: [{ name: 'a', drainID: 'x' }],
      want: [{ nodeName: 'a', drainID: 'x', observedTime: at(7) }],
      changed: true,
    },
  ];
  for (const c of cases) {
    const got = observeNodeDrains(c.current, c.draining, T0 + 7 * MIN);
    assert.deepEqual(got.observed, c.want, c.name);
    assert.equal(got.changed, c.changed, c.name);
  }
});

void test('grace period: past when observedTime + grace ≤ now', () => {
  const entry = { nodeName: 'a', drainID: 'x', observedTime: formatTime(T0) };
  assert.equal(timeUntilDrain(entry, 10 * MIN, T0 + 4 * MIN), 6 * MIN);
  assert.equal(timeUntilDrain(entry, 10 * MIN, T0 + 10 * MIN), 0);
  assert.equal(timeUntilDrain(entry, 0, T0), 0);
});

void test('spec parsing: Go durations, selector rules, empty selectors and programs', () => {
  const ok = parseForceDrainSpec(spec({ namespaceSelector: {}, podJQSelector: '  ' }));
  assert.deepEqual(ok, {
    ok: true,
    settings: {
      nodeSelector: {},
      namespaceSelector: undefined,
      podJQSelector: undefined,
      nodeDrainGracePeriodMs: 10 * MIN,
      podForceDeleteGracePeriodMs: 5 * MIN,
    },
  });
  const withAll = parseForceDrainSpec(
    spec({
      namespaceSelector: { matchLabels: { drain: 'yes' } },
      podJQSelector: 'true',
      nodeDrainGracePeriod: '0',
      podForceDeleteGracePeriod: '1h30m',
    }),
  );
  assert.ok(withAll.ok);
  assert.deepEqual(withAll.settings.namespaceSelector, { matchLabels: { drain: 'yes' } });
  assert.equal(withAll.settings.podJQSelector, 'true');
  assert.equal(withAll.settings.nodeDrainGracePeriodMs, 0);
  assert.equal(withAll.settings.podForceDeleteGracePeriodMs, 90 * MIN);
  assert.deepEqual(
    parseForceDrainSpec(
      spec({
        nodeDrainGracePeriod: '10 minutes',
        podForceDeleteGracePeriod: '5',
        nodeSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] },
        namespaceSelector: {
          matchExpressions: [
            { key: 'b', operator: 'Matches', values: ['x'] },
            { key: 'c', operator: 'Exists', values: ['y'] },
          ],
        },
      }),
    ),
    {
      ok: false,
      problems: [
        'spec.nodeDrainGracePeriod: time: unknown unit " minutes" in duration "10 minutes"',
        'spec.podForceDeleteGracePeriod: time: missing unit in duration "5"',
        "spec.nodeSelector: key \"a\": for 'in', 'notin' operators, values set can't be empty",
        'spec.namespaceSelector: "Matches" is not a valid label selector operator',
        'spec.namespaceSelector: key "c": values set must be empty for exists and does not exist',
      ],
    },
  );
  assert.deepEqual(parseForceDrainSpec(undefined), { ok: false, problems: ['spec is missing'] });
});

void test('static and DaemonSet pods are told by their controller reference', () => {
  const pod = (ref?: { apiVersion: string; kind: string; name: string; controller?: boolean }): Pod => ({
    metadata: { name: 'p', namespace: 'ns', ...(ref ? { ownerReferences: [{ uid: 'u', ...ref }] } : {}) },
  });
  assert.equal(isStaticPod(pod({ apiVersion: 'v1', kind: 'Node', name: 'worker-1', controller: true })), true);
  assert.equal(
    isStaticPod(pod({ apiVersion: 'v1', kind: 'Node', name: 'worker-1' })),
    false,
    'an owner that is not the controller',
  );
  assert.equal(isStaticPod(pod()), false);
  assert.equal(daemonSetOf(pod({ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'dns', controller: true })), 'dns');
  assert.equal(
    daemonSetOf(pod({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-1', controller: true })),
    undefined,
  );
  assert.equal(
    daemonSetOf(pod({ apiVersion: 'extensions/v1beta1', kind: 'DaemonSet', name: 'old', controller: true })),
    undefined,
  );
});

void test('pod actions: delete when not terminating, force when due, else wait', () => {
  const settings = { nodeDrainGracePeriodMs: 10 * MIN, podForceDeleteGracePeriodMs: 5 * MIN };
  const terminating = (deletedAtMin: number, graceS: number): Pod => ({
    metadata: {
      name: 'p',
      deletionTimestamp: formatTime(T0 + deletedAtMin * MIN + graceS * 1000),
      deletionGracePeriodSeconds: graceS,
    },
  });
  const now = T0 + 10 * MIN;
  const cases: Array<[string, Pod, typeof settings, ReturnType<typeof podAction>]> = [
    ['running pod', { metadata: { name: 'p' } }, settings, { kind: 'delete' }],
    [
      'running pod, drain grace 0',
      { metadata: { name: 'p' } },
      { ...settings, nodeDrainGracePeriodMs: 0 },
      { kind: 'none' },
    ],
    ['deletion requested 5m ago (grace 30s)', terminating(5, 30), settings, { kind: 'force' }],
    ['deletion requested 4m ago (grace 1h)', terminating(6, 3600), settings, { kind: 'wait', inMs: MIN }],
    ['deletion requested 3m ago, grace expired (0)', terminating(7, 0), settings, { kind: 'wait', inMs: 2 * MIN }],
    ['force grace 0', terminating(0, 30), { ...settings, podForceDeleteGracePeriodMs: 0 }, { kind: 'none' }],
    [
      'force even when the drain grace is 0',
      terminating(0, 30),
      { ...settings, nodeDrainGracePeriodMs: 0 },
      { kind: 'force' },
    ],
  ];
  for (const [name, pod, s, want] of cases) assert.deepEqual(podAction(pod, s, now), want, name);
});

void test('requeue: the smallest wait, capped while nodes drain', () => {
  const base: RequeueInputs = {
    untilNextDrainMs: undefined,
    deletedPods: false,
    podForceDeleteGracePeriodMs: 5 * MIN,
    untilNextForceDeleteMs: undefined,
    draining: false,
    drainReconcileIntervalMs: 3 * MIN,
  };
  const cases: Array<[string, Partial<RequeueInputs>, number | undefined]> = [
    ['nothing to wait for', {}, undefined],
    ['only the cap while draining', { draining: true }, 3 * MIN],
    ['cap disabled', { draining: true, drainReconcileIntervalMs: 0 }, undefined],
    ['next grace end', { untilNextDrainMs: 2 * MIN, draining: true }, 2 * MIN],
    ['next grace end above the cap', { untilNextDrainMs: 20 * MIN, draining: true }, 3 * MIN],
    [
      'next grace end, cap disabled',
      { untilNextDrainMs: 20 * MIN, draining: true, drainReconcileIntervalMs: 0 },
      20 * MIN,
    ],
    ['deleted pods → force grace', { deletedPods: true, draining: true, drainReconcileIntervalMs: 10 * MIN }, 5 * MIN],
    [
      'deleted pods, force grace 0',
      { deletedPods: true, podForceDeleteGracePeriodMs: 0, draining: true, drainReconcileIntervalMs: 0 },
      undefined,
    ],
    [
      'next force delete is the smallest',
      { deletedPods: true, untilNextForceDeleteMs: 30_000, untilNextDrainMs: MIN, draining: true },
      30_000,
    ],
  ];
  for (const [name, extra, want] of cases) assert.equal(requeueAfter({ ...base, ...extra }), want, name);
});
