/**
 * `kubectl apply -k deploy/scheduled` with the real kubectl against the embedded API server, as
 * docs/install.md tells users to install the scheduled flow, after the managed flow's
 * `kubectl apply -k deploy/managed`: no object of one folder may overwrite one of the
 * other (both can be applied to one cluster). RBAC is validated against the server's built-in
 * schemas, ServiceMonitors against the monitoring CRDs (api/monitoring/crds.ts); Deployments and Services
 * are checked at compile time (kubernetes-types) and by scheduled-operator-manifests.test.ts.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { scheduledOperatorManifestOptions } from '../../cli/manifests.js';
import { APPUIO_CONTROLLER_NAMESPACE } from '../managedupgrade.appuio.io/v1beta1/group.js';
import {
  assertStoredAsGenerated,
  objectRefs,
  startKubectlHarness,
  type KubectlHarness,
  type ObjectRef,
} from './kubectl-harness.test-support.js';
import { scheduledOperatorManifestFiles } from './scheduled-operator-manifests.js';

let h: KubectlHarness;

before(async () => {
  h = await startKubectlHarness();
});

after(async () => {
  await h.close();
});

function expectedObjects(): ObjectRef[] {
  return objectRefs(scheduledOperatorManifestFiles(scheduledOperatorManifestOptions()));
}

void test("kubectl apply --validate=strict creates every object next to the managed flow's, and a second apply changes nothing", async () => {
  const managed = await h.kubectl(['apply', '--validate=strict', '-k', 'deploy/managed']);
  assert.equal(managed.code, 0, managed.stderr);
  const first = await h.kubectl(['apply', '--validate=strict', '-k', 'deploy/scheduled']);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stderr.trim(), '', 'no warnings (unknown fields would be reported here)');
  const all = first.stdout.trim().split('\n');
  // Both flows include deploy/crds: the managed flow's apply created them.
  const crds = all.filter((l) => l.startsWith('customresourcedefinition.'));
  assert.ok(crds.length === 7 && crds.every((l) => l.endsWith(' unchanged')), first.stdout);
  const lines = all.filter((l) => !l.startsWith('customresourcedefinition.'));
  // "configured" instead of "created" would mean that a managed-flow object of the same name was overwritten.
  for (const { ref } of expectedObjects())
    assert.ok(lines.includes(`${ref} created`), `${ref} created; got:\n${first.stdout}`);
  assert.equal(lines.length, expectedObjects().length);

  const second = await h.kubectl(['apply', '--validate=strict', '-k', 'deploy/scheduled']);
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
    APPUIO_CONTROLLER_NAMESPACE,
    '-o',
    'jsonpath={.spec.template.spec.containers[0].image} {.spec.template.spec.containers[0].args}',
  ]);
  assert.equal(d.code, 0, d.stderr);
  assert.equal(
    d.stdout,
    `quay.io/upgrade-operator/upgrade-operator:${scheduledOperatorManifestOptions().version} ["run","--flows=scheduled"]`,
  );
  const viewers = await h.kubectl([
    'get',
    'clusterroles.rbac.authorization.k8s.io',
    '-l',
    'rbac.authorization.k8s.io/aggregate-to-cluster-reader=true',
    '-o',
    'name',
  ]);
  assert.equal(viewers.code, 0, viewers.stderr);
  assert.equal(viewers.stdout.trim().split('\n').length, 6, 'one aggregated viewer role per kind');
});
