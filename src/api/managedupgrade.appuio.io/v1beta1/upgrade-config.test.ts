/** Contract of APPUiO's UpgradeConfig CRD (docs/design/scheduled-flow.md#upgradeconfig). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JsonObject } from '../../../lib/json.js';
import { checkAgainstSchema } from '../../schema-check.js';
import { scheduledUpgradeConfigCrd, type ScheduledUpgradeConfig } from './upgrade-config.js';
import { ScheduledUpgradeConfigResource } from './upgrade-config-contract.js';

const crd = scheduledUpgradeConfigCrd();
const schema = (crd['spec'] as { versions: { schema: { openAPIV3Schema: JsonObject } }[] }).versions[0]!.schema
  .openAPIV3Schema;
function at(path: string): JsonObject {
  let node = schema;
  for (const p of path.split('.'))
    node = p === '[]' ? (node['items'] as JsonObject) : ((node['properties'] as JsonObject)[p] as JsonObject);
  return node;
}
const minimal = {
  apiVersion: 'managedupgrade.appuio.io/v1beta1',
  kind: 'UpgradeConfig',
  metadata: { name: 'c', namespace: 'n' },
  spec: {
    schedule: { cron: '0 22 * * 2' },
    jobTemplate: { spec: { config: { preUpgradeHealthChecks: {}, postUpgradeHealthChecks: {} } } },
  },
};

void test('required lists are APPUiO’s', () => {
  assert.deepEqual(schema['required'], ['spec']);
  assert.deepEqual(at('spec')['required'], ['jobTemplate', 'maxSchedulingDelay', 'maxUpgradeStartDelay', 'schedule']);
  assert.deepEqual(at('spec.schedule')['required'], ['cron', 'location']);
  assert.deepEqual(at('spec.jobTemplate')['required'], ['spec']);
  assert.deepEqual(at('spec.jobTemplate.spec')['required'], ['config']);
  assert.deepEqual(at('spec.jobTemplate.spec.config')['required'], [
    'postUpgradeHealthChecks',
    'preUpgradeHealthChecks',
    'upgradeTimeout',
  ]);
  assert.deepEqual(at('spec.jobTemplate.spec.config.preUpgradeHealthChecks')['required'], ['timeout']);
  assert.deepEqual(at('status')['required'], ['nextPossibleSchedules']);
  assert.deepEqual(at('status.nextPossibleSchedules.[]')['required'], ['time']);
});

void test('defaults are APPUiO’s and are applied to a minimal object', () => {
  assert.equal(at('spec.schedule.location')['default'], 'Local');
  assert.equal(at('spec.maxSchedulingDelay')['default'], '1h');
  assert.equal(at('spec.maxUpgradeStartDelay')['default'], '1h');
  assert.equal(at('spec.jobTemplate.spec.config.upgradeTimeout')['default'], '12h');
  assert.equal(at('spec.jobTemplate.spec.config.preUpgradeHealthChecks.timeout')['default'], '1h');
  assert.equal(at('spec.jobTemplate.spec.config.postUpgradeHealthChecks.timeout')['default'], '1h');
  const { value, problems } = checkAgainstSchema(schema, minimal);
  assert.deepEqual(problems, []);
  const spec = (value as unknown as ScheduledUpgradeConfig).spec;
  assert.equal(spec.schedule.location, 'Local');
  assert.equal(spec.maxSchedulingDelay, '1h');
  assert.equal(spec.jobTemplate.spec.config.upgradeTimeout, '12h');
  assert.equal(spec.jobTemplate.spec.config.postUpgradeHealthChecks.timeout, '1h');
});

void test('formats: durations where APPUiO has format duration, plain strings elsewhere', () => {
  for (const p of [
    'spec.maxSchedulingDelay',
    'spec.maxUpgradeStartDelay',
    'spec.jobTemplate.spec.config.upgradeTimeout',
  ])
    assert.equal(at(p)['format'], 'duration', p);
  assert.equal(at('spec.pinVersionWindow')['format'], undefined);
  assert.equal(at('spec.jobTemplate.spec.config.machineConfigPools.[].delayUpgrade.delayMin')['format'], undefined);
  assert.equal(at('status.lastScheduledUpgrade')['format'], 'date-time');
  assert.equal(at('spec.successfulJobsHistoryLimit')['type'], 'integer');
  const withDelay = (d: string): number =>
    checkAgainstSchema(schema, { ...minimal, spec: { ...minimal.spec, maxSchedulingDelay: d } }).problems.length;
  assert.equal(withDelay('1h30m'), 0);
  assert.equal(withDelay('90s'), 0);
  assert.ok(withDelay('soon') > 0);
});

void test('isoWeek accepts @odd, @even and one or two digits only', () => {
  assert.equal(at('spec.schedule.isoWeek')['pattern'], '^(@odd|@even|\\d{1,2})$');
  const check = (w: string): number =>
    checkAgainstSchema(schema, { ...minimal, spec: { ...minimal.spec, schedule: { cron: '@daily', isoWeek: w } } })
      .problems.length;
  for (const ok of ['@odd', '@even', '1', '53', '07']) assert.equal(check(ok), 0, ok);
  for (const bad of ['odd', '@weekly', '123', '', '1a']) assert.ok(check(bad) > 0, bad);
});

void test('job template metadata keeps only the embedded ObjectMeta fields', () => {
  assert.deepEqual(Object.keys(at('spec.jobTemplate.metadata')['properties'] as JsonObject), [
    'annotations',
    'finalizers',
    'labels',
    'name',
    'namespace',
  ]);
  assert.equal(at('spec.jobTemplate.spec.config.machineConfigPools.[].matchLabels')['x-kubernetes-map-type'], 'atomic');
});

void test('descriptor and names', () => {
  assert.deepEqual(ScheduledUpgradeConfigResource, {
    group: 'managedupgrade.appuio.io',
    version: 'v1beta1',
    kind: 'UpgradeConfig',
    plural: 'upgradeconfigs',
    namespaced: true,
  });
  assert.equal((crd['metadata'] as JsonObject)['name'], 'upgradeconfigs.managedupgrade.appuio.io');
});
