import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node, Taint } from 'kubernetes-types/core/v1.js';
import { checkCordonedNodes, checkNodePressure, isCordoned, isNonInfraWorker, nodesUnknown } from './nodes.js';

interface NodeOptions {
  roles?: string[];
  unschedulable?: boolean;
  taints?: Taint[];
  mcdState?: string;
}

function node(name: string, o: NodeOptions = {}): Node {
  const labels = Object.fromEntries((o.roles ?? ['worker']).map((r) => [`node-role.kubernetes.io/${r}`, '']));
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels,
      ...(o.mcdState ? { annotations: { 'machineconfiguration.openshift.io/state': o.mcdState } } : {}),
    },
    spec: {
      ...(o.unschedulable !== undefined ? { unschedulable: o.unschedulable } : {}),
      ...(o.taints ? { taints: o.taints } : {}),
    },
  };
}

const cordonTaint: Taint = {
  key: 'node.kubernetes.io/unschedulable',
  effect: 'NoSchedule',
  timeAdded: '2024-03-20T08:00:00Z',
};
const cordoned = (name: string, o: NodeOptions = {}): Node =>
  node(name, { unschedulable: true, taints: [cordonTaint], ...o });

test('isNonInfraWorker and isCordoned follow MUO', () => {
  assert.equal(isNonInfraWorker(node('a')), true);
  assert.equal(isNonInfraWorker(node('a', { roles: ['worker', 'infra'] })), false);
  assert.equal(isNonInfraWorker(node('a', { roles: ['master'] })), false);
  assert.equal(isCordoned(cordoned('a')), true);
  assert.equal(isCordoned(node('a', { unschedulable: true })), false, 'no taint yet');
  assert.equal(isCordoned(node('a', { taints: [cordonTaint] })), false, 'taint without spec.unschedulable');
  assert.equal(
    isCordoned(node('a', { unschedulable: true, taints: [{ ...cordonTaint, effect: 'NoExecute' }] })),
    false,
  );
});

test('checkCordonedNodes: only manually cordoned non-infra workers fail, with MUO text', () => {
  const nodes = [
    node('worker-0'),
    cordoned('worker-b'),
    cordoned('worker-a'),
    cordoned('worker-updating', { mcdState: 'Working' }), // the MCD cordoned it
    cordoned('worker-done', { mcdState: 'Done' }),
    cordoned('infra-0', { roles: ['worker', 'infra'] }),
    cordoned('master-0', { roles: ['master'] }),
  ];
  const r = checkCordonedNodes(nodes);
  assert.ok(!r.healthy);
  assert.deepEqual(r.failure, {
    check: 'cordoned-nodes',
    metricReason: 'cluster_node_manually_cordoned',
    muoText: 'NodeUnschedulableHealthcheckFailed:(worker-a,worker-b,worker-done)',
    message: 'manually cordoned worker nodes: worker-a, worker-b, worker-done',
    blocking: false,
  });
  assert.deepEqual(checkCordonedNodes(nodes.slice(3, 4).concat(nodes.slice(5))), {
    check: 'cordoned-nodes',
    healthy: true,
  });
});

test('checkNodePressure: NoSchedule pressure taints on any node fail; names unique, sorted, pressures listed', () => {
  const taint = (p: string, effect: Taint['effect'] = 'NoSchedule'): Taint => ({
    key: `node.kubernetes.io/${p}`,
    effect,
  });
  const nodes = [
    node('worker-1', { taints: [taint('disk-pressure'), taint('memory-pressure')] }),
    node('master-0', { roles: ['master'], taints: [taint('pid-pressure')] }),
    node('worker-2', { taints: [taint('memory-pressure', 'NoExecute'), taint('network-unavailable')] }),
    cordoned('worker-3'),
  ];
  const r = checkNodePressure(nodes);
  assert.ok(!r.healthy);
  assert.deepEqual(r.failure, {
    check: 'node-pressure',
    metricReason: 'cluster_node_taint_unschedulable',
    muoText: 'NodeUnschedulableTaintHealthcheckFailed:(master-0,worker-1)',
    message: 'unschedulable taints on nodes: master-0 (pid-pressure), worker-1 (memory-pressure, disk-pressure)',
    blocking: false,
  });
  assert.deepEqual(checkNodePressure(nodes.slice(2)), { check: 'node-pressure', healthy: true });
});

test('nodesUnknown: an unreadable node list fails both node checks closed', () => {
  const a = nodesUnknown('cordoned-nodes', new Error('timeout'));
  const b = nodesUnknown('node-pressure', new Error('timeout'));
  assert.ok(!a.healthy && !b.healthy);
  assert.deepEqual(
    [a.failure, b.failure].map((f) => [f.metricReason, f.muoText, f.message]),
    [
      ['cluster_node_query_failed', 'NodeUnschedulableHealthcheckFailed:()', 'unable to list nodes: timeout'],
      ['cluster_node_query_failed', 'NodeUnschedulableTaintHealthcheckFailed:()', 'unable to list nodes: timeout'],
    ],
  );
});
