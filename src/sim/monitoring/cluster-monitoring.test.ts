import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Node } from 'kubernetes-types/core/v1.js';
import { NodeResource } from '../../api/builtin.js';
import { ClusterOperatorResource } from '../../api/openshift/config-v1/cluster-operator.js';
import { formatTime } from '../../lib/clock.js';
import { startTestCluster, type TestCluster } from '../test-support/cluster.test-support.js';
import { createClusterMonitoring, type ClusterMonitoring } from './cluster-monitoring.js';

const MIN = 60_000;

interface PromAlert {
  labels: Record<string, string>;
  state: string;
  activeAt: string;
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url);
  assert.equal(res.status, 200, `${url}: ${res.status}`);
  return res.json();
}

async function promAlerts(m: ClusterMonitoring): Promise<Map<string, PromAlert>> {
  const body = (await getJson(`${m.prometheusUrl!}/api/v1/alerts`)) as {
    status: string;
    data: { alerts: PromAlert[] };
  };
  assert.equal(body.status, 'success');
  return new Map(body.data.alerts.map((a) => [a.labels['alertname']!, a]));
}

async function query(
  m: ClusterMonitoring,
  expr: string,
): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>> {
  const body = (await getJson(`${m.prometheusUrl!}/api/v1/query?query=${encodeURIComponent(expr)}`)) as {
    data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> };
  };
  return body.data.result;
}

interface AmAlert {
  labels: Record<string, string>;
  status: { state: string; silencedBy: string[]; inhibitedBy: string[] };
}

async function amAlerts(m: ClusterMonitoring, alertname: string): Promise<AmAlert[]> {
  return (await getJson(
    `${m.alertmanagerUrl!}/api/v2/alerts?filter=${encodeURIComponent(`alertname="${alertname}"`)}`,
  )) as AmAlert[];
}

async function seed(cluster: TestCluster): Promise<void> {
  const now = formatTime(cluster.clock.now());
  const node = (name: string, ready: boolean): Node => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'node-role.kubernetes.io/worker': '' } },
    spec: {},
    status: {
      conditions: [
        ready
          ? {
              type: 'Ready',
              status: 'True',
              reason: 'KubeletReady',
              message: 'kubelet is posting ready status',
              lastHeartbeatTime: now,
              lastTransitionTime: now,
            }
          : {
              type: 'Ready',
              status: 'False',
              reason: 'KubeletNotReady',
              message: 'container runtime is down',
              lastHeartbeatTime: now,
              lastTransitionTime: now,
            },
      ],
    },
  });
  for (const [name, ready] of [
    ['worker-0', false],
    ['worker-1', true],
  ] as const) {
    const created = await cluster.client.create(NodeResource, node(name, ready));
    await cluster.client.updateStatus(NodeResource, { ...created, status: node(name, ready).status! });
  }
  const co = await cluster.client.create(ClusterOperatorResource, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: { name: 'authentication' },
    spec: {},
  });
  await cluster.client.updateStatus(ClusterOperatorResource, {
    ...co,
    status: {
      conditions: [
        { type: 'Available', status: 'True', reason: 'AsExpected', message: 'All is well', lastTransitionTime: now },
        { type: 'Progressing', status: 'False', reason: 'AsExpected', message: 'All is well', lastTransitionTime: now },
        {
          type: 'Degraded',
          status: 'True',
          reason: 'OAuthServerDeployment_UnavailablePod',
          message: 'OAuthServerDeploymentDegraded: 1 of 3 requested instances are unavailable',
          lastTransitionTime: now,
        },
      ],
      versions: [{ name: 'operator', version: '4.14.10' }],
    },
  });
}

void test('alerts from cluster objects go pending → firing after their for, reach Alertmanager, and a silence mutes them while ALERTS keeps them', async (t) => {
  const cluster = await startTestCluster(t);
  const T0 = cluster.clock.now();
  const monitoring = createClusterMonitoring(cluster.ctx);
  await monitoring.start(cluster.signal);
  assert.match(monitoring.prometheusUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(monitoring.alertmanagerUrl ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
  await seed(cluster);
  await cluster.clock.run({ until: T0 + MIN });

  let alerts = await promAlerts(monitoring);
  const notReady = alerts.get('KubeNodeNotReady');
  const degraded = alerts.get('ClusterOperatorDegraded');
  assert.equal(notReady?.state, 'pending');
  assert.equal(notReady.labels['node'], 'worker-0');
  assert.equal(degraded?.state, 'pending');
  assert.deepEqual(
    [degraded.labels['name'], degraded.labels['reason']],
    ['authentication', 'OAuthServerDeployment_UnavailablePod'],
  );
  assert.equal(alerts.get('Watchdog')?.state, 'firing');
  // Pending alerts are not sent to Alertmanager; the Watchdog (no `for`) is.
  assert.deepEqual(await amAlerts(monitoring, 'KubeNodeNotReady'), []);
  assert.equal((await amAlerts(monitoring, 'Watchdog')).length, 1);

  const a = Date.parse(notReady.activeAt);
  assert.ok(a >= T0 && a <= T0 + MIN);
  // Just before 15 minutes of pending: still pending.
  await cluster.clock.run({ until: a + 15 * MIN - 1 });
  assert.equal((await promAlerts(monitoring)).get('KubeNodeNotReady')?.state, 'pending');
  await cluster.clock.run({ until: a + 15 * MIN + 1000 });
  alerts = await promAlerts(monitoring);
  assert.equal(alerts.get('KubeNodeNotReady')?.state, 'firing');
  assert.equal(alerts.get('ClusterOperatorDegraded')?.state, 'pending');

  // ALERTS: the series went from pending (for the whole `for`) to firing.
  const series = await query(monitoring, 'ALERTS{alertname="KubeNodeNotReady"}');
  assert.deepEqual(
    series.map((s) => [s.metric['alertstate'], s.metric['node'], s.metric['severity']]),
    [['firing', 'worker-0', 'warning']],
  );
  const range = (await getJson(
    `${monitoring.prometheusUrl!}/api/v1/query_range?query=${encodeURIComponent('ALERTS{alertname="KubeNodeNotReady"}')}&start=${a / 1000}&end=${(a + 15 * MIN) / 1000}&step=30`,
  )) as { data: { result: Array<{ metric: Record<string, string>; values: Array<[number, string]> }> } };
  const byState = new Map(range.data.result.map((r) => [r.metric['alertstate'], r.values.map(([ts]) => ts)]));
  const pending = byState.get('pending') ?? [];
  assert.equal(pending[0], a / 1000);
  assert.equal(pending.at(-1), (a + 15 * MIN - 30_000) / 1000);
  assert.equal(pending.length, 30);
  assert.deepEqual(byState.get('firing'), [(a + 15 * MIN) / 1000]);

  // Alertmanager has it, with Prometheus' external label, active.
  let am = await amAlerts(monitoring, 'KubeNodeNotReady');
  assert.equal(am.length, 1);
  assert.equal(am[0]?.labels['prometheus'], 'openshift-monitoring/k8s');
  assert.deepEqual(am[0]?.status, { state: 'active', silencedBy: [], inhibitedBy: [] });

  // A silence through the Alertmanager API.
  const now = cluster.clock.now();
  const post = await fetch(`${monitoring.alertmanagerUrl!}/api/v2/silences`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      matchers: [{ name: 'alertname', value: 'KubeNodeNotReady', isRegex: false, isEqual: true }],
      startsAt: new Date(now).toISOString(),
      endsAt: new Date(now + 120 * MIN).toISOString(),
      createdBy: 'test',
      comment: 'node maintenance',
    }),
  });
  assert.equal(post.status, 200);
  const { silenceID } = (await post.json()) as { silenceID: string };
  am = await amAlerts(monitoring, 'KubeNodeNotReady');
  assert.deepEqual(am[0]?.status, { state: 'suppressed', silencedBy: [silenceID], inhibitedBy: [] });

  // Prometheus does not know about silences: the alert stays firing in ALERTS.
  await cluster.clock.run({ until: degradedFiringAt(degraded) + 1000 });
  assert.deepEqual(
    (await query(monitoring, 'ALERTS{alertname="KubeNodeNotReady"}')).map((s) => s.metric['alertstate']),
    ['firing'],
  );
  assert.equal((await amAlerts(monitoring, 'KubeNodeNotReady'))[0]?.status.state, 'suppressed');
  // The other alert fired after its 30 minutes and is not silenced.
  alerts = await promAlerts(monitoring);
  assert.equal(alerts.get('ClusterOperatorDegraded')?.state, 'firing');
  const degradedAm = await amAlerts(monitoring, 'ClusterOperatorDegraded');
  assert.deepEqual(
    degradedAm.map((x) => [x.labels['name'], x.status.state]),
    [['authentication', 'active']],
  );
});

function degradedFiringAt(a: PromAlert): number {
  return Date.parse(a.activeAt) + 30 * MIN;
}

void test('scrapes follow the objects; Alertmanager down holds alerts back until it answers again', async (t) => {
  const cluster = await startTestCluster(t);
  const T0 = cluster.clock.now();
  const drained: string[] = [];
  const groups = [
    {
      name: 'test',
      file: '/etc/prometheus/rules/test.yaml',
      rules: [{ name: 'MCCDrainError', expr: 'mcc_drain_err > 0', labels: { severity: 'warning' } }],
    },
  ];
  const monitoring = createClusterMonitoring(cluster.ctx, { drainErrorNodes: () => drained, groups });
  await monitoring.start(cluster.signal);
  await seed(cluster);
  await cluster.clock.run({ until: T0 + MIN });
  const ready = await query(monitoring, 'kube_node_status_condition{condition="Ready",status="true"} == 1');
  assert.deepEqual(
    ready.map((s) => s.metric['node']),
    ['worker-1'],
  );
  assert.deepEqual(await query(monitoring, 'mcc_drain_err'), []);

  monitoring.setAlertmanagerFault({ kind: 'down' });
  drained.push('worker-0');
  await cluster.clock.run({ until: T0 + 2 * MIN });
  assert.equal((await promAlerts(monitoring)).get('MCCDrainError')?.state, 'firing');
  monitoring.setAlertmanagerFault({ kind: 'none' });
  assert.deepEqual(await amAlerts(monitoring, 'MCCDrainError'), []);
  await cluster.clock.run({ until: T0 + 3 * MIN });
  assert.deepEqual(
    (await amAlerts(monitoring, 'MCCDrainError')).map((x) => x.labels['node']),
    ['worker-0'],
  );
});
