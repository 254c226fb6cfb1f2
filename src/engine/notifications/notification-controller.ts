/**
 * The notification controller of one flow (docs/configuration.md#notifications): watches the
 * flow's upgrade objects (UpgradeConfig or UpgradeJob), derives the events their status implies
 * (the flow's own `progress` adapter), and delivers each due event to each receiver that asked
 * for it, recording every delivery in the state ConfigMap right after the receiver accepted it —
 * so a restarted operator sends nothing twice and misses nothing. A receiver that fails is retried
 * at once with a short backoff, then with the work queue's rate-limited backoff; its URL never
 * appears in a log line, an Event or a metric. A bad configuration is a Warning Event on the
 * ConfigMap and a log line, never a crash. The flows' own notifications (MUO's OCM and log
 * notifiers, APPUiO's hook Jobs) are untouched: this reads only what the flows wrote.
 */
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1.js';
import { ConfigMapResource, SecretResource } from '../../api/builtin.js';
import type { KubeObjectLike, ResourceDescriptor } from '../../api/resource.js';
import { HttpClient, type HttpTransportOptions } from '../../integrations/http/http-client.js';
import { isTransientHttpFailure, retry, type BackoffPolicy } from '../../integrations/http/retry.js';
import { isIntegrationError } from '../../integrations/integration-error.js';
import type { KubeClient } from '../../kube/client.js';
import { Controller } from '../../kube/controller.js';
import type { EventRecorder } from '../../kube/event-recorder.js';
import { splitKey } from '../../kube/indexer.js';
import { isAlreadyExists } from '../../kube/status-error.js';
import type { Random } from '../../lib/random.js';
import { runtimeOf, type ControllerDeps } from '../controller-deps.js';
import {
  parseDeliveryRecord,
  planDeliveries,
  recordDeliveries,
  stateKey,
  type Delivery,
  type DeliveryRecord,
} from './delivery-plan.js';
import {
  NOTIFICATIONS_CONFIG_KEY,
  NOTIFICATIONS_CONFIG_NAME,
  NOTIFICATIONS_STATE_NAME,
} from '../../api/notifications-contract.js';
import { parseNotificationConfig, type NotificationConfig, type Receiver } from './notification-config.js';
import type { NotificationMetrics } from './notification-metrics.js';
import { payloadFor } from './notification-payloads.js';
import { upgradeEvents, type UpgradeProgress, type UpgradeSubject } from './upgrade-event.js';

/** The quick retries of one delivery (then the work queue's backoff takes over). */
export const DELIVERY_RETRY: BackoffPolicy = { attempts: 3, initialDelayMs: 1_000, factor: 2, jitter: 0.2 };
/** The request timeout of one delivery. */
const DELIVERY_TIMEOUT_MS = 10_000;

/** Options of {@link createNotificationController}. */
/** One flow's upgrade objects, as its notification controller reads them; each flow provides its own. */
export interface NotificationSource<T extends KubeObjectLike> {
  flow: UpgradeSubject['flow'];
  /** The upgrade objects' kind, and their namespace (undefined: all). */
  resource: ResourceDescriptor<T>;
  namespace?: string | undefined;
  /** The flow's reading of one upgrade object (undefined: nothing to report yet). */
  progress(obj: T, now: number): UpgradeProgress | undefined;
}

export interface NotificationControllerOptions<T extends KubeObjectLike> extends ControllerDeps, NotificationSource<T> {
  /** The controller's name (`managed-notifications`, `scheduled-notifications`). */
  name: string;
  /** Where the configuration, its Secret and the state ConfigMap live. */
  operatorNamespace: string;
  events: EventRecorder;
  metrics: NotificationMetrics;
  random: Random;
  /** Proxy, CA and activity settings of the receivers' HTTP client. */
  transport?: HttpTransportOptions;
}

/** The wired controller and the HTTP client it owns (close it when done). */
export interface NotificationController {
  controller: Controller;
  close(): Promise<void>;
}

/** Builds the notification controller of one flow. */
export function createNotificationController<T extends KubeObjectLike>(
  options: NotificationControllerOptions<T>,
): NotificationController {
  const log = options.logger.child({ controller: options.name });
  const objects = options.informers.informerFor(options.resource, { namespace: options.namespace });
  const http = new HttpClient({
    ...options.transport,
    api: 'notifications',
    timeoutMs: DELIVERY_TIMEOUT_MS,
    clock: options.clock,
    ...(options.activity ? { activity: options.activity } : {}),
  });
  const ns = options.operatorNamespace;
  /** The last problem text reported, so a bad configuration is reported once per change. */
  let reportedProblems = '';

  const readConfig = async (
    signal: AbortSignal,
  ): Promise<{ config: NotificationConfig; configuredAt: number } | undefined> => {
    const cm = await options.client.getIfExists(ConfigMapResource, ns, NOTIFICATIONS_CONFIG_NAME, { signal });
    if (!cm) {
      reportedProblems = '';
      return undefined;
    }
    const secret = await options.client.getIfExists(SecretResource, ns, NOTIFICATIONS_CONFIG_NAME, { signal });
    const config = parseNotificationConfig(cm.data?.[NOTIFICATIONS_CONFIG_KEY], secret ? decode(secret) : undefined);
    const text = config.problems.join('; ');
    if (text !== reportedProblems) {
      reportedProblems = text;
      if (text !== '') {
        log.warn({ configmap: `${ns}/${NOTIFICATIONS_CONFIG_NAME}` }, `notification configuration: ${text}`);
        options.events.event(configMapRef(cm), 'Warning', 'InvalidNotificationConfig', text);
      }
    }
    return { config, configuredAt: Date.parse(cm.metadata?.creationTimestamp ?? '') || 0 };
  };

  const deliver = async (
    config: NotificationConfig,
    delivery: Delivery<Receiver>,
    signal: AbortSignal,
  ): Promise<void> => {
    const payload = payloadFor(delivery.receiver.type, delivery.event, {
      source: config.source,
      cluster: config.cluster,
    });
    await retry(
      async (_attempt, attemptSignal) => {
        await http.request({
          method: 'POST',
          path: delivery.receiver.url,
          body: JSON.stringify(payload.body),
          headers: { 'content-type': payload.contentType },
          ...(attemptSignal ? { signal: attemptSignal } : {}),
        });
      },
      {
        policy: DELIVERY_RETRY,
        clock: options.clock,
        random: options.random,
        retryable: (err) => isTransientHttpFailure(err) || isRateLimited(err),
        signal,
      },
    );
  };

  const controller = new Controller({
    name: options.name,
    ...runtimeOf(options),
    reconcile: async (key, signal) => {
      const { namespace, name } = splitKey(key);
      const skey = stateKey({ flow: options.flow, namespace, name });
      const obj = objects.get(namespace, name);
      if (!obj) {
        await forget(options.client, ns, skey, signal);
        return;
      }
      // Read first, so that a bad configuration is reported even before there is anything to send.
      const found = await readConfig(signal);
      if (!found || found.config.receivers.length === 0) return;
      const now = options.clock.now();
      const progress = options.progress(obj, now);
      if (!progress) return;
      const { config, configuredAt } = found;
      const state = await options.client.getIfExists(ConfigMapResource, ns, NOTIFICATIONS_STATE_NAME, { signal });
      let record: DeliveryRecord = parseDeliveryRecord(state?.data?.[skey], progress.subject.uid);
      let stateExists = state !== undefined;
      const plan = planDeliveries(upgradeEvents(progress), config.receivers, record, now, configuredAt);
      let failed = false;
      for (const d of plan.due) {
        if (signal.aborted) return;
        try {
          await deliver(config, d, signal);
        } catch (err) {
          if (signal.aborted) return;
          failed = true;
          options.metrics.failed(options.flow, d.receiver.name, d.event.type);
          log.warn(
            { receiver: d.receiver.name, event: d.event.type, id: d.event.id, [options.flow]: key },
            `notification not delivered to receiver ${d.receiver.name}: ${failureText(err)}; retried with backoff`,
          );
          continue;
        }
        record = recordDeliveries(record, [d]);
        await saveRecord(options.client, ns, skey, record, stateExists, signal);
        stateExists = true;
        options.metrics.delivered(options.flow, d.receiver.name, d.event.type);
        log.info(
          { receiver: d.receiver.name, event: d.event.type, id: d.event.id, [options.flow]: key },
          `notification ${d.event.type} delivered to receiver ${d.receiver.name}`,
        );
      }
      if (failed) return { requeue: true };
      return plan.nextAt !== undefined ? { requeueAfter: Math.max(1, plan.nextAt - now) } : undefined;
    },
  });
  controller.for(options.resource, { namespace: options.namespace });
  return { controller, close: () => http.close() };
}

/** The receiver's failure in words without its URL: `HTTP 503`, `unreachable`, `no answer in time`. */
export function failureText(err: unknown): string {
  if (!isIntegrationError(err)) return 'the request could not be made';
  switch (err.reason) {
    case 'HttpStatus':
      return `HTTP ${err.status ?? '?'}`;
    case 'Unreachable':
      return 'unreachable';
    case 'Timeout':
      return 'no answer in time';
    case 'BadResponse':
      return 'unreadable answer';
    case 'Aborted':
      return 'aborted';
  }
}

/** 429 is worth another try too (Slack and Teams rate-limit). */
function isRateLimited(err: unknown): boolean {
  return isIntegrationError(err) && err.reason === 'HttpStatus' && err.status === 429;
}

function decode(secret: Secret): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(secret.data ?? {})) out[k] = Buffer.from(v, 'base64').toString('utf8');
  for (const [k, v] of Object.entries(secret.stringData ?? {})) out[k] = v;
  return out;
}

function configMapRef(cm: ConfigMap): KubeObjectLike {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: cm.metadata ?? {} };
}

/** Writes one object's record (a merge patch of its key; the ConfigMap is created the first time). */
async function saveRecord(
  client: KubeClient,
  namespace: string,
  key: string,
  record: DeliveryRecord,
  exists: boolean,
  signal: AbortSignal,
): Promise<void> {
  const value = JSON.stringify(record);
  if (!exists) {
    try {
      await client.create(
        ConfigMapResource,
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: NOTIFICATIONS_STATE_NAME, namespace },
          data: { [key]: value },
        },
        { signal },
      );
      return;
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
    }
  }
  await client.patch(
    ConfigMapResource,
    namespace,
    NOTIFICATIONS_STATE_NAME,
    { data: { [key]: value } },
    {
      type: 'merge',
      signal,
    },
  );
}

/** Drops the record of an upgrade object that is gone. */
async function forget(client: KubeClient, namespace: string, key: string, signal: AbortSignal): Promise<void> {
  const state = await client.getIfExists(ConfigMapResource, namespace, NOTIFICATIONS_STATE_NAME, { signal });
  if (state?.data?.[key] === undefined) return;
  await client.patch(
    ConfigMapResource,
    namespace,
    NOTIFICATIONS_STATE_NAME,
    { data: { [key]: null } },
    {
      type: 'merge',
      signal,
    },
  );
}
