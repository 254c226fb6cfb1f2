import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MachineSet } from '../../api/openshift/machine-v1beta1/machine-set.js';
import { criticalAlertsQuery } from '../health/critical-alerts.js';
import { clusterOperator, workerNode } from '../health/health-fixtures.test-support.js';
import {
  CONFIG_NAME,
  CURRENT,
  DESIRED,
  NEVER,
  T0,
  clusterVersion,
  commencedCluster,
  fakeStepContext,
  firingAlert,
  unreachable,
  type FakeStepContext,
  type FakeStepContextOptions,
} from './step-context.test-support.js';
import {
  healthDeps,
  postUpgradeHealthCheckStep,
  preUpgradeHealthCheck,
  preUpgradeHealthCheckStep,
  recordHealthMetrics,
} from './health-check-steps.js';

const GATE_ON = 'featureGate:\n  enabled:\n    - PreHealthCheck\n';
const HEALTH_WAIT = { kinds: ['ClusterOperator', 'Node', 'PodDisruptionBudget'], until: T0 + 60_000 };
const PROMETHEUS_DOWN = unreachable('prometheus');

/** Why the DNS operator is degraded in these tests. */
const DNS_DEGRADED = { reason: 'DNSDegraded', message: 'DNS default is degraded' };

function machineSet(name: string, namespace: string, pool?: string): MachineSet {
  return {
    metadata: { name, namespace, labels: pool === undefined ? {} : { 'hive.openshift.io/machine-pool': pool } },
    spec: { selector: {} },
  };
}

/** A healthy cluster; `extra` replaces parts of it. */
function healthy(extra: FakeStepContextOptions = {}): FakeStepContext {
  return fakeStepContext({
    ...extra,
    cluster: {
      clusterOperators: [clusterOperator('dns'), clusterOperator('etcd')],
      nodes: [workerNode('worker-1'), workerNode('worker-2')],
      machineSets: [machineSet('worker-a', 'openshift-machine-api', 'worker')],
      ...extra.cluster,
    },
  });
}

/** `upgradeoperator_healthcheck_failed` as `reason state version = value` lines, sorted. */
async function healthMetrics(fake: FakeStepContext): Promise<string[]> {
  return (await fake.series('upgradeoperator_healthcheck_failed'))
    .map(({ labels, value }) => {
      assert.equal(labels['upgradeconfig_name'], CONFIG_NAME);
      return `${labels['reason'] ?? ''} ${labels['state'] ?? ''} ${labels['version'] ?? ''} = ${value}`;
    })
    .sort();
}

void test('healthDeps: the reads come from the caches; worker MachineSets are those of openshift-machine-api in the worker pool', async () => {
  const fake = healthy({
    cluster: {
      machineSets: [
        machineSet('worker-a', 'openshift-machine-api', 'worker'),
        machineSet('infra-a', 'openshift-machine-api', 'infra'),
        machineSet('worker-elsewhere', 'default', 'worker'),
        machineSet('unlabelled', 'openshift-machine-api'),
        machineSet('worker-b', 'openshift-machine-api', 'worker'),
      ],
      podDisruptionBudgets: [{ metadata: { name: 'web', namespace: 'shop' }, spec: { maxUnavailable: 1 } }],
    },
  });
  const deps = healthDeps(fake.ctx);
  assert.deepEqual(
    (await deps.listWorkerMachineSets()).map((ms) => ms.metadata?.name),
    ['worker-a', 'worker-b'],
  );
  assert.equal(await deps.listNodes(), fake.cluster.nodes);
  assert.equal(await deps.listClusterOperators(), fake.cluster.clusterOperators);
  assert.equal(await deps.listPodDisruptionBudgets(), fake.cluster.podDisruptionBudgets);
  assert.equal(deps.prometheus, fake.prometheus);
  assert.equal(deps.dvo, fake.dvo.source);
});

void test('recordHealthMetrics: failures at 1, the other reasons of the checks that ran at 0, labelled with phase and current version', async () => {
  const fake = healthy();
  recordHealthMetrics(
    fake.ctx,
    {
      healthy: false,
      blocking: true,
      checked: ['critical-alerts', 'cluster-operators'],
      failures: [
        {
          check: 'cluster-operators',
          metricReason: 'cluster_operators_degraded',
          muoText: 'ClusterOperatorsHealthcheckFailed',
          message: 'cluster operators degraded: dns',
          blocking: true,
        },
      ],
    },
    'New',
  );
  assert.deepEqual(await healthMetrics(fake), [
    `cluster_operator_status_failed New ${CURRENT} = 0`,
    `cluster_operators_degraded New ${CURRENT} = 1`,
    `critical_alerts_firing New ${CURRENT} = 0`,
    `healthcheck_query_failed New ${CURRENT} = 0`,
  ]);
});

void test('recordHealthMetrics: without a cached ClusterVersion the version label is `unknown`', async () => {
  const fake = healthy({ cluster: { clusterVersion: undefined } });
  recordHealthMetrics(fake.ctx, { healthy: true, blocking: false, checked: ['critical-alerts'], failures: [] }, 'New');
  assert.deepEqual(await healthMetrics(fake), [
    'critical_alerts_firing New unknown = 0',
    'healthcheck_query_failed New unknown = 0',
  ]);
});

void test('preUpgradeHealthCheck: the phase given labels the metrics; the configured ignores shape the alert query', async () => {
  const fake = healthy({
    operatorConfig:
      'healthCheck:\n  ignoredNamespaces:\n    - openshift-logging\n  ignoredCriticals:\n    - KubeletDown\n',
  });
  const result = await preUpgradeHealthCheck(fake.ctx, 'New', NEVER);
  assert.deepEqual([result.healthy, result.checked], [true, ['critical-alerts', 'cluster-operators']]);
  assert.deepEqual(fake.prometheus.queries, [criticalAlertsQuery(['openshift-logging'], ['KubeletDown'])]);
  assert.ok((await healthMetrics(fake)).every((line) => line.includes(' New ')));
});

void test('PreUpgradeHealthCheck, gate off: healthy is done, the two checks’ reasons at 0; nothing sent', async () => {
  const fake = healthy();
  assert.deepEqual(await preUpgradeHealthCheckStep.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(await healthMetrics(fake), [
    `cluster_operator_status_failed Upgrading ${CURRENT} = 0`,
    `cluster_operators_degraded Upgrading ${CURRENT} = 0`,
    `critical_alerts_firing Upgrading ${CURRENT} = 0`,
    `healthcheck_query_failed Upgrading ${CURRENT} = 0`,
  ]);
  assert.deepEqual([fake.notifier.calls, fake.events, fake.dvo.calls], [[], [], 0]);
});

void test('PreUpgradeHealthCheck, gate off: a firing critical alert fails the step with its message, retried in a minute', async () => {
  const fake = healthy({
    alerts: [firingAlert('KubeAPIDown')],
    cluster: { clusterOperators: [clusterOperator('dns', DNS_DEGRADED)] },
  });
  assert.deepEqual(await preUpgradeHealthCheckStep.run(fake.ctx, NEVER), {
    status: 'failed',
    error: 'critical alert(s) firing: KubeAPIDown',
    reason: 'HealthCheckFailed',
    waitFor: HEALTH_WAIT,
  });
  assert.deepEqual(
    await healthMetrics(fake),
    [`critical_alerts_firing Upgrading ${CURRENT} = 1`, `healthcheck_query_failed Upgrading ${CURRENT} = 0`],
    'the first failure stops: ClusterOperators were not judged',
  );
  assert.deepEqual(fake.notifier.calls, []);
});

void test('PreUpgradeHealthCheck, gate off: Prometheus unreachable is a failure, never healthy', async () => {
  const fake = healthy();
  fake.prometheus.failWith(PROMETHEUS_DOWN);
  assert.deepEqual(await preUpgradeHealthCheckStep.run(fake.ctx, NEVER), {
    status: 'failed',
    error: 'unable to query critical alerts: prometheus: connect ECONNREFUSED 127.0.0.1:9090',
    reason: 'HealthCheckFailed',
    waitFor: HEALTH_WAIT,
  });
  assert.deepEqual(await healthMetrics(fake), [
    `critical_alerts_firing Upgrading ${CURRENT} = 0`,
    `healthcheck_query_failed Upgrading ${CURRENT} = 1`,
  ]);
});

void test('PreUpgradeHealthCheck, gate off: a degraded ClusterOperator fails with the operator named', async () => {
  const fake = healthy({
    cluster: { clusterOperators: [clusterOperator('etcd'), clusterOperator('dns', DNS_DEGRADED)] },
  });
  const outcome = await preUpgradeHealthCheckStep.run(fake.ctx, NEVER);
  assert.deepEqual(outcome, {
    status: 'failed',
    error: 'cluster operators degraded: dns: Degraded=True (DNSDegraded: DNS default is degraded)',
    reason: 'HealthCheckFailed',
    waitFor: HEALTH_WAIT,
  });
});

void test('PreUpgradeHealthCheck, gate on: a blocking failure waits, sending every failure in MUO’s list', async () => {
  const fake = healthy({
    operatorConfig: GATE_ON,
    cluster: {
      clusterOperators: [clusterOperator('dns', DNS_DEGRADED)],
      nodes: [workerNode('worker-1', true), workerNode('worker-2')],
    },
  });
  const want = {
    status: 'pending',
    waitFor: HEALTH_WAIT,
    why: '2 health checks failing: cluster operators degraded: dns: Degraded=True (DNSDegraded: DNS default is degraded); manually cordoned worker nodes: worker-1',
    reason: 'HealthCheckFailed',
    attention: true,
  };
  assert.deepEqual(await preUpgradeHealthCheckStep.run(fake.ctx, NEVER), want);
  assert.deepEqual(fake.notifier.calls, [
    {
      state: 'StateHealthCheckSL',
      detail: 'ClusterOperatorsHealthcheckFailed,NodeUnschedulableHealthcheckFailed:(worker-1)',
    },
  ]);
  assert.deepEqual(fake.events, []);
  assert.deepEqual(await preUpgradeHealthCheckStep.run(fake.ctx, NEVER), want, 'run twice: the same wait');
  assert.deepEqual(fake.notifier.sent, ['StateHealthCheckSL'], 'and the service log goes out once');
});

void test('PreUpgradeHealthCheck, gate on: only non-blocking failures let the upgrade go on, with a Warning Event', async () => {
  const fake = healthy({ operatorConfig: GATE_ON, cluster: { nodes: [workerNode('worker-1', true)] } });
  assert.deepEqual(await preUpgradeHealthCheckStep.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.notifier.calls, [
    { state: 'StateHealthCheckSL', detail: 'NodeUnschedulableHealthcheckFailed:(worker-1)' },
  ]);
  assert.deepEqual(fake.events, [
    {
      type: 'Warning',
      reason: 'HealthCheckWarning',
      message: 'continuing the upgrade despite: 1 health check failing: manually cordoned worker nodes: worker-1',
    },
  ]);
  assert.ok((await healthMetrics(fake)).includes(`cluster_node_manually_cordoned Upgrading ${CURRENT} = 1`));
});

void test('PreUpgradeHealthCheck, gate on: healthy runs every check (capacity with reservation, DVO when installed), all at 0', async () => {
  const fake = healthy({ operatorConfig: GATE_ON, spec: { capacityReservation: true } });
  assert.deepEqual(await preUpgradeHealthCheckStep.run(fake.ctx, NEVER), { status: 'done' });
  assert.equal(fake.dvo.calls, 1);
  assert.deepEqual(
    (await healthMetrics(fake)).map((line) => line.split(' ')[0]),
    [
      'cluster_invalid_pdb',
      'cluster_invalid_pdb_configuration',
      'cluster_node_manually_cordoned',
      'cluster_node_query_failed',
      'cluster_node_taint_unschedulable',
      'cluster_operator_status_failed',
      'cluster_operators_degraded',
      'critical_alerts_firing',
      'default_worker_machinepool_not_found',
      'dvo_client_creation_failed',
      'dvo_metrics_query_failed',
      'healthcheck_query_failed',
      'pdb_query_failed',
    ],
  );
  assert.ok((await healthMetrics(fake)).every((line) => line.endsWith(' = 0')));
  assert.deepEqual([fake.notifier.calls, fake.events], [[], []]);
});

void test('PreUpgradeHealthCheck, gate on: reservation without a worker MachineSet in openshift-machine-api warns; DVO not installed is skipped', async () => {
  const fake = healthy({
    operatorConfig: GATE_ON,
    spec: { capacityReservation: true },
    dvo: { installed: false },
    cluster: { machineSets: [machineSet('worker-elsewhere', 'default', 'worker')] },
  });
  assert.deepEqual(await preUpgradeHealthCheckStep.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.notifier.calls, [
    { state: 'StateHealthCheckSL', detail: 'CapacityReservationHealthcheckFailed' },
  ]);
  assert.equal(fake.events[0]?.reason, 'HealthCheckWarning');
  const metrics = await healthMetrics(fake);
  assert.ok(metrics.includes(`default_worker_machinepool_not_found Upgrading ${CURRENT} = 1`));
  assert.ok(!metrics.some((line) => line.startsWith('dvo_')), 'the DVO check did not run');
});

void test('PreUpgradeHealthCheck: once commenced, done without a check, a query or a metric', async () => {
  const fake = healthy({
    alerts: [firingAlert('KubeAPIDown')],
    cluster: commencedCluster(),
  });
  assert.deepEqual(await preUpgradeHealthCheckStep.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual([fake.prometheus.queries, await healthMetrics(fake)], [[], []]);
});

/** The cluster after the control plane upgraded: the CVO commanded and running the target. */
const upgraded = { clusterVersion: clusterVersion({ current: DESIRED, desiredUpdate: { version: DESIRED } }) };

void test('PostUpgradeHealthCheck: healthy is done and clears the node drain timeouts', async () => {
  const fake = healthy({ cluster: upgraded });
  fake.metrics.setNodeDrainTimeout('worker-1', true);
  assert.deepEqual(await postUpgradeHealthCheckStep.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(await fake.series('upgradeoperator_node_drain_timeout'), []);
  assert.deepEqual(await healthMetrics(fake), [
    `cluster_operator_status_failed Upgrading ${DESIRED} = 0`,
    `cluster_operators_degraded Upgrading ${DESIRED} = 0`,
    `critical_alerts_firing Upgrading ${DESIRED} = 0`,
    `healthcheck_query_failed Upgrading ${DESIRED} = 0`,
  ]);
});

void test('PostUpgradeHealthCheck: runs though commenced; a failure fails the step, retried in a minute, drain timeouts kept', async () => {
  const fake = healthy({ cluster: { ...upgraded, clusterOperators: [clusterOperator('dns', DNS_DEGRADED)] } });
  fake.metrics.setNodeDrainTimeout('worker-1', true);
  assert.deepEqual(await postUpgradeHealthCheckStep.run(fake.ctx, NEVER), {
    status: 'failed',
    error: 'cluster operators degraded: dns: Degraded=True (DNSDegraded: DNS default is degraded)',
    reason: 'HealthCheckFailed',
    waitFor: HEALTH_WAIT,
  });
  assert.equal(fake.prometheus.queries.length, 1);
  assert.equal((await fake.series('upgradeoperator_node_drain_timeout')).length, 1);
  assert.ok((await healthMetrics(fake)).includes(`cluster_operators_degraded Upgrading ${DESIRED} = 1`));
});

void test('PostUpgradeHealthCheck: alerts and ClusterOperators only, whatever the gate (a cordoned node does not count)', async () => {
  const fake = healthy({ operatorConfig: GATE_ON, cluster: { ...upgraded, nodes: [workerNode('worker-1', true)] } });
  assert.deepEqual(await postUpgradeHealthCheckStep.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual([fake.notifier.calls, fake.events, fake.dvo.calls], [[], [], 0]);
});

void test('PostUpgradeHealthCheck: Prometheus unreachable fails the step', async () => {
  const fake = healthy({ cluster: upgraded });
  fake.prometheus.failWith(PROMETHEUS_DOWN);
  const outcome = await postUpgradeHealthCheckStep.run(fake.ctx, NEVER);
  assert.deepEqual(outcome, {
    status: 'failed',
    error: 'unable to query critical alerts: prometheus: connect ECONNREFUSED 127.0.0.1:9090',
    reason: 'HealthCheckFailed',
    waitFor: HEALTH_WAIT,
  });
});
