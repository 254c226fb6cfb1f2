import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../../lib/clock.js';
import { IntegrationError } from '../../integrations/integration-error.js';
import { NO_PROXY_CONFIG } from '../../integrations/http/proxy-env.js';
import { PrometheusClient } from '../../integrations/prometheus-client.js';
import type { InstantQueryOptions, PrometheusApi, PromSample } from '../../integrations/prometheus-api.js';
import { startPrometheusServer } from '../../sim/monitoring/prometheus-server.js';
import { RuleEvaluator } from '../../sim/monitoring/rules.js';
import { Tsdb } from '../../sim/monitoring/tsdb.js';
import { checkCriticalAlerts, criticalAlertsQuery, evaluateCriticalAlerts } from './critical-alerts.js';

const T0 = Date.UTC(2024, 2, 20, 8, 0, 0);

test('criticalAlertsQuery: MUO exact text, with and without ignore lists', () => {
  assert.equal(
    criticalAlertsQuery(),
    'ALERTS{alertstate="firing",severity="critical",namespace=~"^openshift.*|^kube-.*|^default$"}',
  );
  assert.equal(
    criticalAlertsQuery(['openshift-customer-monitoring', 'openshift-logging'], ['KubeAPIDown', 'Watchdog']),
    'ALERTS{alertstate="firing",severity="critical",namespace=~"^openshift.*|^kube-.*|^default$"' +
      ',namespace!="openshift-customer-monitoring",namespace!="openshift-logging",alertname!="KubeAPIDown",alertname!="Watchdog"}',
  );
  // A quote cannot break out of the string literal.
  assert.equal(
    criticalAlertsQuery([], ['a"b\\c']),
    'ALERTS{alertstate="firing",severity="critical",namespace=~"^openshift.*|^kube-.*|^default$",alertname!="a\\"b\\\\c"}',
  );
});

function sample(alertname: string, namespace = 'openshift-monitoring'): PromSample {
  return {
    metric: { __name__: 'ALERTS', alertname, alertstate: 'firing', severity: 'critical', namespace },
    value: 1,
    timestamp: T0,
  };
}

test('evaluateCriticalAlerts: no sample passes; names are unique and sorted', () => {
  assert.deepEqual(evaluateCriticalAlerts([]), { check: 'critical-alerts', healthy: true });
  const r = evaluateCriticalAlerts([
    sample('KubeAPIDown'),
    sample('EtcdNoLeader', 'openshift-etcd'),
    sample('KubeAPIDown', 'default'),
  ]);
  assert.equal(r.healthy, false);
  assert.ok(!r.healthy);
  assert.deepEqual(r.failure, {
    check: 'critical-alerts',
    metricReason: 'critical_alerts_firing',
    muoText: 'CriticalAlertsHealthcheckFailed',
    message: 'critical alert(s) firing: EtcdNoLeader, KubeAPIDown',
    blocking: true,
  });
});

test('checkCriticalAlerts: passes the query, time and signal; a rejected query fails closed', async () => {
  const calls: { promql: string; options: InstantQueryOptions | undefined }[] = [];
  const ok: PrometheusApi = {
    query: (promql, options) => {
      calls.push({ promql, options });
      return Promise.resolve([]);
    },
  };
  const signal = new AbortController().signal;
  assert.equal((await checkCriticalAlerts(ok, { ignoredAlerts: ['X'], time: T0, signal })).healthy, true);
  assert.deepEqual(calls, [{ promql: criticalAlertsQuery([], ['X']), options: { time: T0, signal } }]);

  const broken: PrometheusApi = {
    query: () =>
      Promise.reject(
        new IntegrationError('prometheus', 'HttpStatus', 'HTTP 503: Service Unavailable', { status: 503 }),
      ),
  };
  const r = await checkCriticalAlerts(broken);
  assert.ok(!r.healthy);
  assert.equal(r.failure.metricReason, 'healthcheck_query_failed');
  assert.equal(r.failure.muoText, 'CriticalAlertsHealthcheckFailed');
  assert.equal(r.failure.message, 'unable to query critical alerts: prometheus: HTTP 503: Service Unavailable');
  assert.equal(r.failure.blocking, true);
});

test('checkCriticalAlerts: an aborted signal rejects instead of reporting a failure', async () => {
  const ac = new AbortController();
  const api: PrometheusApi = {
    query: () => {
      ac.abort(new Error('shutting down'));
      return Promise.reject(new IntegrationError('prometheus', 'Aborted', 'aborted'));
    },
  };
  await assert.rejects(checkCriticalAlerts(api, { signal: ac.signal }), /aborted/);
});

test('checkCriticalAlerts against the simulated Prometheus: firing criticals in platform namespaces only; server down fails closed', async () => {
  const clock = new ManualClock(T0);
  const tsdb = new Tsdb();
  const rule = (
    name: string,
    namespace: string,
    severity = 'critical',
  ): { name: string; expr: string; labels: Record<string, string> } => ({
    name,
    expr: 'vector(1)',
    labels: { severity, namespace },
  });
  const rules = new RuleEvaluator({
    tsdb,
    clock,
    groups: [
      {
        name: 'g',
        file: '/etc/prometheus/rules/test.yaml',
        rules: [
          rule('KubeAPIDown', 'openshift-kube-apiserver'),
          rule('KubeAPIDown', 'default'),
          rule('EtcdMembersDown', 'openshift-etcd'),
          rule('KubeletDown', 'kube-system'),
          rule('AppDown', 'my-app'), // not a platform namespace
          rule('ClusterOperatorDown', 'openshift-cluster-version', 'warning'), // not critical
          rule('LoggingDown', 'openshift-logging'), // namespace ignored below
          {
            name: 'SlowToFire',
            expr: 'vector(1)',
            labels: { severity: 'critical', namespace: 'openshift-dns' },
            for: '10m',
          } as const, // pending
        ],
      },
    ],
  });
  rules.evaluate(T0);
  const server = await startPrometheusServer({ tsdb, rules, clock });
  const prometheus = new PrometheusClient({ url: server.url, proxy: NO_PROXY_CONFIG, timeoutMs: 5_000 });
  try {
    const r = await checkCriticalAlerts(prometheus, {
      ignoredNamespaces: ['openshift-logging'],
      ignoredAlerts: ['KubeletDown'],
    });
    assert.ok(!r.healthy);
    assert.equal(r.failure.metricReason, 'critical_alerts_firing');
    assert.equal(r.failure.message, 'critical alert(s) firing: EtcdMembersDown, KubeAPIDown');

    const all = await checkCriticalAlerts(prometheus);
    assert.ok(!all.healthy);
    assert.equal(
      all.failure.message,
      'critical alert(s) firing: EtcdMembersDown, KubeAPIDown, KubeletDown, LoggingDown',
    );

    const quiet = await checkCriticalAlerts(prometheus, {
      ignoredNamespaces: ['openshift-logging', 'kube-system'],
      ignoredAlerts: ['KubeAPIDown', 'EtcdMembersDown'],
    });
    assert.deepEqual(quiet, { check: 'critical-alerts', healthy: true });

    server.setFault({ mode: '5xx' });
    const unavailable = await checkCriticalAlerts(prometheus);
    assert.ok(!unavailable.healthy);
    assert.equal(unavailable.failure.metricReason, 'healthcheck_query_failed');
    assert.match(unavailable.failure.message, /^unable to query critical alerts: prometheus: .*503/);
    server.setFault({ mode: 'none' });
  } finally {
    await server.close();
  }
  // The server is gone: connection refused is a failure, never "no alerts".
  const down = await checkCriticalAlerts(prometheus);
  await prometheus.close();
  assert.ok(!down.healthy);
  assert.equal(down.failure.metricReason, 'healthcheck_query_failed');
  assert.equal(down.failure.blocking, true);
  assert.match(down.failure.message, /^unable to query critical alerts: prometheus: /);
});
