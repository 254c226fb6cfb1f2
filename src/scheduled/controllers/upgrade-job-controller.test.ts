import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JobResource } from '../../api/builtin.js';
import { ANNOTATION_UPGRADE_JOB } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { formatTime } from '../../lib/clock.js';
import {
  completeVersion,
  cond,
  createHook,
  createUpgradeJob,
  eventsFor,
  harness,
  hookJobNames,
  HOUR,
  MINUTE,
  NS,
  release,
  runTo,
  setPoolCounts,
  state,
  T0,
  until,
} from './upgrade-job-controller.test-support.js';

void test('a version job: Create hooks before startAfter, Started at startAfter, lock, desiredUpdate, completion with pools, post checks, hooks once each, Succeeded, lock released', async (t) => {
  const h = await harness(t);
  for (const [name, events] of [
    ['on-create', ['Create']],
    ['on-start', ['Start']],
    ['on-complete', ['UpgradeComplete']],
    ['on-success', ['Success']],
    ['on-failure', ['Failure']],
    ['on-finish', ['Finish']],
  ] as const) {
    await createHook(h, name, [...events]);
  }
  h.startOperator();
  const startAfter = T0 + HOUR;
  await createUpgradeJob(h, 'up', { startAfter, version: '4.15.3' });

  await until(h, () => hookJobNames(h, 'up').length === 1, 5 * MINUTE, 'Create hook Job');
  assert.deepEqual(hookJobNames(h, 'up'), ['up-on-create-create-hook']);
  await runTo(h, startAfter - 1000);
  assert.equal(state(h, 'up', 'Started'), 'absent', 'not started before startAfter');
  assert.equal(h.cvs.get(undefined, 'version')?.spec.desiredUpdate, undefined);

  await until(h, () => state(h, 'up', 'Started') === 'True/Started', 2 * MINUTE, 'Started');
  assert.equal(cond(h, 'up', 'Started')?.message, `Upgrade started at ${formatTime(startAfter)}`);
  await until(
    h,
    () => h.cvs.get(undefined, 'version')?.spec.desiredUpdate?.version === '4.15.3',
    5 * MINUTE,
    'desiredUpdate',
  );
  const cv = h.cvs.get(undefined, 'version')!;
  assert.equal(cv.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB], `${NS}/up`);
  assert.deepEqual(cv.spec.desiredUpdate, { ...release('4.15.3'), force: false });
  assert.ok(hookJobNames(h, 'up').includes('up-on-start-start-hook'));
  assert.equal(state(h, 'up', 'PreHealthCheckDone'), 'True/Completed');
  assert.equal(cond(h, 'up', 'PreHealthCheckDone')?.message, 'Health checks ok');
  assert.equal(state(h, 'up', 'MachineConfigPoolsPaused'), 'False/NoManagedPools');
  await until(
    h,
    () => state(h, 'up', 'UpgradeCompleted') === 'False/InProgress',
    MINUTE,
    'UpgradeCompleted in progress',
  );
  assert.equal(cond(h, 'up', 'UpgradeCompleted')?.message, 'Upgrade in progress');

  // The CVO finishes; the worker pool is still rolling out: not complete yet.
  await setPoolCounts(h, 'worker', 1);
  await completeVersion(h, '4.15.3');
  await runTo(h, h.cluster.clock.now() + 10 * MINUTE);
  assert.equal(state(h, 'up', 'UpgradeCompleted'), 'False/InProgress', 'an unpaused pool still updating');
  await setPoolCounts(h, 'worker', 3);
  await until(h, () => state(h, 'up', 'Succeeded') === 'True/Succeeded', 30 * MINUTE, 'Succeeded');
  assert.equal(cond(h, 'up', 'Succeeded')?.message, 'Upgrade succeeded');
  assert.equal(state(h, 'up', 'UpgradeCompleted'), 'True/Completed');
  assert.equal(state(h, 'up', 'PostHealthCheckDone'), 'True/Completed');
  assert.equal(state(h, 'up', 'Paused'), 'False/DelaySet');
  assert.equal(state(h, 'up', 'Failed'), 'absent');

  await until(
    h,
    () =>
      hookJobNames(h, 'up').length === 5 &&
      h.cvs.get(undefined, 'version')?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB] === undefined,
    5 * MINUTE,
    'final hooks and lock release',
  );
  assert.deepEqual(hookJobNames(h, 'up'), [
    'up-on-complete-upgradecomplete-hook',
    'up-on-create-create-hook',
    'up-on-finish-finish-hook',
    'up-on-start-start-hook',
    'up-on-success-success-hook',
  ]);
  // Every hook Job finishes, is tracked, and loses its finalizer; nothing runs twice.
  await until(
    h,
    () => (h.jobs.get(NS, 'up')?.status?.hookTracker ?? []).filter((e) => e.status === 'complete').length === 5,
    10 * MINUTE,
    'tracked',
  );
  await runTo(h, h.cluster.clock.now() + HOUR);
  assert.equal(hookJobNames(h, 'up').length, 5);
  for (const j of h.hookJobs.list(NS))
    assert.deepEqual(j.metadata?.finalizers ?? [], [], `${j.metadata?.name} released`);
  const env = h.hookJobs.get(NS, 'up-on-start-start-hook')!.spec!.template.spec!.containers[0]!.env!;
  assert.equal(env.find((e) => e.name === 'EVENT_name')?.value, '"Start"');
  assert.equal(env.find((e) => e.name === 'EVENT_reason')?.value, '"Started"');
  assert.equal(env.find((e) => e.name === 'JOB_spec_desiredVersion_version')?.value, '"4.15.3"');
  const events = await eventsFor(h, 'up');
  assert.ok(events.includes(`Normal Started: Upgrade started at ${formatTime(startAfter)}`), events.join('\n'));
  assert.ok(events.includes('Normal Succeeded: Upgrade succeeded'));
  // A deleted finished hook Job is not made again.
  await h.cluster.client.delete(JobResource, NS, 'up-on-create-create-hook');
  await runTo(h, h.cluster.clock.now() + HOUR);
  assert.ok(!hookJobNames(h, 'up').includes('up-on-create-create-hook'));
});
