/**
 * The HTTP layer under the kube client: one keep-alive connection pool (src/lib/http/) per
 * RestConfig, with the cluster's TLS material and proxy-url. Connections get client-go's limits:
 * 30 s to connect, 10 s for the TLS handshake, TCP keep-alive probes after 30 s idle. Ordinary
 * requests get header and body timeouts; watches get no body timeout (the server ends them
 * itself, and the informer's watchdog catches half-open connections). Every request is reported
 * to the ActivityTracker while it is in flight (a watch only until its headers arrive).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { NO_ACTIVITY, type ActivityTracker } from '../lib/activity.js';
import { RealClock } from '../lib/clock.js';
import { GO_DIALER_LIMITS } from '../lib/http/connector.js';
import { ConnectionPool, type PoolResponse, type ResponseBody } from '../lib/http/connection-pool.js';
import type { RestConfig } from './rest-config.js';
import type { RequestMetrics } from './runtime-metrics.js';

export interface TransportOptions {
  activity?: ActivityTracker;
  /** Headers and body timeout of ordinary requests (default 60 s). */
  requestTimeoutMs?: number;
  /** How long a watch may wait for its response headers (default 60 s). */
  watchHeadersTimeoutMs?: number;
  /** Idle keep-alive sockets are closed after this (default 30 s). */
  keepAliveTimeoutMs?: number;
  /** Counts every request by status code (`<error>` without a response), verb and host (`rest_client_requests_total`). */
  requestMetrics?: RequestMetrics;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query, relative to the server URL (which may carry a path prefix). */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface HttpResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export interface HttpStream {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** The response body; consume it or destroy it. */
  body: ResponseBody;
}

/** Sends requests to one API server. Close it when done (it owns the connection pool). */
export class Transport {
  readonly #origin: string;
  readonly #prefix: string;
  readonly #pool: ConnectionPool;
  readonly #activity: ActivityTracker;
  readonly #timeoutMs: number;
  readonly #watchHeadersTimeoutMs: number;
  readonly #host: string;
  readonly #requestMetrics: RequestMetrics | undefined;

  constructor(config: RestConfig, options: TransportOptions = {}) {
    const url = new URL(config.server);
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error(`unsupported server URL ${config.server}`);
    this.#origin = url.origin;
    this.#prefix = url.pathname.replace(/\/+$/, '');
    this.#host = url.host;
    this.#requestMetrics = options.requestMetrics;
    this.#activity = options.activity ?? NO_ACTIVITY;
    this.#timeoutMs = options.requestTimeoutMs ?? 60_000;
    this.#watchHeadersTimeoutMs = options.watchHeadersTimeoutMs ?? 60_000;
    this.#pool = new ConnectionPool({
      ...GO_DIALER_LIMITS,
      idleTimeoutMs: options.keepAliveTimeoutMs ?? 30_000,
      tls: {
        ...(config.ca !== undefined ? { ca: config.ca } : {}),
        ...(config.cert !== undefined ? { cert: config.cert } : {}),
        ...(config.key !== undefined ? { key: config.key } : {}),
        ...(config.servername !== undefined ? { servername: config.servername } : {}),
        rejectUnauthorized: !config.insecureSkipTLSVerify,
      },
      ...(config.proxyUrl !== undefined ? { proxy: new URL(config.proxyUrl) } : {}),
      // Network limits are real time, whatever clock the caller's logic runs on.
      clock: new RealClock(),
    });
  }

  /** The server's origin and path prefix, for messages. */
  get server(): string {
    return this.#origin + this.#prefix;
  }

  /** Sends a request and reads the whole response body. */
  async request(req: HttpRequest): Promise<HttpResponse> {
    const end = this.#activity.begin(`http ${req.method}`);
    try {
      const res = await this.#send(req, this.#timeoutMs, this.#timeoutMs);
      const text = await res.body.text();
      return { statusCode: res.statusCode, headers: res.headers, text };
    } finally {
      end();
    }
  }

  /** Opens a streaming request (a watch): no body timeout; activity ends once headers are in. */
  async stream(req: HttpRequest): Promise<HttpStream> {
    const end = this.#activity.begin(`http ${req.method} (stream)`);
    try {
      const res = await this.#send(req, this.#watchHeadersTimeoutMs, 0);
      return { statusCode: res.statusCode, headers: res.headers, body: res.body };
    } finally {
      end();
    }
  }

  async #send(req: HttpRequest, headersTimeout: number, bodyTimeout: number): Promise<PoolResponse> {
    if (!this.#requestMetrics) return this.#dispatch(req, headersTimeout, bodyTimeout);
    let code = '<error>';
    try {
      const res = await this.#dispatch(req, headersTimeout, bodyTimeout);
      code = String(res.statusCode);
      return res;
    } finally {
      this.#requestMetrics(code, req.method, this.#host);
    }
  }

  #dispatch(req: HttpRequest, headersTimeoutMs: number, bodyTimeoutMs: number): Promise<PoolResponse> {
    return this.#pool.request(new URL(this.#origin + this.#prefix + req.path), {
      method: req.method,
      headers: req.headers ?? {},
      body: req.body ?? null,
      ...(req.signal !== undefined ? { signal: req.signal } : {}),
      headersTimeoutMs,
      bodyTimeoutMs,
    });
  }

  /** Closes idle connections and refuses new requests. */
  async close(): Promise<void> {
    await this.#pool.close();
  }
}
