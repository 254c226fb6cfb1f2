import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ScheduledUpgradeConfigResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config-contract.js';
import {
  configCondition,
  createClusterVersion,
  createConfig,
  createWindow,
  DAY,
  eventsFor,
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

const T0 = Date.UTC(2026, 2, 2);
const DAILY = '0 3 * * *';

void test('a bad cron or an unknown zone: condition and Warning Event, no job; fixing the spec clears it', async (t) => {
  const h = await harness(t, T0);
  await createClusterVersion(h, [release('4.15.3')]);
  await createConfig(h, 'bad-cron', { cron: 'every tuesday', location: 'UTC' });
  await createConfig(h, 'bad-zone', { cron: DAILY, location: 'Mars/Olympus_Mons' });
  h.startOperator();
  await runUntil(h, T0 + 5 * HOUR);
  assert.deepEqual(await listJobs(h), []);

  const cron = await configCondition(h, 'bad-cron', 'ScheduleValid');
  assert.equal(cron?.status, 'False');
  assert.equal(cron?.reason, 'InvalidCron');
  assert.match(cron?.message ?? '', /^spec\.schedule\.cron: cannot parse cron schedule "every tuesday": /);
  assert.deepEqual(await configCondition(h, 'bad-cron', 'Waiting').then((c) => [c?.status, c?.reason]), [
    'False',
    'InvalidSchedule',
  ]);
  assert.deepEqual((await getConfig(h, 'bad-cron')).status?.nextPossibleSchedules, []);
  assert.deepEqual(await eventsFor(h, 'bad-cron'), [`Warning InvalidCron: ${cron?.message ?? ''}`]);

  const zone = await configCondition(h, 'bad-zone', 'ScheduleValid');
  assert.deepEqual(
    [zone?.status, zone?.reason, zone?.message],
    ['False', 'UnknownTimeZone', 'spec.schedule.location: unknown time zone Mars/Olympus_Mons'],
  );
  assert.deepEqual(await eventsFor(h, 'bad-zone'), [
    'Warning UnknownTimeZone: spec.schedule.location: unknown time zone Mars/Olympus_Mons',
  ]);

  // Fixed at 05:00: valid again, and the next 03:00 window gets its job.
  const client = h.cluster.client;
  await client.patch(
    ScheduledUpgradeConfigResource,
    NS,
    'bad-cron',
    { spec: { schedule: { cron: DAILY } } },
    { type: 'merge' },
  );
  await client.patch(
    ScheduledUpgradeConfigResource,
    NS,
    'bad-zone',
    { spec: { schedule: { location: 'UTC' } } },
    { type: 'merge' },
  );
  await runUntil(h, T0 + 5 * HOUR + MINUTE);
  for (const name of ['bad-cron', 'bad-zone']) {
    const valid = await configCondition(h, name, 'ScheduleValid');
    assert.deepEqual([valid?.status, valid?.reason, valid?.message], ['True', 'Valid', ''], name);
    assert.equal((await getConfig(h, name)).status?.nextPossibleSchedules.length, 10, name);
  }
  await runUntil(h, T0 + DAY + 3 * HOUR);
  assert.deepEqual(
    (await listJobs(h)).map((j) => j.metadata?.name),
    [`bad-cron-4-15-3-${unix(T0 + DAY + 3 * HOUR)}`, `bad-zone-4-15-3-${unix(T0 + DAY + 3 * HOUR)}`],
  );
});

void test('an isoWeek no date can match reports NoNextSchedule instead of failing for ever', async (t) => {
  const h = await harness(t, T0);
  await createConfig(h, 'week-54', { cron: DAILY, location: 'UTC', isoWeek: '54' });
  h.startOperator();
  await runUntil(h, T0 + MINUTE);
  const valid = await configCondition(h, 'week-54', 'ScheduleValid');
  assert.deepEqual([valid?.status, valid?.reason], ['False', 'NoNextSchedule']);
  assert.match(valid?.message ?? '', /^could not find next scheduled time, checked until ".*": no next time found$/);
  assert.deepEqual(await eventsFor(h, 'week-54'), [`Warning NoNextSchedule: ${valid?.message ?? ''}`]);
});

void test('spec.schedule.suspend consumes the window with an Event and no job; unsuspended, the next window gets one', async (t) => {
  const h = await harness(t, T0);
  await createClusterVersion(h, [release('4.15.3')]);
  await createConfig(h, 'paused', { cron: DAILY, location: 'UTC', suspend: true });
  h.startOperator();
  await runUntil(h, T0 + 4 * HOUR);
  assert.deepEqual(await listJobs(h), []);
  assert.deepEqual(await eventsFor(h, 'paused').then((e) => e.filter((x) => x.includes('Suspended'))), [
    'Normal UpgradeConfigSuspended: Upgrade scheduling is suspended by .spec.schedule.suspend',
  ]);
  assert.equal((await getConfig(h, 'paused')).status?.lastScheduledUpgrade, '2026-03-02T03:00:00Z');

  await h.cluster.client.patch(
    ScheduledUpgradeConfigResource,
    NS,
    'paused',
    { spec: { schedule: { suspend: false } } },
    { type: 'merge' },
  );
  await runUntil(h, T0 + DAY + 3 * HOUR);
  assert.deepEqual(
    (await listJobs(h)).map((j) => [j.metadata?.name, j.metadata?.creationTimestamp]),
    [[`paused-4-15-3-${unix(T0 + DAY + 3 * HOUR)}`, '2026-03-03T03:00:00Z']],
  );
});

void test('an UpgradeSuspensionWindow selecting the config skips a window with an Event; others are ignored', async (t) => {
  const h = await harness(t, T0);
  await createClusterVersion(h, [release('4.15.3')]);
  await createConfig(h, 'windowed', { cron: DAILY, location: 'UTC', labels: { env: 'prod' } });
  await createWindow(h, 'freeze', {
    start: '2026-03-02T00:00:00Z',
    end: '2026-03-02T12:00:00Z',
    reason: 'Month-end closing',
    configSelector: { matchLabels: { env: 'prod' } },
  });
  await createWindow(h, 'dev-only', {
    start: '2026-03-01T00:00:00Z',
    end: '2026-04-01T00:00:00Z',
    reason: 'dev freeze',
    configSelector: { matchLabels: { env: 'dev' } },
  });
  await createWindow(h, 'no-selector', {
    start: '2026-03-01T00:00:00Z',
    end: '2026-04-01T00:00:00Z',
    reason: 'selects nothing',
  });
  h.startOperator();
  await runUntil(h, T0 + 4 * HOUR);
  assert.deepEqual(await listJobs(h), []);
  assert.ok(
    (await eventsFor(h, 'windowed')).includes(
      'Normal UpgradeConfigSuspendedBySuspensionWindow: Upgrade scheduling is suspended by UpgradeSuspensionWindow freeze: Month-end closing',
    ),
  );
  assert.equal((await getConfig(h, 'windowed')).status?.lastScheduledUpgrade, '2026-03-02T03:00:00Z');

  // A window created later, covering the next window's time, skips it too (the window watch
  // is not needed for that, but its creation must not disturb the schedule).
  await createWindow(h, 'late', {
    start: '2026-03-03T02:00:00Z',
    end: '2026-03-03T04:00:00Z',
    reason: 'maintenance of the registry',
    configSelector: {},
  });
  await runUntil(h, T0 + DAY + 4 * HOUR);
  assert.deepEqual(await listJobs(h), []);
  assert.ok(
    (await eventsFor(h, 'windowed')).includes(
      'Normal UpgradeConfigSuspendedBySuspensionWindow: Upgrade scheduling is suspended by UpgradeSuspensionWindow late: maintenance of the registry',
    ),
  );

  await runUntil(h, T0 + 2 * DAY + 3 * HOUR);
  assert.deepEqual(
    (await listJobs(h)).map((j) => j.metadata?.name),
    [`windowed-4-15-3-${unix(T0 + 2 * DAY + 3 * HOUR)}`],
  );
});

void test('an UpgradeSuspensionWindow change wakes a config whose job is due', async (t) => {
  const h = await harness(t, T0);
  await createConfig(h, 'woken', { cron: DAILY, location: 'UTC', labels: { env: 'prod' } });
  h.startOperator();
  // Due at 03:00, but no ClusterVersion: the job waits within its creation window (until 04:00).
  await runUntil(h, T0 + 3 * HOUR + 10 * MINUTE);
  assert.equal((await configCondition(h, 'woken', 'Waiting'))?.reason, 'ClusterVersionMissing');
  // A window now covering the config consumes the due slot at once (a suspension needs no ClusterVersion).
  await createWindow(h, 'freeze', {
    start: '2026-03-02T03:00:00Z',
    end: '2026-03-02T05:00:00Z',
    reason: 'freeze',
    configSelector: {},
  });
  await runUntil(h, T0 + 3 * HOUR + 11 * MINUTE);
  assert.ok(
    (await eventsFor(h, 'woken')).includes(
      'Normal UpgradeConfigSuspendedBySuspensionWindow: Upgrade scheduling is suspended by UpgradeSuspensionWindow freeze: freeze',
    ),
  );
  assert.equal((await getConfig(h, 'woken')).status?.lastScheduledUpgrade, '2026-03-02T03:00:00Z');
  assert.equal((await configCondition(h, 'woken', 'Waiting'))?.reason, 'WaitingForWindow');
});

/** `status.nextPossibleSchedules` of a config as UTC texts. */
async function nextPossible(h: Awaited<ReturnType<typeof harness>>, name: string): Promise<string[]> {
  return ((await getConfig(h, name)).status?.nextPossibleSchedules ?? []).map((s) => s.time);
}

void test('nextPossibleSchedules: 10 entries in the config zone; the repeated hour of the autumn change fires twice', async (t) => {
  const start = Date.parse('2026-10-21T00:00:00Z');
  const h = await harness(t, start);
  await createConfig(h, 'zurich', { cron: '30 2 * * *', location: 'Europe/Zurich' });
  h.startOperator();
  await runUntil(h, start + MINUTE);
  assert.deepEqual(await nextPossible(h, 'zurich'), [
    '2026-10-21T00:30:00Z',
    '2026-10-22T00:30:00Z',
    '2026-10-23T00:30:00Z',
    '2026-10-24T00:30:00Z',
    '2026-10-25T00:30:00Z',
    '2026-10-25T01:30:00Z',
    '2026-10-26T01:30:00Z',
    '2026-10-27T01:30:00Z',
    '2026-10-28T01:30:00Z',
    '2026-10-29T01:30:00Z',
  ]);
  // Refreshed when the first entry passes, without any other event.
  await runUntil(h, start + 31 * MINUTE);
  const after = await nextPossible(h, 'zurich');
  assert.equal(after.length, 10);
  assert.equal(after[0], '2026-10-22T00:30:00Z');
  assert.equal(after[9], '2026-10-30T01:30:00Z');
});

void test('nextPossibleSchedules: a wall time missing in the spring change is skipped that day', async (t) => {
  const start = Date.parse('2026-03-26T00:00:00Z');
  const h = await harness(t, start);
  await createConfig(h, 'zurich', { cron: '30 2 * * *', location: 'Europe/Zurich' });
  h.startOperator();
  await runUntil(h, start + MINUTE);
  assert.deepEqual(await nextPossible(h, 'zurich'), [
    '2026-03-26T01:30:00Z',
    '2026-03-27T01:30:00Z',
    '2026-03-28T01:30:00Z',
    '2026-03-30T00:30:00Z',
    '2026-03-31T00:30:00Z',
    '2026-04-01T00:30:00Z',
    '2026-04-02T00:30:00Z',
    '2026-04-03T00:30:00Z',
    '2026-04-04T00:30:00Z',
    '2026-04-05T00:30:00Z',
  ]);
});
