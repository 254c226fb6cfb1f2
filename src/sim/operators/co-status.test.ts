import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergeConditions, operatorConditions, type OperatorStatusInput } from './co-status.js';
import { operatorProfile } from './profiles.js';

function input(name: string, extra: Partial<OperatorStatusInput> = {}): OperatorStatusInput {
  return { profile: operatorProfile(name), version: '4.14.10', revision: 14, masters: 3, nodes: 6, ...extra };
}

function byType(
  conds: ReturnType<typeof operatorConditions>,
  type: string,
): { status: string; reason?: string; message?: string } {
  const c = conds.find((x) => x.type === type);
  assert.ok(c, `no ${type}`);
  return c;
}

void test('a static-pod operator words its revisions as library-go does', () => {
  const idle = operatorConditions(input('kube-apiserver'));
  assert.deepEqual(
    idle.map((c) => c.type),
    ['Degraded', 'Progressing', 'Available', 'Upgradeable', 'EvaluationConditionsDetected'],
  );
  assert.equal(byType(idle, 'Progressing').message, 'NodeInstallerProgressing: 3 nodes are at revision 14');
  assert.equal(
    byType(idle, 'Available').message,
    'StaticPodsAvailable: 3 nodes are active; 3 nodes are at revision 14',
  );
  assert.equal(byType(idle, 'Degraded').message, 'NodeControllerDegraded: All master nodes are ready');
  const start = operatorConditions(
    input('kube-apiserver', { rollout: { target: '4.15.3', fraction: 0.1, fromRevision: 14 } }),
  );
  assert.deepEqual(byType(start, 'Progressing'), {
    type: 'Progressing',
    status: 'True',
    reason: 'NodeInstaller',
    message: 'NodeInstallerProgressing: 3 nodes are at revision 14; 0 nodes have achieved new revision 15',
  });
  const mid = operatorConditions(
    input('kube-apiserver', { rollout: { target: '4.15.3', fraction: 0.4, fromRevision: 14 } }),
  );
  assert.equal(
    byType(mid, 'Progressing').message,
    'NodeInstallerProgressing: 2 nodes are at revision 14; 1 node is at revision 15',
  );
  assert.equal(
    byType(mid, 'Available').message,
    'StaticPodsAvailable: 3 nodes are active; 2 nodes are at revision 14; 1 node is at revision 15',
  );
});

void test('network, dns and generic operators report progress in their own words', () => {
  const net = operatorConditions(input('network', { rollout: { target: '4.15.3', fraction: 0.5, fromRevision: 0 } }));
  assert.equal(
    byType(net, 'Progressing').message,
    'DaemonSet "/openshift-ovn-kubernetes/ovnkube-node" is not available (awaiting 3 nodes)',
  );
  const dns = operatorConditions(input('dns', { rollout: { target: '4.15.3', fraction: 0.5, fromRevision: 0 } }));
  assert.equal(
    byType(dns, 'Progressing').message,
    'DNS "default" reports Progressing=True: "Have 5 available DNS pods, want 6."',
  );
  const gen = operatorConditions(
    input('service-ca', { rollout: { target: '4.15.3', fraction: 0.5, fromRevision: 0 } }),
  );
  assert.deepEqual(byType(gen, 'Progressing'), {
    type: 'Progressing',
    status: 'True',
    reason: 'Progressing',
    message: 'Working towards 4.15.3',
  });
  assert.deepEqual(byType(operatorConditions(input('service-ca')), 'Progressing'), {
    type: 'Progressing',
    status: 'False',
    reason: 'AsExpected',
    message: 'All is well',
  });
});

void test('faults override the healthy wording', () => {
  const conds = operatorConditions(
    input('ingress', {
      degraded: { reason: 'IngressDegraded', message: 'degraded' },
      unavailable: { reason: 'IngressUnavailable', message: 'down' },
      notUpgradeable: { reason: 'AdminAckRequired', message: 'ack' },
    }),
  );
  assert.deepEqual(byType(conds, 'Degraded'), {
    type: 'Degraded',
    status: 'True',
    reason: 'IngressDegraded',
    message: 'degraded',
  });
  assert.deepEqual(byType(conds, 'Available'), {
    type: 'Available',
    status: 'False',
    reason: 'IngressUnavailable',
    message: 'down',
  });
  assert.deepEqual(byType(conds, 'Upgradeable'), {
    type: 'Upgradeable',
    status: 'False',
    reason: 'AdminAckRequired',
    message: 'ack',
  });
});

void test('lastTransitionTime moves only when the status changes', () => {
  const t0 = Date.UTC(2026, 0, 1);
  const first = mergeConditions(undefined, operatorConditions(input('etcd')), t0);
  assert.ok(first.every((c) => c.lastTransitionTime === '2026-01-01T00:00:00Z'));
  const rolling = mergeConditions(
    first,
    operatorConditions(input('etcd', { rollout: { target: '4.15.3', fraction: 0.5, fromRevision: 14 } })),
    t0 + 60_000,
  );
  const p = rolling.find((c) => c.type === 'Progressing');
  const a = rolling.find((c) => c.type === 'Available');
  assert.equal(p?.lastTransitionTime, '2026-01-01T00:01:00Z');
  assert.equal(a?.lastTransitionTime, '2026-01-01T00:00:00Z');
  assert.notEqual(a?.message, first.find((c) => c.type === 'Available')?.message);
});
