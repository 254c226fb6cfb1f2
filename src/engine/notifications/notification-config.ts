/**
 * The notification configuration (docs/configuration.md#notifications): the ConfigMap
 * `upgrade-operator-notifications` (key `config.yaml`: the receivers and their filters) and the
 * Secret of the same name (one key per receiver: its URL), both in the operator namespace. A bad
 * receiver is left out with a problem that names it; the others keep working. Problems never
 * carry a URL. Pure.
 */
import { NOTIFICATIONS_CONFIG_KEY, NOTIFICATIONS_CONFIG_NAME } from '../../api/notifications-contract.js';
import { parseGoDurationMs } from '../../lib/go-duration.js';
import { isJsonObject } from '../../lib/json.js';
import { UPGRADE_EVENT_TYPES, type UpgradeEventType } from './upgrade-event.js';
import { yamlPackage } from '../../lib/yaml-runtime.js';

/** Default of `waitingLongerThan`. */
export const DEFAULT_WAITING_LONGER_THAN_MS = 60 * 60_000;

/** The receiver kinds. */
export const RECEIVER_TYPES = ['webhook', 'slack', 'teams'] as const;
/** One of {@link RECEIVER_TYPES}. */
export type ReceiverType = (typeof RECEIVER_TYPES)[number];

/** A receiver as configured (its URL comes from the Secret). */
export interface ReceiverConfig {
  name: string;
  type: ReceiverType;
  events: ReadonlySet<UpgradeEventType>;
  /** A `waiting` event goes out once the wait is this old. */
  waitingLongerThanMs: number;
}

/** A receiver ready to deliver to. */
export interface Receiver extends ReceiverConfig {
  url: string;
}

/** The parsed configuration. */
export interface NotificationConfig {
  /** The CloudEvents `source` (default `/upgrade-operator`). */
  source: string;
  /** Shown in Slack and Teams messages and in the CloudEvents data (default: none). */
  cluster?: string;
  receivers: Receiver[];
  /** What was wrong, one line each (no URLs). */
  problems: string[];
}

const NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * Parses the ConfigMap's `config.yaml` text and the Secret's decoded data (receiver name → URL).
 * `secret` undefined: the Secret does not exist.
 */
export function parseNotificationConfig(
  text: string | undefined,
  secret: Readonly<Record<string, string>> | undefined,
): NotificationConfig {
  const problems: string[] = [];
  const config: NotificationConfig = { source: '/upgrade-operator', receivers: [], problems };
  if (text === undefined || text.trim() === '') {
    problems.push(`${NOTIFICATIONS_CONFIG_KEY}: missing or empty; no receivers`);
    return config;
  }
  let doc: unknown;
  try {
    doc = yamlPackage().parse(text);
  } catch (err) {
    problems.push(`${NOTIFICATIONS_CONFIG_KEY}: not YAML (${firstLine(err)}); no receivers`);
    return config;
  }
  if (!isJsonObject(doc)) {
    problems.push(`${NOTIFICATIONS_CONFIG_KEY}: must be a mapping with a receivers list; no receivers`);
    return config;
  }
  for (const key of Object.keys(doc))
    if (!['source', 'cluster', 'receivers'].includes(key)) problems.push(`${key}: unknown key, ignored`);
  if (typeof doc['source'] === 'string' && doc['source'] !== '') config.source = doc['source'];
  else if (doc['source'] !== undefined) problems.push('source: must be a non-empty string; using /upgrade-operator');
  if (typeof doc['cluster'] === 'string') config.cluster = doc['cluster'];
  else if (doc['cluster'] !== undefined) problems.push('cluster: must be a string; ignored');
  const list = doc['receivers'];
  if (!Array.isArray(list)) {
    problems.push('receivers: must be a list; no receivers');
    return config;
  }
  const seen = new Set<string>();
  list.forEach((item: unknown, index) => {
    const at = `receivers[${index}]`;
    const r = parseReceiver(item, at, problems);
    if (!r) return;
    if (seen.has(r.name)) {
      problems.push(`${at}: receiver ${r.name} is defined twice; the second is left out`);
      return;
    }
    seen.add(r.name);
    const url = secret?.[r.name]?.trim();
    if (secret === undefined) {
      problems.push(`${at}: receiver ${r.name} left out: the Secret ${NOTIFICATIONS_CONFIG_NAME} does not exist`);
      return;
    }
    if (url === undefined || url === '') {
      problems.push(`${at}: receiver ${r.name} left out: the Secret ${NOTIFICATIONS_CONFIG_NAME} has no key ${r.name}`);
      return;
    }
    if (!isHttpUrl(url)) {
      problems.push(
        `${at}: receiver ${r.name} left out: the Secret's key ${r.name} is not an http(s) URL (value not shown)`,
      );
      return;
    }
    config.receivers.push({ ...r, url });
  });
  return config;
}

function parseReceiver(item: unknown, at: string, problems: string[]): ReceiverConfig | undefined {
  if (!isJsonObject(item)) {
    problems.push(`${at}: must be a mapping; left out`);
    return undefined;
  }
  for (const key of Object.keys(item))
    if (!['name', 'type', 'events', 'waitingLongerThan'].includes(key))
      problems.push(`${at}.${key}: unknown key, ignored`);
  const name = item['name'];
  if (typeof name !== 'string' || !NAME.test(name)) {
    problems.push(`${at}.name: must be a DNS label (lower case letters, digits, '-'); left out`);
    return undefined;
  }
  const type = item['type'];
  if (typeof type !== 'string' || !(RECEIVER_TYPES as readonly string[]).includes(type)) {
    problems.push(`${at}.type: must be one of ${RECEIVER_TYPES.join(', ')}; receiver ${name} left out`);
    return undefined;
  }
  let events = new Set<UpgradeEventType>(UPGRADE_EVENT_TYPES);
  const rawEvents = item['events'];
  if (rawEvents !== undefined) {
    if (!Array.isArray(rawEvents) || rawEvents.some((e) => !isEventType(e))) {
      problems.push(`${at}.events: must be a list of ${UPGRADE_EVENT_TYPES.join(', ')}; receiver ${name} left out`);
      return undefined;
    }
    events = new Set(rawEvents.filter(isEventType));
  }
  let waitingLongerThanMs = DEFAULT_WAITING_LONGER_THAN_MS;
  const rawWait = item['waitingLongerThan'];
  if (rawWait !== undefined) {
    const d = typeof rawWait === 'string' ? parseGoDurationMs(rawWait) : undefined;
    if (!d?.ok || d.ms <= 0) {
      problems.push(
        `${at}.waitingLongerThan: must be a positive duration such as 30m or 2h; receiver ${name} left out`,
      );
      return undefined;
    }
    waitingLongerThanMs = d.ms;
  }
  return { name, type: type as ReceiverType, events, waitingLongerThanMs };
}

function isEventType(value: unknown): value is UpgradeEventType {
  return typeof value === 'string' && (UPGRADE_EVENT_TYPES as readonly string[]).includes(value);
}

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
