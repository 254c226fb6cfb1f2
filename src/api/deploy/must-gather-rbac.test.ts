import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mustGatherClusterRole } from './must-gather-rbac.js';

void test('must-gather’s ClusterRole: reads only, pods/log, and no Secret at all', () => {
  const role = mustGatherClusterRole();
  const rules = role.rules ?? [];
  assert.ok(rules.every((r) => (r.verbs ?? []).every((v) => v === 'get' || v === 'list')));
  assert.ok(rules.every((r) => !(r.resources ?? []).some((res) => res === 'secrets' || res === '*')));
  assert.ok(rules.some((r) => r.apiGroups?.includes('') && r.resources?.includes('pods/log')));
  assert.ok(
    rules.some((r) => r.apiGroups?.includes('config.openshift.io') && r.resources?.includes('clusterversions')),
  );
  assert.ok(
    rules.some((r) => r.apiGroups?.includes('managedupgrade.appuio.io') && r.resources?.includes('upgradejobs')),
  );
});
