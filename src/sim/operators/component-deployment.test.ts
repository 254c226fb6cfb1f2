import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import { buildCatalogue, findRelease } from '../releases/catalogue.js';
import { payloadFor } from '../releases/payload.js';
import {
  componentDeploymentFor,
  deploymentRolledOut,
  deploymentStatus,
  isOperatorDeployment,
  operatorDeploymentManifest,
  releaseVersionOf,
  replicaSetName,
} from './component-deployment.js';
import { componentImage } from '../releases/operator-deployment.js';

const catalogue = buildCatalogue();

void test('every ClusterOperator of the payload maps to a Deployment of its component', () => {
  for (const version of ['4.14.10', '4.15.3', '4.16.0']) {
    const payload = payloadFor(findRelease(catalogue, version)!);
    for (const co of payload.clusterOperators) {
      const ref = componentDeploymentFor(payload, co);
      assert.equal(ref.component, co.component);
      assert.ok(ref.namespace.startsWith('openshift-'), `${co.name}: ${ref.namespace}`);
    }
    const kas = payload.clusterOperators.find((m) => m.name === 'kube-apiserver')!;
    assert.deepEqual(componentDeploymentFor(payload, kas), {
      component: 'kube-apiserver-operator',
      namespace: 'openshift-kube-apiserver-operator',
      name: 'kube-apiserver-operator',
    });
    const olm = payload.clusterOperators
      .filter((m) => m.component === 'olm')
      .map((m) => componentDeploymentFor(payload, m).name);
    assert.deepEqual(olm, ['olm', 'olm', 'olm']);
    const config = payload.clusterOperators.find((m) => m.name === 'config-operator')!;
    assert.deepEqual(componentDeploymentFor(payload, config), {
      component: 'config-operator',
      namespace: 'openshift-config-operator',
      name: 'config-operator',
    });
  }
});

void test('the operator Deployment carries the version in its annotation and RELEASE_VERSION', () => {
  const payload = payloadFor(findRelease(catalogue, '4.15.3')!);
  const image = componentImage(payload, 'etcd-operator');
  assert.match(image, /^quay\.io\/openshift-release-dev\/ocp-v4\.0-art-dev@sha256:[0-9a-f]{64}$/);
  const d = operatorDeploymentManifest(
    { component: 'etcd-operator', namespace: 'openshift-etcd-operator', name: 'etcd-operator' },
    '4.15.3',
    image,
  );
  assert.ok(isOperatorDeployment(d));
  assert.equal(releaseVersionOf(d), '4.15.3');
  assert.equal(d.spec?.template.spec?.containers[0]?.name, 'operator');
  assert.deepEqual(d.spec?.selector.matchLabels, { app: 'etcd-operator' });
  assert.equal(isOperatorDeployment({ metadata: { name: 'x' } }), false);
});

void test('a Deployment rolls: one surge pod, then every replica updated and available', () => {
  const t0 = Date.UTC(2026, 0, 1);
  const base = operatorDeploymentManifest({ component: 'c', namespace: 'n', name: 'c' }, '4.15.3', 'img');
  const d: Deployment = {
    ...base,
    metadata: { ...base.metadata, generation: 2 },
    status: { observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 },
  };
  assert.equal(deploymentRolledOut(d), false);
  const rolling = deploymentStatus(d, 'rolling', t0);
  assert.deepEqual(
    [
      rolling.observedGeneration,
      rolling.replicas,
      rolling.updatedReplicas,
      rolling.availableReplicas,
      rolling.unavailableReplicas,
    ],
    [2, 2, 1, 1, 1],
  );
  assert.equal(
    rolling.conditions?.find((c) => c.type === 'Progressing')?.message,
    `ReplicaSet "${replicaSetName(d)}" is progressing.`,
  );
  const done: Deployment = { ...d, status: deploymentStatus({ ...d, status: rolling }, 'complete', t0 + 30_000) };
  assert.ok(deploymentRolledOut(done));
  const avail = done.status?.conditions?.find((c) => c.type === 'Available');
  assert.equal(avail?.lastTransitionTime, '2026-01-01T00:00:00Z');
  assert.equal(done.status?.conditions?.find((c) => c.type === 'Progressing')?.reason, 'NewReplicaSetAvailable');
  assert.match(replicaSetName(d), /^c-[bcdfghjklmnpqrstvwxz2456789]{10}$/);
});
