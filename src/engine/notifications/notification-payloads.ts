/**
 * The request body each receiver kind gets for an event (docs/configuration.md#notification-payloads):
 * a CloudEvents 1.0 event in structured JSON mode (webhook), an incoming-webhook message with
 * Block Kit blocks (Slack), and a message with one Adaptive Card attachment (Microsoft Teams
 * Workflows). Pure.
 */
import type { JsonObject } from '../../lib/json.js';
import type { ReceiverType } from './notification-config.js';
import type { UpgradeEvent, UpgradeEventType } from './upgrade-event.js';

/** The media type of a structured-mode CloudEvent. */
export const CLOUDEVENTS_CONTENT_TYPE = 'application/cloudevents+json; charset=utf-8';
/** The CloudEvents `type` prefix: `io.upgrade-operator.upgrade.<event>`. */
export const CLOUDEVENT_TYPE_PREFIX = 'io.upgrade-operator.upgrade.';

/** What the payloads need besides the event. */
export interface PayloadContext {
  source: string;
  cluster?: string | undefined;
}

/** A request body and its content type. */
export interface Payload {
  contentType: string;
  body: JsonObject;
}

/** The body for a receiver of `type`. */
export function payloadFor(type: ReceiverType, event: UpgradeEvent, context: PayloadContext): Payload {
  switch (type) {
    case 'webhook':
      return { contentType: CLOUDEVENTS_CONTENT_TYPE, body: cloudEvent(event, context) };
    case 'slack':
      return { contentType: 'application/json', body: slackMessage(event, context) };
    case 'teams':
      return { contentType: 'application/json', body: teamsMessage(event, context) };
  }
}

/** The event's data (the same fields in every payload kind). */
export function eventData(event: UpgradeEvent, context: PayloadContext): JsonObject {
  const s = event.subject;
  return {
    event: event.type,
    flow: s.flow,
    ...(context.cluster !== undefined ? { cluster: context.cluster } : {}),
    apiVersion: s.apiVersion,
    kind: s.kind,
    namespace: s.namespace,
    name: s.name,
    uid: s.uid,
    version: event.version,
    reason: event.reason,
    message: event.message,
    ...(event.scheduledFor !== undefined ? { scheduledFor: event.scheduledFor } : {}),
    ...(event.step !== undefined ? { step: event.step } : {}),
  };
}

/** A CloudEvents 1.0 event, structured JSON mode. */
export function cloudEvent(event: UpgradeEvent, context: PayloadContext): JsonObject {
  const s = event.subject;
  return {
    specversion: '1.0',
    id: event.id,
    source: context.source,
    type: `${CLOUDEVENT_TYPE_PREFIX}${event.type}`,
    time: event.time,
    subject: `${s.kind}/${s.namespace}/${s.name}`,
    datacontenttype: 'application/json',
    data: eventData(event, context),
  };
}

const TITLES: Readonly<Record<UpgradeEventType, string>> = {
  scheduled: 'Upgrade scheduled',
  started: 'Upgrade started',
  stepFailed: 'Upgrade step failed or delayed',
  waiting: 'Upgrade waiting',
  completed: 'Upgrade completed',
  failed: 'Upgrade failed',
};

/** The one-line title of an event: `Upgrade started: 4.16.3 (UpgradeJob ns/name) on cluster`. */
export function eventTitle(event: UpgradeEvent, context: PayloadContext): string {
  const s = event.subject;
  const version = event.version ? ` to ${event.version}` : '';
  const cluster = context.cluster ? ` on ${context.cluster}` : '';
  return `${TITLES[event.type]}${version}${cluster} (${s.kind} ${s.namespace}/${s.name})`;
}

function facts(event: UpgradeEvent, context: PayloadContext): Array<[string, string]> {
  const list: Array<[string, string]> = [
    ['Flow', event.subject.flow],
    ['Reason', event.reason],
    ['Time', event.time],
  ];
  if (context.cluster) list.unshift(['Cluster', context.cluster]);
  if (event.scheduledFor) list.push(['Scheduled for', event.scheduledFor]);
  if (event.step) list.push(['Step', event.step]);
  return list;
}

/** A Slack incoming-webhook message: `text` (the notification fallback) and Block Kit blocks. */
export function slackMessage(event: UpgradeEvent, context: PayloadContext): JsonObject {
  const title = eventTitle(event, context);
  return {
    text: title,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: truncate(title, 150) } },
      { type: 'section', text: { type: 'mrkdwn', text: truncate(slackEscape(event.message), 3000) } },
      {
        type: 'section',
        fields: facts(event, context).map(([k, v]) => ({
          type: 'mrkdwn',
          text: truncate(`*${k}*\n${slackEscape(v)}`, 2000),
        })),
      },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `event id ${event.id}` }] },
    ],
  };
}

/** A Teams Workflows message: one Adaptive Card (1.4) attachment. */
export function teamsMessage(event: UpgradeEvent, context: PayloadContext): JsonObject {
  const attention = event.type === 'failed' || event.type === 'stepFailed' || event.type === 'waiting';
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            {
              type: 'TextBlock',
              size: 'Medium',
              weight: 'Bolder',
              wrap: true,
              text: eventTitle(event, context),
              ...(attention ? { color: 'Attention' } : event.type === 'completed' ? { color: 'Good' } : {}),
            },
            { type: 'TextBlock', wrap: true, text: event.message },
            { type: 'FactSet', facts: facts(event, context).map(([title, value]) => ({ title, value })) },
            { type: 'TextBlock', size: 'Small', isSubtle: true, wrap: true, text: `event id ${event.id}` },
          ],
        },
      },
    ],
  };
}

function slackEscape(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
