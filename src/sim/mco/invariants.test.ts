import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import type {
  MachineConfigPool,
  MachineConfigPoolCondition,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import {
  poolStatusViolations,
  poolTransitionViolations,
  unavailableViolations,
  UpdatingNodesTracker,
} from './invariants.js';

const CUR = 'machineconfiguration.openshift.io/currentConfig';
const DES = 'machineconfiguration.openshift.io/desiredConfig';

function cond(type: string, status: boolean): MachineConfigPoolCondition {
  return { type, status: status ? 'True' : 'False', lastTransitionTime: null, reason: '', message: '' };
}

function pool(
  name: string,
  o: {
    machine?: number;
    updated?: number;
    ready?: number;
    unavailable?: number;
    updatedCond?: boolean;
    reached?: string;
    target?: string;
    maxUnavailable?: number | string;
  } = {},
): MachineConfigPool {
  const machine = o.machine ?? 3;
  const updated = o.updated ?? machine;
  return {
    metadata: { name },
    spec: {
      nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${name}`]: '' } },
      paused: false,
      configuration: { name: o.target ?? `rendered-${name}-new` },
      ...(o.maxUnavailable !== undefined ? { maxUnavailable: o.maxUnavailable } : {}),
    },
    status: {
      configuration: { name: o.reached ?? `rendered-${name}-new` },
      machineCount: machine,
      updatedMachineCount: updated,
      readyMachineCount: o.ready ?? updated,
      unavailableMachineCount: o.unavailable ?? 0,
      degradedMachineCount: 0,
      conditions: [cond('Updated', o.updatedCond ?? true)],
    },
  };
}

function node(name: string, role: string, current: string, desired: string): Node {
  return {
    metadata: {
      name,
      labels: { [`node-role.kubernetes.io/${role}`]: '' },
      annotations: { [CUR]: current, [DES]: desired },
    },
  };
}

test('pool counters: updated ≤ machine, ready ≤ updated, Updated=True ⇔ all updated and ready and none unavailable', () => {
  assert.deepEqual(poolStatusViolations(pool('worker')), []);
  assert.deepEqual(
    poolStatusViolations(pool('worker', { updated: 1, ready: 1, unavailable: 1, updatedCond: false })),
    [],
  );
  assert.deepEqual(poolStatusViolations(pool('worker', { machine: 2, updated: 3, ready: 2, updatedCond: false })), [
    'pool worker: updatedMachineCount 3 > machineCount 2',
  ]);
  assert.deepEqual(poolStatusViolations(pool('worker', { updated: 1, ready: 2, updatedCond: false })), [
    'pool worker: readyMachineCount 2 > updatedMachineCount 1',
  ]);
  assert.deepEqual(poolStatusViolations(pool('worker', { updated: 2, updatedCond: true })), [
    'pool worker: Updated=true but counters say not all updated',
  ]);
  assert.deepEqual(poolStatusViolations(pool('worker', { updatedCond: false })), [
    'pool worker: Updated=false but counters say all updated',
  ]);
});

test('status.configuration moves only when the pool is Updated, and to spec.configuration', () => {
  const before = pool('worker', { reached: 'rendered-worker-old', updated: 2, updatedCond: false });
  assert.deepEqual(poolTransitionViolations(before, pool('worker')), []);
  assert.deepEqual(poolTransitionViolations(before, pool('worker', { updated: 2, updatedCond: false })), [
    'pool worker: status.configuration moved rendered-worker-old → rendered-worker-new while not Updated',
  ]);
  assert.deepEqual(poolTransitionViolations(before, pool('worker', { reached: 'rendered-worker-other' })), [
    'pool worker: status.configuration moved to rendered-worker-other, not to spec rendered-worker-new',
  ]);
});

test('at most maxUnavailable nodes of a pool move at once; the incremental tracker agrees with the full check', () => {
  const pools = [pool('master'), pool('worker', { maxUnavailable: '50%' })];
  const nodes = [
    node('m0', 'master', 'old', 'new'),
    node('m1', 'master', 'old', 'old'),
    node('w0', 'worker', 'old', 'new'),
    node('w1', 'worker', 'old', 'old'),
    node('w2', 'worker', 'old', 'old'),
    node('w3', 'worker', 'old', 'new'),
  ];
  assert.deepEqual(unavailableViolations(pools, nodes), []);
  const tracker = new UpdatingNodesTracker();
  tracker.reset(nodes, pools);
  assert.deepEqual(
    pools.flatMap((p) => tracker.violations(p)),
    [],
  );

  const moved = node('m1', 'master', 'old', 'new');
  const after = nodes.map((n) => (n.metadata?.name === 'm1' ? moved : n));
  const expected = ['pool master: 2 nodes updating at once (m0, m1), maxUnavailable 1'];
  assert.deepEqual(unavailableViolations(pools, after), expected);
  assert.deepEqual(tracker.setNode(moved, pools), ['master']);
  assert.deepEqual(tracker.violations(pools[0]!), expected);
  assert.deepEqual(tracker.deleteNode('m0'), ['master']);
  assert.deepEqual(tracker.violations(pools[0]!), []);
  // A worker added at 50% of 5 (2): a third moving worker is one too many.
  assert.deepEqual(tracker.setNode(node('w4', 'worker', 'old', 'new'), pools), ['worker']);
  assert.deepEqual(tracker.violations(pools[1]!), [
    'pool worker: 3 nodes updating at once (w0, w3, w4), maxUnavailable 2',
  ]);
});
