import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Tsdb } from '../tsdb.js';
import { instantQuery, rangeQuery } from './engine.js';
import { PromqlError } from './errors.js';
import { parsePromql, unquote } from './parse.js';
import { formatExponent, formatSampleValue } from './values.js';
import type { Value } from './values.js';

function db(): Tsdb {
  const d = new Tsdb();
  for (let i = 0; i <= 20; i++) {
    const t = i * 30_000;
    d.append(
      { __name__: 'ALERTS', alertname: 'A', alertstate: 'firing', severity: 'critical', namespace: 'openshift-etcd' },
      1,
      t,
    );
    d.append(
      { __name__: 'ALERTS', alertname: 'B', alertstate: 'pending', severity: 'warning', namespace: 'kube-system' },
      1,
      t,
    );
    d.append({ __name__: 'x', i: 'a' }, i, t);
    d.append({ __name__: 'y', i: 'a' }, 2 * i, t);
  }
  return d;
}

function vec(v: Value): Array<[Record<string, string>, number]> {
  assert.equal(v.type, 'vector');
  return v.type === 'vector' ? v.samples.map((s) => [{ ...s.metric }, s.v]) : [];
}

function error(fn: () => unknown): PromqlError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof PromqlError, String(err));
    return err;
  }
  assert.fail('expected an error');
}

test('ALERTS selectors with all four matchers', () => {
  const r = instantQuery(
    db(),
    'ALERTS{alertstate="firing",severity!="warning",namespace=~"openshift-.*",alertname!~"B|C"}',
    600_000,
  );
  assert.deepEqual(
    vec(r).map(([m]) => m['alertname']),
    ['A'],
  );
});

test('binary operators: arithmetic drops the name, filters keep it, bool gives 0/1', () => {
  const d = db();
  assert.deepEqual(vec(instantQuery(d, 'y / x', 300_000)), [[{ i: 'a' }, 2]]);
  assert.deepEqual(vec(instantQuery(d, 'x > 5', 300_000)), [[{ __name__: 'x', i: 'a' }, 10]]);
  assert.deepEqual(vec(instantQuery(d, 'x > 50', 300_000)), []);
  assert.deepEqual(vec(instantQuery(d, 'x > bool 50', 300_000)), [[{ i: 'a' }, 0]]);
  assert.deepEqual(vec(instantQuery(d, '100 - x', 300_000)), [[{ i: 'a' }, 90]]);
});

test('results with duplicate label sets are an execution error', () => {
  const d = new Tsdb();
  d.append({ __name__: 'a', k: '1' }, 1, 0);
  d.append({ __name__: 'b', k: '1' }, 1, 0);
  const e2 = error(() => instantQuery(d, '{k="1"} * 2', 0));
  assert.equal(e2.errorType, 'execution');
  assert.match(e2.message, /same labelset/);
});

test('unsupported constructs are bad_data errors that name the construct', () => {
  for (const [q, what] of [
    ['rate(x[5m:1m])', 'subquery'],
    ['x @ 100', 'the @ modifier'],
    ['histogram_quantile(0.9, x)', 'function "histogram_quantile"'],
    ['quantile(0.9, x)', 'aggregation "quantile"'],
    ['stddev(x)', 'aggregation "stddev"'],
  ] as const) {
    const e = error(() => parsePromql(q));
    assert.equal(e.errorType, 'bad_data');
    assert.match(e.message, new RegExp(`${what.replace(/[()@]/g, '\\$&')} is not supported`), q);
  }
});

test('static type errors are reported like Prometheus', () => {
  assert.match(
    error(() => parsePromql('sum(x[5m])')).message,
    /expected type instant vector in aggregation expression, got range vector/,
  );
  assert.match(
    error(() => parsePromql('x and 1')).message,
    /set operator "and" not allowed in binary scalar expression/,
  );
  assert.match(
    error(() => parsePromql('x + bool x')).message,
    /bool modifier can only be used on comparison operators/,
  );
  assert.match(error(() => parsePromql('{a=""}')).message, /at least one non-empty matcher/);
  assert.match(error(() => parsePromql('x{__name__="y"}')).message, /metric name must not be set twice/);
  assert.match(error(() => parsePromql('x offset 5m offset 1m')).message, /offset/);
  assert.match(error(() => parsePromql('')).message, /no expression found/);
});

test('topk, count_values and absent', () => {
  const d = db();
  assert.deepEqual(vec(instantQuery(d, 'topk(1, {__name__=~"x|y"})', 300_000)), [[{ __name__: 'y', i: 'a' }, 20]]);
  assert.deepEqual(vec(instantQuery(d, 'count_values("v", x)', 300_000)), [[{ v: '10' }, 1]]);
  assert.deepEqual(vec(instantQuery(d, 'absent(ALERTS{alertname="Z",severity="critical"})', 300_000)), [
    [{ alertname: 'Z', severity: 'critical' }, 1],
  ]);
  assert.deepEqual(vec(instantQuery(d, 'absent(ALERTS)', 300_000)), []);
});

test('rate and increase handle counter resets', () => {
  const d = new Tsdb();
  const values = [0, 10, 20, 5, 15];
  values.forEach((v, i) => d.append({ __name__: 'c' }, v, i * 60_000));
  // 0→20, reset to 5 (adds 20), →15: raw increase 35 over the 4 sampled minutes.
  assert.deepEqual(
    vec(instantQuery(d, 'increase(c[4m])', 240_000)).map(([, v]) => v),
    [35],
  );
  assert.deepEqual(
    vec(instantQuery(d, 'changes(c[4m])', 240_000)).map(([, v]) => v),
    [4],
  );
});

test('range queries evaluate every step; range vectors are rejected', () => {
  const r = rangeQuery(db(), 'x * 2', 0, 120_000, 60_000);
  assert.deepEqual(
    r.series.map((s) => s.points.map((p) => [p.t, p.v])),
    [
      [
        [0, 0],
        [60_000, 4],
        [120_000, 8],
      ],
    ],
  );
  assert.match(
    error(() => rangeQuery(db(), 'x[1m]', 0, 60_000, 30_000)).message,
    /invalid expression type "range vector" for range query/,
  );
  assert.match(error(() => rangeQuery(db(), 'x', 0, 100_000_000, 1)).message, /11,000 points/);
});

test('number formatting matches Go', () => {
  assert.equal(formatSampleValue(1e21), '1000000000000000000000');
  assert.equal(formatSampleValue(1.5e-7), '0.00000015');
  assert.equal(formatSampleValue(Infinity), '+Inf');
  assert.equal(formatSampleValue(NaN), 'NaN');
  assert.equal(formatExponent(1), '1e+00');
  assert.equal(formatExponent(0.25), '2.5e-01');
  assert.equal(formatExponent(123456), '1.23456e+05');
  assert.equal(unquote('"a\\n\\"b\\x41"'), 'a\n"bA');
  assert.equal(unquote('`raw\\n`'), 'raw\\n');
});
