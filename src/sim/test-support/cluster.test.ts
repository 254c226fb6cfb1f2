import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { startTestCluster } from './cluster.test-support.js';

void test('the fixture serves the OpenShift kinds and moves virtual time only when told', async (t) => {
  const cluster = await startTestCluster(t);
  const start = cluster.clock.now();
  const created = await cluster.client.create(ClusterVersionResource, {
    apiVersion: 'config.openshift.io/v1',
    kind: 'ClusterVersion',
    metadata: { name: 'version' },
    spec: { clusterID: '7b2c1e0a-1d3f-4a5b-9c8d-0e1f2a3b4c5d', channel: 'stable-4.15' },
  });
  assert.equal(created.metadata?.name, 'version');
  assert.equal(cluster.clock.now(), start);
  let fired = false;
  cluster.clock.setTimer(90_000, () => (fired = true));
  const result = await cluster.clock.run({ until: () => fired });
  assert.equal(result.reason, 'condition');
  assert.equal(cluster.clock.now(), start + 90_000);
});

void test('the fixture checks the §8.7 invariants with the OpenShift kinds, and has no monitor without them', async (t) => {
  const cluster = await startTestCluster(t);
  assert.deepEqual(cluster.invariants?.violations(), []);
  const plain = await startTestCluster(t, { openshiftCrds: false });
  assert.equal(plain.invariants, undefined);
});
