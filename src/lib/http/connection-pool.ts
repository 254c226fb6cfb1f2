/**
 * The HTTP/1.1 client under the kube client (src/kube/transport.ts) and the outside APIs' client
 * (src/integrations/http/http-client.ts), on Node's own `node:http`: keep-alive connection pools
 * (one agent per scheme) whose connections are opened by connector.ts (TCP and TLS with limits
 * of their own) or proxy-connector.ts, a limit on the wait for the response headers, a limit on
 * the silence between body chunks while a body is read whole, and the caller's AbortSignal.
 *
 * Why not undici: its HTTP parser is WebAssembly, and V8's optimising tier-up of it took the
 * operator's memory to a peak of about 37 MiB of compiler zones; its modules alone weigh more
 * than the whole of `node:http`, which is part of Node and parses in C++
 * (docs/benchmarks.md#start-up-and-footprint-issue-17).
 *
 * Idle pooled connections are closed after `idleTimeoutMs`, or a second before the server's
 * `Keep-Alive: timeout=N` hint when that is shorter (Node's agent reads the hint).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Duplex } from 'node:stream';
import type { Clock } from '../clock.js';
import { NetworkLimitError, bareHost, createConnector, type Connector, type ConnectorOptions } from './connector.js';
import { createProxyConnector, proxyAuthorization } from './proxy-connector.js';

export interface ConnectionPoolOptions extends ConnectorOptions {
  /** Idle keep-alive connections are closed after this long. */
  idleTimeoutMs: number;
  /** Send everything through this http(s):// proxy. */
  proxy?: URL;
  /** TLS material towards an https proxy (default: `tls`). */
  proxyTls?: ConnectorOptions['tls'];
}

/** One request. */
export interface PoolRequest {
  method: string;
  headers: Record<string, string>;
  body?: string | null;
  signal?: AbortSignal;
  /** Limit of the wait for the response headers, from the start (0: none). */
  headersTimeoutMs: number;
  /** Limit of the silence between body chunks while `text()` reads the body (0: none). */
  bodyTimeoutMs: number;
}

/** An answer whose body is still to be read. */
export interface PoolResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  body: ResponseBody;
}

/** The error of an aborted request: the signal's reason when it is an Error. */
export function abortError(signal: AbortSignal): Error {
  if (signal.reason instanceof Error) return signal.reason;
  const err = new Error('This operation was aborted', { cause: signal.reason });
  err.name = 'AbortError';
  return err;
}

/** A response body: iterate it (a stream, no limit), read it whole with `text()`, or destroy it. */
export class ResponseBody implements AsyncIterable<Buffer> {
  readonly #res: IncomingMessage;
  readonly #timeoutMs: number;
  readonly #clock: Clock;

  constructor(res: IncomingMessage, timeoutMs: number, clock: Clock) {
    this.#res = res;
    this.#timeoutMs = timeoutMs;
    this.#clock = clock;
  }

  [Symbol.asyncIterator](): AsyncIterator<Buffer> {
    return this.#res[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  /** Ends the answer early (its connection is closed, not pooled). */
  destroy(err?: Error): void {
    this.#res.destroy(err);
  }

  /** The whole body as UTF-8 text; `BODY_TIMEOUT` when the server falls silent for too long. */
  text(): Promise<string> {
    const res = this.#res;
    return new Promise<string>((resolve, reject) => {
      const chunks: Buffer[] = [];
      let timer: { cancel(): void } | undefined;
      const arm = (): void => {
        timer?.cancel();
        if (this.#timeoutMs > 0)
          timer = this.#clock.setTimer(this.#timeoutMs, () =>
            res.destroy(
              new NetworkLimitError('BODY_TIMEOUT', `body timeout: no body data within ${this.#timeoutMs} ms`),
            ),
          );
      };
      arm();
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        arm();
      });
      res.once('end', () => {
        timer?.cancel();
        resolve(Buffer.concat(chunks).toString('utf8'));
      });
      res.once('error', (err: Error) => {
        timer?.cancel();
        reject(err);
      });
      res.once('close', () => {
        timer?.cancel();
        if (!res.complete) reject(new Error('the connection closed before the whole body came'));
      });
    });
  }
}

/** Methods Go's transport sends again after a stale pooled connection. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
/** Stale pooled connections tried in a row before the error is the caller's. */
const MAX_STALE_RETRIES = 4;

/** A pooled connection the server had closed: the request may go again on another one. */
class StaleConnectionError extends Error {
  readonly original: Error;
  constructor(original: Error) {
    super(original.message, { cause: original });
    this.original = original;
  }
}

function unwrapStale(err: unknown): unknown {
  return err instanceof StaleConnectionError ? err.original : err;
}

/** The server closed the connection before it answered. */
function isConnectionDrop(err: Error): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED';
}

/** Keep-alive pools of one client: one agent per scheme, every connection made by one connector. */
export class ConnectionPool {
  readonly #connector: Connector;
  readonly #idleTimeoutMs: number;
  readonly #keepAliveInitialDelayMs: number;
  readonly #clock: Clock;
  readonly #proxy: URL | undefined;
  readonly #proxyAuthorization: string | undefined;
  #http: HttpAgent | undefined;
  #https: HttpsAgent | undefined;
  #closed = false;

  constructor(options: ConnectionPoolOptions) {
    this.#connector =
      options.proxy !== undefined
        ? createProxyConnector(options.proxy, options, options.proxyTls)
        : createConnector(options);
    this.#idleTimeoutMs = options.idleTimeoutMs;
    this.#keepAliveInitialDelayMs = options.keepAliveInitialDelayMs;
    this.#clock = options.clock;
    this.#proxy = options.proxy;
    this.#proxyAuthorization = options.proxy !== undefined ? proxyAuthorization(options.proxy) : undefined;
  }

  /**
   * Sends a request; resolves once the response headers are in. An idempotent request whose
   * pooled connection turns out to have been closed by the server meanwhile is sent again on
   * another connection, as Go's transport does (a server may close an idle connection at any
   * moment, and the client learns it only when it writes).
   */
  async request(url: URL, req: PoolRequest): Promise<PoolResponse> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#attempt(url, req);
      } catch (err) {
        if (!(err instanceof StaleConnectionError) || attempt >= MAX_STALE_RETRIES) throw unwrapStale(err);
      }
    }
  }

  #attempt(url: URL, req: PoolRequest): Promise<PoolResponse> {
    if (this.#closed) return Promise.reject(new Error('the connection pool is closed'));
    if (req.signal?.aborted) return Promise.reject(abortError(req.signal));
    const https = url.protocol === 'https:';
    // Plain-HTTP targets go to the proxy in absolute form (as Go sends them); https is tunnelled.
    const absoluteForm = this.#proxy !== undefined && !https;
    const headers = { ...req.headers };
    if (absoluteForm && this.#proxyAuthorization !== undefined)
      headers['proxy-authorization'] = this.#proxyAuthorization;
    // Node sends a DELETE's body without a length unless told it.
    if (req.body !== undefined && req.body !== null) headers['content-length'] = String(Buffer.byteLength(req.body));
    const send = https ? httpsRequest : httpRequest;
    const outgoing = send({
      method: req.method,
      host: bareHost(url.hostname),
      port: Number(url.port) || (https ? 443 : 80),
      path: absoluteForm ? url.href : url.pathname + url.search,
      headers,
      agent: https ? this.#httpsAgent() : this.#httpAgent(),
    });
    return new Promise<PoolResponse>((resolve, reject) => {
      let settled = false;
      const timer =
        req.headersTimeoutMs > 0
          ? this.#clock.setTimer(req.headersTimeoutMs, () =>
              outgoing.destroy(
                new NetworkLimitError(
                  'HEADERS_TIMEOUT',
                  `headers timeout: no response headers within ${req.headersTimeoutMs} ms`,
                ),
              ),
            )
          : undefined;
      const signal = req.signal;
      let response: IncomingMessage | undefined;
      const onAbort = (): void => {
        const err = abortError(signal as AbortSignal);
        if (response) response.destroy(err);
        else outgoing.destroy(err);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const release = (): void => signal?.removeEventListener('abort', onAbort);
      // Errors after the answer reach its body; this listener keeps a late one from crashing us.
      outgoing.on('error', (err: Error) => {
        timer?.cancel();
        if (settled) return;
        settled = true;
        release();
        const stale = outgoing.reusedSocket && IDEMPOTENT.has(req.method) && isConnectionDrop(err);
        reject(stale ? new StaleConnectionError(err) : err);
      });
      outgoing.once('response', (res: IncomingMessage) => {
        timer?.cancel();
        if (settled) {
          res.destroy();
          return;
        }
        settled = true;
        response = res;
        res.once('close', release);
        resolve({
          statusCode: res.statusCode ?? 0,
          headers: res.headers,
          body: new ResponseBody(res, req.bodyTimeoutMs, this.#clock),
        });
      });
      outgoing.end(req.body ?? undefined);
    });
  }

  /** Refuses new requests, closes idle connections; requests in flight finish and are not pooled. */
  close(): Promise<void> {
    this.#closed = true;
    for (const agent of [this.#http, this.#https]) {
      if (!agent) continue;
      for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
    }
    return Promise.resolve();
  }

  #httpAgent(): HttpAgent {
    this.#http ??= this.#agent(new HttpAgent(this.#agentOptions()), false);
    return this.#http;
  }

  #httpsAgent(): HttpsAgent {
    this.#https ??= this.#agent(new HttpsAgent(this.#agentOptions()), true);
    return this.#https;
  }

  #agentOptions(): { keepAlive: true; keepAliveMsecs: number; timeout: number; scheduling: 'lifo' } {
    return {
      keepAlive: true,
      keepAliveMsecs: this.#keepAliveInitialDelayMs,
      timeout: this.#idleTimeoutMs,
      scheduling: 'lifo',
    };
  }

  /** Makes `agent` open its connections with the connector and stop pooling once closed. */
  #agent<A extends HttpAgent>(agent: A, tls: boolean): A {
    const keepSocketAlive = agent.keepSocketAlive.bind(agent);
    agent.createConnection = (options, callback): undefined => {
      const host = typeof options.host === 'string' ? options.host : 'localhost';
      this.#connector({ host, port: Number(options.port), tls }, (err, socket) => callback?.(err, socket as Duplex));
      return undefined;
    };
    agent.keepSocketAlive = (socket): boolean => !this.#closed && (keepSocketAlive(socket) as unknown as boolean);
    return agent;
  }
}
