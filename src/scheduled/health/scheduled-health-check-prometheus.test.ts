/**
 * The critical-alert and custom-query paths against the real Prometheus binary (started on
 * loopback with a rules file), so the query and the label handling are Prometheus' own.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import { NO_PROXY_CONFIG } from '../../integrations/http/proxy-env.js';
import { PrometheusClient } from '../../integrations/prometheus-client.js';
import {
  startRealPrometheus,
  waitUntil,
  type RealServer,
} from '../../integrations/test-support/monitoring.test-support.js';
import { ManualClock } from '../../lib/clock.js';
import { CRITICAL_ALERTS_QUERY } from './scheduled-checks.js';
import { runScheduledHealthCheck } from './scheduled-health-check.js';

const RULES = `groups:
  - name: test
    interval: 1s
    rules:
      - alert: KubePodCrashLooping
        expr: vector(1)
        labels: {severity: critical, namespace: openshift-console}
      - alert: ArgoCDDown
        expr: vector(1)
        labels: {severity: critical, namespace: syn}
      - alert: ClusterWide
        expr: vector(1)
        labels: {severity: critical}
      - alert: JustAWarning
        expr: vector(1)
        labels: {severity: warning, namespace: syn}
`;

const CV: ClusterVersion = {
  apiVersion: 'config.openshift.io/v1',
  kind: 'ClusterVersion',
  metadata: { name: 'version' },
  spec: { clusterID: 'c' },
  status: {
    desired: { version: '4.14.1', image: 'i' },
    observedGeneration: 1,
    versionHash: 'h',
    availableUpdates: null,
    conditions: [],
  },
};

let server: RealServer | undefined;
let prometheus: PrometheusClient | undefined;

before(async () => {
  server = await startRealPrometheus({ rules: RULES });
  prometheus = new PrometheusClient({ url: server.url, proxy: NO_PROXY_CONFIG });
  const p = prometheus;
  // Start-up only: wait (real time) until the first rule evaluation has made the alerts fire.
  await waitUntil(
    'the test alerts firing in Prometheus',
    async () => (await p.query(CRITICAL_ALERTS_QUERY)).length === 3,
  );
});

after(async () => {
  await prometheus?.close();
  await server?.close();
});

test('real Prometheus: firing critical alerts, their exclusions, and custom queries', async () => {
  assert.ok(prometheus);
  const input = { clusterVersion: CV, prometheus };
  const clock = new ManualClock();
  const all = await runScheduledHealthCheck(input, { clock, checkCriticalAlerts: true });
  assert.deepEqual(all.reasons, [
    {
      check: 'critical-alerts',
      message:
        'critical alerts firing: ArgoCDDown (namespace syn), ClusterWide, KubePodCrashLooping (namespace openshift-console)',
    },
  ]);
  const excluded = await runScheduledHealthCheck(input, {
    clock,
    checkCriticalAlerts: true,
    excludeAlerts: [{ alertname: 'ClusterWide' }],
    excludeNamespaces: ['openshift-console', 'syn'],
  });
  assert.equal(excluded.healthy, true);

  const custom = await runScheduledHealthCheck(input, {
    clock,
    customQueries: [{ query: 'count(ALERTS{severity="warning"}) > 0' }, { query: 'vector(1) > 2' }],
  });
  assert.deepEqual(custom.reasons, [
    {
      check: 'custom-query',
      message: 'custom query "count(ALERTS{severity=\\"warning\\"}) > 0" returned 1 series: {} 1',
    },
  ]);

  // A query Prometheus rejects is unhealthy with Prometheus' error, not an empty (healthy) answer.
  const broken = await runScheduledHealthCheck(input, { clock, customQueries: [{ query: 'sum(' }] });
  assert.equal(broken.healthy, false);
  assert.match(
    broken.reasons[0]?.message ?? '',
    /^custom query "sum\(" failed: Prometheus query failed \((HttpStatus|BadResponse)\): prometheus: .*parse error/,
  );
});
