import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterOperator } from '../../api/openshift/config-v1/cluster-operator.js';
import type { ClusterOperatorStatusCondition, ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import { IntegrationError } from '../../integrations/integration-error.js';
import type { InstantQueryOptions, PrometheusApi, PromSample } from '../../integrations/prometheus-api.js';
import { flushMicrotasks, ManualClock } from '../../lib/clock.js';
import { CRITICAL_ALERTS_QUERY } from './scheduled-checks.js';
import {
  combineReasons,
  healthCheckTimedOutMessage,
  healthCheckTimeoutMs,
  runScheduledHealthCheck,
  type ScheduledHealthCheckInput,
  type ScheduledHealthCheckResult,
} from './scheduled-health-check.js';

const T = '2026-03-02T00:00:00Z';
type Cond = Omit<ClusterOperatorStatusCondition, 'lastTransitionTime'>;

function clusterVersion(conditions: Cond[]): ClusterVersion {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: 'c' },
    status: {
      desired: { version: '4.14.1', image: 'quay.io/x@sha256:1' },
      observedGeneration: 1,
      versionHash: 'h',
      availableUpdates: null,
      conditions: conditions.map((c) => ({ ...c, lastTransitionTime: T })),
    },
  };
}

const HEALTHY_CV = clusterVersion([
  { type: 'Available', status: 'True' },
  { type: 'Failing', status: 'False' },
  { type: 'Progressing', status: 'False' },
]);

function operator(name: string, conditions: Cond[]): ClusterOperator {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: { name },
    spec: {},
    status: { conditions: conditions.map((c) => ({ ...c, lastTransitionTime: T })) },
  };
}
const fine = (name: string): ClusterOperator =>
  operator(name, [
    { type: 'Available', status: 'True' },
    { type: 'Degraded', status: 'False' },
  ]);

function sample(metric: Record<string, string>, value = 1): PromSample {
  return { metric, value, timestamp: 0 };
}
function alert(alertname: string, namespace?: string): PromSample {
  return sample({
    __name__: 'ALERTS',
    alertname,
    alertstate: 'firing',
    severity: 'critical',
    ...(namespace !== undefined ? { namespace } : {}),
  });
}

type Answer = PromSample[] | Error | 'hang';
/** A scripted Prometheus: answers by query text; `hang` never answers (until aborted, which it ignores). */
class FakePrometheus implements PrometheusApi {
  readonly calls: Array<{ query: string; options: InstantQueryOptions | undefined }> = [];
  readonly answers: Record<string, Answer>;
  constructor(answers: Record<string, Answer>) {
    this.answers = answers;
  }
  query(promql: string, options?: InstantQueryOptions): Promise<PromSample[]> {
    this.calls.push({ query: promql, options });
    const a = this.answers[promql];
    if (a === undefined) return Promise.reject(new Error(`unexpected query ${promql}`));
    if (a === 'hang') return new Promise<PromSample[]>(() => undefined);
    if (a instanceof Error) return Promise.reject(a);
    return Promise.resolve(a);
  }
}

const clock = new ManualClock(T);

test('shipped semantics: ClusterVersion Failing=True or Degraded=True is unhealthy; Failing=Unknown is not', async () => {
  const run = (cv: ClusterVersion | undefined, skip?: boolean): Promise<ScheduledHealthCheckResult> =>
    runScheduledHealthCheck(
      { clusterVersion: cv },
      { clock, ...(skip !== undefined ? { skipDegradedOperatorsCheck: skip } : {}) },
    );

  assert.deepEqual(await run(HEALTHY_CV), { healthy: true, reasons: [], message: 'Health checks ok' });
  const failing = await run(
    clusterVersion([
      { type: 'Available', status: 'True' },
      {
        type: 'Failing',
        status: 'True',
        reason: 'ClusterOperatorDegraded',
        message: 'Cluster operator console is degraded',
      },
    ]),
  );
  assert.deepEqual(failing, {
    healthy: false,
    reasons: [
      {
        check: 'cluster-version',
        message:
          'ClusterVersion "version": Failing=True (ClusterOperatorDegraded: Cluster operator console is degraded)',
      },
    ],
    message:
      'Health checks failed: ClusterVersion "version": Failing=True (ClusterOperatorDegraded: Cluster operator console is degraded)',
  });
  const degraded = await run(
    clusterVersion([
      { type: 'Degraded', status: 'True' },
      { type: 'Failing', status: 'True', reason: 'X' },
    ]),
  );
  assert.deepEqual(degraded.reasons, [
    { check: 'cluster-version', message: 'ClusterVersion "version": Failing=True (X), Degraded=True' },
  ]);
  assert.equal(
    (await run(clusterVersion([{ type: 'Failing', status: 'Unknown', reason: 'SlowClusterOperator' }]))).healthy,
    true,
  );
  assert.equal((await run(clusterVersion([]))).healthy, true);
  // Unknown is never healthy: no ClusterVersion at all.
  assert.deepEqual((await run(undefined)).reasons, [
    { check: 'cluster-version', message: 'ClusterVersion "version" not found' },
  ]);
  // skipDegradedOperatorsCheck: the shipped check passes at once.
  assert.equal((await run(clusterVersion([{ type: 'Failing', status: 'True' }]), true)).healthy, true);
  assert.equal((await run(undefined, true)).healthy, true);
});

test('by default only the shipped check runs: Prometheus and ClusterOperators are not read', async () => {
  const prometheus = new FakePrometheus({});
  const r = await runScheduledHealthCheck(
    {
      clusterVersion: HEALTHY_CV,
      clusterOperators: [operator('dns', [{ type: 'Degraded', status: 'True' }])],
      prometheus,
    },
    { clock, timeout: '30m' },
  );
  assert.equal(r.healthy, true);
  assert.equal(prometheus.calls.length, 0);
});

test('checkDegradedOperators: Degraded=True or Available=False is unhealthy, excludeOperators leaves operators out', async () => {
  const operators = [
    fine('etcd'),
    operator('console', [
      { type: 'Available', status: 'False', reason: 'RouteHealth_FailedGet', message: 'failed to GET route' },
    ]),
    operator('monitoring', [
      { type: 'Available', status: 'True' },
      { type: 'Degraded', status: 'True', reason: 'UpdatingPrometheusK8SFailed' },
    ]),
  ];
  const input: ScheduledHealthCheckInput = { clusterVersion: HEALTHY_CV, clusterOperators: operators };
  const all = await runScheduledHealthCheck(input, { clock, checkDegradedOperators: true });
  assert.deepEqual(all.reasons, [
    {
      check: 'degraded-operators',
      message:
        'cluster operators degraded: console: Available=False (RouteHealth_FailedGet: failed to GET route); monitoring: Degraded=True (UpdatingPrometheusK8SFailed)',
    },
  ]);
  const one = await runScheduledHealthCheck(input, {
    clock,
    checkDegradedOperators: true,
    excludeOperators: ['monitoring'],
  });
  assert.deepEqual(
    one.reasons.map((r) => r.message),
    ['cluster operators degraded: console: Available=False (RouteHealth_FailedGet: failed to GET route)'],
  );
  const none = await runScheduledHealthCheck(input, {
    clock,
    checkDegradedOperators: true,
    excludeOperators: ['monitoring', 'console'],
  });
  assert.equal(none.healthy, true);
  // Excluding operators does not touch the ClusterVersion check, and the ClusterOperators must have been read.
  const unread = await runScheduledHealthCheck({ clusterVersion: HEALTHY_CV }, { clock, checkDegradedOperators: true });
  assert.deepEqual(unread.reasons, [
    { check: 'settings', message: 'checkDegradedOperators is set but the ClusterOperators were not read' },
  ]);
});

test('checkCriticalAlerts: firing critical alerts are unhealthy, minus excludeAlerts and excludeNamespaces', async () => {
  const prometheus = new FakePrometheus({
    [CRITICAL_ALERTS_QUERY]: [
      alert('KubePodCrashLooping', 'openshift-console'),
      alert('KubePodCrashLooping', 'syn'),
      alert('ClusterOperatorDown', 'openshift-cluster-version'),
      alert('ClusterOperatorDown', 'openshift-cluster-version'),
      alert('NoNamespace'),
    ],
  });
  const input = { clusterVersion: HEALTHY_CV, prometheus };
  const all = await runScheduledHealthCheck(input, { clock, checkCriticalAlerts: true, time: 1234 });
  assert.deepEqual(all.reasons, [
    {
      check: 'critical-alerts',
      message:
        'critical alerts firing: ClusterOperatorDown (namespace openshift-cluster-version), KubePodCrashLooping (namespace openshift-console), KubePodCrashLooping (namespace syn), NoNamespace',
    },
  ]);
  assert.equal(prometheus.calls[0]?.query, 'ALERTS{alertstate="firing",severity="critical"}');
  assert.equal(prometheus.calls[0]?.options?.time, 1234);

  const byNamespace = await runScheduledHealthCheck(input, {
    clock,
    checkCriticalAlerts: true,
    excludeNamespaces: ['openshift-console', 'openshift-cluster-version'],
  });
  assert.deepEqual(
    byNamespace.reasons.map((r) => r.message),
    ['critical alerts firing: KubePodCrashLooping (namespace syn), NoNamespace'],
  );
  const byName = await runScheduledHealthCheck(input, {
    clock,
    checkCriticalAlerts: true,
    excludeAlerts: [{ alertname: 'KubePodCrashLooping' }, { alertname: 'NoNamespace' }],
  });
  assert.deepEqual(
    byName.reasons.map((r) => r.message),
    ['critical alerts firing: ClusterOperatorDown (namespace openshift-cluster-version)'],
  );
  const both = await runScheduledHealthCheck(input, {
    clock,
    checkCriticalAlerts: true,
    excludeAlerts: [{ alertname: 'KubePodCrashLooping' }, { alertname: 'NoNamespace' }],
    excludeNamespaces: ['openshift-cluster-version'],
  });
  assert.equal(both.healthy, true);
  assert.equal(both.message, 'Health checks ok');

  const quiet = await runScheduledHealthCheck(
    { clusterVersion: HEALTHY_CV, prometheus: new FakePrometheus({ [CRITICAL_ALERTS_QUERY]: [] }) },
    { clock, checkCriticalAlerts: true },
  );
  assert.equal(quiet.healthy, true);
});

test('customQueries: a non-empty result is unhealthy and names the query and the series; each query runs', async () => {
  const argo = 'up{job=~"^argocd-.+$",namespace="syn"} != 1';
  const prometheus = new FakePrometheus({
    [argo]: [sample({ __name__: 'up', job: 'argocd-server', namespace: 'syn', instance: '10.0.0.1:8083' }, 0)],
    'vector(0) > 1': [],
    'count(kube_node_spec_unschedulable == 1) > 0': [sample({}, 2)],
  });
  const r = await runScheduledHealthCheck(
    { clusterVersion: HEALTHY_CV, prometheus },
    {
      clock,
      customQueries: [
        { query: argo },
        { query: 'vector(0) > 1' },
        { query: 'count(kube_node_spec_unschedulable == 1) > 0' },
      ],
    },
  );
  assert.deepEqual(r.reasons, [
    {
      check: 'custom-query',
      message:
        'custom query "up{job=~\\"^argocd-.+$\\",namespace=\\"syn\\"} != 1" returned 1 series: up{instance="10.0.0.1:8083",job="argocd-server",namespace="syn"} 0',
    },
    {
      check: 'custom-query',
      message: 'custom query "count(kube_node_spec_unschedulable == 1) > 0" returned 1 series: {} 2',
    },
  ]);
  assert.deepEqual(
    prometheus.calls.map((c) => c.query).sort(),
    [argo, 'count(kube_node_spec_unschedulable == 1) > 0', 'vector(0) > 1'].sort(),
  );
  const ok = await runScheduledHealthCheck(
    { clusterVersion: HEALTHY_CV, prometheus },
    { clock, customQueries: [{ query: 'vector(0) > 1' }] },
  );
  assert.equal(ok.healthy, true);
});

test('Prometheus unreachable, erroring or not configured is unhealthy, with the reason', async () => {
  const down = new IntegrationError(
    'prometheus',
    'Unreachable',
    'GET http://127.0.0.1:9/api/v1/query: connect ECONNREFUSED 127.0.0.1:9',
  );
  const prometheus = new FakePrometheus({
    [CRITICAL_ALERTS_QUERY]: down,
    'up == 0': new IntegrationError('prometheus', 'HttpStatus', 'HTTP 503: Service Unavailable', { status: 503 }),
  });
  const r = await runScheduledHealthCheck(
    { clusterVersion: HEALTHY_CV, prometheus },
    { clock, checkCriticalAlerts: true, customQueries: [{ query: 'up == 0' }] },
  );
  assert.equal(r.healthy, false);
  assert.deepEqual(r.reasons, [
    {
      check: 'critical-alerts',
      message:
        'cannot check critical alerts: Prometheus query failed (Unreachable): prometheus: GET http://127.0.0.1:9/api/v1/query: connect ECONNREFUSED 127.0.0.1:9',
    },
    {
      check: 'custom-query',
      message:
        'custom query "up == 0" failed: Prometheus query failed (HttpStatus): prometheus: HTTP 503: Service Unavailable',
    },
  ]);
  const none = await runScheduledHealthCheck(
    { clusterVersion: HEALTHY_CV },
    { clock, checkCriticalAlerts: true, customQueries: [{ query: 'up == 0' }] },
  );
  assert.deepEqual(none.reasons, [
    { check: 'settings', message: 'no Prometheus is configured to run: critical-alerts, custom query "up == 0"' },
  ]);
});

/** Starts a run and reports whether it has settled, without awaiting it. */
function started(promise: Promise<ScheduledHealthCheckResult>): {
  settled: () => boolean;
  result: Promise<ScheduledHealthCheckResult>;
} {
  let settled = false;
  const result = promise.finally(() => {
    settled = true;
  });
  return { settled: () => settled, result };
}

test('timeout: a Prometheus that never answers is unhealthy once the timeout passes on the clock; answered checks keep their reasons', async () => {
  const manual = new ManualClock(T);
  const prometheus = new FakePrometheus({
    [CRITICAL_ALERTS_QUERY]: 'hang',
    'up == 0': [sample({ __name__: 'up', job: 'x' }, 0)],
    'vector(1)': 'hang',
  });
  const run = started(
    runScheduledHealthCheck(
      { clusterVersion: HEALTHY_CV, prometheus },
      {
        clock: manual,
        timeout: '30m',
        checkCriticalAlerts: true,
        customQueries: [{ query: 'up == 0' }, { query: 'vector(1)' }],
      },
    ),
  );
  await manual.advance(30 * 60_000 - 1);
  assert.equal(run.settled(), false);
  assert.ok(prometheus.calls.every((c) => c.options?.signal?.aborted === false));
  await manual.advance(1);
  await flushMicrotasks();
  assert.equal(run.settled(), true);
  const r = await run.result;
  assert.deepEqual(r.reasons, [
    { check: 'custom-query', message: 'custom query "up == 0" returned 1 series: up{job="x"} 0' },
    {
      check: 'timeout',
      message: 'Health checks timed out after 30m0s (no answer from: critical-alerts, custom query "vector(1)")',
    },
  ]);
  // The unanswered queries are cancelled.
  assert.ok(prometheus.calls.every((c) => c.options?.signal?.aborted === true));
  assert.equal(manual.pending, 0);
});

test('timeout: timeoutMs overrides the setting; zero or less times the queries out without asking', async () => {
  const manual = new ManualClock(T);
  const prometheus = new FakePrometheus({ [CRITICAL_ALERTS_QUERY]: 'hang' });
  const run = started(
    runScheduledHealthCheck(
      { clusterVersion: HEALTHY_CV, prometheus },
      { clock: manual, timeout: '1h', timeoutMs: 90_000, checkCriticalAlerts: true },
    ),
  );
  await manual.advance(89_999);
  assert.equal(run.settled(), false);
  await manual.advance(1);
  assert.deepEqual((await run.result).reasons, [
    { check: 'timeout', message: 'Health checks timed out after 1m30s (no answer from: critical-alerts)' },
  ]);

  const quick = new FakePrometheus({});
  const expired = await runScheduledHealthCheck(
    { clusterVersion: HEALTHY_CV, prometheus: quick },
    { clock: manual, timeoutMs: 0, checkCriticalAlerts: true },
  );
  assert.deepEqual(expired.reasons, [
    { check: 'timeout', message: 'Health checks timed out after 0s (no answer from: critical-alerts)' },
  ]);
  assert.equal(quick.calls.length, 0);
});

test('timeout: a fast answer cancels the timer; an unparsable timeout is unhealthy', async () => {
  const manual = new ManualClock(T);
  const r = await runScheduledHealthCheck(
    { clusterVersion: HEALTHY_CV, prometheus: new FakePrometheus({ [CRITICAL_ALERTS_QUERY]: [] }) },
    { clock: manual, checkCriticalAlerts: true },
  );
  assert.equal(r.healthy, true);
  assert.equal(manual.pending, 0);
  const bad = await runScheduledHealthCheck({ clusterVersion: HEALTHY_CV }, { clock: manual, timeout: '3d' });
  assert.deepEqual(bad.reasons, [
    { check: 'settings', message: 'invalid health check timeout: time: unknown unit "d" in duration "3d"' },
  ]);
  assert.deepEqual(healthCheckTimeoutMs({}), { ok: true, ms: 3_600_000 });
  assert.equal(healthCheckTimedOutMessage(3_600_000), 'Health checks timed out after 1h0m0s');
});

test('the caller aborting rejects the run instead of giving a verdict', async () => {
  const manual = new ManualClock(T);
  const prometheus = new FakePrometheus({ [CRITICAL_ALERTS_QUERY]: 'hang' });
  const abort = new AbortController();
  const run = runScheduledHealthCheck(
    { clusterVersion: HEALTHY_CV, prometheus },
    { clock: manual, checkCriticalAlerts: true, signal: abort.signal },
  );
  await flushMicrotasks();
  abort.abort(new Error('shutting down'));
  await assert.rejects(run, /shutting down/);
  assert.equal(prometheus.calls[0]?.options?.signal?.aborted, true);
  assert.equal(manual.pending, 0);
  await assert.rejects(
    runScheduledHealthCheck({ clusterVersion: HEALTHY_CV }, { clock: manual, signal: abort.signal }),
    /shutting down/,
  );
});

test('every failing check is reported, in check order', async () => {
  const r = await runScheduledHealthCheck(
    {
      clusterVersion: clusterVersion([{ type: 'Failing', status: 'True', reason: 'ClusterOperatorNotAvailable' }]),
      clusterOperators: [operator('dns', [{ type: 'Degraded', status: 'True' }])],
      prometheus: new FakePrometheus({
        [CRITICAL_ALERTS_QUERY]: [alert('KubeletDown', 'kube-system')],
        'up == 0': [sample({ job: 'a' }, 0)],
      }),
    },
    { clock, checkCriticalAlerts: true, checkDegradedOperators: true, customQueries: [{ query: 'up == 0' }] },
  );
  assert.deepEqual(
    r.reasons.map((x) => x.check),
    ['cluster-version', 'degraded-operators', 'critical-alerts', 'custom-query'],
  );
  assert.equal(
    r.message,
    'Health checks failed: ClusterVersion "version": Failing=True (ClusterOperatorNotAvailable); cluster operators degraded: dns: Degraded=True; ' +
      'critical alerts firing: KubeletDown (namespace kube-system); custom query "up == 0" returned 1 series: {job="a"} 0',
  );
  assert.deepEqual(
    combineReasons([
      { check: 'timeout', message: 'b' },
      { check: 'settings', message: 'a' },
    ]),
    {
      healthy: false,
      reasons: [
        { check: 'settings', message: 'a' },
        { check: 'timeout', message: 'b' },
      ],
      message: 'Health checks failed: a; b',
    },
  );
});
