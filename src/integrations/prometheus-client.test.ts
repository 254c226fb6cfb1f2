import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ManualClock } from '../lib/clock.js';
import { startPrometheusServer, type PrometheusServer } from '../sim/monitoring/prometheus-server.js';
import { RuleEvaluator } from '../sim/monitoring/rules.js';
import { Tsdb } from '../sim/monitoring/tsdb.js';
import { NO_PROXY_CONFIG } from './http/proxy-env.js';
import { IntegrationError } from './integration-error.js';
import { PrometheusClient, formatPromTime, parseQueryResponse } from './prometheus-client.js';
import { parsePromValue } from './prom-value.js';
import { startRealPrometheus, waitUntil, type RealServer } from './test-support/monitoring.test-support.js';

const T0 = Date.UTC(2024, 2, 20, 8, 0, 0);
const FIRING = 'ALERTS{alertstate="firing",severity="critical",namespace=~"^openshift.*|^kube-.*|^default$"}';
const RULES = `groups:
  - name: test
    interval: 1s
    rules:
      - alert: TestCritical
        expr: vector(1)
        for: 0s
        labels: {severity: critical, namespace: openshift-monitoring}
      - alert: TestWarning
        expr: vector(1)
        labels: {severity: warning, namespace: openshift-monitoring}
`;

let real: RealServer | undefined;
let sim: PrometheusServer | undefined;
const clients: PrometheusClient[] = [];

function client(url: string): PrometheusClient {
  const c = new PrometheusClient({ url, proxy: NO_PROXY_CONFIG, bearerToken: 'token' });
  clients.push(c);
  return c;
}

before(async () => {
  const started = startRealPrometheus({ rules: RULES });
  const clock = new ManualClock(T0);
  const tsdb = new Tsdb();
  const rules = new RuleEvaluator({
    tsdb,
    clock,
    groups: [
      {
        name: 'test',
        file: 'rules.yml',
        rules: [
          {
            name: 'TestCritical',
            expr: 'vector(1)',
            labels: { severity: 'critical', namespace: 'openshift-monitoring' },
          },
          {
            name: 'TestWarning',
            expr: 'vector(1)',
            labels: { severity: 'warning', namespace: 'openshift-monitoring' },
          },
        ],
      },
    ],
  });
  rules.evaluate(T0);
  sim = await startPrometheusServer({ tsdb, rules, clock });
  real = await started;
  // Start-up only: wait (real time) until the first rule evaluation has made the alert fire.
  const probe = client(real.url);
  await waitUntil('the test alert firing in Prometheus', async () => (await probe.query(FIRING)).length > 0);
});

after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim?.close();
  await real?.close();
});

function targets(): Array<[string, string]> {
  assert.ok(real && sim);
  return [
    ['real', real.url],
    ['simulated', sim.url],
  ];
}

test('a firing alert is found by the critical-alert query (real and simulated Prometheus)', async () => {
  for (const [name, url] of targets()) {
    const samples = await client(url).query(FIRING);
    assert.equal(samples.length, 1, name);
    const [s] = samples;
    assert.deepEqual(
      s?.metric,
      {
        __name__: 'ALERTS',
        alertname: 'TestCritical',
        alertstate: 'firing',
        severity: 'critical',
        namespace: 'openshift-monitoring',
      },
      name,
    );
    assert.equal(s?.value, 1, name);
    assert.deepEqual(await client(url).query('ALERTS{alertname="NoSuchAlert"}'), [], name);
  }
});

test('evaluation time, scalars, NaN and infinities (real and simulated Prometheus)', async () => {
  for (const [name, url] of targets()) {
    const c = client(url);
    assert.deepEqual(
      await c.query('vector(2.5)', { time: T0 + 1500 }),
      [{ metric: {}, value: 2.5, timestamp: T0 + 1500 }],
      name,
    );
    assert.deepEqual(await c.query('1/0', { time: T0 }), [{ metric: {}, value: Infinity, timestamp: T0 }], name);
    assert.deepEqual(await c.query('-1/0', { time: T0 }), [{ metric: {}, value: -Infinity, timestamp: T0 }], name);
    const [nan] = await c.query('vector(0/0)', { time: T0 });
    assert.ok(nan && Number.isNaN(nan.value), name);
  }
});

test('a query error is BadResponse with errorType: error; other result types are refused', async () => {
  for (const [name, url] of targets()) {
    const c = client(url);
    const err = await c.query('sum(', { time: T0 }).then(
      () => assert.fail('expected an error'),
      (e: unknown) => e,
    );
    assert.ok(err instanceof IntegrationError, name);
    assert.equal(err.reason, 'BadResponse', name);
    assert.equal(err.status, 400, name);
    assert.match(err.message, /^prometheus: bad_data: .*parse error/, name);
    await assert.rejects(
      c.query('ALERTS[5m]'),
      (e: unknown) => e instanceof IntegrationError && e.reason === 'BadResponse' && /got "matrix"/.test(e.message),
      name,
    );
  }
});

test('faults of the simulated Prometheus: 5xx is HttpStatus, a reset connection Unreachable', async () => {
  assert.ok(sim);
  const c = client(sim.url);
  try {
    sim.setFault({ mode: '5xx' });
    await assert.rejects(
      c.query('up'),
      (e: unknown) => e instanceof IntegrationError && e.reason === 'HttpStatus' && e.status === 503,
    );
    sim.setFault({ mode: 'down' });
    await assert.rejects(c.query('up'), (e: unknown) => e instanceof IntegrationError && e.reason === 'Unreachable');
  } finally {
    sim.setFault({ mode: 'none' });
  }
});

test('parseQueryResponse reads vectors and scalars and rejects malformed bodies', () => {
  const vector = {
    status: 'success',
    data: {
      resultType: 'vector',
      result: [
        { metric: { __name__: 'up', job: 'a' }, value: [1710923456.789, '1'] },
        { metric: {}, value: [1710923456, 'NaN'] },
        { metric: { x: 'y' }, value: [1710923456, '+Inf'] },
        { metric: { x: 'z' }, value: [1710923456, '-Inf'] },
        { metric: { x: 'w' }, value: [1710923456, '1e-3'] },
      ],
    },
  };
  const samples = parseQueryResponse(vector, 200);
  assert.deepEqual(samples[0], { metric: { __name__: 'up', job: 'a' }, value: 1, timestamp: 1710923456789 });
  assert.ok(Number.isNaN(samples[1]?.value));
  assert.deepEqual(
    samples.slice(2).map((s) => s.value),
    [Infinity, -Infinity, 0.001],
  );
  assert.deepEqual(parseQueryResponse({ status: 'success', data: { resultType: 'scalar', result: [1, '3'] } }, 200), [
    { metric: {}, value: 3, timestamp: 1000 },
  ]);
  const bad = (body: unknown, re: RegExp): void => {
    assert.throws(
      () => parseQueryResponse(body, 200),
      (e: unknown) => e instanceof IntegrationError && e.reason === 'BadResponse' && re.test(e.message),
    );
  };
  bad({ status: 'error', errorType: 'execution', error: 'query timed out' }, /execution: query timed out/);
  bad({ status: 'success', data: { resultType: 'string', result: [1, 'x'] } }, /got "string"/);
  bad(
    { status: 'success', data: { resultType: 'vector', result: [{ metric: {}, value: [1, 'abc'] }] } },
    /malformed sample value/,
  );
  bad(
    { status: 'success', data: { resultType: 'vector', result: [{ metric: { a: 1 }, value: [1, '1'] }] } },
    /malformed label a/,
  );
  bad([], /not a Prometheus API object|unexpected status/);
  assert.equal(parsePromValue(''), undefined);
  assert.equal(formatPromTime(T0 + 250), '1710921600.25');
});
