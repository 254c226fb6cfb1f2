/**
 * The scheduled flow's health check against the simulated cluster: the ClusterVersion and
 * ClusterOperators read through the Kubernetes API (embedded API server), alerts and custom
 * queries through the Prometheus HTTP API of the simulated monitoring, the timeout on the
 * cluster's virtual clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterOperatorResource } from '../../api/openshift/config-v1/cluster-operator.js';
import { CLUSTER_VERSION_NAME, ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { NO_PROXY_CONFIG } from '../../integrations/http/proxy-env.js';
import { PrometheusClient } from '../../integrations/prometheus-client.js';
import { createSimulatedCluster } from '../../sim/cluster.js';
import { startTestCluster } from '../../sim/test-support/cluster.test-support.js';
import type { ScheduledHealthCheckInput, ScheduledHealthCheckSettings } from './scheduled-health-check.js';
import { runScheduledHealthCheck } from './scheduled-health-check.js';

/** A custom query: ClusterOperators reported down, by name. */
const CONSOLE_DOWN = 'max by (name) (cluster_operator_up{name!="version"} == 0)';

test('scheduled health check on the simulated cluster: healthy, an unavailable operator, exclusions, Prometheus down and slow', async (t) => {
  const cluster = await startTestCluster(t);
  const sim = createSimulatedCluster(cluster.ctx, { profile: 'ha-cloud' });
  t.after(() => sim.close());
  await sim.start(cluster.signal);
  const advance = async (ms: number): Promise<void> => {
    const until = cluster.clock.now() + ms;
    await cluster.clock.run({ until: () => cluster.clock.now() >= until, signal: cluster.signal });
  };
  await advance(5 * 60_000);

  const url = sim.components.monitoring.prometheusUrl;
  assert.ok(url !== undefined);
  const prometheus = new PrometheusClient({ url, proxy: NO_PROXY_CONFIG, timeoutMs: 10_000 });
  t.after(() => prometheus.close());
  const client = cluster.client;
  const read = async (): Promise<ScheduledHealthCheckInput> => ({
    clusterVersion: await client.get(ClusterVersionResource, undefined, CLUSTER_VERSION_NAME),
    clusterOperators: (await client.list(ClusterOperatorResource)).items,
    prometheus,
  });
  const settings: ScheduledHealthCheckSettings = {
    timeout: '30m',
    checkCriticalAlerts: true,
    checkDegradedOperators: true,
    customQueries: [{ query: CONSOLE_DOWN }],
  };
  const clock = cluster.clock;

  const healthy = await runScheduledHealthCheck(await read(), { ...settings, clock });
  assert.deepEqual(healthy, { healthy: true, reasons: [], message: 'Health checks ok' });

  sim.components.operators.makeUnavailable('console');
  await advance(12 * 60_000);
  const down = await runScheduledHealthCheck(await read(), { ...settings, clock });
  assert.deepEqual(down.reasons, [
    // What ships reads only Degraded, which the CVO does not set; Failing is what it sets.
    {
      check: 'cluster-version',
      message:
        'ClusterVersion "version": Failing=True (ClusterOperatorNotAvailable: Cluster operator console is not available)',
    },
    {
      check: 'degraded-operators',
      message:
        'cluster operators degraded: console: Available=False (OperandUnavailable: The console operand is not available)',
    },
    {
      check: 'critical-alerts',
      message: 'critical alerts firing: ClusterOperatorDown (namespace openshift-cluster-version)',
    },
    {
      check: 'custom-query',
      message: `custom query ${JSON.stringify(CONSOLE_DOWN)} returned 1 series: {name="console"} 0`,
    },
  ]);

  // Every check's exclusion (the custom query has none: it is the user's own).
  const excluded = await runScheduledHealthCheck(await read(), {
    ...settings,
    clock,
    skipDegradedOperatorsCheck: true,
    excludeOperators: ['console'],
    excludeNamespaces: ['openshift-cluster-version'],
    customQueries: [],
  });
  assert.deepEqual(excluded, { healthy: true, reasons: [], message: 'Health checks ok' });
  const byName = await runScheduledHealthCheck(await read(), {
    clock,
    checkCriticalAlerts: true,
    skipDegradedOperatorsCheck: true,
    excludeAlerts: [{ alertname: 'ClusterOperatorDown' }],
  });
  assert.equal(byName.healthy, true);

  // Prometheus down: unhealthy, with the reason, for every query.
  sim.components.monitoring.setPrometheusFault({ mode: 'down' });
  const blind = await runScheduledHealthCheck(await read(), {
    ...settings,
    clock,
    skipDegradedOperatorsCheck: true,
    excludeOperators: ['console'],
  });
  assert.equal(blind.healthy, false);
  assert.deepEqual(
    blind.reasons.map((r) => r.check),
    ['critical-alerts', 'custom-query'],
  );
  const reset = `Prometheus query failed (Unreachable): prometheus: GET ${url}/api/v1/query: connection reset by the server`;
  assert.deepEqual(
    blind.reasons.map((r) => r.message),
    [`cannot check critical alerts: ${reset}`, `custom query ${JSON.stringify(CONSOLE_DOWN)} failed: ${reset}`],
  );

  // Prometheus slow: the timeout on the virtual clock ends the run.
  sim.components.monitoring.setPrometheusFault({ mode: 'slow', delayMs: 10 * 60_000 });
  const start = clock.now();
  let settled = false;
  const slow = runScheduledHealthCheck(await read(), {
    ...settings,
    clock,
    timeout: '1m',
    skipDegradedOperatorsCheck: true,
    excludeOperators: ['console'],
  }).finally(() => {
    settled = true;
  });
  await clock.run({ until: () => settled, signal: cluster.signal });
  assert.equal(clock.now() - start, 60_000);
  assert.deepEqual((await slow).reasons, [
    {
      check: 'timeout',
      message: `Health checks timed out after 1m0s (no answer from: critical-alerts, custom query ${JSON.stringify(CONSOLE_DOWN)})`,
    },
  ]);
  sim.components.monitoring.setPrometheusFault({ mode: 'none' });
});
