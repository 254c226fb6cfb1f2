import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PodDisruptionBudget, PodDisruptionBudgetSpec } from 'kubernetes-types/policy/v1.js';
import {
  blockingSetting,
  checkPodDisruptionBudgets,
  isCheckedNamespace,
  pdbMuoText,
  podDisruptionBudgetsUnknown,
} from './pod-disruption-budgets.js';

function pdb(namespace: string, name: string, spec: Omit<PodDisruptionBudgetSpec, 'selector'>): PodDisruptionBudget {
  return {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { namespace, name },
    spec: { selector: { matchLabels: { app: name } }, ...spec },
  };
}

test('isCheckedNamespace: customer namespaces and the exception list; not openshift-*, kube-*, default', () => {
  for (const ns of [
    'my-app',
    'openshiftish',
    'kubeflow',
    'defaults',
    'openshift-logging',
    'openshift-operators',
    'openshift-pipelines',
    'openshift-cnv',
  ])
    assert.equal(isCheckedNamespace(ns), true, ns);
  for (const ns of ['openshift-ingress', 'openshift-monitoring', 'openshift', 'kube-system', 'kube-public', 'default'])
    assert.equal(isCheckedNamespace(ns), false, ns);
});

test('blockingSetting: maxUnavailable 0 / "0%", minAvailable "100%"', () => {
  assert.equal(blockingSetting(pdb('a', 'b', { maxUnavailable: 0 })), 'maxUnavailable=0');
  assert.equal(blockingSetting(pdb('a', 'b', { maxUnavailable: '0%' })), 'maxUnavailable=0%');
  assert.equal(blockingSetting(pdb('a', 'b', { minAvailable: '100%' })), 'minAvailable=100%');
  assert.equal(blockingSetting(pdb('a', 'b', { maxUnavailable: 1 })), undefined);
  assert.equal(blockingSetting(pdb('a', 'b', { maxUnavailable: '10%' })), undefined);
  assert.equal(blockingSetting(pdb('a', 'b', { minAvailable: 3 })), undefined);
  assert.equal(blockingSetting(pdb('a', 'b', { minAvailable: '50%' })), undefined);
  assert.equal(blockingSetting(pdb('a', 'b', {})), undefined);
});

test('checkPodDisruptionBudgets: every offending PDB in checked namespaces, sorted, as MUO JSON', () => {
  const pdbs = [
    pdb('shop', 'web', { maxUnavailable: 0 }),
    pdb('openshift-ingress', 'router-default', { maxUnavailable: 0 }), // platform: not checked
    pdb('kube-system', 'coredns', { minAvailable: '100%' }), // platform: not checked
    pdb('openshift-logging', 'collector', { minAvailable: '100%' }), // exception list: checked
    pdb('bank', 'db', { maxUnavailable: '0%' }),
    pdb('shop', 'api', { maxUnavailable: 1 }),
    pdb('shop', 'cache', { maxUnavailable: 0 }),
  ];
  const r = checkPodDisruptionBudgets(pdbs);
  assert.ok(!r.healthy);
  assert.deepEqual(r.failure, {
    check: 'pod-disruption-budgets',
    metricReason: 'cluster_invalid_pdb_configuration',
    muoText:
      'PDBHealthcheckFailed: [{"Name":"db","Namespace":"bank"},{"Name":"collector","Namespace":"openshift-logging"},{"Name":"cache","Namespace":"shop"},{"Name":"web","Namespace":"shop"}]',
    message:
      'PodDisruptionBudgets allow no disruption, node drains will wait for them: bank/db (maxUnavailable=0%), openshift-logging/collector (minAvailable=100%), shop/cache (maxUnavailable=0), shop/web (maxUnavailable=0)',
    blocking: false,
  });
  assert.deepEqual(
    checkPodDisruptionBudgets(pdbs.slice(1, 4).filter((p) => p.metadata?.namespace !== 'openshift-logging')),
    {
      check: 'pod-disruption-budgets',
      healthy: true,
    },
  );
});

test('pdbMuoText and podDisruptionBudgetsUnknown', () => {
  assert.equal(pdbMuoText([]), 'PDBHealthcheckFailed');
  const r = podDisruptionBudgetsUnknown(new Error('forbidden'));
  assert.ok(!r.healthy);
  assert.deepEqual(
    [r.failure.metricReason, r.failure.muoText, r.failure.message],
    ['pdb_query_failed', 'PDBHealthcheckFailed', 'unable to list PodDisruptionBudgets: forbidden'],
  );
});
