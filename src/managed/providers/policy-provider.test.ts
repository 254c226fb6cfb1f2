import { test } from 'node:test';
import assert from 'node:assert/strict';
import type {
  ManagedUpgradeConfig,
  ManagedUpgradeConfigSpec,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { LocalPolicyProvider, refreshPolicy, type PolicyProvider } from './policy-provider.js';

const spec: ManagedUpgradeConfigSpec = {
  type: 'OSD',
  upgradeAt: '2026-11-22T02:00:00Z',
  PDBForceDrainTimeout: 60,
  desired: { channel: 'stable-4.15', version: '4.15.38' },
};
const cr: ManagedUpgradeConfig = {
  apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
  kind: 'UpgradeConfig',
  metadata: { name: 'managed-upgrade-config', namespace: 'ns' },
  spec,
};
const signal = new AbortController().signal;

void test('LOCAL never changes the policy; no provider means the kill switch is skipped', async () => {
  assert.deepEqual(await refreshPolicy(new LocalPolicyProvider(), cr, signal), { outcome: 'unchanged' });
  assert.deepEqual(await refreshPolicy(undefined, cr, signal), { outcome: 'notConfigured' });
});

void test('a provider whose policy differs or vanished reports a change with the reason', async () => {
  const other: PolicyProvider = {
    source: 'OCM',
    specs: async () => [{ ...spec, desired: { ...spec.desired, version: '4.15.39' } }],
  };
  const r = await refreshPolicy(other, cr, signal);
  assert.equal(r.outcome, 'changed');
  assert.ok(r.outcome === 'changed' && r.spec?.desired.version === '4.15.39' && /OCM policy changed/.test(r.why));
  const none: PolicyProvider = { source: 'OCM', specs: async () => [] };
  const n = await refreshPolicy(none, cr, signal);
  assert.ok(n.outcome === 'changed' && n.spec === undefined);
});
