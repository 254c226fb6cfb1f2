import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UpgradeJobHookResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook-contract.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { formatTime } from '../../lib/clock.js';
import {
  cond,
  createHook,
  createUpgradeJob,
  eventsFor,
  harness,
  hookJobNames,
  hookRule,
  HOUR,
  MINUTE,
  NS,
  patchCvStatus,
  runTo,
  state,
  T0,
  until,
} from './upgrade-job-controller.test-support.js';

void test('an Abort hook that fails fails the job with HookFailed; an Ignore hook that fails does not; Failure and Finish hooks run once', async (t) => {
  const h = await harness(t, { jobRules: [hookRule('abort-start', 'fail', 2), hookRule('ignore-create', 'fail', 1)] });
  await createHook(h, 'ignore-create', ['Create']);
  await createHook(h, 'abort-start', ['Start'], { failurePolicy: 'Abort' });
  await createHook(h, 'on-failure', ['Failure']);
  await createHook(h, 'on-finish', ['Finish']);
  h.startOperator();
  await createUpgradeJob(h, 'j', { startAfter: T0 + 10 * MINUTE, version: '4.15.3' });
  await until(
    h,
    () => state(h, 'j', 'Started') === 'True/Started',
    15 * MINUTE,
    'started despite the failed Ignore Create hook',
  );
  await until(h, () => state(h, 'j', 'Failed') === 'True/HookFailed', 10 * MINUTE, 'HookFailed');
  assert.equal(
    cond(h, 'j', 'Failed')?.message,
    'hook "abort-start" failed: Job has reached the specified backoff limit',
  );
  assert.equal(h.cvs.get(undefined, 'version')?.spec.desiredUpdate, undefined, 'the upgrade never began');
  await runTo(h, h.cluster.clock.now() + HOUR);
  assert.deepEqual(hookJobNames(h, 'j'), [
    'j-abort-start-start-hook',
    'j-ignore-create-create-hook',
    'j-on-failure-failure-hook',
    'j-on-finish-finish-hook',
  ]);
  const tracker = h.jobs.get(NS, 'j')?.status?.hookTracker ?? [];
  assert.deepEqual(
    tracker.map((e) => `${e.upgradeJobHook}/${e.hookEvent}/${e.status}`),
    [
      'abort-start/Start/failed',
      'ignore-create/Create/failed',
      'on-failure/Failure/complete',
      'on-finish/Finish/complete',
    ],
  );
});

void test('run: Next: the first job claims the hook for good; the next job does not run it', async (t) => {
  const h = await harness(t);
  await createHook(h, 'once', ['Start'], { run: 'Next' });
  h.startOperator();
  await createUpgradeJob(h, 'first', { startAfter: T0 + MINUTE });
  await until(h, () => state(h, 'first', 'Succeeded') === 'True/Succeeded', 30 * MINUTE, 'first succeeded');
  const hook = await h.cluster.client.get(UpgradeJobHookResource, NS, 'once');
  const first = h.jobs.get(NS, 'first')!;
  assert.deepEqual(hook.status?.claimedBy, {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeJob',
    name: 'first',
    uid: first.metadata?.uid,
  });
  assert.deepEqual(hookJobNames(h, 'first'), ['first-once-start-hook']);
  await createUpgradeJob(h, 'second', { startAfter: h.cluster.clock.now() + MINUTE });
  await until(h, () => state(h, 'second', 'Succeeded') === 'True/Succeeded', 30 * MINUTE, 'second succeeded');
  assert.deepEqual(hookJobNames(h, 'second'), []);
});

void test('a restart while a Create hook runs: the new instance finds the Job and makes no second one; the job finishes exactly once', async (t) => {
  const h = await harness(t, { jobRules: [hookRule('prepare', 'succeed', 20)] });
  await createHook(h, 'prepare', ['Create']);
  await createHook(h, 'on-success', ['Success']);
  const first = h.startOperator();
  await createUpgradeJob(h, 'r', { startAfter: T0 + MINUTE });
  await until(h, () => hookJobNames(h, 'r').length === 1, 5 * MINUTE, 'Create hook Job');
  await first.stop();
  await runTo(h, h.cluster.clock.now() + 5 * MINUTE);
  h.startOperator();
  await until(h, () => state(h, 'r', 'Succeeded') === 'True/Succeeded', HOUR, 'succeeded after the restart');
  assert.ok(
    Date.parse(cond(h, 'r', 'Started')!.lastTransitionTime) >= T0 + 20 * MINUTE,
    'started only after the Create hook finished',
  );
  await runTo(h, h.cluster.clock.now() + HOUR);
  assert.deepEqual(hookJobNames(h, 'r'), ['r-on-success-success-hook', 'r-prepare-create-hook']);
});

void test('health: a failing ClusterVersion holds the pre-upgrade check until it recovers; one that stays failing fails the job after the timeout', async (t) => {
  const h = await harness(t);
  await patchCvStatus(h, (s) => {
    s.conditions = [
      ...(s.conditions ?? []).filter((c) => c.type !== 'Failing'),
      {
        type: 'Failing',
        status: 'True',
        reason: 'ClusterOperatorDegraded',
        message: 'Cluster operator etcd is degraded',
        lastTransitionTime: formatTime(T0),
      },
    ];
  });
  h.startOperator();
  await createUpgradeJob(h, 'wait', {
    startAfter: T0 + MINUTE,
    version: '4.15.3',
    config: { preUpgradeHealthChecks: { timeout: '30m' } },
  });
  await until(h, () => state(h, 'wait', 'PreHealthCheckDone') === 'False/InProgress', 5 * MINUTE, 'check started');
  assert.equal(cond(h, 'wait', 'PreHealthCheckDone')?.message, 'Health checks started');
  await runTo(h, T0 + 20 * MINUTE);
  assert.equal(state(h, 'wait', 'PreHealthCheckDone'), 'False/InProgress');
  assert.equal(h.cvs.get(undefined, 'version')?.spec.desiredUpdate, undefined, 'no upgrade while unhealthy');
  await patchCvStatus(h, (s) => {
    s.conditions = (s.conditions ?? []).map((c) => (c.type === 'Failing' ? { ...c, status: 'False' as const } : c));
  });
  await until(
    h,
    () => state(h, 'wait', 'PreHealthCheckDone') === 'True/Completed',
    MINUTE,
    'healthy: woken by the ClusterVersion change',
  );
  await until(
    h,
    () => h.cvs.get(undefined, 'version')?.spec.desiredUpdate?.version === '4.15.3',
    MINUTE,
    'desiredUpdate',
  );
  await h.cluster.client.delete(UpgradeJobResource, NS, 'wait');

  await patchCvStatus(h, (s) => {
    s.desired = { version: '4.15.3', image: s.desired.image };
    s.conditions = (s.conditions ?? []).map((c) => (c.type === 'Failing' ? { ...c, status: 'True' as const } : c));
  });
  const start = h.cluster.clock.now() + MINUTE;
  await createUpgradeJob(h, 'sick', { startAfter: start, config: { preUpgradeHealthChecks: { timeout: '10m' } } });
  await until(h, () => state(h, 'sick', 'Failed') === 'True/PreHealthCheckFailed', HOUR, 'failed');
  assert.equal(cond(h, 'sick', 'Failed')?.message, 'Health checks timed out after 10m0s');
  const began = Date.parse(cond(h, 'sick', 'PreHealthCheckDone')!.lastTransitionTime);
  assert.ok(h.cluster.clock.now() - began <= 11 * MINUTE, 'failed within a minute of the window end');
  // The deleted job never released its lock: the next job took the stale lock over.
  assert.ok(
    (await eventsFor(h, 'sick')).includes(
      `Warning StaleLockTakenOver: the ClusterVersion was locked by UpgradeJob ${NS}/wait, which no longer exists; taking the lock`,
    ),
  );
});
