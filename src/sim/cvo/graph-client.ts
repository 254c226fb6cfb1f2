/**
 * The CVO's request to the update service: `GET <upstream>?arch=&channel=&id=&version=` (the
 * parameters sorted, as Go's `url.Values.Encode` sends them) with `Accept: application/json`, and
 * the mapping of failures to RetrievedUpdates reasons and Go-style messages (transport error →
 * `RemoteFailed`, non-200 → `ResponseFailed`;
 * docs/design/cluster-model.md#how-the-cvo-reads-the-graph).
 *
 * Quiescence: the request counts as work in flight until it is answered. A request the server
 * holds without answering would then stop a virtual clock for good, so after `hungAfterWallMs`
 * of real time without an answer it stops counting, and the request's own virtual timeout can
 * fire.
 */
import { STATUS_CODES } from 'node:http';
import { NO_ACTIVITY, type ActivityTracker } from '../../lib/activity.js';
import { RealClock, type Clock } from '../../lib/clock.js';
import { ConnectionPool } from '../../lib/http/connection-pool.js';
import { GO_DIALER_LIMITS } from '../../lib/http/connector.js';
import type { RetrievalError } from './available-updates.js';

export interface GraphQueryParams {
  arch: string;
  channel: string;
  id: string;
  version: string;
}

export interface GraphClientOptions {
  clock: Clock;
  activity?: ActivityTracker | undefined;
  /** Virtual time before a request is abandoned (the CVO's 60 min). */
  timeoutMs?: number;
  /** Real time after which an unanswered request stops holding the virtual clock (default 2 s). */
  hungAfterWallMs?: number;
  wall?: Clock;
}

/** The request URL with the query parameters in Go's (sorted) order. */
export function graphRequestUrl(upstream: string, params: GraphQueryParams): URL {
  const url = new URL(upstream);
  const q = new URLSearchParams(url.search);
  q.set('arch', params.arch);
  q.set('channel', params.channel);
  q.set('id', params.id);
  q.set('version', params.version);
  q.sort();
  url.search = q.toString();
  return url;
}

/** Fetches graphs over HTTP. */
export class GraphClient {
  readonly #o: GraphClientOptions;
  readonly #pool = new ConnectionPool({
    ...GO_DIALER_LIMITS,
    idleTimeoutMs: 10_000,
    tls: { rejectUnauthorized: true },
    clock: new RealClock(),
  });
  readonly #activity: ActivityTracker;
  readonly #wall: Clock;

  constructor(options: GraphClientOptions) {
    this.#o = options;
    this.#activity = options.activity ?? NO_ACTIVITY;
    this.#wall = options.wall ?? new RealClock();
  }

  /** The response body of a successful (200) request, or the retrieval error. */
  async fetch(url: URL, userAgent: string, signal?: AbortSignal): Promise<{ body: string } | RetrievalError> {
    const href = url.toString();
    const abort = new AbortController();
    const onAbort = (): void => abort.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timer = this.#o.clock.setTimer(this.#o.timeoutMs ?? 60 * 60_000, () => {
      timedOut = true;
      abort.abort();
    });
    const end = once(this.#activity.begin('http GET update-service (client)'));
    const watchdog = this.#wall.setTimer(this.#o.hungAfterWallMs ?? 2_000, end);
    try {
      const res = await this.#pool.request(url, {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': userAgent },
        signal: abort.signal,
        headersTimeoutMs: 0,
        bodyTimeoutMs: 0,
      });
      const body = await res.body.text();
      if (res.statusCode !== 200) {
        return {
          reason: 'ResponseFailed',
          message: `unexpected HTTP status: ${res.statusCode} ${STATUS_CODES[res.statusCode] ?? ''}`.trimEnd(),
        };
      }
      return { body };
    } catch (err) {
      if (timedOut)
        return { reason: 'RemoteFailed', message: `Get ${JSON.stringify(href)}: context deadline exceeded` };
      return { reason: 'RemoteFailed', message: `Get ${JSON.stringify(href)}: ${transportMessage(err, url)}` };
    } finally {
      timer.cancel();
      watchdog.cancel();
      signal?.removeEventListener('abort', onAbort);
      end();
    }
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}

/** Go's wording for the usual transport failures. */
function transportMessage(err: unknown, url: URL): string {
  const code =
    (err as { code?: string; cause?: { code?: string } }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (code === 'ECONNREFUSED') return `dial tcp ${host}:${port}: connect: connection refused`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `dial tcp: lookup ${host}: no such host`;
  if (code === 'ECONNRESET') return 'EOF';
  if (err instanceof Error && err.name === 'AbortError') return 'context canceled';
  return err instanceof Error ? err.message : String(err);
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
