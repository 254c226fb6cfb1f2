import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry, Gauge } from 'prom-client';
import { ExpositionParseError, parseExposition } from './exposition-format.js';

test('parseExposition: comments, labels with escapes, values, timestamps, exemplars', () => {
  const text = [
    '# HELP up The scrape worked.',
    '# TYPE up gauge',
    'up 1',
    '',
    'http_requests_total{method="post",code="200"} 1027 1395066363000',
    'escaped{path="C:\\\\dir\\\\file",quote="say \\"hi\\"",nl="a\\nb",} 3.5e2',
    'weird { a = "1" , b="" } -Inf',
    'nan_metric NaN',
    'pos +Inf',
    'small -.5',
    'om_total{a="x"} 7 # {trace_id="abc"} 1.0 1520879607.789',
    'crlf 2\r',
    '# EOF',
  ].join('\n');
  const samples = parseExposition(text);
  assert.equal(samples.length, 9);
  assert.deepEqual(samples[0], { name: 'up', labels: {}, value: 1 });
  assert.deepEqual(samples[1], { name: 'http_requests_total', labels: { method: 'post', code: '200' }, value: 1027 });
  assert.deepEqual(samples[2], {
    name: 'escaped',
    labels: { path: 'C:\\dir\\file', quote: 'say "hi"', nl: 'a\nb' },
    value: 350,
  });
  assert.deepEqual(samples[3], { name: 'weird', labels: { a: '1', b: '' }, value: -Infinity });
  assert.ok(Number.isNaN(samples[4]?.value));
  assert.equal(samples[5]?.value, Infinity);
  assert.equal(samples[6]?.value, -0.5);
  assert.deepEqual(samples[7], { name: 'om_total', labels: { a: 'x' }, value: 7 });
  assert.deepEqual(samples[8], { name: 'crlf', labels: {}, value: 2 });
});

test('parseExposition: reads what prom-client writes', async () => {
  const registry = new Registry();
  const g = new Gauge({
    name: 'deployment_validation_operator_pdb_min_available',
    help: 'h "q" \\ x',
    labelNames: ['name', 'namespace_name', 'kind'],
    registers: [registry],
  });
  g.set({ name: 'web', namespace_name: 'shop', kind: 'PodDisruptionBudget' }, 1);
  g.set({ name: 'odd "name"\\', namespace_name: 'ns\nx', kind: 'PodDisruptionBudget' }, 0);
  const samples = parseExposition(await registry.metrics());
  assert.deepEqual(samples, [
    {
      name: 'deployment_validation_operator_pdb_min_available',
      labels: { name: 'web', namespace_name: 'shop', kind: 'PodDisruptionBudget' },
      value: 1,
    },
    {
      name: 'deployment_validation_operator_pdb_min_available',
      labels: { name: 'odd "name"\\', namespace_name: 'ns\nx', kind: 'PodDisruptionBudget' },
      value: 0,
    },
  ]);
});

test('parseExposition: bad lines throw with the line number', () => {
  const bad: [string, RegExp][] = [
    ['ok 1\n{a="b"} 1', /^line 2: expected metric name/],
    ['m{a="b} 1', /^line 1: unterminated label value/],
    ['m{a=b} 1', /^line 1: expected "/],
    ['m{a="1",a="2"} 1', /duplicate label a/],
    ['m{a="\\x"} 1', /invalid escape/],
    ['m one', /invalid value "one"/],
    ['m', /invalid value ""/],
    ['m 1 12x', /invalid timestamp/],
    ['m 1 12 extra', /unexpected text after the timestamp/],
    ['m{1a="x"} 1', /expected label name/],
  ];
  for (const [text, re] of bad) {
    assert.throws(
      () => parseExposition(text),
      (err: unknown) => err instanceof ExpositionParseError && re.test(err.message),
      text,
    );
  }
});
