/**
 * Contract of APPUiO's NodeForceDrain and UpgradeSuspensionWindow CRDs
 * (docs/design/scheduled-flow.md#upgradesuspensionwindow,
 * docs/design/scheduled-flow.md#nodeforcedrain).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../lib/json.js';
import { checkAgainstSchema } from '../../schema-check.js';
import { nodeForceDrainCrd } from './node-force-drain.js';
import { upgradeSuspensionWindowCrd } from './upgrade-suspension-window.js';
import { NodeForceDrainResource } from './node-force-drain-contract.js';
import { UpgradeSuspensionWindowResource } from './upgrade-suspension-window-contract.js';

function schemaOf(crd: JsonObject): JsonObject {
  return (crd['spec'] as { versions: { schema: { openAPIV3Schema: JsonObject } }[] }).versions[0]!.schema
    .openAPIV3Schema;
}
function at(schema: JsonObject, path: string): JsonObject {
  let node = schema;
  for (const p of path.split('.'))
    node = p === '[]' ? (node['items'] as JsonObject) : ((node['properties'] as JsonObject)[p] as JsonObject);
  return node;
}

void test('NodeForceDrain: required fields and plain-string durations', () => {
  const s = schemaOf(nodeForceDrainCrd());
  assert.deepEqual(at(s, 'spec')['required'], ['nodeDrainGracePeriod', 'nodeSelector', 'podForceDeleteGracePeriod']);
  assert.equal(at(s, 'spec.nodeDrainGracePeriod')['format'], undefined);
  assert.deepEqual(at(s, 'status.lastObservedNodeDrain.[]')['required'], ['drainID', 'nodeName', 'observedTime']);
  const obj = {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'NodeForceDrain',
    metadata: { name: 'w', namespace: 'n' },
    spec: { nodeSelector: {}, nodeDrainGracePeriod: '0s', podForceDeleteGracePeriod: '5m' },
  };
  assert.deepEqual(checkAgainstSchema(s, obj).problems, []);
  assert.equal(NodeForceDrainResource.plural, 'nodeforcedrains');
});

void test('UpgradeSuspensionWindow: start, end and reason are required; selectors are optional', () => {
  const s = schemaOf(upgradeSuspensionWindowCrd());
  assert.deepEqual(at(s, 'spec')['required'], ['end', 'reason', 'start']);
  assert.equal(at(s, 'spec.start')['format'], 'date-time');
  assert.equal(at(s, 'spec.configSelector')['x-kubernetes-map-type'], 'atomic');
  const obj = (spec: JsonObject): JsonObject => ({
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeSuspensionWindow',
    metadata: { name: 'w', namespace: 'n' },
    spec,
  });
  assert.deepEqual(
    checkAgainstSchema(s, obj({ start: '2026-12-20T00:00:00Z', end: '2027-01-06T00:00:00Z', reason: 'freeze' }))
      .problems,
    [],
  );
  assert.ok(
    checkAgainstSchema(s, obj({ start: 'tomorrow', end: '2027-01-06T00:00:00Z', reason: 'freeze' })).problems.length >
      0,
  );
  assert.equal(UpgradeSuspensionWindowResource.plural, 'upgradesuspensionwindows');
});
