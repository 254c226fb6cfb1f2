import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import { ScheduledUpgradeConfigResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import { formatTime } from '../../lib/clock.js';
import {
  configCondition,
  createClusterVersion,
  createConfig,
  DAY,
  eventsFor,
  finishJob,
  getConfig,
  harness,
  HOUR,
  listJobs,
  MINUTE,
  NS,
  release,
  runUntil,
  unix,
} from './upgrade-config-controller.test-support.js';

/** Monday 2026-03-02T00:00Z, the fixture's start. Zurich is UTC+1 until 2026-03-29. */
const T0 = Date.UTC(2026, 2, 2);
/** Tuesday 22:00 in Zurich. */
const WEEKLY = '0 22 * * 2';
const SLOT1 = Date.parse('2026-03-03T21:00:00Z');
const SLOT2 = Date.parse('2026-03-10T21:00:00Z');
/** Start of the weekly tests: the watches' one-minute bookmarks make every virtual day cost real time. */
const T_WEEKLY = Date.parse('2026-03-03T12:00:00Z');

void test('a weekly config creates its job exactly pinVersionWindow before the window, with the newest version, owner and times; the next one after it finished', async (t) => {
  const h = await harness(t, T_WEEKLY);
  await createClusterVersion(h, [release('4.15.3'), release('4.15.10'), release('4.14.30')]);
  const config = await createConfig(h, 'weekly', { cron: WEEKLY, pinVersionWindow: '4h', maxUpgradeStartDelay: '2h' });
  h.startOperator();

  await runUntil(h, SLOT1 - 4 * HOUR - 1000);
  assert.deepEqual(await listJobs(h), []);
  const waiting = await configCondition(h, 'weekly', 'Waiting');
  assert.equal(waiting?.status, 'True');
  assert.equal(waiting?.reason, 'WaitingForWindow');
  assert.equal(
    waiting?.message,
    'the UpgradeJob for the window at 2026-03-03T21:00:00Z will be created at 2026-03-03T17:00:00Z',
  );
  assert.equal((await configCondition(h, 'weekly', 'ScheduleValid'))?.status, 'True');

  await runUntil(h, SLOT1 - 4 * HOUR);
  const [job, ...others] = await listJobs(h);
  assert.deepEqual(others, []);
  const name = `weekly-4-15-10-${unix(SLOT1)}`;
  assert.equal(job?.metadata?.name, name);
  assert.equal(job.metadata?.creationTimestamp, '2026-03-03T17:00:00Z', 'created exactly at window − pinVersionWindow');
  assert.deepEqual(job.metadata?.labels, { 'upgrade-operator.io/test': 'weekly' });
  assert.deepEqual(job.metadata?.annotations, { note: 'from the template' });
  assert.deepEqual(job.metadata?.ownerReferences, [
    {
      apiVersion: 'managedupgrade.appuio.io/v1beta1',
      kind: 'UpgradeConfig',
      name: 'weekly',
      uid: config.metadata?.uid,
      controller: true,
      blockOwnerDeletion: true,
    },
  ]);
  assert.deepEqual(job.spec?.desiredVersion, { version: '4.15.10', image: release('4.15.10').image });
  assert.equal(job.spec?.startAfter, '2026-03-03T21:00:00Z');
  assert.equal(job.spec?.startBefore, '2026-03-03T23:00:00Z');
  assert.deepEqual(job.spec?.config, {
    upgradeTimeout: '12h',
    preUpgradeHealthChecks: { timeout: '1h' },
    postUpgradeHealthChecks: { timeout: '1h' },
  });

  const stored = await getConfig(h, 'weekly');
  assert.equal(stored.status?.lastScheduledUpgrade, '2026-03-03T21:00:00Z');
  assert.equal(stored.status?.nextPossibleSchedules.length, 10);
  assert.equal(stored.status?.nextPossibleSchedules[0]?.time, '2026-03-03T21:00:00Z');
  assert.equal(stored.status?.nextPossibleSchedules[9]?.time, '2026-05-05T20:00:00Z', 'summer time from 29 March');
  assert.equal(
    (await configCondition(h, 'weekly', 'Waiting'))?.message,
    `UpgradeJob ${name} is queued to start at 2026-03-03T21:00:00Z`,
  );
  assert.ok(
    (await eventsFor(h, 'weekly')).includes(
      `Normal UpgradeJobCreated: Created UpgradeJob ${name} for the window at 2026-03-03T21:00:00Z (version 4.15.10)`,
    ),
  );

  // Started but not finished: the next window waits (and says so) — no second job.
  await runUntil(h, SLOT1 + HOUR);
  assert.equal((await configCondition(h, 'weekly', 'Waiting'))?.reason, 'JobNotFinished');
  assert.equal(
    (await getConfig(h, 'weekly')).status?.nextPossibleSchedules[0]?.time,
    '2026-03-10T21:00:00Z',
    'refreshed when the first window passed',
  );
  await finishJob(h, name, 'Succeeded');
  await runUntil(h, SLOT2 - 4 * HOUR - 1000);
  assert.equal((await listJobs(h)).length, 1);
  assert.equal((await configCondition(h, 'weekly', 'Waiting'))?.reason, 'WaitingForWindow');
  await runUntil(h, SLOT2 - 4 * HOUR);
  const second = (await listJobs(h)).find((j) => j.metadata?.name === `weekly-4-15-10-${unix(SLOT2)}`);
  assert.equal(second?.metadata?.creationTimestamp, '2026-03-10T17:00:00Z');
});

void test('without available updates a noop job is created; a missing ClusterVersion delays it until it appears', async (t) => {
  const h = await harness(t, T0);
  await createConfig(h, 'daily', { cron: '0 3 * * *', location: 'UTC' });
  h.startOperator();
  const slot = T0 + 3 * HOUR;
  await runUntil(h, slot + 10 * MINUTE);
  assert.deepEqual(await listJobs(h), []);
  const waiting = await configCondition(h, 'daily', 'Waiting');
  assert.equal(waiting?.reason, 'ClusterVersionMissing');
  assert.equal(
    waiting?.message,
    'the UpgradeJob for the window at 2026-03-02T03:00:00Z is due, but ClusterVersion is missing; the window is missed unless it appears by 2026-03-02T04:00:00Z',
  );

  // The ClusterVersion watch wakes the config at once.
  await createClusterVersion(h, []);
  await runUntil(h, slot + 11 * MINUTE);
  const [job] = await listJobs(h);
  assert.equal(job?.metadata?.name, `daily-noop-${unix(slot)}`);
  assert.equal(job.metadata?.creationTimestamp, formatTime(slot + 10 * MINUTE));
  assert.equal(job.spec?.desiredVersion, undefined);
  assert.equal(job.spec?.startAfter, '2026-03-02T03:00:00Z');
  assert.equal(job.spec?.startBefore, '2026-03-02T04:00:00Z');
  assert.ok(
    (await eventsFor(h, 'daily')).includes(
      `Normal UpgradeJobCreated: Created UpgradeJob daily-noop-${unix(slot)} for the window at 2026-03-02T03:00:00Z (no update available: a noop job)`,
    ),
  );
});

void test('a restarted operator creates no duplicate job, even when the status write was lost', async (t) => {
  const h = await harness(t, T_WEEKLY);
  await createClusterVersion(h, [release('4.15.3')]);
  await createConfig(h, 'weekly', { cron: WEEKLY, pinVersionWindow: '4h' });
  const first = h.startOperator();
  await runUntil(h, SLOT1 - 4 * HOUR);
  assert.equal((await listJobs(h)).length, 1);
  await first.stop();

  // The status is lost (as if the write after the create had failed).
  const config = await getConfig(h, 'weekly');
  await h.cluster.client.updateStatus(ScheduledUpgradeConfigResource, {
    ...config,
    status: { nextPossibleSchedules: [] },
  });
  h.startOperator();
  await runUntil(h, SLOT1 - 3 * HOUR);
  assert.deepEqual(
    (await listJobs(h)).map((j) => j.metadata?.name),
    [`weekly-4-15-3-${unix(SLOT1)}`],
  );
  assert.equal(
    (await getConfig(h, 'weekly')).status?.lastScheduledUpgrade,
    '2026-03-03T21:00:00Z',
    'repaired from the job',
  );
  assert.equal((await configCondition(h, 'weekly', 'Waiting'))?.reason, 'JobQueued');
});

void test('after a 30-day outage missed windows are skipped, not caught up, and the next one is taken on time', async (t) => {
  const h = await harness(t, T0);
  await createClusterVersion(h, [release('4.15.3')]);
  await createConfig(h, 'hourly', { cron: '30 * * * *', location: 'UTC', maxSchedulingDelay: '10m' });
  const first = h.startOperator();
  await runUntil(h, T0 + 30 * MINUTE);
  const [job] = await listJobs(h);
  assert.equal(job?.metadata?.name, `hourly-4-15-3-${unix(T0 + 30 * MINUTE)}`);
  await finishJob(h, job.metadata?.name ?? '', 'Succeeded');
  await runUntil(h, T0 + 31 * MINUTE);
  await first.stop();

  const back = T0 + 30 * DAY + 45 * MINUTE;
  await runUntil(h, back);
  h.startOperator();
  await runUntil(h, back + MINUTE);
  assert.equal((await listJobs(h)).length, 1, 'no catch-up job for the 720 missed windows');
  const waiting = await configCondition(h, 'hourly', 'Waiting');
  assert.equal(waiting?.reason, 'WaitingForWindow');
  assert.match(
    waiting?.message ?? '',
    /^the UpgradeJob for the window at 2026-04-01T01:30:00Z will be created at 2026-04-01T01:30:00Z; 100\+ missed window\(s\) skipped, the last at /,
  );
  assert.equal((await getConfig(h, 'hourly')).status?.nextPossibleSchedules[0]?.time, '2026-04-01T01:30:00Z');
  assert.equal((await configCondition(h, 'hourly', 'ScheduleValid'))?.status, 'True', 'no permanent error');

  await runUntil(h, T0 + 30 * DAY + 90 * MINUTE);
  const names = (await listJobs(h)).map((j) => [j.metadata?.name, j.metadata?.creationTimestamp]);
  assert.deepEqual(names, [
    [`hourly-4-15-3-${unix(T0 + 30 * MINUTE)}`, '2026-03-02T00:30:00Z'],
    [`hourly-4-15-3-${unix(T0 + 30 * DAY + 90 * MINUTE)}`, '2026-04-01T01:30:00Z'],
  ]);
});

void test('successfulJobsHistoryLimit deletes the oldest succeeded jobs of this config only', async (t) => {
  const h = await harness(t, T0);
  await createClusterVersion(h, [release('4.15.3')]);
  const config = await createConfig(h, 'hist', { cron: '0 3 * * *', location: 'UTC', successfulJobsHistoryLimit: 2 });
  const owner = {
    apiVersion: 'managedupgrade.appuio.io/v1beta1',
    kind: 'UpgradeConfig',
    name: 'hist',
    uid: config.metadata?.uid ?? '',
    controller: true,
  };
  const jobs: Array<[string, number, 'Succeeded' | 'Failed', boolean]> = [
    ['old-1', 5, 'Succeeded', true],
    ['old-2', 4, 'Succeeded', true],
    ['failed', 3, 'Failed', true],
    ['new-1', 2, 'Succeeded', true],
    ['new-2', 1, 'Succeeded', true],
    ['foreign', 6, 'Succeeded', false],
  ];
  for (const [name, daysAgo, state, owned] of jobs) {
    const startAfter = formatTime(T0 - daysAgo * DAY);
    await h.cluster.client.create(UpgradeJobResource, {
      apiVersion: 'managedupgrade.appuio.io/v1beta1',
      kind: 'UpgradeJob',
      metadata: { name, namespace: NS, ...(owned ? { ownerReferences: [owner] } : {}) },
      spec: { startAfter, startBefore: startAfter, config: config.spec.jobTemplate.spec.config },
    });
    await finishJob(h, name, state);
  }
  h.startOperator();
  await runUntil(h, T0 + MINUTE);
  assert.deepEqual(
    (await listJobs(h)).map((j) => j.metadata?.name),
    ['failed', 'foreign', 'new-1', 'new-2'],
  );
  assert.equal(
    (await getConfig(h, 'hist')).status?.lastScheduledUpgrade,
    formatTime(T0 - DAY),
    'the latest job repairs the status',
  );
  // The next window is scheduled after the latest (finished) job.
  await runUntil(h, T0 + 3 * HOUR);
  assert.ok((await listJobs(h)).some((j) => j.metadata?.name === `hist-4-15-3-${unix(T0 + 3 * HOUR)}`));
});
