/**
 * The one small HTTP client of every outside API (Prometheus, Alertmanager, the update service,
 * registries, OCM, external-dependency checks), over the connection pools of src/lib/http/ on
 * `node:http` (never the global fetch: docs/design/dependencies.md#http-client). Per client: a base URL, a timeout, a bearer
 * token (static or re-read per request), extra CA certificates on top of the system roots or no
 * verification, Go-compatible proxy selection from the environment, and the User-Agent. Every
 * request is reported to the ActivityTracker while in flight, and every failure is an
 * {@link IntegrationError} with a reason a caller can branch on.
 *
 * Connections: 30 s to connect over TCP, then 10 s for the TLS handshake (Go's dialer timeout and
 * `TLSHandshakeTimeout`), TCP keep-alive probes after 30 s idle (Go's dialer `KeepAlive`), idle
 * pooled connections closed after 30 s; through a proxy the same limits apply to the proxy
 * connection, the answer to CONNECT and the TLS handshake with the target.
 * The token never appears in an error message: any echo of it (in a body excerpt, a transport
 * error) is replaced by `[redacted]`.
 */
import { STATUS_CODES } from 'node:http';
import { ConnectionPool } from '../../lib/http/connection-pool.js';
import { GO_DIALER_LIMITS } from '../../lib/http/connector.js';
import { NO_ACTIVITY, type ActivityTracker } from '../../lib/activity.js';
import { RealClock, type Clock } from '../../lib/clock.js';
import { IntegrationError } from '../integration-error.js';
import { caBundle } from './ca-bundle.js';
import { proxyConfigFromEnv, proxyForUrl, type ProxyConfig } from './proxy-env.js';

/** A bearer token: a fixed string, or a function asked before every request (e.g. re-reading a token file). */
export type TokenSource = string | (() => string | undefined | Promise<string | undefined>);

/** The User-Agent when the caller gives none; the CLI passes `upgrade-operator/<version> (<os>/<arch>)`. */
export const DEFAULT_USER_AGENT = 'upgrade-operator';

/** Options of an {@link HttpClient}. */
export interface HttpClientOptions {
  /** The API's name in errors: `prometheus`, `alertmanager`, `update-service`, … */
  api: string;
  /** Prefix of relative request paths (may carry a path: `https://host/prefix`). */
  baseUrl?: string;
  /** Whole-request timeout, headers and body (default 30 s). */
  timeoutMs?: number;
  /** Limit of the TCP connect (default 30 s, Go's dialer timeout). */
  connectTimeoutMs?: number;
  /** Limit of the TLS handshake after the TCP connect (default 10 s, Go's `TLSHandshakeTimeout`). */
  tlsHandshakeTimeoutMs?: number;
  /** The credential of the `Authorization` header: `<authScheme> <token>`. */
  bearerToken?: TokenSource;
  /** The scheme of the `Authorization` header (default `Bearer`; OCM's cluster token uses `AccessToken`). */
  authScheme?: string;
  /** Extra trusted CA certificates (PEM), added to the system roots. */
  ca?: string | readonly string[];
  /** Skip TLS verification (for development only). */
  insecureSkipVerify?: boolean;
  /** Proxy settings (default: from `process.env`, with Go's rules). */
  proxy?: ProxyConfig;
  userAgent?: string;
  /** Headers sent with every request. */
  headers?: Readonly<Record<string, string>>;
  activity?: ActivityTracker;
  /** Clock of the timeout (default the wall clock; the simulation passes its virtual clock). */
  clock?: Clock;
  /**
   * With a virtual clock: stop counting a request as activity after this much real time, so that
   * a server holding its answer back in virtual time cannot freeze the clock (default: never).
   */
  releaseActivityAfterWallMs?: number;
  /** The real-time clock of `releaseActivityAfterWallMs` (default the wall clock; tests pass a ManualClock). */
  wallClock?: Clock;
}

/** The connection options an API client passes through to its {@link HttpClient}. */
export type HttpTransportOptions = Omit<HttpClientOptions, 'api' | 'baseUrl'>;

/** One request. */
export interface HttpCall {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path (and query) relative to the base URL, or an absolute `http(s)://` URL. */
  path: string;
  /** Query parameters added to the URL (undefined values are left out), in this order. */
  query?: Readonly<Record<string, string | undefined>>;
  headers?: Readonly<Record<string, string>>;
  /** A JSON body (sets `content-type: application/json`). */
  json?: unknown;
  /** A raw body (give its content-type in `headers`). */
  body?: string;
  signal?: AbortSignal;
  /** Overrides the client's timeout. */
  timeoutMs?: number;
  /** Resolve error statuses (≥ 400) instead of rejecting with `HttpStatus`. */
  acceptErrorStatus?: boolean;
}

/** A complete answer. */
export interface HttpResult {
  status: number;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  text: string;
  /** The request URL without its query, for messages. */
  url: string;
}

const TIMEOUT_CODES = new Set(['HEADERS_TIMEOUT', 'BODY_TIMEOUT', 'CONNECT_TIMEOUT', 'ETIMEDOUT']);
/** Idle pooled connections are closed after this long. */
const IDLE_POOL_MS = 30_000;
const REDACTED = '[redacted]';

/** An HTTP client for one outside API. Close it when done (it owns connection pools). */
export class HttpClient {
  readonly api: string;
  readonly #base: string;
  readonly #timeoutMs: number;
  readonly #token: TokenSource | undefined;
  readonly #authScheme: string;
  /** Token values sent so far (never in a message). */
  readonly #secrets = new Set<string>();
  readonly #tls: { ca?: string[]; rejectUnauthorized: boolean };
  readonly #connectTimeoutMs: number;
  readonly #proxy: ProxyConfig;
  readonly #headers: Record<string, string>;
  readonly #activity: ActivityTracker;
  readonly #clock: Clock;
  readonly #releaseAfterWallMs: number | undefined;
  /** Connection pools by proxy URL (`direct` without one). */
  readonly #pools = new Map<string, ConnectionPool>();
  readonly #wall: Clock | undefined;
  readonly #networkClock: Clock;
  readonly #tlsHandshakeTimeoutMs: number;

  constructor(options: HttpClientOptions) {
    this.api = options.api;
    this.#base = (options.baseUrl ?? '').replace(/\/+$/, '');
    if (this.#base !== '') {
      const protocol = new URL(this.#base).protocol;
      if (protocol !== 'http:' && protocol !== 'https:')
        throw new Error(`${options.api}: unsupported URL ${this.#base}`);
    }
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#token = options.bearerToken;
    this.#authScheme = options.authScheme ?? 'Bearer';
    this.#connectTimeoutMs = options.connectTimeoutMs ?? GO_DIALER_LIMITS.connectTimeoutMs;
    const ca = caBundle(options.ca);
    this.#tls = { ...(ca ? { ca } : {}), rejectUnauthorized: options.insecureSkipVerify !== true };
    this.#proxy = options.proxy ?? proxyConfigFromEnv(process.env);
    this.#headers = { 'user-agent': options.userAgent ?? DEFAULT_USER_AGENT, ...lowerKeys(options.headers ?? {}) };
    this.#activity = options.activity ?? NO_ACTIVITY;
    this.#clock = options.clock ?? new RealClock();
    this.#releaseAfterWallMs = options.releaseActivityAfterWallMs;
    this.#wall = options.releaseActivityAfterWallMs === undefined ? undefined : (options.wallClock ?? new RealClock());
    // Network timeouts are real time, whatever clock the caller's logic runs on.
    this.#tlsHandshakeTimeoutMs = options.tlsHandshakeTimeoutMs ?? GO_DIALER_LIMITS.tlsHandshakeTimeoutMs;
    this.#networkClock = options.wallClock ?? new RealClock();
  }

  /** The absolute URL of a path (query not included). */
  resolve(path: string): URL {
    if (/^https?:\/\//i.test(path)) return new URL(path);
    if (this.#base === '') throw new Error(`${this.api}: relative path ${path} without a base URL`);
    return new URL(this.#base + (path.startsWith('/') ? path : `/${path}`));
  }

  /** Sends a request and reads the whole answer. Rejects with an {@link IntegrationError}. */
  async request(call: HttpCall): Promise<HttpResult> {
    const method = call.method ?? 'GET';
    const url = this.resolve(call.path);
    for (const [k, v] of Object.entries(call.query ?? {})) if (v !== undefined) url.searchParams.append(k, v);
    const where = `${method} ${url.origin}${url.pathname}`;
    const end = once(this.#activity.begin(`http ${method} ${this.api}`));
    let watchdog: { cancel(): void } | undefined;
    if (this.#releaseAfterWallMs !== undefined && this.#wall)
      watchdog = this.#wall.setTimer(this.#releaseAfterWallMs, end);
    const abort = new AbortController();
    const onAbort = (): void => abort.abort();
    call.signal?.addEventListener('abort', onAbort, { once: true });
    let timedOut = false;
    const timeoutMs = call.timeoutMs ?? this.#timeoutMs;
    const timer = this.#clock.setTimer(timeoutMs, () => {
      timedOut = true;
      abort.abort();
    });
    try {
      if (call.signal?.aborted)
        throw new IntegrationError(this.api, 'Aborted', `${where}: aborted`, { cause: call.signal.reason });
      const headers = await this.#requestHeaders(call, where);
      const body = call.json !== undefined ? JSON.stringify(call.json) : (call.body ?? null);
      const res = await this.#poolFor(url).request(url, {
        method,
        headers,
        body,
        signal: abort.signal,
        headersTimeoutMs: timeoutMs,
        bodyTimeoutMs: timeoutMs,
      });
      const text = await res.body.text();
      if (res.statusCode >= 400 && call.acceptErrorStatus !== true) {
        throw new IntegrationError(
          this.api,
          'HttpStatus',
          this.redact(`${where}: ${statusText(res.statusCode)}${excerptSuffix(text)}`),
          { status: res.statusCode },
        );
      }
      return { status: res.statusCode, headers: res.headers, text, url: `${url.origin}${url.pathname}` };
    } catch (err) {
      if (err instanceof IntegrationError) throw err;
      if (call.signal?.aborted) throw new IntegrationError(this.api, 'Aborted', `${where}: aborted`, { cause: err });
      const code = errorCode(err);
      if (!timedOut && code === 'CONNECT_TIMEOUT') {
        throw new IntegrationError(
          this.api,
          'Timeout',
          `${where}: no connection within ${formatSeconds(this.#connectTimeoutMs)}`,
          { cause: err },
        );
      }
      if (!timedOut && code === 'TLS_HANDSHAKE_TIMEOUT') {
        throw new IntegrationError(
          this.api,
          'Timeout',
          `${where}: TLS handshake not done within ${formatSeconds(this.#tlsHandshakeTimeoutMs)}`,
          { cause: err },
        );
      }
      if (timedOut || TIMEOUT_CODES.has(code ?? '')) {
        throw new IntegrationError(this.api, 'Timeout', `${where}: no answer within ${formatSeconds(timeoutMs)}`, {
          cause: err,
        });
      }
      throw new IntegrationError(this.api, 'Unreachable', this.redact(`${where}: ${transportMessage(err)}`), {
        cause: err,
      });
    } finally {
      timer.cancel();
      watchdog?.cancel();
      call.signal?.removeEventListener('abort', onAbort);
      end();
    }
  }

  /** Sends a request and parses the answer as JSON (`BadResponse` when it is not JSON). */
  async json(call: HttpCall): Promise<unknown> {
    const res = await this.request({ ...call, headers: { accept: 'application/json', ...call.headers } });
    return parseJsonBody(this.api, res);
  }

  /**
   * `text` with every token this client has sent replaced by `[redacted]` (also the secret part
   * after the first `:` of an `AccessToken <cluster>:<token>` credential). For callers that
   * build messages from answers themselves.
   */
  redact(text: string): string {
    let out = text;
    for (const secret of this.#secrets) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** Closes the connection pools. */
  async close(): Promise<void> {
    const all = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(all.map((p) => p.close()));
  }

  async #requestHeaders(call: HttpCall, where: string): Promise<Record<string, string>> {
    const headers: Record<string, string> = { ...this.#headers };
    if (call.json !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, lowerKeys(call.headers ?? {}));
    let token: string | undefined;
    try {
      token = typeof this.#token === 'function' ? await this.#token() : this.#token;
    } catch (err) {
      throw new IntegrationError(
        this.api,
        'Unreachable',
        `${where}: reading the bearer token: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
    if (token !== undefined && token.trim() !== '') {
      const value = token.trim();
      this.#remember(value);
      headers['authorization'] = `${this.#authScheme} ${value}`;
    }
    return headers;
  }

  #remember(token: string): void {
    // Only strings long enough not to mangle ordinary words of a message.
    const colon = token.indexOf(':');
    for (const s of [token, colon < 0 ? '' : token.slice(colon + 1)]) if (s.length >= 6) this.#secrets.add(s);
    // A rotated token replaces its predecessors after a while; keep the set small.
    while (this.#secrets.size > 8) {
      const oldest = this.#secrets.values().next().value;
      if (oldest === undefined) break;
      this.#secrets.delete(oldest);
    }
  }

  #poolFor(url: URL): ConnectionPool {
    const proxy = proxyForUrl(this.#proxy, url);
    const key = proxy?.href ?? 'direct';
    let pool = this.#pools.get(key);
    if (!pool) {
      pool = new ConnectionPool({
        connectTimeoutMs: this.#connectTimeoutMs,
        tlsHandshakeTimeoutMs: this.#tlsHandshakeTimeoutMs,
        keepAliveInitialDelayMs: GO_DIALER_LIMITS.keepAliveInitialDelayMs,
        idleTimeoutMs: IDLE_POOL_MS,
        tls: this.#tls,
        ...(proxy ? { proxy } : {}),
        clock: this.#networkClock,
      });
      this.#pools.set(key, pool);
    }
    return pool;
  }
}

/** Parses a JSON answer; `BadResponse` (with the status) when the body is not JSON. */
export function parseJsonBody(api: string, res: HttpResult): unknown {
  try {
    return JSON.parse(res.text) as unknown;
  } catch (err) {
    throw new IntegrationError(api, 'BadResponse', `${res.url}: the answer is not JSON${excerptSuffix(res.text)}`, {
      status: res.status,
      cause: err,
    });
  }
}

/** The start of a body for a message, whitespace collapsed (at most `max` characters). */
export function bodyExcerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}

function excerptSuffix(text: string): string {
  const e = bodyExcerpt(text);
  return e === '' ? '' : `: ${e}`;
}

function statusText(status: number): string {
  return `HTTP ${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ''}`;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

function errorCode(err: unknown): string | undefined {
  for (
    let e: unknown = err, depth = 0;
    e && typeof e === 'object' && depth < 4;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** A short, stable description of a transport failure. */
function transportMessage(err: unknown): string {
  const code = errorCode(err);
  switch (code ?? '') {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'no such host';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'connection reset by the server';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no route to host';
    default: {
      const message = err instanceof Error ? err.message : String(err);
      return code !== undefined && !message.includes(code) ? `${message} (${code})` : message;
    }
  }
}

function lowerKeys(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (!done) {
      done = true;
      fn();
    }
  };
}
