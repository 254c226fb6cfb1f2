/** Contract of MUO's UpgradeConfig CRD (docs/design/managed-flow.md#the-upgradeconfig). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../lib/json.js';
import { checkAgainstSchema } from '../../schema-check.js';
import { managedUpgradeConfigCrd, type ManagedUpgradeConfig } from './upgrade-config.js';
import {
  ManagedUpgradeConfigResource,
  UPGRADE_PHASES,
  UpgradeConditionType,
  FeatureGate,
} from './upgrade-config-contract.js';

const crd = managedUpgradeConfigCrd();
const version = (crd['spec'] as { versions: JsonObject[] }).versions[0]!;
const schema = (version['schema'] as { openAPIV3Schema: JsonObject }).openAPIV3Schema;
function at(path: string): JsonObject {
  let node = schema;
  for (const p of path.split('.'))
    node = p === '[]' ? (node['items'] as JsonObject) : ((node['properties'] as JsonObject)[p] as JsonObject);
  return node;
}

const valid: ManagedUpgradeConfig = {
  apiVersion: 'upgrade.managed.openshift.io/v1alpha1',
  kind: 'UpgradeConfig',
  metadata: { name: 'managed-upgrade-config', namespace: 'openshift-managed-upgrade-operator' },
  spec: {
    type: 'OSD',
    upgradeAt: '2026-12-01T02:00:00Z',
    PDBForceDrainTimeout: 0,
    desired: { version: '4.15.3', channel: 'stable-4.15' },
  },
};

void test('names, scope, short name and printer columns are MUO’s', () => {
  assert.equal((crd['metadata'] as JsonObject)['name'], 'upgradeconfigs.upgrade.managed.openshift.io');
  const spec = crd['spec'] as JsonObject;
  assert.deepEqual(spec['names'], {
    kind: 'UpgradeConfig',
    listKind: 'UpgradeConfigList',
    plural: 'upgradeconfigs',
    shortNames: ['upgrade'],
    singular: 'upgradeconfig',
  });
  assert.equal(spec['scope'], 'Namespaced');
  assert.equal(version['name'], 'v1alpha1');
  assert.deepEqual(version['additionalPrinterColumns'], [
    { jsonPath: '.spec.desired.version', name: 'desired_version', type: 'string' },
    { jsonPath: '.status.history[0].phase', name: 'phase', type: 'string' },
    { jsonPath: '.status.history[0].conditions[0].type', name: 'stage', type: 'string' },
    { jsonPath: '.status.history[0].conditions[0].status', name: 'status', type: 'string' },
    { jsonPath: '.status.history[0].conditions[0].reason', name: 'reason', type: 'string' },
    { jsonPath: '.status.history[0].conditions[0].message', name: 'message', type: 'string' },
  ]);
  assert.deepEqual(ManagedUpgradeConfigResource, {
    group: 'upgrade.managed.openshift.io',
    version: 'v1alpha1',
    kind: 'UpgradeConfig',
    plural: 'upgradeconfigs',
    namespaced: true,
  });
});

void test('spec fields, required list and validation are MUO’s', () => {
  assert.deepEqual(Object.keys(at('spec')['properties'] as JsonObject), [
    'PDBForceDrainTimeout',
    'capacityReservation',
    'desired',
    'type',
    'upgradeAt',
  ]);
  assert.deepEqual(at('spec')['required'], ['PDBForceDrainTimeout', 'desired', 'type', 'upgradeAt']);
  assert.equal(schema['required'], undefined, 'spec itself is optional at the root, as in MUO');
  assert.deepEqual(at('spec.PDBForceDrainTimeout'), {
    description: at('spec.PDBForceDrainTimeout')['description']!,
    format: 'int32',
    minimum: 0,
    type: 'integer',
  });
  assert.deepEqual(at('spec.type')['enum'], ['OSD', 'ARO']);
  assert.deepEqual(Object.keys(at('spec.desired')['properties'] as JsonObject), ['channel', 'image', 'version']);
  assert.equal(at('spec.desired')['required'], undefined);
  assert.equal(at('spec.upgradeAt')['format'], undefined, 'upgradeAt is checked at runtime, not by the API');
});

void test('status history: phase enum and required, conditions require type and status', () => {
  assert.deepEqual(at('status.history.[]')['required'], ['phase']);
  assert.deepEqual(at('status.history.[].phase')['enum'], [...UPGRADE_PHASES]);
  assert.deepEqual(UPGRADE_PHASES, ['New', 'Pending', 'Upgrading', 'Upgraded', 'Failed']);
  assert.deepEqual(at('status.history.[].conditions.[]')['required'], ['status', 'type']);
  for (const f of ['startTime', 'completeTime', 'workerStartTime', 'workerCompleteTime'])
    assert.equal(at(`status.history.[].${f}`)['format'], 'date-time');
  assert.equal(at('status.history.[].precedingVersion')['type'], 'string');
});

void test('objects are checked as MUO’s API server would', () => {
  assert.deepEqual(checkAgainstSchema(schema, valid as unknown as JsonObject).problems, []);
  const bad = (spec: JsonObject): number =>
    checkAgainstSchema(schema, { ...valid, spec: { ...valid.spec, ...spec } } as unknown as JsonObject).problems.length;
  assert.ok(bad({ type: 'XYZ' }) > 0);
  assert.ok(bad({ PDBForceDrainTimeout: -1 }) > 0);
  assert.ok(bad({ PDBForceDrainTimeout: 1.5 }) > 0);
  const { desired: _d, ...noDesired } = valid.spec!;
  assert.ok(checkAgainstSchema(schema, { ...valid, spec: noDesired } as unknown as JsonObject).problems.length > 0);
});

void test('contract constants carry the anchor’s exact strings', () => {
  assert.equal(Object.keys(UpgradeConditionType).length, 17);
  assert.equal(UpgradeConditionType.ClusterHealthyBeforeUpgrade, 'ClusterHealthyBeforeUpgrade');
  assert.equal(UpgradeConditionType.FailedUpgrade, 'FailedUpgrade');
  assert.deepEqual(Object.values(FeatureGate), ['PreHealthCheck', 'ServiceLogNotification']);
});
