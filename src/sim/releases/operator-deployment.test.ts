import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildCatalogue, findRelease } from './catalogue.js';
import { componentDeployment, deploymentForClusterOperator, deploymentManifest } from './operator-deployment.js';
import { payloadFor, taskGraph } from './payload.js';

void test('every ClusterOperator of every minor has the operator Deployment the CVO applies', () => {
  const catalogue = buildCatalogue();
  for (const version of ['4.13.10', '4.14.10', '4.15.3', '4.16.5']) {
    const payload = payloadFor(findRelease(catalogue, version)!);
    const applied = new Set<string>();
    for (const stage of taskGraph(payload)) {
      if (stage.kind !== 'runlevel') continue;
      for (const chain of stage.components) {
        const ref = componentDeployment(chain);
        if (ref) applied.add(`${ref.namespace}/${ref.name}`);
      }
    }
    for (const co of payload.clusterOperators) {
      const ref = deploymentForClusterOperator(payload, co);
      assert.ok(ref, `${version}: no Deployment for ClusterOperator ${co.name}`);
      assert.ok(
        applied.has(`${ref.namespace}/${ref.name}`),
        `${version}: ${co.name}'s Deployment ${ref.namespace}/${ref.name} is not one the CVO applies`,
      );
    }
    const mco = payload.clusterOperators.find((co) => co.name === 'machine-config')!;
    assert.deepEqual(deploymentForClusterOperator(payload, mco), {
      namespace: 'openshift-machine-config-operator',
      name: 'machine-config-operator',
      synthesized: false,
    });
  }
});

void test('the applied Deployment carries the release version in the annotation and RELEASE_VERSION', () => {
  const d = deploymentManifest(
    { namespace: 'openshift-dns-operator', name: 'dns-operator', synthesized: false },
    '4.15.3',
    'quay.io/x@sha256:1',
  );
  assert.equal(d.metadata?.annotations?.['release.openshift.io/version'], '4.15.3');
  assert.deepEqual(d.spec?.template.spec?.containers[0]?.env, [{ name: 'RELEASE_VERSION', value: '4.15.3' }]);
});
