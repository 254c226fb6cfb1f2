/** The RBAC evaluation the RBAC coverage test relies on, on requests with known answers. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allowingGrants, requestAttributes, ruleAllows, type ResolvedGrant } from './rbac-authorizer.test-support.js';

void test('request attributes follow kube-apiserver request info', () => {
  assert.deepEqual(requestAttributes('GET', '/api/v1/nodes?limit=500'), {
    verb: 'list',
    apiGroup: '',
    resource: 'nodes',
    namespace: undefined,
    name: undefined,
  });
  assert.deepEqual(requestAttributes('GET', '/api/v1/pods?watch=true&resourceVersion=5'), {
    verb: 'watch',
    apiGroup: '',
    resource: 'pods',
    namespace: undefined,
    name: undefined,
  });
  assert.deepEqual(
    requestAttributes('GET', '/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dcfg&watch=1'),
    {
      verb: 'watch',
      apiGroup: '',
      resource: 'configmaps',
      namespace: 'ns',
      name: 'cfg',
    },
  );
  assert.deepEqual(
    requestAttributes('PUT', '/apis/upgrade.managed.openshift.io/v1alpha1/namespaces/ns/upgradeconfigs/u/status'),
    {
      verb: 'update',
      apiGroup: 'upgrade.managed.openshift.io',
      resource: 'upgradeconfigs/status',
      namespace: 'ns',
      name: 'u',
    },
  );
  assert.equal(requestAttributes('DELETE', '/api/v1/namespaces/ns/pods')?.verb, 'deletecollection');
  assert.equal(requestAttributes('PATCH', '/apis/config.openshift.io/v1/clusterversions/version')?.verb, 'patch');
  assert.equal(requestAttributes('GET', '/version'), undefined);
});

void test('a rule needs the verb, group and resource, and its names when it lists any', () => {
  const rule = { apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch'], resourceNames: ['cfg'] };
  const attrs = (path: string) => requestAttributes('GET', path) ?? assert.fail(path);
  assert.equal(ruleAllows(rule, attrs('/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dcfg')), true);
  assert.equal(
    ruleAllows(rule, attrs('/api/v1/namespaces/ns/configmaps')),
    false,
    'a list of every ConfigMap is not about cfg',
  );
  assert.equal(ruleAllows(rule, attrs('/api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dother')), false);
  assert.equal(ruleAllows(rule, attrs('/api/v1/namespaces/ns/configmaps/cfg')), false, 'get is not granted');
  assert.equal(
    ruleAllows({ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }, attrs('/apis/apps/v1/deployments')),
    true,
  );
  assert.equal(
    ruleAllows(
      { apiGroups: ['apps'], resources: ['deployments'], verbs: ['update'] },
      requestAttributes('PUT', '/apis/apps/v1/namespaces/n/deployments/d/status') ?? assert.fail(),
    ),
    false,
    'a subresource needs its own entry',
  );
});

void test('a Role grants only in its namespace, a ClusterRole everywhere', () => {
  const grant = (namespace: string | undefined): ResolvedGrant => ({
    namespace,
    grant: {
      scope: { kind: 'cluster' },
      rule: { apiGroups: [''], resources: ['events'], verbs: ['create'] },
      reason: '',
      code: [],
    },
  });
  const create = (ns: string) => requestAttributes('POST', `/api/v1/namespaces/${ns}/events`) ?? assert.fail();
  assert.equal(allowingGrants([grant('a')], create('a')).length, 1);
  assert.equal(allowingGrants([grant('a')], create('b')).length, 0);
  assert.equal(allowingGrants([grant(undefined)], create('b')).length, 1);
});
