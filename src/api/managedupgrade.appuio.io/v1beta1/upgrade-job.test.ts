/**
 * Contract of APPUiO's UpgradeJob CRD (docs/design/scheduled-flow.md#upgradejob,
 * docs/design/scheduled-flow.md#upgradejob-conditions).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../lib/json.js';
import { checkAgainstSchema } from '../../schema-check.js';
import { validateAgainstSchema } from '../../../apiserver/crd/schema-validate.js';
import { upgradeJobCrd } from './upgrade-job.js';
import { UpgradeJobConditionType, UpgradeJobReason, ANNOTATION_UPGRADE_JOB } from './upgrade-job-contract.js';

const crd = upgradeJobCrd();
const schema = (crd['spec'] as { versions: { schema: { openAPIV3Schema: JsonObject } }[] }).versions[0]!.schema
  .openAPIV3Schema;
function at(path: string): JsonObject {
  let node = schema;
  for (const p of path.split('.'))
    node = p === '[]' ? (node['items'] as JsonObject) : ((node['properties'] as JsonObject)[p] as JsonObject);
  return node;
}
const job = (desiredVersion?: JsonObject): JsonObject => ({
  apiVersion: 'managedupgrade.appuio.io/v1beta1',
  kind: 'UpgradeJob',
  metadata: { name: 'j', namespace: 'n' },
  spec: {
    startAfter: '2026-12-01T21:00:00Z',
    startBefore: '2026-12-01T22:00:00Z',
    ...(desiredVersion ? { desiredVersion } : {}),
    config: {
      upgradeTimeout: '12h',
      preUpgradeHealthChecks: { timeout: '1h' },
      postUpgradeHealthChecks: { timeout: '1h' },
    },
  },
});

void test('spec: required fields, date-times, defaults', () => {
  assert.deepEqual(at('spec')['required'], ['config', 'startAfter', 'startBefore']);
  assert.equal(at('spec.startAfter')['format'], 'date-time');
  assert.equal(at('spec.startBefore')['format'], 'date-time');
  assert.equal(at('spec.config.upgradeTimeout')['default'], '12h');
  assert.equal(at('spec.desiredVersionCheckAvailability')['type'], 'boolean');
  assert.equal(at('spec.config.pauseMachineConfigPoolsOnFailure.selector')['x-kubernetes-map-type'], 'atomic');
  assert.deepEqual(checkAgainstSchema(schema, job()).problems, [], 'a noop job without desiredVersion');
});

void test('desiredVersion is configv1.Update with openshift/api’s CEL rules', () => {
  const dv = at('spec.desiredVersion');
  assert.deepEqual(Object.keys(dv['properties'] as JsonObject), ['architecture', 'force', 'image', 'version']);
  assert.deepEqual(at('spec.desiredVersion.architecture')['enum'], ['Multi', '']);
  assert.deepEqual(dv['x-kubernetes-validations'], [
    {
      message: 'cannot set both Architecture and Image',
      rule: 'has(self.architecture) && has(self.image) ? (self.architecture == "" || self.image == "") : true',
    },
    {
      message: 'Version must be set if Architecture is set',
      rule: 'has(self.architecture) && self.architecture != "" ? self.version != "" : true',
    },
  ]);
  assert.deepEqual(validateAgainstSchema(job({ version: '4.15.3', image: 'quay.io/x@sha256:1' }), schema), []);
  const both = validateAgainstSchema(
    job({ version: '4.15.3', image: 'quay.io/x@sha256:1', architecture: 'Multi' }),
    schema,
  );
  assert.ok(
    both.some((e) => e.detail === 'cannot set both Architecture and Image'),
    JSON.stringify(both),
  );
  const noVersion = validateAgainstSchema(job({ architecture: 'Multi', version: '' }), schema);
  assert.ok(
    noVersion.some((e) => e.detail === 'Version must be set if Architecture is set'),
    JSON.stringify(noVersion),
  );
});

void test('status.conditions are metav1.Conditions keyed by type', () => {
  const c = at('status.conditions');
  assert.equal(c['x-kubernetes-list-type'], 'map');
  assert.deepEqual(c['x-kubernetes-list-map-keys'], ['type']);
  assert.deepEqual(at('status.conditions.[]')['required'], [
    'lastTransitionTime',
    'message',
    'reason',
    'status',
    'type',
  ]);
  assert.deepEqual(Object.keys(at('status.hookTracker.[]')['properties'] as JsonObject), [
    'hookEvent',
    'message',
    'status',
    'trackingKey',
    'upgradeJobHook',
  ]);
});

void test('condition types and reasons are the anchor’s strings', () => {
  assert.deepEqual(Object.values(UpgradeJobConditionType), [
    'Started',
    'PreHealthCheckDone',
    'UpgradeCompleted',
    'PostHealthCheckDone',
    'Paused',
    'MachineConfigPoolsPaused',
    'Succeeded',
    'Failed',
  ]);
  assert.equal(UpgradeJobReason.UpgradeWithdrawn, 'UpgradeWithdrawn');
  assert.equal(UpgradeJobReason.UnpausingPoolsExpired, 'UnpausingPoolsExpired');
  assert.equal(ANNOTATION_UPGRADE_JOB, 'managedupgrade.appuio.io/upgrade-job');
});
