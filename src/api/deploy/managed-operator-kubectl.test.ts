/**
 * `kubectl apply -k deploy/managed` (the CRDs and the managed flow) with the real kubectl against
 * the embedded API server, as docs/install.md tells users to install the operator. The embedded server
 * serves the RBAC kinds with their schemas, and the harness installs the monitoring CRDs
 * (ServiceMonitor, PrometheusRule), so `--validate=strict` checks those shapes. The server
 * validates neither Deployments nor Services, so their shapes are checked at compile time
 * (kubernetes-types) and by managed-operator-manifests.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operatorManifestOptions } from '../../cli/manifests.js';
import {
  assertStoredAsGenerated,
  objectRefs,
  startKubectlHarness,
  type KubectlHarness,
  type ObjectRef,
} from './kubectl-harness.test-support.js';
import { managedOperatorManifestFiles } from './managed-operator-manifests.js';

let h: KubectlHarness;

before(async () => {
  h = await startKubectlHarness();
});

after(async () => {
  await h.close();
});

function expectedObjects(): ObjectRef[] {
  return objectRefs(managedOperatorManifestFiles(operatorManifestOptions()));
}

void test('kubectl apply -k deploy/managed creates the CRDs and every operator object, and a second apply changes nothing', async () => {
  // The CRDs alone first (what `run` suggests when they are missing); deploy/managed includes them.
  const crds = await h.kubectl(['apply', '-k', 'deploy/crds']);
  assert.equal(crds.code, 0, crds.stderr);
  assert.equal(crds.stdout.trim().split('\n').length, 7, crds.stdout);
  const first = await h.kubectl(['apply', '--validate=strict', '-k', 'deploy/managed']);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stderr.trim(), '', 'no warnings (unknown fields would be reported here)');
  const lines = first.stdout.trim().split('\n');
  for (const { ref } of expectedObjects())
    assert.ok(lines.includes(`${ref} created`), `${ref} created; got:\n${first.stdout}`);

  const second = await h.kubectl(['apply', '--validate=strict', '-k', 'deploy/managed']);
  assert.equal(second.code, 0, second.stderr);
  for (const { ref } of expectedObjects())
    assert.ok(second.stdout.includes(`${ref} unchanged`), `${ref} unchanged; got:\n${second.stdout}`);
});

void test('what the server stored is what was generated', async () => {
  await assertStoredAsGenerated(h, expectedObjects());
  const d = await h.kubectl([
    'get',
    'deployment/upgrade-operator',
    '-n',
    'openshift-managed-upgrade-operator',
    '-o',
    'jsonpath={.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].args}',
  ]);
  assert.equal(d.code, 0, d.stderr);
  assert.equal(d.stdout, `quay.io/upgrade-operator/upgrade-operator:${operatorManifestOptions().version} ["run"]`);
});

void test('the RBAC and monitoring schemas reject what the real API would (so the acceptance above means something)', async () => {
  const bad = join(h.dir, 'bad.yaml');
  const cases: Array<[string, RegExp]> = [
    [
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r, namespace: default}\nrules:\n- apiGroups: [""]\n  resources: [pods]\n',
      /verbs/,
    ],
    [
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: c}\nrules:\n- apiGroups: [""]\n  resources: [pods]\n  verbs: [get]\n  resourceName: [x]\n',
      /resourceName/,
    ],
    [
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: b, namespace: default}\nsubjects: []\n',
      /roleRef/,
    ],
    [
      'apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata: {name: p, namespace: default}\nspec:\n  groups:\n  - name: g\n    rules:\n    - alert: A\n      for: 5 minutes\n      expr: up == 0\n',
      /for/,
    ],
    [
      'apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata: {name: p, namespace: default}\nspec:\n  groups:\n  - name: g\n    rules:\n    - alert: A\n',
      /expr/,
    ],
    [
      'apiVersion: monitoring.coreos.com/v1\nkind: ServiceMonitor\nmetadata: {name: m, namespace: default}\nspec:\n  selector: {}\n  endpoints:\n  - port: p\n    scheme: ftp\n',
      /scheme/,
    ],
  ];
  for (const [yaml, message] of cases) {
    writeFileSync(bad, yaml);
    const r = await h.kubectl(['apply', '--validate=strict', '-f', bad]);
    assert.notEqual(r.code, 0, `accepted:\n${yaml}`);
    assert.match(r.stderr, message);
  }
  writeFileSync(
    bad,
    'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: upgrade-operator, namespace: openshift-managed-upgrade-operator}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: admin}\nsubjects: []\n',
  );
  const changed = await h.kubectl(['apply', '-f', bad]);
  assert.notEqual(changed.code, 0, 'roleRef changed');
  assert.match(changed.stderr, /cannot change roleRef/);
});
