import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cloudEvent, payloadFor, slackMessage, teamsMessage } from './notification-payloads.js';
import { upgradeEvents } from './upgrade-event.js';
import { jobProgress } from './notification-fixtures.test-support.js';

const [scheduled, started, , waiting] = upgradeEvents(jobProgress());
const context = { source: '/clusters/prod-1', cluster: 'prod-1' };

void test('webhook: a CloudEvents 1.0 event in structured JSON mode', () => {
  assert.ok(scheduled && started);
  assert.deepEqual(cloudEvent(scheduled, context), {
    specversion: '1.0',
    id: scheduled.id,
    source: '/clusters/prod-1',
    type: 'io.upgrade-operator.upgrade.scheduled',
    time: '2026-11-27T00:00:00Z',
    subject: 'UpgradeJob/appuio/nightly-1',
    datacontenttype: 'application/json',
    data: {
      event: 'scheduled',
      flow: 'scheduled',
      cluster: 'prod-1',
      apiVersion: 'managedupgrade.appuio.io/v1beta1',
      kind: 'UpgradeJob',
      namespace: 'appuio',
      name: 'nightly-1',
      uid: 'uid-1',
      version: '4.14.31',
      reason: 'Scheduled',
      message: 'the upgrade of UpgradeJob appuio/nightly-1 to 4.14.31 is scheduled for 2026-11-27T01:00:00Z',
      scheduledFor: '2026-11-27T01:00:00Z',
    },
  });
  const p = payloadFor('webhook', started, { source: '/upgrade-operator' });
  assert.equal(p.contentType, 'application/cloudevents+json; charset=utf-8');
  assert.equal((p.body['data'] as { cluster?: string }).cluster, undefined, 'no cluster when none is configured');
});

void test('slack: an incoming-webhook message with a fallback text and Block Kit blocks', () => {
  assert.ok(waiting);
  const m = slackMessage({ ...waiting, message: 'drain of <node> & more' }, context);
  assert.equal(m['text'], 'Upgrade waiting to 4.14.31 on prod-1 (UpgradeJob appuio/nightly-1)');
  const blocks = m['blocks'] as Array<Record<string, unknown>>;
  assert.deepEqual(
    blocks.map((b) => b['type']),
    ['header', 'section', 'section', 'context'],
  );
  assert.deepEqual(blocks[0]?.['text'], { type: 'plain_text', text: m['text'] });
  assert.deepEqual(blocks[1]?.['text'], { type: 'mrkdwn', text: 'drain of &lt;node&gt; &amp; more' });
  const fields = (blocks[2]?.['fields'] as Array<{ text: string }>).map((f) => f.text);
  assert.deepEqual(fields, [
    '*Cluster*\nprod-1',
    '*Flow*\nscheduled',
    '*Reason*\nInProgress',
    '*Time*\n2026-11-27T01:10:00Z',
    '*Step*\nUpgradeCompleted',
  ]);
  assert.equal(payloadFor('slack', waiting, context).contentType, 'application/json');
});

void test('teams: a Workflows message with one Adaptive Card attachment', () => {
  assert.ok(waiting && started);
  const m = teamsMessage(waiting, context);
  assert.equal(m['type'], 'message');
  const attachments = m['attachments'] as Array<Record<string, unknown>>;
  assert.equal(attachments.length, 1);
  assert.equal(attachments[0]?.['contentType'], 'application/vnd.microsoft.card.adaptive');
  const card = attachments[0]?.['content'] as Record<string, unknown>;
  assert.equal(card['type'], 'AdaptiveCard');
  assert.equal(card['version'], '1.4');
  assert.equal(card['$schema'], 'http://adaptivecards.io/schemas/adaptive-card.json');
  const body = card['body'] as Array<Record<string, unknown>>;
  assert.deepEqual(
    body.map((b) => b['type']),
    ['TextBlock', 'TextBlock', 'FactSet', 'TextBlock'],
  );
  assert.equal(body[3]?.['text'], `event id ${waiting.id}`, 'the id, for de-duplication by the reader');
  assert.equal(body[0]?.['color'], 'Attention', 'a wait is shown as needing attention');
  assert.equal(body[0]?.['text'], 'Upgrade waiting to 4.14.31 on prod-1 (UpgradeJob appuio/nightly-1)');
  assert.deepEqual(body[2]?.['facts'], [
    { title: 'Cluster', value: 'prod-1' },
    { title: 'Flow', value: 'scheduled' },
    { title: 'Reason', value: 'InProgress' },
    { title: 'Time', value: '2026-11-27T01:10:00Z' },
    { title: 'Step', value: 'UpgradeCompleted' },
  ]);
  const startedCard = (
    teamsMessage(started, context)['attachments'] as Array<{ content: { body: Array<Record<string, unknown>> } }>
  )[0];
  assert.equal(startedCard?.content.body[0]?.['color'], undefined);
});
