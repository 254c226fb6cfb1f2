import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ANNOTATION_UPGRADE_JOB } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { ClusterVersionResource } from '../../api/openshift/config-v1/cluster-version.js';
import { formatTime } from '../../lib/clock.js';
import {
  cond,
  createHook,
  createUpgradeJob,
  createWindow,
  eventsFor,
  harness,
  hookJobNames,
  hookRule,
  HOUR,
  MINUTE,
  NS,
  runTo,
  state,
  T0,
  until,
} from './upgrade-job-controller.test-support.js';

void test('a job not started by startBefore expires; one inside a matching suspension window is skipped; a window for other labels does not apply', async (t) => {
  const h = await harness(t);
  await createWindow(h, 'freeze', {
    start: formatTime(T0),
    end: formatTime(T0 + 4 * HOUR),
    reason: 'Christmas "freeze"',
    jobSelector: { matchLabels: { tier: 'prod' } },
  });
  await createHook(h, 'on-success', ['Success']);
  // Created after the window of its start passed (the operator was down): expired.
  await createUpgradeJob(h, 'late', { startAfter: T0 - 2 * HOUR, startBefore: T0 - HOUR });
  await createUpgradeJob(h, 'frozen', { startAfter: T0 + HOUR, labels: { tier: 'prod' } });
  await createUpgradeJob(h, 'other', { startAfter: T0 + HOUR, labels: { tier: 'dev' } });
  h.startOperator();
  await until(h, () => state(h, 'late', 'Failed') === 'True/Expired', MINUTE, 'expired');
  assert.equal(cond(h, 'late', 'Failed')?.message, `Job could not be started before ${formatTime(T0 - HOUR)}`);
  assert.equal(state(h, 'late', 'Started'), 'absent');

  await runTo(h, T0 + HOUR - 1000);
  assert.equal(state(h, 'frozen', 'Succeeded'), 'absent', 'skipping is looked at only from startAfter on');
  await until(h, () => state(h, 'frozen', 'Succeeded') === 'True/Skipped', MINUTE, 'skipped');
  assert.equal(
    cond(h, 'frozen', 'Succeeded')?.message,
    'Upgrade job skipped by UpgradeSuspensionWindow "freeze", reason: "Christmas \\"freeze\\""',
  );
  assert.equal(state(h, 'frozen', 'Started'), 'absent');
  await until(h, () => state(h, 'other', 'Started') === 'True/Started', MINUTE, 'other started');
  // A skipped job is a success: its Success hook runs.
  await until(
    h,
    () => hookJobNames(h, 'frozen').includes('frozen-on-success-success-hook'),
    5 * MINUTE,
    'Success hook of the skipped job',
  );
  assert.ok((await eventsFor(h, 'late')).some((e) => e.startsWith('Warning Expired: Job could not be started before')));
});

void test('upgradeTimeout: a job whose upgrade never completes fails TimedOut at startAfter + timeout, runs Failure and Finish hooks and releases the lock', async (t) => {
  const h = await harness(t);
  await createHook(h, 'on-failure', ['Failure']);
  await createHook(h, 'on-finish', ['Finish']);
  h.startOperator();
  await createUpgradeJob(h, 'slow', { startAfter: T0 + MINUTE, version: '4.15.3', config: { upgradeTimeout: '2h' } });
  await until(
    h,
    () => h.cvs.get(undefined, 'version')?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB] === `${NS}/slow`,
    5 * MINUTE,
    'locked',
  );
  await runTo(h, T0 + MINUTE + 2 * HOUR);
  assert.equal(state(h, 'slow', 'Failed'), 'absent', 'not before the timeout (strictly after)');
  await until(h, () => state(h, 'slow', 'Failed') === 'True/TimedOut', MINUTE, 'timed out');
  assert.equal(cond(h, 'slow', 'Failed')?.message, 'Upgrade timed out after 2h0m0s');
  assert.ok(
    Date.parse(cond(h, 'slow', 'Failed')!.lastTransitionTime) - (T0 + MINUTE + 2 * HOUR) <= 1000,
    'at the timeout, not a poll later',
  );
  await until(
    h,
    () =>
      hookJobNames(h, 'slow').length === 2 &&
      h.cvs.get(undefined, 'version')?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB] === undefined,
    5 * MINUTE,
    'Failure/Finish hooks, lock released',
  );
  assert.deepEqual(hookJobNames(h, 'slow'), ['slow-on-failure-failure-hook', 'slow-on-finish-finish-hook']);
  const env = h.hookJobs.get(NS, 'slow-on-finish-finish-hook')!.spec!.template.spec!.containers[0]!.env!;
  assert.equal(env.find((e) => e.name === 'EVENT_reason')?.value, '"TimedOut"');
});

void test('the bound: a Create hook that never ends no longer blocks: the job expires at startBefore; a Start hook that never ends: TimedOut', async (t) => {
  const h = await harness(t, {
    jobRules: [hookRule('hang-create', 'succeed', 100_000), hookRule('hang-start', 'succeed', 100_000)],
  });
  await createHook(h, 'hang-create', ['Create'], { selector: { matchLabels: { case: 'create' } } });
  await createHook(h, 'hang-start', ['Start'], { selector: { matchLabels: { case: 'start' } } });
  h.startOperator();
  await createUpgradeJob(h, 'c', { startAfter: T0 + HOUR, startBefore: T0 + 2 * HOUR, labels: { case: 'create' } });
  await createUpgradeJob(h, 's', {
    startAfter: T0 + HOUR,
    labels: { case: 'start' },
    config: { upgradeTimeout: '3h' },
  });
  await runTo(h, T0 + 2 * HOUR);
  assert.equal(state(h, 'c', 'Started'), 'absent', 'the Create hook still runs: not started');
  assert.equal(state(h, 'c', 'Failed'), 'absent');
  await until(h, () => state(h, 'c', 'Failed') === 'True/Expired', MINUTE, 'expired while the Create hook runs');
  assert.equal(state(h, 's', 'Started'), 'True/Started');
  await until(
    h,
    () => state(h, 's', 'Failed') === 'True/TimedOut',
    3 * HOUR + MINUTE,
    'timed out while the Start hook runs',
  );
  assert.equal(cond(h, 's', 'Failed')?.message, 'Upgrade timed out after 3h0m0s');
  assert.ok(Math.abs(h.cluster.clock.now() - (T0 + 4 * HOUR)) <= 1000);
});

void test('the ClusterVersion lock: a job waits while another job holds it, then proceeds when it is released', async (t) => {
  const h = await harness(t);
  const c = h.cluster.client;
  // The holder exists (it starts only next week), so its lock is not stale.
  await createUpgradeJob(h, 'someone-else', { startAfter: T0 + 7 * 24 * HOUR });
  await c.patch(
    ClusterVersionResource,
    undefined,
    'version',
    { metadata: { annotations: { [ANNOTATION_UPGRADE_JOB]: `${NS}/someone-else` } } },
    { type: 'merge' },
  );
  h.startOperator();
  await createUpgradeJob(h, 'second', { startAfter: T0 + MINUTE, version: '4.15.3' });
  await runTo(h, T0 + 2 * HOUR);
  assert.equal(state(h, 'second', 'Started'), 'True/Started');
  assert.equal(state(h, 'second', 'PreHealthCheckDone'), 'absent', 'nothing after the lock ran');
  assert.equal(h.cvs.get(undefined, 'version')?.spec.desiredUpdate, undefined);
  assert.ok(
    (await eventsFor(h, 'second')).some(
      (e) =>
        e ===
        `Normal ClusterVersionLocked: ClusterVersionLock: the ClusterVersion is locked by UpgradeJob ${NS}/someone-else`,
    ),
  );
  await c.patch(
    ClusterVersionResource,
    undefined,
    'version',
    { metadata: { annotations: { [ANNOTATION_UPGRADE_JOB]: null } } },
    { type: 'merge' },
  );
  await until(
    h,
    () => h.cvs.get(undefined, 'version')?.spec.desiredUpdate?.version === '4.15.3',
    MINUTE,
    'proceeds once released (woken by the ClusterVersion change)',
  );
  assert.equal(h.cvs.get(undefined, 'version')?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB], `${NS}/second`);
});

void test('UpgradeWithdrawn: the release left availableUpdates; with the availability check off it is set anyway', async (t) => {
  const h = await harness(t);
  h.startOperator();
  await createUpgradeJob(h, 'gone', { startAfter: T0 + MINUTE, version: '4.15.9' });
  await until(h, () => state(h, 'gone', 'Failed') === 'True/UpgradeWithdrawn', 5 * MINUTE, 'withdrawn');
  assert.equal(cond(h, 'gone', 'Failed')?.message, 'Upgrade became unavailable: 4.15.9');
  await until(
    h,
    () => h.cvs.get(undefined, 'version')?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB] === undefined,
    MINUTE,
    'lock released',
  );
  await createUpgradeJob(h, 'forced', { startAfter: T0 + 10 * MINUTE, version: '4.15.9', checkAvailability: false });
  await until(
    h,
    () => h.cvs.get(undefined, 'version')?.spec.desiredUpdate?.version === '4.15.9',
    15 * MINUTE,
    'set without the check',
  );
});
