import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import { platformRuleGroups } from './platform-rules.js';
import { RuleEvaluator } from './rules.js';
import { seriesFromObjects } from './series-from-objects.js';
import type { ClusterObjects, NodeLike } from './series-from-objects.js';
import { ScrapeWriter, Tsdb } from './tsdb.js';

function node(name: string, ready: boolean, unschedulable = false): NodeLike {
  return {
    metadata: { name, labels: { 'node-role.kubernetes.io/worker': '' } },
    spec: {
      unschedulable,
      taints: ready ? [] : [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }],
    },
    status: { conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', reason: 'KubeletReady' }] },
  };
}

const objects = (over: Partial<ClusterObjects> = {}): ClusterObjects => ({
  nodes: [node('w1', true), node('w2', false)],
  podDisruptionBudgets: [
    {
      metadata: { namespace: 'openshift-ingress', name: 'router' },
      status: { currentHealthy: 2, desiredHealthy: 2, expectedPods: 2, disruptionsAllowed: 0 },
    },
  ],
  clusterOperators: [
    {
      metadata: { name: 'etcd' },
      status: {
        versions: [{ name: 'operator', version: '4.14.10' }],
        conditions: [
          { type: 'Available', status: 'False', reason: 'EtcdMembersDown' },
          { type: 'Degraded', status: 'True', reason: 'X' },
          { type: 'Upgradeable', status: 'Unknown' },
        ],
      },
    },
  ],
  clusterVersion: {
    metadata: { name: 'version', creationTimestamp: '2024-01-01T00:00:00Z' },
    spec: { channel: 'stable-4.15', desiredUpdate: { version: '4.15.3', image: 'img@sha256:b' } },
    status: {
      desired: { version: '4.15.3', image: 'img@sha256:b' },
      history: [
        {
          state: 'Partial',
          version: '4.15.3',
          image: 'img@sha256:b',
          startedTime: '2024-03-20T08:00:00Z',
          completionTime: null,
        },
        {
          state: 'Completed',
          version: '4.14.10',
          image: 'img@sha256:a',
          startedTime: '2024-01-01T00:00:00Z',
          completionTime: '2024-01-01T01:00:00Z',
        },
      ],
      conditions: [
        { type: 'Available', status: 'True', reason: '' },
        { type: 'Failing', status: 'False' },
        { type: 'RetrievedUpdates', status: 'True' },
      ],
      availableUpdates: [{}, {}],
    },
  },
  drainErrorNodes: ['w2'],
  ...over,
});

function find(name: string, match: Record<string, string>): number[] {
  return seriesFromObjects(objects())
    .filter((s) => s.labels['__name__'] === name && Object.entries(match).every(([k, v]) => s.labels[k] === v))
    .map((s) => s.value);
}

test('kube-state-metrics series for nodes and PDBs', () => {
  assert.deepEqual(find('kube_node_status_condition', { node: 'w2', condition: 'Ready', status: 'true' }), [0]);
  assert.deepEqual(find('kube_node_status_condition', { node: 'w2', condition: 'Ready', status: 'false' }), [1]);
  assert.deepEqual(
    find('kube_node_status_condition', { node: 'w1', job: 'kube-state-metrics', namespace: 'openshift-monitoring' }),
    [1, 0, 0],
  );
  assert.deepEqual(
    find('kube_node_spec_taint', { node: 'w2', key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }),
    [1],
  );
  assert.deepEqual(find('kube_node_role', { node: 'w1', role: 'worker' }), [1]);
  assert.deepEqual(
    find('kube_poddisruptionbudget_status_current_healthy', {
      namespace: 'openshift-ingress',
      poddisruptionbudget: 'router',
    }),
    [2],
  );
  assert.deepEqual(find('up', { job: 'kubelet', metrics_path: '/metrics', node: 'w2' }), [0]);
  assert.deepEqual(find('mcc_drain_err', { node: 'w2' }), [1]);
});

test('cluster-version-operator series', () => {
  assert.deepEqual(find('cluster_operator_up', { name: 'etcd', version: '4.14.10', reason: 'EtcdMembersDown' }), [0]);
  assert.deepEqual(find('cluster_operator_conditions', { name: 'etcd', condition: 'Degraded' }), [1]);
  assert.deepEqual(find('cluster_operator_conditions', { name: 'etcd', condition: 'Upgradeable' }), []);
  assert.deepEqual(find('cluster_operator_conditions', { name: 'version', condition: 'Failing' }), [0]);
  assert.deepEqual(find('cluster_version', { type: 'completed', version: '4.14.10' }), [
    Date.UTC(2024, 0, 1, 1) / 1000,
  ]);
  assert.deepEqual(find('cluster_version', { type: 'updating', version: '4.15.3', from_version: '4.14.10' }), [
    Date.UTC(2024, 2, 20, 8) / 1000,
  ]);
  assert.deepEqual(find('cluster_version', { type: 'current', version: '4.15.3' }).length, 1);
  assert.deepEqual(find('cluster_version', { type: 'cluster', version: '4.14.10' }), [Date.UTC(2024, 0, 1) / 1000]);
  assert.deepEqual(find('cluster_version_available_updates', { channel: 'stable-4.15', upstream: '<default>' }), [2]);
});

test('platform rules fire from the derived series: a cordoned NotReady node does not raise KubeNodeNotReady', async () => {
  const clock = new ManualClock(Date.UTC(2024, 2, 20, 8));
  const db = new Tsdb();
  const writer = new ScrapeWriter(db);
  let state = objects({ nodes: [node('w1', true), node('w2', false), node('w3', false, true)] });
  const rules = new RuleEvaluator({
    tsdb: db,
    clock,
    groups: platformRuleGroups(),
    beforeEvaluation: (t) => writer.write(seriesFromObjects(state), t),
  });
  rules.start();
  await clock.advance(16 * 60_000);
  const firing = (name: string): Array<Record<string, string>> =>
    rules
      .activeAlerts()
      .filter((a) => a.labels['alertname'] === name && a.state === 'firing')
      .map((a) => ({ ...a.labels }));
  assert.deepEqual(
    firing('KubeNodeNotReady').map((l) => l['node']),
    ['w2'],
  );
  assert.deepEqual(
    firing('KubeNodeUnreachable')
      .map((l) => l['node'])
      .sort(),
    ['w2', 'w3'],
  );
  assert.deepEqual(
    firing('ClusterOperatorDown').map((l) => [l['name'], l['namespace'], l['severity']]),
    [['etcd', 'openshift-cluster-version', 'critical']],
  );
  assert.equal(firing('Watchdog').length, 1);
  assert.equal(firing('UpdateAvailable').length, 1);
  assert.equal(firing('MCCDrainError')[0]?.['namespace'], 'openshift-machine-config-operator');
  // PodDisruptionBudgetAtLimit needs 60 minutes.
  assert.equal(firing('PodDisruptionBudgetAtLimit').length, 0);
  assert.equal(
    rules.activeAlerts().find((a) => a.labels['alertname'] === 'PodDisruptionBudgetAtLimit')?.state,
    'pending',
  );
  assert.equal(firing('KubeletDown').length, 0);
  state = objects({ nodes: [node('w1', true)] });
  await clock.advance(60_000);
  assert.equal(firing('KubeNodeNotReady').length, 0);
  for (const s of rules.status()) assert.equal(s.health, 'ok', `${s.rule.name}: ${s.lastError ?? ''}`);
  rules.stop();
});
