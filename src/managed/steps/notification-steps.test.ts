import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CLUSTER_ID,
  CONFIG_NAME,
  DESIRED,
  MINUTE,
  NEVER,
  T0,
  commencedCluster,
  fakeStepContext,
  type FakeStepContextOptions,
} from './step-context.test-support.js';
import {
  delayDueAt,
  sendCompletedNotification,
  sendStartedNotification,
  upgradeDelayedCheck,
} from './notification-steps.js';

const LABELS = { _id: CLUSTER_ID, upgradeconfig_name: CONFIG_NAME, version: DESIRED };
/** Started at T0; the default delay trigger is 30 minutes. */
const started: FakeStepContextOptions = { history: { startTime: '2026-03-02T01:00:00Z' } };

void test('SendStartedNotification: before the upgrade commenced, sends StateStarted and stamps upgrade_started', async () => {
  const fake = fakeStepContext({ now: T0 + 5_000 });
  assert.deepEqual(await sendStartedNotification.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.notifier.calls, [{ state: 'StateStarted' }]);
  assert.deepEqual(await fake.series('upgradeoperator_upgrade_started_timestamp'), [
    { labels: LABELS, value: T0 / 1000 + 5 },
  ]);
  assert.deepEqual(fake.events, []);
});

void test('SendStartedNotification: once commenced, done without a notification or a timestamp', async () => {
  const fake = fakeStepContext({ cluster: commencedCluster() });
  assert.deepEqual(await sendStartedNotification.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.notifier.calls, []);
  assert.deepEqual(await fake.series('upgradeoperator_upgrade_started_timestamp'), []);
});

void test('SendStartedNotification: run twice, the notification goes out once', async () => {
  const fake = fakeStepContext();
  await sendStartedNotification.run(fake.ctx, NEVER);
  await sendStartedNotification.run(fake.ctx, NEVER);
  assert.deepEqual(fake.notifier.sent, ['StateStarted']);
});

void test('SendStartedNotification: a failed notification fails the run before the timestamp is set', async () => {
  const fake = fakeStepContext();
  fake.notifier.failWith(new Error('OCM answered 503'));
  await assert.rejects(sendStartedNotification.run(fake.ctx, NEVER), /OCM answered 503/);
  assert.deepEqual(await fake.series('upgradeoperator_upgrade_started_timestamp'), []);
});

void test('delayDueAt: the history start time plus upgradeWindow.delayTrigger; none without a start or with the trigger off', () => {
  assert.equal(delayDueAt(fakeStepContext(started).ctx), T0 + 30 * MINUTE);
  assert.equal(
    delayDueAt(fakeStepContext({ ...started, operatorConfig: 'upgradeWindow:\n  delayTrigger: 45\n' }).ctx),
    T0 + 45 * MINUTE,
  );
  assert.equal(delayDueAt(fakeStepContext().ctx), undefined, 'no start time');
  assert.equal(
    delayDueAt(fakeStepContext({ ...started, operatorConfig: 'upgradeWindow:\n  delayTrigger: 0\n' }).ctx),
    undefined,
    'trigger off',
  );
});

void test('UpgradeDelayedCheck: without a start time it waits for the UpgradeConfig itself to change', async () => {
  const fake = fakeStepContext();
  assert.deepEqual(await upgradeDelayedCheck.run(fake.ctx, NEVER), {
    status: 'pending',
    waitFor: {},
    why: 'the upgrade has no start time yet',
  });
  assert.deepEqual(fake.notifier.calls, []);
});

void test('UpgradeDelayedCheck: never blocks; StateDelayed only once the trigger has passed (not at it)', async () => {
  for (const [now, want] of [
    [T0 + 10 * MINUTE, []],
    [T0 + 30 * MINUTE, []],
    [T0 + 30 * MINUTE + 1, ['StateDelayed']],
  ] as const) {
    const fake = fakeStepContext({ ...started, now });
    assert.deepEqual(await upgradeDelayedCheck.run(fake.ctx, NEVER), { status: 'done' });
    assert.deepEqual(
      fake.notifier.calls.map((call) => call.state),
      want,
      `${(now - T0) / MINUTE} min after the start`,
    );
  }
});

void test('UpgradeDelayedCheck: with the trigger off, or once commenced, no notification however late', async () => {
  const off = fakeStepContext({
    ...started,
    now: T0 + 600 * MINUTE,
    operatorConfig: 'upgradeWindow:\n  delayTrigger: 0\n',
  });
  assert.deepEqual(await upgradeDelayedCheck.run(off.ctx, NEVER), { status: 'done' });
  const late = fakeStepContext({ ...started, now: T0 + 600 * MINUTE, cluster: commencedCluster() });
  assert.deepEqual(await upgradeDelayedCheck.run(late.ctx, NEVER), { status: 'done' });
  assert.deepEqual([...off.notifier.calls, ...late.notifier.calls], []);
});

void test('UpgradeDelayedCheck: run twice late, StateDelayed goes out once; a failed send fails the run', async () => {
  const fake = fakeStepContext({ ...started, now: T0 + 31 * MINUTE });
  await upgradeDelayedCheck.run(fake.ctx, NEVER);
  await upgradeDelayedCheck.run(fake.ctx, NEVER);
  assert.deepEqual(fake.notifier.sent, ['StateDelayed']);
  const failing = fakeStepContext({ ...started, now: T0 + 31 * MINUTE });
  failing.notifier.failWith(new Error('OCM answered 503'));
  await assert.rejects(upgradeDelayedCheck.run(failing.ctx, NEVER), /OCM answered 503/);
});

void test('SendCompletedNotification: sends StateCompleted and stamps upgrade_completed, with no commencement gate', async () => {
  const fake = fakeStepContext({ now: T0 + 120 * MINUTE, cluster: commencedCluster() });
  assert.deepEqual(await sendCompletedNotification.run(fake.ctx, NEVER), { status: 'done' });
  assert.deepEqual(fake.notifier.calls, [{ state: 'StateCompleted' }]);
  assert.deepEqual(await fake.series('upgradeoperator_upgrade_completed_timestamp'), [
    { labels: LABELS, value: (T0 + 120 * MINUTE) / 1000 },
  ]);
  await sendCompletedNotification.run(fake.ctx, NEVER);
  assert.deepEqual(fake.notifier.sent, ['StateCompleted'], 'run twice: sent once');
});

void test('SendCompletedNotification: a failed notification fails the run before the timestamp is set', async () => {
  const fake = fakeStepContext({ cluster: commencedCluster() });
  fake.notifier.failWith(new Error('OCM answered 503'));
  await assert.rejects(sendCompletedNotification.run(fake.ctx, NEVER), /OCM answered 503/);
  assert.deepEqual(await fake.series('upgradeoperator_upgrade_completed_timestamp'), []);
});
