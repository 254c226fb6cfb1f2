import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import type { PrometheusApi, PromSample } from '../../integrations/prometheus-api.js';
import { IntegrationError } from '../../integrations/integration-error.js';
import { clusterOperator, workerNode } from './health-fixtures.test-support.js';
import type { HealthCheckDeps, HealthCheckResult } from './managed-health-check.js';
import {
  metricReasonsToClear,
  muoFailureList,
  runPostUpgradeHealthCheck,
  runPreUpgradeHealthCheck,
  summary,
} from './managed-health-check.js';

/** Why the DNS operator is degraded in these tests. */
const DNS_DEGRADED = { reason: 'DNSDegraded' };

const alert = (alertname: string): PromSample => ({
  metric: { alertname, namespace: 'openshift-kube-apiserver' },
  value: 1,
  timestamp: 0,
});

interface World {
  alerts: PromSample[] | Error;
  operators: ClusterOperator[] | Error;
  nodes: Node[] | Error;
  pdbs: PodDisruptionBudget[] | Error;
  machineSets: MachineSet[] | Error;
  /** DVO's metrics text, or `null` when DVO is not installed. */
  dvo: string | null | Error;
}

const healthyWorld = (): World => ({
  alerts: [],
  operators: [clusterOperator('dns'), clusterOperator('etcd')],
  nodes: [workerNode('worker-0')],
  pdbs: [{ metadata: { namespace: 'shop', name: 'web' }, spec: { maxUnavailable: 1 } }],
  machineSets: [
    {
      metadata: {
        name: 'w',
        namespace: 'openshift-machine-api',
        labels: { 'hive.openshift.io/machine-pool': 'worker' },
      },
    },
  ],
  dvo: '',
});

/** Deps serving `w`, recording which reads happened. */
function deps(w: World, calls: string[] = []): HealthCheckDeps {
  const answer = <T>(name: string, v: T | Error): Promise<T> => {
    calls.push(name);
    return v instanceof Error ? Promise.reject(v) : Promise.resolve(v);
  };
  const prometheus: PrometheusApi = { query: () => answer('alerts', w.alerts) };
  const dvo = w.dvo;
  return {
    prometheus,
    listClusterOperators: () => answer('operators', w.operators),
    listNodes: () => answer('nodes', w.nodes),
    listPodDisruptionBudgets: () => answer('pdbs', w.pdbs),
    listWorkerMachineSets: () => answer('machineSets', w.machineSets),
    dvo: dvo === null ? 'not-installed' : () => answer('dvo', dvo),
  };
}

const gateOn = { preHealthCheck: true, capacityReservation: true };
const gateOff = { preHealthCheck: false, capacityReservation: true };

test('pre-upgrade, gate off: critical alerts then ClusterOperators, the first failure stops', async () => {
  const calls: string[] = [];
  const ok = await runPreUpgradeHealthCheck(deps(healthyWorld(), calls), gateOff);
  assert.deepEqual(ok, {
    healthy: true,
    blocking: false,
    failures: [],
    checked: ['critical-alerts', 'cluster-operators'],
  });
  assert.deepEqual(calls, ['alerts', 'operators']);

  calls.length = 0;
  const firing = await runPreUpgradeHealthCheck(
    deps(
      { ...healthyWorld(), alerts: [alert('KubeAPIDown')], operators: [clusterOperator('dns', DNS_DEGRADED)] },
      calls,
    ),
    gateOff,
  );
  assert.deepEqual(calls, ['alerts']);
  assert.deepEqual(firing.checked, ['critical-alerts']);
  assert.equal(firing.healthy, false);
  assert.equal(firing.blocking, true);
  assert.equal(summary(firing), '1 health check failing: critical alert(s) firing: KubeAPIDown');

  const degraded = await runPreUpgradeHealthCheck(
    deps({ ...healthyWorld(), operators: [clusterOperator('dns', DNS_DEGRADED)] }),
    gateOff,
  );
  assert.deepEqual(degraded.checked, ['critical-alerts', 'cluster-operators']);
  assert.deepEqual(
    degraded.failures.map((f) => f.metricReason),
    ['cluster_operators_degraded'],
  );
});

test('pre-upgrade, gate on: every check runs and every failure is collected in order', async () => {
  const calls: string[] = [];
  const w: World = {
    alerts: [alert('KubeAPIDown')],
    operators: [clusterOperator('dns', DNS_DEGRADED)],
    nodes: [
      {
        metadata: { name: 'worker-1', labels: { 'node-role.kubernetes.io/worker': '' } },
        spec: {
          unschedulable: true,
          taints: [
            { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' },
            { key: 'node.kubernetes.io/disk-pressure', effect: 'NoSchedule' },
          ],
        },
      },
    ],
    pdbs: [{ metadata: { namespace: 'shop', name: 'web' }, spec: { maxUnavailable: 0 } }],
    machineSets: [],
    dvo: 'deployment_validation_operator_pdb_min_available{name="db",namespace_name="bank"} 1\n',
  };
  const r = await runPreUpgradeHealthCheck(deps(w, calls), gateOn);
  assert.deepEqual([...calls].sort(), ['alerts', 'dvo', 'machineSets', 'nodes', 'operators', 'pdbs']);
  assert.equal(r.healthy, false);
  assert.equal(r.blocking, true);
  assert.deepEqual(r.checked, [
    'critical-alerts',
    'cluster-operators',
    'capacity-reservation',
    'cordoned-nodes',
    'node-pressure',
    'pod-disruption-budgets',
    'deployment-validation',
  ]);
  assert.deepEqual(
    r.failures.map((f) => [f.check, f.metricReason, f.blocking]),
    [
      ['critical-alerts', 'critical_alerts_firing', true],
      ['cluster-operators', 'cluster_operators_degraded', true],
      ['capacity-reservation', 'default_worker_machinepool_not_found', false],
      ['cordoned-nodes', 'cluster_node_manually_cordoned', false],
      ['node-pressure', 'cluster_node_taint_unschedulable', false],
      ['pod-disruption-budgets', 'cluster_invalid_pdb_configuration', false],
      ['deployment-validation', 'cluster_invalid_pdb', false],
    ],
  );
  assert.equal(
    muoFailureList(r),
    'CriticalAlertsHealthcheckFailed,ClusterOperatorsHealthcheckFailed,CapacityReservationHealthcheckFailed,NodeUnschedulableHealthcheckFailed:(worker-1),' +
      'NodeUnschedulableTaintHealthcheckFailed:(worker-1),PDBHealthcheckFailed: [{"Name":"web","Namespace":"shop"}],PDBHealthcheckFailed: [{"Name":"db","Namespace":"bank"}]',
  );
  assert.match(
    summary(r),
    /^7 health checks failing: critical alert\(s\) firing: KubeAPIDown; cluster operators degraded: dns: Degraded=True \(DNSDegraded\); capacity reservation/,
  );
  assert.deepEqual(metricReasonsToClear(r), [
    'cluster_node_query_failed',
    'cluster_operator_status_failed',
    'dvo_client_creation_failed',
    'dvo_metrics_query_failed',
    'healthcheck_query_failed',
    'pdb_query_failed',
  ]);
});

test('pre-upgrade, gate on: capacity only when requested, DVO only when installed; warnings alone do not block', async () => {
  const calls: string[] = [];
  const w: World = {
    ...healthyWorld(),
    dvo: null,
    pdbs: [{ metadata: { namespace: 'shop', name: 'web' }, spec: { minAvailable: '100%' } }],
  };
  const r = await runPreUpgradeHealthCheck(deps(w, calls), { preHealthCheck: true, capacityReservation: false });
  assert.deepEqual([...calls].sort(), ['alerts', 'nodes', 'operators', 'pdbs']);
  assert.deepEqual(r.checked, [
    'critical-alerts',
    'cluster-operators',
    'cordoned-nodes',
    'node-pressure',
    'pod-disruption-budgets',
  ]);
  assert.equal(r.healthy, false);
  assert.equal(r.blocking, false);
  assert.deepEqual(metricReasonsToClear(r), [
    'cluster_node_manually_cordoned',
    'cluster_node_query_failed',
    'cluster_node_taint_unschedulable',
    'cluster_operator_status_failed',
    'cluster_operators_degraded',
    'critical_alerts_firing',
    'healthcheck_query_failed',
    'pdb_query_failed',
  ]);

  const all = await runPreUpgradeHealthCheck(deps(healthyWorld()), gateOn);
  assert.equal(all.healthy, true);
  assert.equal(all.checked.length, 7);
  assert.equal(
    summary(all),
    'all 7 health checks passed: critical-alerts, cluster-operators, capacity-reservation, cordoned-nodes, node-pressure, pod-disruption-budgets, deployment-validation',
  );
});

test('pre-upgrade, gate on: every unreadable source fails closed with its own reason', async () => {
  const down = new IntegrationError('prometheus', 'Unreachable', 'GET http://p/api/v1/query: connection refused');
  const r = await runPreUpgradeHealthCheck(
    deps({
      alerts: down,
      operators: new Error('o'),
      nodes: new Error('n'),
      pdbs: new Error('p'),
      machineSets: new Error('m'),
      dvo: new Error('d'),
    }),
    gateOn,
  );
  assert.equal(r.healthy, false);
  assert.equal(r.blocking, true);
  assert.deepEqual(
    r.failures.map((f) => f.metricReason),
    [
      'healthcheck_query_failed',
      'cluster_operator_status_failed',
      'default_worker_machinepool_not_found',
      'cluster_node_query_failed',
      'cluster_node_query_failed',
      'pdb_query_failed',
      'dvo_metrics_query_failed',
    ],
  );
  assert.equal(
    r.failures[0]?.message,
    'unable to query critical alerts: prometheus: GET http://p/api/v1/query: connection refused',
  );
});

test('pre-upgrade: an aborted signal rejects rather than reporting failures', async () => {
  const ac = new AbortController();
  const d = deps(healthyWorld());
  d.listNodes = () => {
    ac.abort(new Error('stopping'));
    return Promise.reject(new Error('aborted'));
  };
  await assert.rejects(runPreUpgradeHealthCheck(d, { ...gateOn, signal: ac.signal }), /aborted|stopping/);
});

test('post-upgrade: critical alerts then ClusterOperators, first failure stops', async () => {
  const calls: string[] = [];
  const ok = await runPostUpgradeHealthCheck(deps(healthyWorld(), calls));
  assert.deepEqual(ok, {
    healthy: true,
    blocking: false,
    failures: [],
    checked: ['critical-alerts', 'cluster-operators'],
  });
  assert.deepEqual(calls, ['alerts', 'operators']);
  const bad = await runPostUpgradeHealthCheck(deps({ ...healthyWorld(), alerts: new Error('down') }));
  assert.deepEqual(bad.checked, ['critical-alerts']);
  assert.equal(bad.blocking, true);
  assert.equal(summary(bad), '1 health check failing: unable to query critical alerts: down');
});

test('summary: several failures joined by "; "; no checks', () => {
  const result: HealthCheckResult = {
    healthy: false,
    blocking: true,
    checked: ['critical-alerts', 'cluster-operators'],
    failures: [
      {
        check: 'critical-alerts',
        metricReason: 'critical_alerts_firing',
        muoText: 'CriticalAlertsHealthcheckFailed',
        message: 'critical alert(s) firing: KubeAPIDown',
        blocking: true,
      },
      {
        check: 'cluster-operators',
        metricReason: 'cluster_operators_degraded',
        muoText: 'ClusterOperatorsHealthcheckFailed',
        message: 'cluster operators degraded: dns',
        blocking: true,
      },
    ],
  };
  assert.equal(
    summary(result),
    '2 health checks failing: critical alert(s) firing: KubeAPIDown; cluster operators degraded: dns',
  );
  assert.equal(muoFailureList(result), 'CriticalAlertsHealthcheckFailed,ClusterOperatorsHealthcheckFailed');
  assert.equal(summary({ healthy: true, blocking: false, checked: [], failures: [] }), 'no health checks ran');
  assert.equal(
    summary({ healthy: true, blocking: false, checked: ['critical-alerts'], failures: [] }),
    '1 health check passed: critical-alerts',
  );
});
