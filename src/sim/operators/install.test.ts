import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeploymentResource, NamespaceResource } from '../../api/builtin.js';
import { ClusterOperatorResource } from '../../api/openshift/config-v1/cluster-operator.js';
import { buildCatalogue } from '../releases/catalogue.js';
import { startTestCluster } from '../test-support/cluster.test-support.js';
import { installClusterOperators } from './install.js';
import { createOperatorActors } from './operator-actors.js';
import { payloadOf } from './operators.test-support.js';

const catalogue = buildCatalogue();

void test('an installed cluster has every ClusterOperator available at the version, and its operator Deployments rolled out', async (t) => {
  const cluster = await startTestCluster(t);
  const names = await installClusterOperators(cluster.ctx, '4.14.10', { catalogue });
  const payload = payloadOf('4.14.10');
  assert.equal(names.length, 33);
  const cos = (await cluster.client.list(ClusterOperatorResource)).items;
  assert.equal(cos.length, 33);
  for (const co of cos) {
    const name = co.metadata?.name ?? '';
    assert.deepEqual(co.spec, {});
    const status = Object.fromEntries((co.status?.conditions ?? []).map((c) => [c.type, c.status]));
    assert.deepEqual(
      status,
      {
        Available: 'True',
        Progressing: 'False',
        Degraded: 'False',
        Upgradeable: 'True',
        EvaluationConditionsDetected: 'False',
      },
      name,
    );
    assert.deepEqual(co.status?.versions, payload.clusterOperators.find((m) => m.name === name)?.operandVersions, name);
    assert.ok((co.status?.relatedObjects ?? []).length > 0, name);
  }
  const dep = await cluster.client.get(DeploymentResource, 'openshift-etcd-operator', 'etcd-operator');
  assert.equal(dep.metadata?.annotations?.['release.openshift.io/version'], '4.14.10');
  assert.equal(dep.status?.availableReplicas, 1);
  assert.equal(dep.status?.observedGeneration, dep.metadata?.generation);
  assert.ok(
    dep.metadata?.managedFields?.some((f) => f.manager === 'cluster-version-operator' && f.operation === 'Apply'),
  );
  await cluster.client.get(NamespaceResource, undefined, 'openshift-etcd-operator');
  // Idempotent: a second install keeps what exists.
  assert.equal((await installClusterOperators(cluster.ctx, '4.14.10', { catalogue })).length, 33);
});

void test('workload Deployments (without the release annotation) are left to the workloads controller', async (t) => {
  const cluster = await startTestCluster(t);
  await installClusterOperators(cluster.ctx, '4.14.10', { catalogue, exclude: ['machine-config'] });
  const actors = createOperatorActors(cluster.ctx, { catalogue });
  await actors.start(cluster.signal);
  await cluster.client.create(DeploymentResource, {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
    },
  });
  await cluster.clock.run({ until: cluster.clock.now() + 10 * 60_000 });
  const web = await cluster.client.get(DeploymentResource, 'default', 'web');
  assert.equal(web.status?.observedGeneration, undefined);
  assert.equal((await cluster.client.list(ClusterOperatorResource)).items.length, 32);
});
