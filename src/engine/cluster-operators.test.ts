import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClusterOperator } from '../api/openshift/config-v1/cluster-operator.js';
import type { ClusterOperatorStatusCondition } from '../api/openshift/config-v1/cluster-version.js';
import { checkClusterOperators, clusterOperatorsUnknown, degradedConditions } from './cluster-operators.js';

const T = '2024-03-20T08:00:00Z';

function co(name: string, conditions: Omit<ClusterOperatorStatusCondition, 'lastTransitionTime'>[]): ClusterOperator {
  return {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterOperator',
    metadata: { name },
    spec: {},
    status: { conditions: conditions.map((c) => ({ ...c, lastTransitionTime: T })) },
  };
}

const healthy = (name: string): ClusterOperator =>
  co(name, [
    { type: 'Available', status: 'True', reason: 'AsExpected' },
    { type: 'Progressing', status: 'False' },
    { type: 'Degraded', status: 'False' },
  ]);

test('checkClusterOperators: all Available and not Degraded passes (Progressing and missing conditions do not matter)', () => {
  assert.deepEqual(checkClusterOperators([]), { check: 'cluster-operators', healthy: true });
  assert.deepEqual(
    checkClusterOperators([
      healthy('dns'),
      healthy('etcd'),
      co('console', [{ type: 'Progressing', status: 'True' }]),
      { metadata: { name: 'new' }, spec: {} },
    ]),
    {
      check: 'cluster-operators',
      healthy: true,
    },
  );
});

test('checkClusterOperators: Degraded=True or Available=False fails, naming each operator with its conditions', () => {
  const r = checkClusterOperators([
    healthy('etcd'),
    co('dns', [
      { type: 'Available', status: 'False', reason: 'DNSUnavailable', message: 'DNS "default" is unavailable.' },
      { type: 'Degraded', status: 'True', reason: 'DNSDegraded' },
    ]),
    co('authentication', [
      { type: 'Available', status: 'True' },
      {
        type: 'Degraded',
        status: 'True',
        reason: 'OAuthServerRouteEndpointAccessibleControllerDegraded',
        message: 'Get "https://oauth.apps.example.com/healthz":\n  EOF',
      },
    ]),
    co('ingress', [
      { type: 'Available', status: 'Unknown' },
      { type: 'Degraded', status: 'Unknown' },
    ]),
    co('monitoring', [{ type: 'Available', status: 'False' }]),
  ]);
  assert.ok(!r.healthy);
  assert.deepEqual(r.failure, {
    check: 'cluster-operators',
    metricReason: 'cluster_operators_degraded',
    muoText: 'ClusterOperatorsHealthcheckFailed',
    message:
      'cluster operators degraded: authentication: Degraded=True (OAuthServerRouteEndpointAccessibleControllerDegraded: Get "https://oauth.apps.example.com/healthz": EOF); ' +
      'dns: Available=False (DNSUnavailable: DNS "default" is unavailable.), Degraded=True (DNSDegraded); monitoring: Available=False',
    blocking: true,
  });
});

test('checkClusterOperators: a long condition message is cut', () => {
  const r = checkClusterOperators([
    co('storage', [{ type: 'Degraded', status: 'True', reason: 'R', message: 'x'.repeat(1000) }]),
  ]);
  assert.ok(!r.healthy);
  assert.equal(r.failure.message, `cluster operators degraded: storage: Degraded=True (R: ${'x'.repeat(299)}…)`);
});

test('degradedConditions: Available=False first, then Degraded=True', () => {
  const c = degradedConditions(
    co('x', [
      { type: 'Degraded', status: 'True' },
      { type: 'Available', status: 'False' },
    ]),
  );
  assert.deepEqual(
    c.map((x) => x.type),
    ['Available', 'Degraded'],
  );
});

test('clusterOperatorsUnknown: an unreadable list fails closed', () => {
  const r = clusterOperatorsUnknown(new Error('clusteroperators.config.openshift.io is forbidden'));
  assert.ok(!r.healthy);
  assert.equal(r.failure.metricReason, 'cluster_operator_status_failed');
  assert.equal(r.failure.muoText, 'ClusterOperatorsHealthcheckFailed');
  assert.equal(r.failure.message, 'unable to read ClusterOperators: clusteroperators.config.openshift.io is forbidden');
  assert.equal(r.failure.blocking, true);
});
