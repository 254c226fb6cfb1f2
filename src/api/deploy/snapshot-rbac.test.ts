import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ResourceDescriptor } from '../resource.js';
import type { KubeClient } from '../../kube/client.js';
import { readCluster } from '../../cli/snapshot/read-cluster.js';
import { ruleAllows, type RequestAttributes } from './rbac-authorizer.test-support.js';
import { snapshotClusterRole } from './snapshot-rbac.js';

/** A client that records each request as RBAC sees it and answers a minimal OpenShift cluster. */
function recordingClient(requests: RequestAttributes[]): KubeClient {
  const attrs = (verb: string, d: ResourceDescriptor, namespace?: string, name?: string): RequestAttributes => ({
    verb,
    apiGroup: d.group,
    resource: d.plural,
    namespace,
    name,
  });
  const client = {
    list: (d: ResourceDescriptor) => {
      requests.push(attrs('list', d));
      const items = d.kind === 'ClusterVersion' ? [{ metadata: { name: 'version' } }] : [];
      return Promise.resolve({ items });
    },
    get: (d: ResourceDescriptor, namespace: string | undefined, name: string) => {
      requests.push(attrs('get', d, namespace, name));
      return Promise.resolve({ metadata: { name }, data: { 'config.yaml': '' } });
    },
  };
  return client as unknown as KubeClient;
}

void test('the snapshot ClusterRole reads only, names no Secret, and its ConfigMap grant is the operator’s one by name', () => {
  const rules = snapshotClusterRole().rules ?? [];
  assert.ok(rules.every((r) => (r.verbs ?? []).every((v) => v === 'get' || v === 'list')));
  assert.ok(rules.every((r) => !(r.resources ?? []).some((res) => res === 'secrets' || res === '*')));
  const configMaps = rules.filter((r) => r.resources?.includes('configmaps'));
  assert.deepEqual(
    configMaps.map((r) => r.resourceNames),
    [['managed-upgrade-operator-config']],
  );
});

void test('every request of the snapshot is allowed by its ClusterRole, and every rule is used', async () => {
  const requests: RequestAttributes[] = [];
  await readCluster(recordingClient(requests), { takenAt: '2026-05-04T08:00:00Z' });
  const rules = snapshotClusterRole().rules ?? [];
  const denied = requests.filter((a) => !rules.some((r) => ruleAllows(r, a)));
  assert.deepEqual(denied, []);
  for (const rule of rules)
    for (const resource of rule.resources ?? [])
      for (const verb of rule.verbs ?? [])
        if (verb !== 'get' || rule.resourceNames)
          assert.ok(
            requests.some((a) => a.verb === verb && a.resource === resource && rule.apiGroups?.includes(a.apiGroup)),
            `${verb} ${resource} is granted but never used`,
          );
});
