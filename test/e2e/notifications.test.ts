/**
 * End to end, the notifications of both flows (docs/configuration.md#notifications): scenario
 * `scheduled-notifications` with a webhook, Slack and Teams receiver on one loopback server that
 * fails each event's first deliveries (503), and the operator restarted twice: every receiver gets
 * each event it asked for exactly once, in the receiver's own shape.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { environmentFor, loadScenario } from '../../src/cli/scenarios/catalog.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import {
  startNotificationReceiver,
  withNotificationSecret,
  type NotificationReceiver,
} from '../../src/engine/notifications/notification-receiver.test-support.js';
import { scrape } from './scenario.test-support.js';

const RECEIVERS = ['sre', 'chat', 'teams'] as const;

/** Event type by id, from the webhook receiver (it asked for every event). */
function typesById(receiver: NotificationReceiver): Map<string, string> {
  return new Map(
    receiver
      .accepted('sre')
      .map((r) => [r.eventId, String(r.body['type']).replace('io.upgrade-operator.upgrade.', '')]),
  );
}

void test('scheduled-notifications: through 503s and two restarts, each receiver gets each of its events exactly once', async (t) => {
  const name = 'scheduled-notifications';
  const { file } = loadScenario(name);
  const namespace = file.operator?.namespace ?? '';
  const receiver = await startNotificationReceiver({ failFirst: 4 });
  t.after(() => receiver.close());
  const env = await startSimEnvironment(environmentFor(file, 1));
  t.after(() => env.close());
  const urls = Object.fromEntries(RECEIVERS.map((r) => [r, receiver.url(r)]));
  const outcome = await runCheckedScenario(env, name, withNotificationSecret(file, namespace, urls), { seed: 1 });
  t.after(() => outcome.run.close());
  assert.ok(outcome.ok, outcome.summary);
  assert.equal(outcome.run.operatorStarts, 3);

  for (const r of RECEIVERS) {
    const ids = receiver.accepted(r).map((x) => x.eventId);
    assert.equal(new Set(ids).size, ids.length, `${r}: no event twice: ${JSON.stringify(ids)}`);
    assert.ok(
      receiver.requests.some((x) => x.receiver === r && x.status === 503),
      `${r}: the receiver failed first and the delivery was retried`,
    );
  }
  const types = typesById(receiver);
  const typesOf = (r: string): string[] =>
    receiver.accepted(r).map((x) => types.get(x.eventId) ?? `unknown ${x.eventId}`);
  const sre = typesOf('sre');
  assert.deepEqual(
    [...new Set(sre)].sort(),
    ['completed', 'scheduled', 'started', 'waiting'],
    `the webhook gets every event that happened: ${JSON.stringify(sre)}`,
  );
  assert.deepEqual(typesOf('chat').sort(), ['completed', 'started']);
  const teams = typesOf('teams');
  assert.deepEqual([...new Set(teams)].sort(), ['completed', 'scheduled', 'waiting']);
  // Teams reports waits longer than 10 minutes, the webhook those longer than 30: the upgrade
  // itself (about an hour) is one, and Teams gets every wait the webhook gets.
  const sreWaits = receiver
    .accepted('sre')
    .filter((x) => types.get(x.eventId) === 'waiting')
    .map((x) => x.eventId);
  const teamsWaits = receiver
    .accepted('teams')
    .filter((x) => types.get(x.eventId) === 'waiting')
    .map((x) => x.eventId);
  assert.ok(
    sreWaits.every((id) => teamsWaits.includes(id)),
    'a wait long enough for the webhook is long enough for Teams',
  );

  // The shapes: a structured CloudEvent, a Slack message with blocks, a Teams Adaptive Card.
  const ce = receiver.accepted('sre').find((x) => types.get(x.eventId) === 'completed');
  assert.equal(ce?.contentType, 'application/cloudevents+json; charset=utf-8');
  assert.deepEqual(
    { ...ce?.body, id: undefined, time: undefined, data: undefined },
    {
      specversion: '1.0',
      id: undefined,
      source: '/clusters/sim-1',
      type: 'io.upgrade-operator.upgrade.completed',
      time: undefined,
      subject: `UpgradeJob/${namespace}/upgrade-4-14-31`,
      datacontenttype: 'application/json',
      data: undefined,
    },
  );
  const data = ce?.body['data'] as Record<string, unknown>;
  assert.deepEqual(
    [data['flow'], data['version'], data['reason'], data['cluster']],
    ['scheduled', '4.14.31', 'Succeeded', 'sim-1'],
  );
  const slack = receiver.accepted('chat')[0];
  assert.equal(slack?.contentType, 'application/json');
  assert.ok(Array.isArray(slack?.body['blocks']) && typeof slack.body['text'] === 'string');
  const card = receiver.accepted('teams')[0]?.body['attachments'] as Array<{ contentType: string }>;
  assert.equal(card[0]?.contentType, 'application/vnd.microsoft.card.adaptive');

  // What an SRE sees: the delivery and failure counters, and the record of what was delivered.
  const metrics = await scrape(outcome.run, '/metrics');
  assert.match(
    metrics,
    /upgrade_operator_notifications_delivered_total\{flow="scheduled",receiver="chat",event="completed"\} 1/,
  );
  assert.match(
    metrics,
    /upgrade_operator_notification_delivery_failures_total\{flow="scheduled",receiver="sre",event="completed"\} [1-9]/,
  );
});
