import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NamespaceResource } from '../../api/builtin.js';
import {
  FILE_INTEGRITY_NAMESPACE,
  FILE_INTEGRITY_REINIT_ANNOTATION,
  FileIntegrityResource,
} from '../../api/openshift/fileintegrity-v1alpha1/file-integrity.js';
import { UpgradeConditionType as C } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { ManualClock } from '../../lib/clock.js';
import { NEVER, T0, condition, fakeStepContext, startStepApi } from './step-context.test-support.js';
import { OSD_FILE_INTEGRITY_NAME, postUpgradeProcedures } from './post-upgrade-step.js';

const FEDRAMP = 'environment:\n  fedramp: true\n';

void test('PostUpgradeProcedures: not FedRAMP, done without the API', async () => {
  const fake = fakeStepContext();
  assert.deepEqual(await postUpgradeProcedures.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.events, []);
});

void test('PostUpgradeProcedures: FedRAMP with the step already recorded True, done without the API', async () => {
  const fake = fakeStepContext({
    operatorConfig: FEDRAMP,
    history: { conditions: [condition(C.PostUpgradeTasksCompleted)] },
  });
  assert.deepEqual(await postUpgradeProcedures.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.events, []);
});

void test('PostUpgradeProcedures: FedRAMP adds the re-init annotation to osd-fileintegrity, keeping the others, once per upgrade', async (t) => {
  const clock = new ManualClock(T0);
  const client = await startStepApi(t, clock);
  await client.create(NamespaceResource, { metadata: { name: FILE_INTEGRITY_NAMESPACE } });
  const before = await client.create(FileIntegrityResource, {
    apiVersion: 'fileintegrity.openshift.io/v1alpha1',
    kind: 'FileIntegrity',
    metadata: {
      name: OSD_FILE_INTEGRITY_NAME,
      namespace: FILE_INTEGRITY_NAMESPACE,
      annotations: { 'example.com/owner': 'sre' },
    },
    spec: { config: { gracePeriod: 900 } },
  });
  const fake = fakeStepContext({
    clock,
    client,
    operatorConfig: FEDRAMP,
    history: { conditions: [condition(C.PostUpgradeTasksCompleted, 'False')] },
  });
  assert.deepEqual(await postUpgradeProcedures.run(fake.ctx, NEVER), { status: 'done' });
  const patched = await client.get(FileIntegrityResource, FILE_INTEGRITY_NAMESPACE, OSD_FILE_INTEGRITY_NAME);
  assert.deepEqual(patched.metadata?.annotations, {
    'example.com/owner': 'sre',
    [FILE_INTEGRITY_REINIT_ANNOTATION]: '',
  });
  assert.deepEqual(patched.spec, before.spec, 'only the annotation changes');
  assert.deepEqual(fake.events, [
    {
      type: 'Normal',
      reason: 'FileIntegrityReinitialised',
      message: 'asked FileIntegrity openshift-file-integrity/osd-fileintegrity to re-initialise',
    },
  ]);

  // The File Integrity Operator re-initialises and removes the annotation; the step, recorded True, does not ask again.
  await client.patch(
    FileIntegrityResource,
    FILE_INTEGRITY_NAMESPACE,
    OSD_FILE_INTEGRITY_NAME,
    { metadata: { annotations: { [FILE_INTEGRITY_REINIT_ANNOTATION]: null } } },
    { type: 'merge' },
  );
  fake.ctx.history.conditions = [condition(C.PostUpgradeTasksCompleted)];
  assert.deepEqual(await postUpgradeProcedures.run(fake.ctx, NEVER), { status: 'done' });
  const after = await client.get(FileIntegrityResource, FILE_INTEGRITY_NAMESPACE, OSD_FILE_INTEGRITY_NAME);
  assert.deepEqual(after.metadata?.annotations, { 'example.com/owner': 'sre' });
  assert.equal(fake.events.length, 1);
});
