import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deliveryKey, parseDeliveryRecord, planDeliveries, recordDeliveries, stateKey } from './delivery-plan.js';
import { upgradeEvents } from './upgrade-event.js';
import { jobProgress, receiver } from './notification-fixtures.test-support.js';

const NOW = Date.parse('2026-11-27T01:30:00Z');
const CONFIGURED = Date.parse('2026-11-26T00:00:00Z');
const none = { uid: 'uid-1', delivered: [] };

void test('each receiver gets the event types it asked for', () => {
  const events = upgradeEvents(jobProgress());
  const plan = planDeliveries(
    events,
    [receiver('all'), receiver('chat', 'slack', ['started', 'completed', 'failed'])],
    none,
    NOW,
    CONFIGURED,
  );
  assert.deepEqual(
    plan.due.map((d) => `${d.receiver.name}:${d.event.type}`),
    ['all:scheduled', 'all:started', 'chat:started', 'all:stepFailed'],
  );
});

void test("a waiting event is due once the wait is older than the receiver's threshold; until then its time is the next wake-up", () => {
  const events = upgradeEvents(jobProgress());
  const quick = receiver('quick', 'webhook', ['waiting'], 15 * 60_000);
  const slow = receiver('slow', 'webhook', ['waiting'], 60 * 60_000);
  const plan = planDeliveries(events, [quick, slow], none, NOW, CONFIGURED);
  assert.deepEqual(
    plan.due.map((d) => d.receiver.name),
    ['quick'],
    'waiting since 01:10: 20 min at 01:30',
  );
  assert.equal(plan.nextAt, Date.parse('2026-11-27T02:10:00Z'));
});

void test('what the record lists as delivered is not delivered again; the record belongs to one uid', () => {
  const events = upgradeEvents(jobProgress());
  const r = receiver('all', 'webhook', ['scheduled', 'started']);
  const first = planDeliveries(events, [r], none, NOW, CONFIGURED);
  assert.equal(first.due.length, 2);
  const afterOne = recordDeliveries(none, first.due.slice(0, 1));
  assert.deepEqual(afterOne.delivered, [deliveryKey(events[0]!.id, 'all')]);
  // A restart reads the record back from the state ConfigMap.
  const reread = parseDeliveryRecord(JSON.stringify(afterOne), 'uid-1');
  assert.deepEqual(
    planDeliveries(events, [r], reread, NOW, CONFIGURED).due.map((d) => d.event.type),
    ['started'],
  );
  assert.deepEqual(recordDeliveries(afterOne, first.due).delivered.length, 2, 'no repeats');
  // A recreated object of the same name (another uid) starts afresh; a broken record counts as nothing delivered.
  assert.deepEqual(parseDeliveryRecord(JSON.stringify(afterOne), 'uid-2'), { uid: 'uid-2', delivered: [] });
  assert.deepEqual(parseDeliveryRecord('{not json', 'uid-1'), none);
  assert.deepEqual(parseDeliveryRecord(undefined, 'uid-1'), none);
});

void test('an upgrade that ended before the configuration existed gets nothing; one still running gets its history', () => {
  const ended = upgradeEvents(
    jobProgress({ completed: { at: '2026-11-27T02:00:00Z', reason: 'Succeeded', message: '' } }),
  );
  const later = Date.parse('2026-11-28T00:00:00Z');
  assert.deepEqual(planDeliveries(ended, [receiver('all')], none, later, later).due, []);
  const running = upgradeEvents(jobProgress());
  const configuredMidway = Date.parse('2026-11-27T01:20:00Z');
  assert.ok(
    planDeliveries(running, [receiver('all')], none, NOW, configuredMidway).due.some(
      (d) => d.event.type === 'scheduled',
    ),
  );
});

void test('state keys name the flow, namespace and name', () => {
  assert.equal(
    stateKey({ flow: 'managed', namespace: 'openshift-managed-upgrade-operator', name: 'cfg' }),
    'managed.openshift-managed-upgrade-operator.cfg',
  );
});
