import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { resolveMaxUnavailable, selectNodesToUpdate } from './node-selection.js';

const OLD = 'rendered-worker-old';
const NEW = 'rendered-worker-new';

function node(
  name: string,
  o: {
    zone?: string;
    created?: string;
    current?: string;
    desired?: string;
    state?: string;
    ready?: boolean;
    unschedulable?: boolean;
  } = {},
): Node {
  const current = o.current ?? OLD;
  return {
    metadata: {
      name,
      creationTimestamp: o.created ?? '2026-01-01T00:00:00Z',
      labels: { 'node-role.kubernetes.io/worker': '', ...(o.zone ? { 'topology.kubernetes.io/zone': o.zone } : {}) },
      annotations: {
        'machineconfiguration.openshift.io/currentConfig': current,
        'machineconfiguration.openshift.io/desiredConfig': o.desired ?? current,
        'machineconfiguration.openshift.io/state': o.state ?? 'Done',
      },
    },
    spec: o.unschedulable ? { unschedulable: true } : {},
    status: { conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  };
}

function pool(name: string, maxUnavailable?: number | string, paused = false): MachineConfigPool {
  const p: MachineConfigPool = {
    metadata: { name },
    spec: {
      paused,
      configuration: { name: NEW },
      nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${name}`]: '' } },
    },
  };
  if (maxUnavailable !== undefined) p.spec.maxUnavailable = maxUnavailable;
  return p;
}

const names = (ns: Node[]): string[] => ns.map((n) => n.metadata?.name ?? '');

void test('maxUnavailable: default 1, 0 counts as 1, percentages round down but at least 1, garbage throws', () => {
  assert.equal(resolveMaxUnavailable(undefined, 10), 1);
  assert.equal(resolveMaxUnavailable(0, 10), 1);
  assert.equal(resolveMaxUnavailable(3, 10), 3);
  assert.equal(resolveMaxUnavailable('50%', 5), 2);
  assert.equal(resolveMaxUnavailable('10%', 5), 1);
  assert.equal(resolveMaxUnavailable('33%', 100), 33);
  assert.throws(() => resolveMaxUnavailable('2', 5));
});

void test('candidates are ordered by zone (unlabeled last), then age, when they exceed capacity', () => {
  const nodes = [
    node('n-nozone-old', { created: '2025-01-01T00:00:00Z' }),
    node('n-b-new', { zone: 'b', created: '2026-02-01T00:00:00Z' }),
    node('n-a-new', { zone: 'a', created: '2026-02-01T00:00:00Z' }),
    node('n-b-old', { zone: 'b', created: '2025-06-01T00:00:00Z' }),
  ];
  assert.deepEqual(names(selectNodesToUpdate(pool('worker', 3), nodes).chosen), ['n-a-new', 'n-b-old', 'n-b-new']);
  assert.deepEqual(names(selectNodesToUpdate(pool('worker', 1), nodes).chosen), ['n-a-new']);
});

void test('already-unavailable nodes use slots, and nodes failing on the target do too', () => {
  const nodes = [node('a', { ready: false }), node('b', { unschedulable: true }), node('c'), node('d'), node('e')];
  const s = selectNodesToUpdate(pool('worker', 3), nodes);
  assert.equal(s.unavailable, 2);
  assert.equal(s.chosen.length, 1);
  assert.equal(selectNodesToUpdate(pool('worker', 2), nodes).chosen.length, 0);
  const failing = [node('a', { desired: NEW, state: 'Degraded' }), node('b'), node('c')];
  // A degraded node retargetable: not unavailable, but it consumes the only slot.
  assert.deepEqual(selectNodesToUpdate(pool('worker', 1), failing).chosen, []);
  assert.deepEqual(names(selectNodesToUpdate(pool('worker', 2), failing).chosen), ['b']);
});

void test('a node moving to the target is unavailable; done nodes and NotReady nodes are not candidates', () => {
  const nodes = [
    node('a', { desired: NEW, state: 'Working' }),
    node('b', { current: NEW }),
    node('c', { ready: false }),
    node('d'),
  ];
  const s = selectNodesToUpdate(pool('worker', 3), nodes);
  assert.equal(s.unavailable, 2);
  assert.deepEqual(names(s.chosen), ['d']);
});

void test('a paused pool targets nothing', () => {
  assert.deepEqual(selectNodesToUpdate(pool('worker', 3, true), [node('a'), node('b')]).chosen, []);
});

void test('master pool: the node running the MCO pod goes last, when there is a choice', () => {
  const masters = ['m0', 'm1', 'm2'].map((n) => {
    const x = node(n);
    x.metadata!.labels = { 'node-role.kubernetes.io/master': '' };
    return x;
  });
  const p = pool('master', 1);
  assert.deepEqual(names(selectNodesToUpdate(p, masters, { operatorNode: 'm0' }).chosen), ['m1']);
  assert.deepEqual(names(selectNodesToUpdate(p, [masters[0]!], { operatorNode: 'm0' }).chosen), ['m0']);
  assert.deepEqual(names(selectNodesToUpdate(pool('worker', 1), masters, { operatorNode: 'm0' }).chosen), ['m0']);
});
