import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { formatTime, ManualClock } from '../../lib/clock.js';
import { formatDuration, planNodeDrain, type DrainPlan, type DrainSettings } from './drain-strategies.js';
import { pdbSelectorMatches } from './pod-selection.js';
import { compileGoRegexp, type GoRegexp } from '../../lib/go-regexp.js';

function goRegexp(source: string): GoRegexp {
  const compiled = compileGoRegexp(source);
  assert.ok(compiled.ok);
  return compiled.regexp;
}

const MIN = 60_000;
const clock = new ManualClock('2026-03-02T10:00:00Z');
const T0 = clock.now();
const at = (minutes: number): number => T0 + minutes * MIN;

/** MUO's production values: nodeDrain.timeOut 45m, expectedNodeDrainTime 8m, PDBForceDrainTimeout 60m (PDB strategies at 68m). */
const settings: DrainSettings = {
  drainTimeoutMs: 45 * MIN,
  pdbForceDrainTimeoutMs: 60 * MIN,
  expectedNodeDrainTimeMs: 8 * MIN,
  disableDrainStrategies: false,
  ignoredNamespacePatterns: [],
};

function node(options: { unschedulable?: boolean; taint?: boolean; timeAdded?: string | null } = {}): Node {
  const timeAdded = options.timeAdded === undefined ? formatTime(T0) : options.timeAdded;
  const taints =
    options.taint === false
      ? []
      : [
          {
            key: 'node.kubernetes.io/unschedulable',
            effect: 'NoSchedule',
            ...(timeAdded === null ? {} : { timeAdded }),
          },
        ];
  return { metadata: { name: 'worker-1' }, spec: { unschedulable: options.unschedulable ?? true, taints } };
}

interface PodOptions {
  ns?: string;
  labels?: Record<string, string>;
  finalizers?: string[];
  deleting?: boolean;
  daemonSet?: boolean;
  nodeName?: string;
}

function pod(name: string, o: PodOptions = {}): Pod {
  return {
    metadata: {
      name,
      namespace: o.ns ?? 'app',
      uid: `uid-${name}`,
      resourceVersion: '7',
      labels: o.labels ?? {},
      ...(o.finalizers ? { finalizers: o.finalizers } : {}),
      ...(o.deleting ? { deletionTimestamp: formatTime(at(1)) } : {}),
      ...(o.daemonSet
        ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'ds', uid: 'u-ds' }] }
        : {}),
    },
    spec: { nodeName: o.nodeName ?? 'worker-1', containers: [] },
  };
}

function pdb(name: string, selector: LabelSelector | undefined, ns = 'app'): PodDisruptionBudget {
  return { metadata: { name, namespace: ns }, spec: { maxUnavailable: 0, ...(selector ? { selector } : {}) } };
}

/** "STRATEGY kind ns/name" for each action. */
function acts(plan: DrainPlan): string[] {
  return plan.actions.map((a) => `${a.strategy} ${a.type} ${a.pod.namespace}/${a.pod.name}`);
}

void test('not cordoned, or cordoned without a usable timeAdded', () => {
  assert.equal(planNodeDrain(node({ unschedulable: false }), [pod('a')], [], at(100), settings).status, 'not-cordoned');
  assert.equal(planNodeDrain(node({ taint: false }), [pod('a')], [], at(100), settings).status, 'not-cordoned');
  for (const timeAdded of [null, 'yesterday']) {
    const plan = planNodeDrain(node({ timeAdded }), [pod('a')], [], at(100), settings);
    assert.equal(plan.status, 'unknown-start');
    assert.deepEqual(plan.actions, []);
    assert.equal(plan.failed, false);
    assert.match(plan.message ?? '', /^cannot determine drain commencement time for node worker-1: /);
  }
});

void test('each strategy acts exactly from its threshold, on its targets only', () => {
  const pods = [
    pod('plain'),
    pod('with-finalizer', { finalizers: ['example.com/hold'] }),
    pod('stuck', { deleting: true }),
    pod('stuck-with-finalizer', { deleting: true, finalizers: ['example.com/hold'] }),
    pod('db', { labels: { app: 'db' } }),
    pod('db-finalizer', { labels: { app: 'db' }, finalizers: ['example.com/hold'] }),
    pod('db-terminating', { labels: { app: 'db' }, deleting: true }),
    pod('ds', { daemonSet: true }),
    pod('elsewhere', { nodeName: 'worker-2' }),
  ];
  const pdbs = [pdb('db', { matchLabels: { app: 'db' } })];
  const rows: Array<{ minute: number; actions: string[]; nextDue: number | undefined }> = [
    { minute: 0, actions: [], nextDue: 45 },
    { minute: 44.99, actions: [], nextDue: 45 },
    {
      minute: 45,
      actions: [
        'DELETE delete app/plain',
        'DELETE delete app/with-finalizer',
        'DEFAULT-FINALIZER remove-finalizers app/with-finalizer',
        'DEFAULT-FINALIZER remove-finalizers app/stuck-with-finalizer',
        'POD-STUCK-TERMINATING delete app/stuck',
      ],
      nextDue: 53,
    },
    {
      minute: 68,
      actions: [
        'DELETE delete app/plain',
        'DELETE delete app/with-finalizer',
        'DEFAULT-FINALIZER remove-finalizers app/with-finalizer',
        'DEFAULT-FINALIZER remove-finalizers app/stuck-with-finalizer',
        'POD-STUCK-TERMINATING delete app/stuck',
        'PDB-DELETE delete app/db',
        'PDB-DELETE delete app/db-finalizer',
        'PDB-FINALIZER remove-finalizers app/db-finalizer',
      ],
      nextDue: 76,
    },
    { minute: 76, actions: [], nextDue: undefined },
  ];
  for (const row of rows) {
    const plan = planNodeDrain(node(), row.minute === 76 ? [] : pods, pdbs, at(row.minute), settings);
    assert.equal(plan.status, 'draining');
    assert.equal(plan.drainStartedAt, T0);
    assert.deepEqual(acts(plan), row.actions, `minute ${row.minute}`);
    assert.equal(
      plan.nextDueAt,
      row.nextDue === undefined ? undefined : at(row.nextDue),
      `next due at minute ${row.minute}`,
    );
    assert.equal(plan.pdbDeleteFirstTime, row.minute === 68);
  }
  const first = planNodeDrain(node(), pods, pdbs, at(68), settings).actions.find((a) => a.strategy === 'PDB-DELETE');
  assert.deepEqual(first?.pod, { namespace: 'app', name: 'db', uid: 'uid-db', resourceVersion: '7' });
  assert.equal(
    first?.reason,
    'pod is covered by PodDisruptionBudget db; node worker-1 has been cordoned for 1h8m0s (PDBForceDrainTimeout 1h0m0s + nodeDrain.expectedNodeDrainTime 8m0s)',
  );
});

void test('HasFailed: pending strategies with targets hold it; then the last due wait + expected drain time, or timeOut', () => {
  const withPdbPod = [pod('db', { labels: { app: 'db' } })];
  const pdbs = [pdb('db', { matchLabels: { app: 'db' } })];
  const failed = (pods: Pod[], minute: number, s: DrainSettings = settings): boolean =>
    planNodeDrain(node(), pods, pdbs, at(minute), s).failed;
  // A PDB pod keeps PDB-DELETE valid: not failed before 68m even long past timeOut + expected.
  assert.equal(failed(withPdbPod, 67.99), false);
  // Then the last executed strategy (68m) + 8m > timeOut: failed from 76m on.
  assert.equal(failed(withPdbPod, 75.99), false);
  assert.equal(failed(withPdbPod, 76), true);
  // No PDB pod: the default strategies (45m) are the last executed; 45 + 8 > 45 ⇒ failed at 53m.
  assert.equal(failed([pod('plain')], 52.99), false);
  assert.equal(failed([pod('plain')], 53), true);
  // Before any strategy is due, the empty pending strategies do not hold it, and timeOut has not passed.
  assert.equal(failed([], 44.99), false);
  // Last executed wait + expected ≤ timeOut ⇒ timeOut decides (PDB strategies at 0 + 8m, timeOut 120m)…
  const early: DrainSettings = { ...settings, drainTimeoutMs: 120 * MIN, pdbForceDrainTimeoutMs: 0 };
  assert.equal(failed(withPdbPod, 10, early), false);
  assert.equal(failed(withPdbPod, 119.99, early), false);
  // … but at 120m the default strategies are due too and become the last executed: 120 + 8 > 120.
  assert.equal(failed(withPdbPod, 120, early), false);
  assert.equal(failed(withPdbPod, 127.99, early), false);
  assert.equal(failed(withPdbPod, 128, early), true);
  // … unless a pending default strategy still has targets.
  assert.equal(failed([...withPdbPod, pod('plain')], 119.99, early), false);
  const early10 = planNodeDrain(node(), withPdbPod, pdbs, at(10), early);
  assert.deepEqual(acts(early10), ['PDB-DELETE delete app/db']);
  assert.equal(early10.nextDueAt, at(16), 'the PDB strategies were due at 8m; their +8m threshold is the next instant');
});

void test('disableDrainStrategies: no actions, failed once cordoned for timeOut', () => {
  const off: DrainSettings = { ...settings, disableDrainStrategies: true };
  const pods = [pod('plain'), pod('db', { labels: { app: 'db' } })];
  const before = planNodeDrain(node(), pods, [], at(44.99), off);
  assert.deepEqual(before.actions, []);
  assert.equal(before.failed, false);
  assert.equal(before.nextDueAt, at(45));
  const after = planNodeDrain(node(), pods, [], at(200), off);
  assert.deepEqual(after.actions, []);
  assert.equal(after.failed, true);
  assert.equal(after.nextDueAt, undefined);
  assert.deepEqual(after.strategies, []);
});

void test('ignored namespaces (unanchored patterns) and DaemonSet pods are never touched', () => {
  const s: DrainSettings = { ...settings, ignoredNamespacePatterns: [goRegexp('^openshift-'), goRegexp('logging')] };
  const pods = [
    pod('a', { ns: 'openshift-monitoring' }),
    pod('b', { ns: 'my-logging-stack' }),
    pod('c', { ns: 'team-openshift-x' }),
    pod('d', { daemonSet: true }),
  ];
  // Twice: a global pattern must give the same answer on every use.
  for (let i = 0; i < 2; i++)
    assert.deepEqual(acts(planNodeDrain(node(), pods, [], at(45), s)), ['DELETE delete team-openshift-x/c']);
  // With no targets left for any strategy, the pending PDB strategies do not hold the failure.
  assert.equal(planNodeDrain(node(), pods.slice(0, 2), [], at(53), s).failed, true);
});

void test('a PDB pod is one a PDB of its own namespace selects by the full selector', () => {
  const cases: Array<{ name: string; pdbs: PodDisruptionBudget[]; labels: Record<string, string>; pdbPod: boolean }> = [
    {
      name: 'matchLabels match',
      pdbs: [pdb('p', { matchLabels: { app: 'db' } })],
      labels: { app: 'db' },
      pdbPod: true,
    },
    {
      name: 'same labels, other namespace (MUO: PDB pod)',
      pdbs: [pdb('p', { matchLabels: { app: 'db' } }, 'other')],
      labels: { app: 'db' },
      pdbPod: false,
    },
    {
      name: 'one of two matchLabels (MUO: PDB pod)',
      pdbs: [pdb('p', { matchLabels: { app: 'db', tier: 'primary' } })],
      labels: { app: 'db' },
      pdbPod: false,
    },
    {
      name: 'matchExpressions excluded (MUO: PDB pod)',
      pdbs: [
        pdb('p', {
          matchLabels: { app: 'db' },
          matchExpressions: [{ key: 'role', operator: 'NotIn', values: ['replica'] }],
        }),
      ],
      labels: { app: 'db', role: 'replica' },
      pdbPod: false,
    },
    {
      name: 'matchExpressions only (MUO: never)',
      pdbs: [pdb('p', { matchExpressions: [{ key: 'app', operator: 'In', values: ['db', 'cache'] }] })],
      labels: { app: 'cache' },
      pdbPod: true,
    },
    { name: 'nil selector selects nothing', pdbs: [pdb('p', undefined)], labels: { app: 'db' }, pdbPod: false },
    { name: 'empty selector selects the whole namespace', pdbs: [pdb('p', {})], labels: {}, pdbPod: true },
  ];
  for (const c of cases) {
    const plan = planNodeDrain(node(), [pod('x', { labels: c.labels })], c.pdbs, at(45), settings);
    assert.deepEqual(acts(plan), c.pdbPod ? [] : ['DELETE delete app/x'], c.name);
  }
});

void test('pdbSelectorMatches implements every operator', () => {
  const m = pdbSelectorMatches;
  assert.equal(m({ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, { a: '' }), true);
  assert.equal(m({ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, {}), false);
  assert.equal(m({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, {}), true);
  assert.equal(m({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist' }] }, { a: 'x' }), false);
  assert.equal(m({ matchExpressions: [{ key: 'a', operator: 'In', values: ['x'] }] }, {}), false);
  assert.equal(m({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] }, {}), true);
  assert.equal(m({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: ['x'] }] }, { a: 'y' }), true);
  assert.equal(m({ matchLabels: { a: 'x' }, matchExpressions: [{ key: 'b', operator: 'Exists' }] }, { a: 'x' }), false);
  // Selectors the API server would reject count as selecting (the pod gets the later PDB strategies).
  assert.equal(m({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] }, {}), true);
  assert.equal(m(null, {}), false);
});

void test('formatDuration prints like Go', () => {
  assert.equal(formatDuration(0), '0s');
  assert.equal(formatDuration(45_999), '45s');
  assert.equal(formatDuration(50 * MIN), '50m0s');
  assert.equal(formatDuration(68 * MIN), '1h8m0s');
});
