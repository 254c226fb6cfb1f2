import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventId, upgradeEvents } from './upgrade-event.js';
import { jobProgress } from './notification-fixtures.test-support.js';

void test('a running upgrade implies scheduled, started, one event per problem and the current wait, in that order', () => {
  const events = upgradeEvents(jobProgress());
  assert.deepEqual(
    events.map((e) => [e.type, e.time, e.reason]),
    [
      ['scheduled', '2026-11-27T00:00:00Z', 'Scheduled'],
      ['started', '2026-11-27T01:00:05Z', 'Started'],
      ['stepFailed', '2026-11-27T01:01:00Z', 'HookFailed'],
      ['waiting', '2026-11-27T01:10:00Z', 'InProgress'],
    ],
  );
  assert.equal(events[0]?.scheduledFor, '2026-11-27T01:00:00Z');
  assert.equal(
    events[0]?.message,
    'the upgrade of UpgradeJob appuio/nightly-1 to 4.14.31 is scheduled for 2026-11-27T01:00:00Z',
  );
  assert.equal(events[3]?.step, 'UpgradeCompleted');
});

void test('a final upgrade has no wait; completed and failed carry their reason and time', () => {
  const done = upgradeEvents(
    jobProgress({ completed: { at: '2026-11-27T02:00:00Z', reason: 'Succeeded', message: 'Upgrade succeeded' } }),
  );
  assert.deepEqual(
    done.map((e) => e.type),
    ['scheduled', 'started', 'stepFailed', 'completed'],
  );
  assert.deepEqual(
    [done[3]?.time, done[3]?.reason, done[3]?.message],
    ['2026-11-27T02:00:00Z', 'Succeeded', 'Upgrade succeeded'],
  );
  const failed = upgradeEvents(
    jobProgress({ failed: { at: '2026-11-27T03:00:00Z', reason: 'TimedOut', message: 'timed out' } }),
  );
  assert.deepEqual(failed.at(-1), {
    ...failed.at(-1),
    type: 'failed',
    time: '2026-11-27T03:00:00Z',
    reason: 'TimedOut',
  });
});

void test('ids are the same for the same occurrence (a restart), and differ per object, version, event and wait episode', () => {
  const first = upgradeEvents(jobProgress()).map((e) => e.id);
  // The same status read again later (only observed times differ) gives the same ids.
  const again = upgradeEvents(jobProgress({ scheduled: { at: '2026-11-27T00:30:00Z', for: '2026-11-27T01:00:00Z' } }));
  assert.deepEqual(
    again.map((e) => e.id),
    first,
  );
  assert.equal(new Set(first).size, first.length, 'distinct per event');
  const otherUid = upgradeEvents(jobProgress({ subject: { ...jobProgress().subject, uid: 'uid-2' } }));
  assert.notEqual(otherUid[0]?.id, first[0]);
  const otherVersion = upgradeEvents(jobProgress({ version: '4.14.32' }));
  assert.notEqual(otherVersion[1]?.id, first[1]);
  const laterWait = upgradeEvents(
    jobProgress({
      wait: { step: 'UpgradeCompleted', reason: 'InProgress', message: '', since: '2026-11-27T01:20:00Z' },
    }),
  );
  assert.notEqual(laterWait[3]?.id, first[3], 'a new wait episode is a new event');
  assert.match(eventId(jobProgress().subject, '4.14.31', 'started', ''), /^[0-9a-f]{32}$/);
});
