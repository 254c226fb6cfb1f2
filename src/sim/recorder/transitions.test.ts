import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { ClusterOperatorStatusCondition, ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import type {
  MachineConfigPool,
  MachineConfigPoolCondition,
} from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { isMessageOnly, objectChanges } from './transitions.js';

const T = '2026-03-02T00:00:00Z';

function cond(
  type: string,
  status: 'True' | 'False' | 'Unknown',
  reason?: string,
  message?: string,
): ClusterOperatorStatusCondition {
  return { type, status, lastTransitionTime: T, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

function cv(o: {
  desired?: string;
  history?: Array<[string, 'Completed' | 'Partial']>;
  generation?: number;
  observed?: number;
  conditions?: ClusterOperatorStatusCondition[];
  desiredUpdate?: string;
}): ClusterVersion {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version', generation: o.generation ?? 1 },
    spec: {
      clusterID: 'x',
      channel: 'stable-4.14',
      ...(o.desiredUpdate ? { desiredUpdate: { version: o.desiredUpdate } } : {}),
    },
    status: {
      desired: { version: o.desired ?? '4.14.30', image: 'img' },
      history: (o.history ?? [['4.14.30', 'Completed']]).map(([version, state]) => ({
        version,
        state,
        startedTime: T,
        completionTime: null,
        image: 'img',
        verified: false,
      })),
      observedGeneration: o.observed ?? 1,
      versionHash: 'h',
      availableUpdates: null,
      conditions: o.conditions ?? [
        cond('Available', 'True'),
        cond('Progressing', 'False', undefined, 'Cluster version is 4.14.30'),
      ],
    },
  };
}

void test('a ClusterVersion starting an update: generation, desired, history head and Progressing, in a fixed order', () => {
  const before = cv({});
  const after = cv({
    desiredUpdate: '4.15.38',
    generation: 2,
    observed: 2,
    desired: '4.15.38',
    history: [
      ['4.15.38', 'Partial'],
      ['4.14.30', 'Completed'],
    ],
    conditions: [
      cond('Available', 'True'),
      cond('Progressing', 'True', undefined, 'Working towards 4.15.38: 1 of 863 done (0% complete)'),
    ],
  });
  assert.deepEqual(objectChanges('ClusterVersion', before, after), [
    { field: 'spec.desiredUpdate.version', from: null, to: '4.15.38' },
    { field: 'metadata.generation', from: 1, to: 2 },
    { field: 'status.observedGeneration', from: 1, to: 2 },
    { field: 'status.desired.version', from: '4.14.30', to: '4.15.38' },
    { field: 'status.history[0].version', from: '4.14.30', to: '4.15.38' },
    { field: 'status.history[0].state', from: 'Completed', to: 'Partial' },
    {
      field: 'condition/Progressing',
      from: 'False',
      to: 'True',
      message: 'Working towards 4.15.38: 1 of 863 done (0% complete)',
    },
  ]);
});

void test('a message-only change of a condition is its own field, which readers can filter out', () => {
  const a = cv({
    conditions: [cond('Progressing', 'True', undefined, 'Working towards 4.15.38: 1 of 863 done (0% complete)')],
  });
  const b = cv({
    conditions: [cond('Progressing', 'True', undefined, 'Working towards 4.15.38: 512 of 863 done (59% complete)')],
  });
  const changes = objectChanges('ClusterVersion', a, b);
  assert.deepEqual(changes, [
    {
      field: 'condition/Progressing.message',
      from: 'Working towards 4.15.38: 1 of 863 done (0% complete)',
      to: 'Working towards 4.15.38: 512 of 863 done (59% complete)',
    },
  ]);
  assert.equal(isMessageOnly(changes[0]!), true);
  assert.equal(isMessageOnly({ field: 'condition/Progressing' }), false);
});

void test('a reason change counts as a condition change; a condition that appears or goes away goes from or to null', () => {
  const a = cv({
    conditions: [cond('Failing', 'False'), cond('Upgradeable', 'False', 'AdminAckRequired', 'ack needed')],
  });
  const b = cv({
    conditions: [
      cond('Failing', 'False', 'ClusterOperatorDegraded', 'etcd degraded'),
      cond('ReleaseAccepted', 'True', 'PayloadLoaded', 'loaded'),
    ],
  });
  assert.deepEqual(objectChanges('ClusterVersion', a, b), [
    {
      field: 'condition/Failing',
      from: 'False',
      to: 'False',
      reason: 'ClusterOperatorDegraded',
      message: 'etcd degraded',
    },
    { field: 'condition/ReleaseAccepted', from: null, to: 'True', reason: 'PayloadLoaded', message: 'loaded' },
    { field: 'condition/Upgradeable', from: 'False', to: null },
  ]);
});

void test('an unchanged object has no transitions', () => {
  assert.deepEqual(objectChanges('ClusterVersion', cv({}), cv({})), []);
});

void test('a ClusterOperator: its operator version and conditions', () => {
  const co = (version: string, progressing: 'True' | 'False'): ClusterOperator => ({
    metadata: { name: 'etcd' },
    spec: {},
    status: {
      versions: [
        { name: 'raw-internal', version },
        { name: 'operator', version },
      ],
      conditions: [
        cond('Available', 'True', 'AsExpected'),
        cond('Progressing', progressing, progressing === 'True' ? 'NodeInstaller' : 'AsExpected'),
      ],
    },
  });
  assert.deepEqual(objectChanges('ClusterOperator', co('4.14.30', 'False'), co('4.14.30', 'True')), [
    { field: 'condition/Progressing', from: 'False', to: 'True', reason: 'NodeInstaller' },
  ]);
  assert.deepEqual(objectChanges('ClusterOperator', co('4.14.30', 'True'), co('4.15.38', 'False')), [
    { field: 'status.versions[operator]', from: '4.14.30', to: '4.15.38' },
    { field: 'condition/Progressing', from: 'True', to: 'False', reason: 'AsExpected' },
  ]);
});

function pool(o: {
  updated: number;
  ready: number;
  unavailable: number;
  paused?: boolean;
  spec?: string;
  status?: string;
  conditions?: MachineConfigPoolCondition[];
}): MachineConfigPool {
  return {
    metadata: { name: 'worker' },
    spec: { paused: o.paused ?? false, configuration: { name: o.spec ?? 'rendered-worker-a' } },
    status: {
      configuration: { name: o.status ?? 'rendered-worker-a' },
      machineCount: 3,
      updatedMachineCount: o.updated,
      readyMachineCount: o.ready,
      unavailableMachineCount: o.unavailable,
      degradedMachineCount: 0,
      conditions: o.conditions ?? [],
    },
  };
}

void test('a MachineConfigPool: spec and status configuration, pause, counters and conditions', () => {
  const mcpCond = (type: string, status: 'True' | 'False', message = ''): MachineConfigPoolCondition => ({
    type,
    status,
    lastTransitionTime: T,
    reason: '',
    message,
  });
  const a = pool({
    updated: 3,
    ready: 3,
    unavailable: 0,
    conditions: [
      mcpCond('Updated', 'True', 'All nodes are updated with rendered-worker-a'),
      mcpCond('Updating', 'False'),
    ],
  });
  const b = pool({
    updated: 0,
    ready: 2,
    unavailable: 1,
    paused: true,
    spec: 'rendered-worker-b',
    conditions: [
      mcpCond('Updated', 'False'),
      mcpCond('Updating', 'True', 'All nodes are updating to rendered-worker-b'),
    ],
  });
  assert.deepEqual(objectChanges('MachineConfigPool', a, b), [
    { field: 'spec.paused', from: false, to: true },
    { field: 'spec.configuration.name', from: 'rendered-worker-a', to: 'rendered-worker-b' },
    { field: 'status.updatedMachineCount', from: 3, to: 0 },
    { field: 'status.readyMachineCount', from: 3, to: 2 },
    { field: 'status.unavailableMachineCount', from: 0, to: 1 },
    { field: 'condition/Updated', from: 'True', to: 'False' },
    { field: 'condition/Updating', from: 'False', to: 'True', message: 'All nodes are updating to rendered-worker-b' },
  ]);
});

function node(o: {
  state?: string;
  current?: string;
  desired?: string;
  ready?: 'True' | 'False';
  unschedulable?: boolean;
}): Node {
  return {
    metadata: {
      name: 'worker-a',
      annotations: {
        'machineconfiguration.openshift.io/currentConfig': o.current ?? 'rendered-worker-a',
        'machineconfiguration.openshift.io/desiredConfig': o.desired ?? 'rendered-worker-a',
        'machineconfiguration.openshift.io/state': o.state ?? 'Done',
        'unrelated/annotation': `${o.desired ?? ''}${o.ready ?? ''}`,
      },
    },
    spec: o.unschedulable ? { unschedulable: true } : {},
    status: {
      conditions: [
        { type: 'MemoryPressure', status: 'False' },
        { type: 'Ready', status: o.ready ?? 'True', reason: o.ready === 'False' ? 'KubeletNotReady' : 'KubeletReady' },
      ],
    },
  };
}

void test('a Node: the MCO annotations, Ready and unschedulable; other annotations and conditions are ignored', () => {
  assert.deepEqual(
    objectChanges('Node', node({}), node({ desired: 'rendered-worker-b', state: 'Working', unschedulable: true })),
    [
      { field: 'machineconfiguration.openshift.io/desiredConfig', from: 'rendered-worker-a', to: 'rendered-worker-b' },
      { field: 'machineconfiguration.openshift.io/state', from: 'Done', to: 'Working' },
      { field: 'spec.unschedulable', from: false, to: true },
    ],
  );
  assert.deepEqual(objectChanges('Node', node({ state: 'Working' }), node({ state: 'Working', ready: 'False' })), [
    { field: 'condition/Ready', from: 'True', to: 'False', reason: 'KubeletNotReady' },
  ]);
});

void test('creation reports the object and the fields it was created with (not unset or false ones); deletion only the object', () => {
  const n: Node = {
    metadata: {
      name: 'worker-c',
      annotations: { 'machineconfiguration.openshift.io/desiredConfig': 'rendered-worker-b' },
    },
    spec: {},
    status: {},
  };
  assert.deepEqual(objectChanges('Node', undefined, n), [
    { field: 'object', from: 'absent', to: 'present' },
    { field: 'machineconfiguration.openshift.io/desiredConfig', from: null, to: 'rendered-worker-b' },
  ]);
  assert.deepEqual(objectChanges('Node', n, undefined), [{ field: 'object', from: 'present', to: 'absent' }]);
  assert.deepEqual(objectChanges('Node', undefined, undefined), []);
});
