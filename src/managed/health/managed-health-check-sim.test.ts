/**
 * The pre-upgrade health check against the simulated cluster: the reads go through the
 * Kubernetes API (embedded API server) and the Prometheus HTTP API, as the operator wires them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeResource, PodDisruptionBudgetResource } from '../../api/builtin.js';
import { ClusterOperatorResource } from '../../api/openshift/config-v1/cluster-operator.js';
import { MachineSetResource } from '../../api/openshift/machine-v1beta1/machine-set.js';
import { NO_PROXY_CONFIG } from '../../integrations/http/proxy-env.js';
import { PrometheusClient } from '../../integrations/prometheus-client.js';
import { createSimulatedCluster } from '../../sim/cluster.js';
import { startTestCluster } from '../../sim/test-support/cluster.test-support.js';
import { MACHINE_API_NAMESPACE } from '../../api/openshift/machine-v1beta1/machine.js';
import type { HealthCheckDeps } from './managed-health-check.js';
import { runPreUpgradeHealthCheck, summary } from './managed-health-check.js';

test('pre-upgrade health check on the simulated cluster: healthy, then a cordoned worker, then Prometheus down', async (t) => {
  const cluster = await startTestCluster(t);
  const sim = createSimulatedCluster(cluster.ctx, { profile: 'ha-cloud' });
  t.after(() => sim.close());
  await sim.start(cluster.signal);
  // Let the operators settle and the rules evaluate a few times.
  const settled = cluster.clock.now() + 5 * 60_000;
  await cluster.clock.run({ until: () => cluster.clock.now() >= settled, signal: cluster.signal });

  const url = sim.components.monitoring.prometheusUrl;
  assert.ok(url !== undefined);
  const prometheus = new PrometheusClient({ url, proxy: NO_PROXY_CONFIG, timeoutMs: 10_000 });
  t.after(() => prometheus.close());
  const client = cluster.client;
  const deps: HealthCheckDeps = {
    prometheus,
    listClusterOperators: async (signal) => (await client.list(ClusterOperatorResource, { signal })).items,
    listNodes: async (signal) => (await client.list(NodeResource, { signal })).items,
    listPodDisruptionBudgets: async (signal) => (await client.list(PodDisruptionBudgetResource, { signal })).items,
    listWorkerMachineSets: async (signal) =>
      (
        await client.list(MachineSetResource, {
          namespace: MACHINE_API_NAMESPACE,
          labelSelector: 'hive.openshift.io/machine-pool=worker',
          signal,
        })
      ).items,
    dvo: 'not-installed',
  };
  const options = { preHealthCheck: true, capacityReservation: false };

  const healthy = await runPreUpgradeHealthCheck(deps, options);
  assert.equal(
    summary(healthy),
    'all 5 health checks passed: critical-alerts, cluster-operators, cordoned-nodes, node-pressure, pod-disruption-budgets',
  );
  assert.equal(healthy.healthy, true);

  const workers = (
    await client.list(NodeResource, { labelSelector: 'node-role.kubernetes.io/worker,!node-role.kubernetes.io/infra' })
  ).items;
  const worker = workers.map((n) => n.metadata?.name ?? '').sort()[0];
  assert.ok(worker);
  await client.patch(
    NodeResource,
    undefined,
    worker,
    { spec: { unschedulable: true, taints: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }] } },
    { type: 'merge' },
  );
  const cordoned = await runPreUpgradeHealthCheck(deps, options);
  assert.equal(cordoned.healthy, false);
  assert.equal(cordoned.blocking, false);
  assert.deepEqual(
    cordoned.failures.map((f) => f.muoText),
    [`NodeUnschedulableHealthcheckFailed:(${worker})`],
  );

  sim.components.monitoring.setPrometheusFault({ mode: 'down' });
  const blind = await runPreUpgradeHealthCheck(deps, { ...options, preHealthCheck: false });
  assert.equal(blind.healthy, false);
  assert.equal(blind.blocking, true);
  assert.deepEqual(blind.checked, ['critical-alerts']);
  assert.equal(blind.failures[0]?.metricReason, 'healthcheck_query_failed');
});
