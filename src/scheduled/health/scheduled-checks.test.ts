import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PromSample } from '../../integrations/prometheus-api.js';
import { IntegrationError } from '../../integrations/integration-error.js';
import {
  evaluateClusterVersion,
  evaluateCriticalAlerts,
  evaluateCustomQuery,
  formatSeries,
  prometheusFailure,
  quoteQuery,
  unexcludedAlerts,
} from './scheduled-checks.js';

function sample(metric: Record<string, string>, value = 1): PromSample {
  return { metric, value, timestamp: 0 };
}

test('unexcludedAlerts: a namespace exclusion never removes alerts without a namespace; a name exclusion removes every namespace', () => {
  const samples = [
    sample({ alertname: 'A', namespace: 'ns1' }),
    sample({ alertname: 'A', namespace: 'ns2' }),
    sample({ alertname: 'B' }),
    sample({ alertname: 'C', namespace: '' }),
    sample({ namespace: 'ns3' }),
  ];
  assert.deepEqual(
    unexcludedAlerts(samples, { excludeNamespaces: ['ns1', ''] }).map((s) => s.metric),
    [{ alertname: 'A', namespace: 'ns2' }, { alertname: 'B' }, { namespace: 'ns3' }],
  );
  assert.deepEqual(
    unexcludedAlerts(samples, { excludeAlerts: ['A', 'B'] }).map((s) => s.metric),
    [{ alertname: 'C', namespace: '' }, { namespace: 'ns3' }],
  );
  assert.equal(unexcludedAlerts(samples).length, 5);
});

test('evaluateCriticalAlerts: names are unique and sorted, and a long list is cut', () => {
  const many = Array.from({ length: 23 }, (_, i) => sample({ alertname: `Alert${String(i).padStart(2, '0')}` }));
  const r = evaluateCriticalAlerts([...many, ...many, sample({ namespace: 'x' })]);
  assert.equal(
    r?.message,
    `critical alerts firing: (no alertname) (namespace x), ${Array.from({ length: 19 }, (_, i) => `Alert${String(i).padStart(2, '0')}`).join(', ')} and 4 more`,
  );
  assert.equal(evaluateCriticalAlerts([]), undefined);
});

test('evaluateCustomQuery and formatSeries: the series in PromQL notation, at most five named', () => {
  assert.equal(formatSeries({ job: 'b', __name__: 'up', instance: 'a"b' }), 'up{instance="a\\"b",job="b"}');
  assert.equal(formatSeries({}), '{}');
  const six = Array.from({ length: 6 }, (_, i) => sample({ i: String(i) }, i));
  assert.equal(
    evaluateCustomQuery('x\n  > 0', six)?.message,
    'custom query "x > 0" returned 6 series: {i="0"} 0, {i="1"} 1, {i="2"} 2, {i="3"} 3, {i="4"} 4 and 1 more',
  );
  assert.equal(evaluateCustomQuery('x', [sample({}, NaN)])?.message, 'custom query "x" returned 1 series: {} NaN');
  assert.equal(evaluateCustomQuery('x', []), undefined);
  assert.equal(quoteQuery('y'.repeat(400)).length, 302);
});

test('evaluateClusterVersion: a ClusterVersion without status is healthy (nothing says otherwise), a missing one is not', () => {
  assert.equal(evaluateClusterVersion({ metadata: { name: 'version' }, spec: { clusterID: 'c' } }), undefined);
  assert.equal(evaluateClusterVersion(undefined)?.check, 'cluster-version');
});

test('prometheusFailure: the integration failure kind when there is one', () => {
  assert.equal(
    prometheusFailure(new IntegrationError('prometheus', 'Timeout', 'no answer within 30s')),
    'Prometheus query failed (Timeout): prometheus: no answer within 30s',
  );
  assert.equal(prometheusFailure(new Error('boom')), 'Prometheus query failed: boom');
  assert.equal(prometheusFailure('text'), 'Prometheus query failed: text');
});
