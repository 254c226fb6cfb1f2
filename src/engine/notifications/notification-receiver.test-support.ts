/**
 * A notification receiver for tests: one HTTP server on loopback with a path per receiver
 * (`/<name>`), which answers 503 to the first `failFirst` deliveries of each event to each
 * receiver (a receiver that is down for a while) and 200 after, and records every request. And the
 * Secret that points a scenario's receivers at it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScenarioFile } from '../../cli/scenarios/scenario-file.js';
import { NOTIFICATIONS_CONFIG_KEY, NOTIFICATIONS_CONFIG_NAME } from '../../api/notifications-contract.js';
import type { JsonObject } from '../../lib/json.js';

/** One request the receiver got. */
export interface ReceivedRequest {
  receiver: string;
  contentType: string;
  body: Record<string, unknown>;
  /** The event id the payload carries (CloudEvents `id`; the `event id …` line of Slack and Teams). */
  eventId: string;
  /** 200 (accepted) or 503 (failed on purpose). */
  status: number;
}

/** The running receiver. */
export interface NotificationReceiver {
  url(receiver: string): string;
  readonly requests: ReceivedRequest[];
  /** The accepted deliveries of `receiver`. */
  accepted(receiver: string): ReceivedRequest[];
  close(): Promise<void>;
}

/** Starts the receiver on 127.0.0.1 (any free port). */
export async function startNotificationReceiver(options: { failFirst: number }): Promise<NotificationReceiver> {
  const requests: ReceivedRequest[] = [];
  const failures = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // recorded with an empty body; the test's assertions on ids then fail
      }
      const receiver = (req.url ?? '/').slice(1);
      const eventId = typeof body['id'] === 'string' ? body['id'] : (/event id ([0-9a-f]{32})/.exec(text)?.[1] ?? '');
      const key = `${receiver}/${eventId}`;
      const failed = failures.get(key) ?? 0;
      const status = failed < options.failFirst ? 503 : 200;
      if (status === 503) failures.set(key, failed + 1);
      requests.push({ receiver, contentType: req.headers['content-type'] ?? '', body, eventId, status });
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'unavailable');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (receiver) => `http://127.0.0.1:${port}/${receiver}`,
    requests,
    accepted: (receiver) => requests.filter((r) => r.receiver === receiver && r.status === 200),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `file` with the Secret of the receivers' URLs added to its manifests, in `namespace` (the operator namespace). */
export function withNotificationSecret(
  file: ScenarioFile,
  namespace: string,
  urls: Readonly<Record<string, string>>,
): ScenarioFile {
  const secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: NOTIFICATIONS_CONFIG_NAME, namespace },
    stringData: { ...urls },
  };
  const manifests = [...(file.manifests ?? [])];
  // After the Namespace it lives in, if the file creates it.
  const at = manifests.findIndex((m) => m['kind'] === 'Namespace') + 1;
  manifests.splice(at, 0, secret);
  return { ...file, manifests };
}

/** The ConfigMap and Secret of one webhook receiver `sre` for every event, at `url`, in `namespace`. */
export function webhookNotificationManifests(namespace: string, url: string): JsonObject[] {
  return [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: NOTIFICATIONS_CONFIG_NAME, namespace },
      data: { [NOTIFICATIONS_CONFIG_KEY]: 'receivers:\n  - {name: sre, type: webhook}\n' },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: NOTIFICATIONS_CONFIG_NAME, namespace },
      stringData: { sre: url },
    },
  ];
}
