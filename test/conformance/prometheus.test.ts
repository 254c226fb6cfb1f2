/**
 * Conformance of the simulated Prometheus against the real one: the same small data set
 * (a few series over 30 minutes) is loaded into a real Prometheus (`promtool tsdb
 * create-blocks-from openmetrics`, then `prometheus` on loopback) and into our {@link Tsdb};
 * every query must give the same result type, label sets and values from both.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Tsdb } from '../../src/sim/monitoring/tsdb.js';
import { ManualClock } from '../../src/lib/clock.js';
import { startPrometheusServer, type PrometheusServer } from '../../src/sim/monitoring/prometheus-server.js';
import { RuleEvaluator } from '../../src/sim/monitoring/rules.js';
import { startRealPrometheus, type RealServer } from '../../src/integrations/test-support/monitoring.test-support.js';

const run = promisify(execFile);

/** 2024-03-20T08:00:00Z, the start of the data set. */
const T0 = Date.UTC(2024, 2, 20, 8, 0, 0);
const STEP = 30_000;
const STEPS = 61; // 30 minutes

interface Row {
  labels: Record<string, string>;
  /** value at step i, or undefined for no sample */
  value: (i: number) => number | undefined;
}

/** The data set: node conditions, a counter with a reset, alerts that come and go, CVO series. */
function dataset(): Row[] {
  const rows: Row[] = [];
  for (const node of ['n1', 'n2', 'n3']) {
    const notReady = (i: number): boolean => node === 'n2' && i >= 20 && i < 32;
    for (const status of ['true', 'false', 'unknown']) {
      rows.push({
        labels: { __name__: 'kube_node_status_condition', node, condition: 'Ready', status },
        value: (i) => (status === 'true' ? (notReady(i) ? 0 : 1) : status === 'false' ? (notReady(i) ? 1 : 0) : 0),
      });
    }
    rows.push({
      labels: { __name__: 'kube_node_spec_unschedulable', node },
      value: (i) => (node === 'n2' && i >= 15 && i < 40 ? 1 : 0),
    });
    rows.push({
      labels: { __name__: 'kube_node_role', node, role: node === 'n3' ? 'worker' : 'master' },
      value: () => 1,
    });
  }
  for (const instance of ['10.0.0.1:9100', '10.0.0.2:9100']) {
    rows.push({
      labels: { __name__: 'http_requests_total', job: 'api', instance },
      // A counter: +3 per step on the first instance (reset at step 40), +5 on the second.
      value: (i) => (instance.startsWith('10.0.0.1') ? (i < 40 ? 100 + 3 * i : 3 * (i - 40)) : 5 * i),
    });
  }
  rows.push({ labels: { __name__: 'up', job: 'kubelet', metrics_path: '/metrics', instance: 'n1' }, value: () => 1 });
  rows.push({
    labels: { __name__: 'up', job: 'kubelet', metrics_path: '/metrics', instance: 'n2' },
    value: (i) => (i >= 22 && i < 30 ? 0 : 1),
  });
  rows.push({
    labels: { __name__: 'up', job: 'kubelet', metrics_path: '/metrics/cadvisor', instance: 'n1' },
    value: (i) => (i < 45 ? 1 : undefined),
  });
  const alert = (
    alertname: string,
    alertstate: string,
    severity: string,
    namespace: string,
    from: number,
    to: number,
  ): Row => ({
    labels: { __name__: 'ALERTS', alertname, alertstate, severity, namespace },
    value: (i) => (i >= from && i < to ? 1 : undefined),
  });
  rows.push(alert('Watchdog', 'firing', 'none', 'openshift-monitoring', 0, STEPS));
  rows.push(alert('KubeNodeNotReady', 'pending', 'warning', 'openshift-monitoring', 20, 50));
  rows.push(alert('ClusterOperatorDown', 'pending', 'critical', 'openshift-cluster-version', 5, 25));
  rows.push(alert('ClusterOperatorDown', 'firing', 'critical', 'openshift-cluster-version', 25, 40));
  rows.push(alert('etcdMembersDown', 'firing', 'critical', 'openshift-etcd', 30, 36));
  rows.push(alert('UserAlert', 'firing', 'critical', 'my-app', 10, STEPS));
  rows.push({
    labels: {
      __name__: 'cluster_version',
      type: 'current',
      version: '4.14.10',
      image: 'quay.io/x@sha256:aa',
      from_version: '',
    },
    value: (i) => (i < 50 ? T0 / 1000 - 86400 : undefined),
  });
  rows.push({
    labels: {
      __name__: 'cluster_version',
      type: 'current',
      version: '4.15.3',
      image: 'quay.io/x@sha256:bb',
      from_version: '4.14.10',
    },
    value: (i) => (i >= 50 ? T0 / 1000 + 1500 : undefined),
  });
  rows.push({
    labels: { __name__: 'cluster_version_available_updates', channel: 'stable-4.15', upstream: '<default>' },
    value: () => 2,
  });
  rows.push({
    labels: { __name__: 'cluster_operator_up', name: 'etcd', version: '4.14.10', reason: 'AsExpected' },
    value: (i) => (i >= 10 && i < 14 ? 0 : i >= 16 && i < 18 ? 0 : 1),
  });
  rows.push({ labels: { __name__: 'ratio', kind: 'a' }, value: (i) => i / 7 });
  rows.push({ labels: { __name__: 'ratio', kind: 'b' }, value: (i) => -i / 3 });
  return rows;
}

function omLabels(labels: Record<string, string>): string {
  const parts = Object.entries(labels)
    .filter(([k, v]) => k !== '__name__' && v !== '')
    .map(([k, v]) => `${k}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`);
  return parts.length > 0 ? `{${parts.join(',')}}` : '';
}

function openMetrics(rows: Row[]): string {
  const families = new Map<string, Row[]>();
  for (const r of rows) {
    const name = r.labels['__name__'] ?? '';
    families.set(name, [...(families.get(name) ?? []), r]);
  }
  let out = '';
  for (const [name, list] of families) {
    out += `# TYPE ${name} gauge\n`;
    for (const r of list) {
      for (let i = 0; i < STEPS; i++) {
        const v = r.value(i);
        if (v !== undefined) out += `${name}${omLabels(r.labels)} ${v} ${(T0 + i * STEP) / 1000}\n`;
      }
    }
  }
  return `${out}# EOF\n`;
}

function loadOurs(rows: Row[]): Tsdb {
  const db = new Tsdb({ retentionMs: 365 * 24 * 3600_000 });
  for (const r of rows) {
    const labels = Object.fromEntries(Object.entries(r.labels).filter(([, v]) => v !== ''));
    for (let i = 0; i < STEPS; i++) {
      const v = r.value(i);
      if (v !== undefined) db.append(labels, v, T0 + i * STEP);
    }
  }
  return db;
}

let dir = '';
let real: RealServer | undefined;
let realUrl = '';
let ours: PrometheusServer | undefined;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prom-conformance-'));
  const rows = dataset();
  await writeFile(join(dir, 'data.om'), openMetrics(rows));
  await run('promtool', ['tsdb', 'create-blocks-from', 'openmetrics', join(dir, 'data.om'), join(dir, 'data')]);
  real = await startRealPrometheus({
    evaluationInterval: '1h',
    storagePath: join(dir, 'data'),
    args: ['--storage.tsdb.retention.time=100y'],
  });
  realUrl = real.url;
  const clock = new ManualClock(T0 + STEPS * STEP);
  const db = loadOurs(rows);
  ours = await startPrometheusServer({ tsdb: db, clock, rules: new RuleEvaluator({ tsdb: db, clock, groups: [] }) });
});

after(async () => {
  await ours?.close();
  await real?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface ApiBody {
  status: string;
  errorType?: string;
  error?: string;
  data?: { resultType: string; result: unknown };
}

async function get(base: string, path: string, params: Record<string, string>): Promise<ApiBody> {
  const res = await fetch(`${base}${path}?${new URLSearchParams(params).toString()}`);
  return (await res.json()) as ApiBody;
}

function close(a: string, b: string): boolean {
  if (a === b) return true;
  const x = Number(a);
  const y = Number(b);
  if (Number.isNaN(x) && Number.isNaN(y)) return true;
  return Math.abs(x - y) <= 1e-9 * Math.max(1, Math.abs(x), Math.abs(y));
}

/** Sorted canonical form of a result, values kept as strings for the tolerant comparison. */
function canonical(data: { resultType: string; result: unknown }): {
  type: string;
  items: Array<{ key: string; values: Array<[number, string]> }>;
} {
  const type = data.resultType;
  if (type === 'scalar' || type === 'string') {
    const [t, v] = data.result as [number, string];
    return { type, items: [{ key: '', values: [[t, v]] }] };
  }
  const items = (
    data.result as Array<{ metric: Record<string, string>; value?: [number, string]; values?: Array<[number, string]> }>
  ).map((r) => ({
    key: JSON.stringify(Object.entries(r.metric).sort(([a], [b]) => (a < b ? -1 : 1))),
    values: r.values ?? (r.value ? [r.value] : []),
  }));
  items.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return { type, items };
}

function assertSame(query: string, realBody: ApiBody, ourBody: ApiBody): void {
  assert.equal(
    ourBody.status,
    realBody.status,
    `${query}: status (real error: ${realBody.error ?? ''}; ours: ${ourBody.error ?? ''})`,
  );
  if (realBody.status !== 'success') {
    assert.equal(ourBody.errorType, realBody.errorType, `${query}: errorType`);
    return;
  }
  assert.ok(realBody.data && ourBody.data);
  const r = canonical(realBody.data);
  const o = canonical(ourBody.data);
  assert.equal(o.type, r.type, `${query}: resultType`);
  assert.deepEqual(
    o.items.map((i) => i.key),
    r.items.map((i) => i.key),
    `${query}: label sets`,
  );
  r.items.forEach((ri, idx) => {
    const oi = o.items[idx];
    assert.ok(oi);
    assert.equal(oi.values.length, ri.values.length, `${query}: ${ri.key}: number of points`);
    ri.values.forEach(([t, v], j) => {
      const [ot, ov] = oi.values[j] ?? [NaN, ''];
      assert.equal(ot, t, `${query}: ${ri.key}: timestamp`);
      assert.ok(close(ov, v), `${query}: ${ri.key} @${t}: ours ${ov}, real ${v}`);
    });
  });
}

const at = (minutes: number): string => String((T0 + minutes * 60_000) / 1000);

/** [query, evaluation time in minutes after T0]. */
const INSTANT: Array<[string, number]> = [
  ['kube_node_status_condition', 12],
  ['kube_node_status_condition{condition="Ready",status="true"}', 12],
  ['kube_node_status_condition{node!="n1",status="false"}', 12],
  ['kube_node_status_condition{node=~"n[12]",status="true"}', 12],
  ['kube_node_status_condition{node!~"n1|n2"}', 12],
  ['{__name__=~"kube_node_spec.*"}', 10],
  [
    'ALERTS{alertstate="firing",severity="critical",namespace=~"^openshift.*|^kube-.*|^default$",namespace!="openshift-etcd",alertname!="Watchdog"}',
    16,
  ],
  ['ALERTS{alertstate="firing"}', 28.2],
  ['sum by (alertname) (max_over_time(ALERTS{alertstate="firing",severity="critical"}[10m] offset 5m))', 25],
  ['sum by (status) (kube_node_status_condition)', 12],
  ['count without (node) (kube_node_status_condition)', 12],
  ['max by (node) (kube_node_status_condition{status="false"})', 12],
  ['min(ratio)', 9],
  ['avg without (kind) (ratio)', 9],
  ['group by (role) (kube_node_role)', 3],
  ['topk(1, http_requests_total)', 9],
  ['bottomk(1, http_requests_total)', 9],
  ['count_values("value", kube_node_status_condition)', 12],
  ['kube_node_status_condition == 1', 12],
  ['kube_node_status_condition > bool 0', 12],
  ['1 - kube_node_status_condition{status="true"}', 12],
  ['http_requests_total * 2 + 1', 5],
  ['ratio % 2', 7],
  ['2 ^ ratio{kind="a"}', 7],
  ['-ratio', 7],
  ['kube_node_status_condition{status="true"} == 0 and on(node) kube_node_spec_unschedulable == 0', 12],
  ['kube_node_status_condition{status="true"} == 0 unless on(node) kube_node_spec_unschedulable == 1', 12],
  ['kube_node_spec_unschedulable == 1 or kube_node_status_condition{status="false"} == 1', 12],
  ['kube_node_status_condition{status="true"} * on(node) group_left(role) kube_node_role', 12],
  ['kube_node_role * on(node) group_right(role) kube_node_status_condition{status="true"}', 12],
  ['kube_node_spec_unschedulable > on(node) kube_node_status_condition{status="false"}', 9],
  ['kube_node_spec_unschedulable + ignoring(status, condition) kube_node_status_condition{status="false"}', 12],
  ['rate(http_requests_total[5m])', 14],
  ['rate(http_requests_total[5m])', 22],
  ['increase(http_requests_total[10m])', 25],
  ['changes(kube_node_status_condition{status="true"}[15m])', 20],
  ['changes(cluster_operator_up[2m]) > 2', 9],
  ['count_over_time(up[10m])', 25],
  ['last_over_time(up[10m])', 25],
  ['min_over_time(up[10m])', 14],
  ['max_over_time(ALERTS[2m])', 20],
  ['absent(up{job="kubelet",metrics_path="/metrics"} == 1)', 12],
  ['absent(nonexistent{job="x",instance=~"a"})', 12],
  ['absent(up{job="kubelet"})', 12],
  ['time()', 7],
  ['vector(1)', 7],
  ['scalar(sum(up))', 7],
  ['1 + 2 * 3', 7],
  ['2 > bool 1', 7],
  ['"hello"', 7],
  ['label_replace(up, "host", "$1", "instance", "n(.*)")', 7],
  ['label_replace(http_requests_total, "ip", "${1}x", "instance", "(.*):.*")', 7],
  ['http_requests_total offset 10m', 15],
  ['http_requests_total[2m]', 15],
  ['cluster_version{type="current"}', 20],
  ['cluster_version{version="4.15.3",type="current"}', 27],
  ['sum by (channel, namespace, upstream) (cluster_version_available_updates) > 0', 3],
  ['up{metrics_path="/metrics/cadvisor"}', 24],
  ['up{metrics_path="/metrics/cadvisor"}', 27],
  ['sort_desc(ratio)', 7],
  ['foo{', 7],
  ['sum(', 7],
  ['rate(up)', 7],
  ['1 > 2', 7],
  ['up and 1', 7],
  ['http_requests_total + on(job) http_requests_total', 7],
];

test('instant queries give the same results from the real and the simulated Prometheus', async () => {
  assert.ok(ours);
  for (const [query, minutes] of INSTANT) {
    const params = { query, time: at(minutes) };
    const [r, o] = await Promise.all([get(realUrl, '/api/v1/query', params), get(ours.url, '/api/v1/query', params)]);
    assertSame(query, r, o);
  }
});

const RANGE: string[] = [
  'sum by (status) (kube_node_status_condition)',
  'rate(http_requests_total[3m])',
  'ALERTS{severity="critical"}',
  'changes(up[5m])',
  'time() - 1711000000',
  'kube_node_status_condition{status="true"} == 0 and on(node) kube_node_spec_unschedulable == 0',
];

test('range queries give the same results from the real and the simulated Prometheus', async () => {
  assert.ok(ours);
  for (const query of RANGE) {
    const params = { query, start: at(0), end: at(30), step: '60' };
    const [r, o] = await Promise.all([
      get(realUrl, '/api/v1/query_range', params),
      get(ours.url, '/api/v1/query_range', params),
    ]);
    assertSame(query, r, o);
  }
  for (const params of [
    { query: 'up[5m]', start: at(0), end: at(30), step: '60' },
    { query: 'up', start: at(30), end: at(0), step: '60' },
  ]) {
    const [r, o] = await Promise.all([
      get(realUrl, '/api/v1/query_range', params),
      get(ours.url, '/api/v1/query_range', params),
    ]);
    assertSame(params.query, r, o);
  }
});
