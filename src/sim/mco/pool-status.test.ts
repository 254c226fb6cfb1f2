import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { poolStatusViolations } from './invariants.js';
import { computePoolStatus, joiningConfigFor } from './pool-status.js';
import { primaryPoolName } from './node-state.js';

const OLD = 'rendered-worker-old';
const NEW = 'rendered-worker-new';
const T0 = Date.UTC(2026, 2, 2);

function node(
  name: string,
  current: string,
  desired: string,
  state = 'Done',
  o: { ready?: boolean; unschedulable?: boolean; reason?: string } = {},
): Node {
  return {
    metadata: {
      name,
      labels: { 'node-role.kubernetes.io/worker': '' },
      annotations: {
        'machineconfiguration.openshift.io/currentConfig': current,
        'machineconfiguration.openshift.io/desiredConfig': desired,
        'machineconfiguration.openshift.io/state': state,
        'machineconfiguration.openshift.io/reason': o.reason ?? '',
      },
    },
    spec: o.unschedulable ? { unschedulable: true } : {},
    status: { conditions: [{ type: 'Ready', status: o.ready === false ? 'False' : 'True' }] },
  };
}

function pool(paused = false): MachineConfigPool {
  return {
    metadata: { name: 'worker', generation: 4 },
    spec: { paused, configuration: { name: NEW, source: [{ name: '00-worker' }] } },
    status: {
      observedGeneration: 3,
      configuration: { name: OLD },
      machineCount: 3,
      updatedMachineCount: 0,
      readyMachineCount: 0,
      unavailableMachineCount: 0,
      degradedMachineCount: 0,
      conditions: [
        {
          type: 'RenderDegraded',
          status: 'False',
          reason: '',
          message: '',
          lastTransitionTime: '2026-01-01T00:00:00Z',
        },
      ],
    },
  };
}

const cond = (p: { conditions?: Array<{ type: string }> }, type: string): unknown =>
  p.conditions?.find((c) => c.type === type);

void test('mid-rollout worker pool: counters and conditions as the MCO computes them', () => {
  const nodes = [node('w0', NEW, NEW), node('w1', OLD, NEW, 'Working', { unschedulable: true }), node('w2', OLD, OLD)];
  const s = computePoolStatus(pool(), nodes, T0)!;
  assert.deepEqual(
    {
      m: s.machineCount,
      u: s.updatedMachineCount,
      r: s.readyMachineCount,
      un: s.unavailableMachineCount,
      d: s.degradedMachineCount,
      g: s.observedGeneration,
    },
    { m: 3, u: 1, r: 1, un: 1, d: 0, g: 4 },
  );
  assert.equal(s.configuration.name, OLD);
  assert.deepEqual(cond(s, 'Updated'), {
    type: 'Updated',
    status: 'False',
    reason: '',
    message: '',
    lastTransitionTime: '2026-03-02T00:00:00Z',
  });
  assert.deepEqual(cond(s, 'Updating'), {
    type: 'Updating',
    status: 'True',
    reason: '',
    message: `All nodes are updating to MachineConfig ${NEW}`,
    lastTransitionTime: '2026-03-02T00:00:00Z',
  });
  assert.deepEqual(
    s.conditions!.map((c) => c.type),
    ['RenderDegraded', 'Updated', 'Updating', 'NodeDegraded', 'Degraded'],
  );
  assert.deepEqual(poolStatusViolations({ ...pool(), status: s }), []);
});

void test('a fully updated pool moves status.configuration and says Updated', () => {
  const s = computePoolStatus(pool(), [node('w0', NEW, NEW), node('w1', NEW, NEW)], T0)!;
  assert.deepEqual(s.configuration, { name: NEW, source: [{ name: '00-worker' }] });
  assert.deepEqual(cond(s, 'Updated'), {
    type: 'Updated',
    status: 'True',
    reason: '',
    message: `All nodes are updated with MachineConfig ${NEW}`,
    lastTransitionTime: '2026-03-02T00:00:00Z',
  });
  assert.deepEqual(cond(s, 'Updating'), {
    type: 'Updating',
    status: 'False',
    reason: '',
    message: '',
    lastTransitionTime: '2026-03-02T00:00:00Z',
  });
});

void test('an updated node that is cordoned is updated but not ready, and unavailable', () => {
  const s = computePoolStatus(pool(), [node('w0', NEW, NEW, 'Done', { unschedulable: true })], T0)!;
  assert.deepEqual([s.updatedMachineCount, s.readyMachineCount, s.unavailableMachineCount], [1, 0, 1]);
  assert.equal(s.configuration.name, OLD);
});

void test('paused and behind: Updating=False with the paused message', () => {
  const s = computePoolStatus(pool(true), [node('w0', OLD, OLD)], T0)!;
  assert.deepEqual(cond(s, 'Updating'), {
    type: 'Updating',
    status: 'False',
    reason: '',
    message: `Pool is paused; will not update to MachineConfig ${NEW}`,
    lastTransitionTime: '2026-03-02T00:00:00Z',
  });
});

void test('degraded nodes: NodeDegraded reason and message, Degraded true, a retargetable node is not unavailable', () => {
  const s = computePoolStatus(
    pool(),
    [node('w0', OLD, NEW, 'Degraded', { reason: 'failed to drain node: w0 after 1 hour' }), node('w1', OLD, OLD)],
    T0,
  )!;
  assert.equal(s.degradedMachineCount, 1);
  assert.equal(s.unavailableMachineCount, 0);
  assert.deepEqual(cond(s, 'NodeDegraded'), {
    type: 'NodeDegraded',
    status: 'True',
    reason: '1 nodes are reporting degraded status on sync',
    message: 'Node w0 is reporting: "failed to drain node: w0 after 1 hour"',
    lastTransitionTime: '2026-03-02T00:00:00Z',
  });
  assert.equal((cond(s, 'Degraded') as { status: string }).status, 'True');
});

void test('a condition that changes moves to the end and keeps its time when only the message changes', () => {
  const first = computePoolStatus(pool(), [node('w0', OLD, NEW, 'Working')], T0)!;
  const p2: MachineConfigPool = { ...pool(true), status: first };
  const second = computePoolStatus(p2, [node('w0', OLD, NEW, 'Working')], T0 + 60_000)!;
  const updating = second.conditions!.at(-1)!;
  assert.equal(updating.type, 'Updating');
  assert.equal(updating.lastTransitionTime, '2026-03-02T00:01:00Z');
  const p3: MachineConfigPool = { ...pool(false), status: first };
  const third = computePoolStatus(
    { ...p3, spec: { ...p3.spec, configuration: { name: 'rendered-worker-newer' } } },
    [node('w0', OLD, NEW, 'Working')],
    T0 + 120_000,
  )!;
  const u3 = third.conditions!.find((c) => c.type === 'Updating')!;
  assert.equal(u3.lastTransitionTime, '2026-03-02T00:00:00Z');
  assert.equal(third.conditions!.at(-1)!.type, 'Updating');
});

void test('pool membership: a custom pool takes its nodes from worker; master wins over worker', () => {
  const pools: MachineConfigPool[] = ['master', 'worker', 'infra'].map((n) => ({
    metadata: { name: n },
    spec: { nodeSelector: { matchLabels: { [`node-role.kubernetes.io/${n}`]: '' } } },
  }));
  const n = (labels: string[]): Node => ({
    metadata: { name: 'x', labels: Object.fromEntries(labels.map((l) => [`node-role.kubernetes.io/${l}`, ''])) },
  });
  assert.equal(primaryPoolName(n(['worker', 'infra']), pools), 'infra');
  assert.equal(primaryPoolName(n(['master', 'worker']), pools), 'master');
  assert.equal(primaryPoolName(n(['master', 'infra']), pools), undefined);
  assert.equal(primaryPoolName(n(['worker']), pools), 'worker');
});

void test('a joining node gets the new config only once one node of the pool is updated', () => {
  const p = pool();
  assert.equal(joiningConfigFor(p), OLD);
  assert.equal(joiningConfigFor({ ...p, status: { ...p.status!, updatedMachineCount: 1 } }), NEW);
});
