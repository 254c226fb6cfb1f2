/**
 * End to end, the notifications of both flows (docs/configuration.md#notifications): scenarios
 * `scheduled-notifications` and `managed-notifications`, each with a webhook, Slack and Teams
 * receiver on one loopback server that fails each event's first four deliveries (503), and the
 * operator restarted twice: every receiver gets each event it asked for exactly once, in the
 * receiver's own shape, and the flows' own notifications go on beside them.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { runCheckedScenario } from '../../src/api/deploy/operator-requests.test-support.js';
import { MANAGED_UPGRADE_OPERATOR_NAMESPACE } from '../../src/api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import { environmentFor, loadScenario, type ScenarioOutcome } from '../../src/cli/scenarios/catalog.js';
import { startSimEnvironment } from '../../src/cli/scenarios/sim-environment.js';
import {
  startNotificationReceiver,
  withNotificationSecret,
  type NotificationReceiver,
} from '../../src/engine/notifications/notification-receiver.test-support.js';
import { scrape } from './scenario.test-support.js';

const RECEIVERS = ['sre', 'chat', 'teams'] as const;

/** Runs the named scenario with the receivers' Secret pointing at a receiver on loopback. */
async function runWithReceiver(
  t: TestContext,
  name: string,
  namespace: string,
): Promise<{ outcome: ScenarioOutcome; receiver: NotificationReceiver }> {
  const { file } = loadScenario(name);
  const receiver = await startNotificationReceiver({ failFirst: 4 });
  t.after(() => receiver.close());
  const env = await startSimEnvironment(environmentFor(file, 1));
  t.after(() => env.close());
  const urls = Object.fromEntries(RECEIVERS.map((r) => [r, receiver.url(r)]));
  const outcome = await runCheckedScenario(env, name, withNotificationSecret(file, namespace, urls), { seed: 1 });
  t.after(() => outcome.run.close());
  assert.ok(outcome.ok, outcome.summary);
  assert.equal(outcome.run.operatorStarts, 3);
  return { outcome, receiver };
}

/**
 * Each receiver got each of its events exactly once, after failures; the webhook (every event)
 * got `sre`, Slack started and completed, Teams `teams`; and the shapes and counters are right.
 * Returns the completed CloudEvent's data.
 */
async function assertDeliveries(
  outcome: ScenarioOutcome,
  receiver: NotificationReceiver,
  flow: string,
  subject: string,
  sre: string[],
  teams: string[],
): Promise<Record<string, unknown>> {
  for (const r of RECEIVERS) {
    const ids = receiver.accepted(r).map((x) => x.eventId);
    assert.equal(new Set(ids).size, ids.length, `${r}: no event twice: ${JSON.stringify(ids)}`);
    assert.ok(
      receiver.requests.some((x) => x.receiver === r && x.status === 503),
      `${r}: the receiver failed first and the delivery was retried`,
    );
  }
  // Event type by id, from the webhook receiver (it asked for every event).
  const types = new Map(
    receiver
      .accepted('sre')
      .map((r) => [r.eventId, String(r.body['type']).replace('io.upgrade-operator.upgrade.', '')]),
  );
  const typesOf = (r: string): string[] =>
    receiver.accepted(r).map((x) => types.get(x.eventId) ?? `unknown ${x.eventId}`);
  assert.deepEqual([...new Set(typesOf('sre'))].sort(), sre, `webhook: ${JSON.stringify(typesOf('sre'))}`);
  assert.deepEqual(typesOf('chat').sort(), ['completed', 'started']);
  assert.deepEqual([...new Set(typesOf('teams'))].sort(), teams);
  // Teams reports waits longer than 10 minutes, the webhook those longer than 30: Teams gets
  // every wait the webhook gets.
  const waits = (r: string): string[] =>
    receiver
      .accepted(r)
      .filter((x) => types.get(x.eventId) === 'waiting')
      .map((x) => x.eventId);
  assert.ok(
    waits('sre').every((id) => waits('teams').includes(id)),
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
      subject,
      datacontenttype: 'application/json',
      data: undefined,
    },
  );
  const slack = receiver.accepted('chat')[0];
  assert.equal(slack?.contentType, 'application/json');
  assert.ok(Array.isArray(slack?.body['blocks']) && typeof slack.body['text'] === 'string');
  const card = receiver.accepted('teams')[0]?.body['attachments'] as Array<{ contentType: string }>;
  assert.equal(card[0]?.contentType, 'application/vnd.microsoft.card.adaptive');

  // What an SRE sees: the delivery and failure counters.
  const metrics = await scrape(outcome.run, '/metrics');
  assert.match(
    metrics,
    new RegExp(
      `upgrade_operator_notifications_delivered_total\\{flow="${flow}",receiver="chat",event="completed"\\} 1`,
    ),
  );
  assert.match(
    metrics,
    new RegExp(
      `upgrade_operator_notification_delivery_failures_total\\{flow="${flow}",receiver="sre",event="completed"\\} [1-9]`,
    ),
  );
  return ce?.body['data'] as Record<string, unknown>;
}

void test('scheduled-notifications: through 503s and two restarts, each receiver gets each of its events exactly once', async (t) => {
  const ns = 'appuio-openshift-upgrade-controller';
  const { outcome, receiver } = await runWithReceiver(t, 'scheduled-notifications', ns);
  const data = await assertDeliveries(
    outcome,
    receiver,
    'scheduled',
    `UpgradeJob/${ns}/upgrade-4-14-31`,
    ['completed', 'scheduled', 'started', 'waiting'],
    ['completed', 'scheduled', 'waiting'],
  );
  assert.deepEqual(
    [data['flow'], data['version'], data['reason'], data['cluster']],
    ['scheduled', '4.14.31', 'Succeeded', 'sim-1'],
  );
});

void test('managed-notifications: the same for an UpgradeConfig, beside MUO’s own notifications', async (t) => {
  const ns = MANAGED_UPGRADE_OPERATOR_NAMESPACE;
  const { outcome, receiver } = await runWithReceiver(t, 'managed-notifications', ns);
  const data = await assertDeliveries(
    outcome,
    receiver,
    'managed',
    `UpgradeConfig/${ns}/managed-upgrade-config`,
    ['completed', 'scheduled', 'started', 'waiting'],
    ['completed', 'scheduled', 'waiting'],
  );
  assert.deepEqual(
    [data['flow'], data['version'], data['reason'], data['cluster']],
    ['managed', '4.14.31', 'Upgraded', 'sim-1'],
  );
  // MUO's notifications (the log notifier of configManager LOCAL) were sent as before.
  const sent: unknown = JSON.parse(
    outcome.run.upgradeConfig()?.metadata?.annotations?.['upgrade-operator.io/notifications-sent'] ?? '[]',
  );
  assert.deepEqual(sent, [
    'StateStarted@4.14.31',
    'StateControlPlaneStartedSL@4.14.31',
    'StateControlPlaneFinishedSL@4.14.31',
    'StateWorkerPlaneFinishedSL@4.14.31',
    'StateCompleted@4.14.31',
  ]);
});
