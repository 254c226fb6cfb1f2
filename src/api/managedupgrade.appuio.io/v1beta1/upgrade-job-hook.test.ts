/**
 * Contract of APPUiO's UpgradeJobHook CRD (docs/design/scheduled-flow.md#upgradejobhook,
 * docs/design/scheduled-flow.md#hooks).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../lib/json.js';
import { checkAgainstSchema } from '../../schema-check.js';
import { pruneUnknownFields } from '../../../apiserver/crd/prune.js';
import { upgradeJobHookCrd } from './upgrade-job-hook.js';
import {
  EVENTS_INFLUENCING_OUTCOME,
  HOOK_JOB_TRACKER_FINALIZER,
  HookJobLabel,
  UPGRADE_EVENTS,
} from './upgrade-job-hook-contract.js';

const crd = upgradeJobHookCrd();
const schema = (crd['spec'] as { versions: { schema: { openAPIV3Schema: JsonObject } }[] }).versions[0]!.schema
  .openAPIV3Schema;
function at(path: string): JsonObject {
  let node = schema;
  for (const p of path.split('.'))
    node = p === '[]' ? (node['items'] as JsonObject) : ((node['properties'] as JsonObject)[p] as JsonObject);
  return node;
}
const hook = (spec: JsonObject): JsonObject => ({
  apiVersion: 'managedupgrade.appuio.io/v1beta1',
  kind: 'UpgradeJobHook',
  metadata: { name: 'h', namespace: 'n' },
  spec,
});

void test('events, run and failurePolicy enums are APPUiO’s, with no CRD defaults', () => {
  assert.deepEqual(at('spec.events.[]')['enum'], [
    'Create',
    'Start',
    'UpgradeComplete',
    'MachineConfigPoolUnpause',
    'Finish',
    'Success',
    'Failure',
  ]);
  assert.deepEqual(at('spec.run')['enum'], ['Next', 'All']);
  assert.deepEqual(at('spec.failurePolicy')['enum'], ['Abort', 'Ignore']);
  assert.equal(at('spec.run')['default'], undefined);
  assert.equal(at('spec.failurePolicy')['default'], undefined);
  assert.equal(at('spec')['required'], undefined);
  assert.ok(checkAgainstSchema(schema, hook({ events: ['Created'] })).problems.length > 0);
  assert.ok(checkAgainstSchema(schema, hook({ run: 'Once' })).problems.length > 0);
  assert.deepEqual(EVENTS_INFLUENCING_OUTCOME, ['Create', 'Start', 'UpgradeComplete', 'MachineConfigPoolUnpause']);
  assert.equal(UPGRADE_EVENTS.length, 7);
});

void test('claimedBy is an atomic reference with all four fields required', () => {
  assert.equal(at('status.claimedBy')['x-kubernetes-map-type'], 'atomic');
  assert.deepEqual(at('status.claimedBy')['required'], ['apiVersion', 'kind', 'name', 'uid']);
});

void test('the Job template validates what the controller reads and keeps everything else', () => {
  assert.deepEqual(at('spec.template.spec')['required'], ['template']);
  assert.deepEqual(at('spec.template.spec.template.spec')['required'], ['containers']);
  assert.deepEqual(at('spec.template.spec.template.spec.containers.[]')['required'], ['name']);
  for (const p of [
    'spec.template.spec',
    'spec.template.spec.template.spec',
    'spec.template.spec.template.spec.containers.[]',
  ]) {
    assert.equal(at(p)['x-kubernetes-preserve-unknown-fields'], true, p);
  }
  const obj = hook({
    events: ['Start'],
    template: {
      metadata: { labels: { a: 'b' } },
      spec: {
        backoffLimit: 3,
        backoffLimitPerIndex: 1,
        podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] },
        template: {
          spec: {
            restartPolicy: 'Never',
            nodeName: 'n1',
            priorityClassName: 'high',
            containers: [
              {
                name: 'c',
                image: 'i',
                ports: [{ containerPort: 80 }],
                env: [{ name: 'X', value: 'y' }],
                livenessProbe: { exec: { command: ['true'] } },
              },
            ],
          },
        },
      },
    },
  });
  assert.deepEqual(checkAgainstSchema(schema, obj).problems, []);
  const { unknownFields } = pruneUnknownFields(obj, schema);
  assert.deepEqual(unknownFields, []);
  assert.ok(
    checkAgainstSchema(schema, hook({ template: { spec: { backoffLimit: 'three', template: {} } } })).problems.length >
      0,
  );
  assert.ok(
    checkAgainstSchema(schema, hook({ template: { spec: { template: { spec: { containers: [{ image: 'i' }] } } } } }))
      .problems.length > 0,
  );
});

void test('hook Job labels and finalizer are the anchor’s strings, typo included', () => {
  assert.equal(HookJobLabel.UpgradeJob, 'upgradejobs.managedupgrade.appuio.io/upgradejobk');
  assert.equal(HookJobLabel.TrackingKey, 'upgradejobs.managedupgrade.appuio.io/tracking-key');
  assert.equal(HOOK_JOB_TRACKER_FINALIZER, 'upgradejobs.managedupgrade.appuio.io/hook-job-tracker');
});
