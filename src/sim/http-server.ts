/**
 * The one way the simulation serves HTTP (update service, registry, Prometheus, Alertmanager,
 * OCM): plain HTTP on 127.0.0.1, every request reported to the quiescence tracker from arrival
 * until its response is finished or its connection closes, handler failures answered 500.
 * node:http is enough here (docs/design/dependencies.md#http-servers); no framework.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NO_ACTIVITY, type ActivityTracker } from '../lib/activity.js';
import { silentLogger, type Logger } from '../lib/log.js';

/**
 * The request's share of the quiescence tracker. A handler that holds its answer back to wait
 * for virtual time (a slow or hung fault) pauses it: waiting is no work, and an event-driven
 * clock must be able to reach the end of the wait.
 */
export interface RequestActivity {
  /** Stop counting this request as work (idempotent). */
  pause(): void;
  /** Count it again until its response ends (no-op once the response has ended). */
  resume(): void;
}

/** Handles one request; a thrown error or a rejected promise becomes a 500. */
export type HttpHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  activity: RequestActivity,
) => void | Promise<void>;

export interface HttpServerOptions {
  handler: HttpHandler;
  /** TCP port on 127.0.0.1; 0 or unset picks a free one. */
  port?: number;
  /** Each request counts as one unit of work (label `http <name>`) until its response ends. */
  activity?: ActivityTracker;
  logger?: Logger;
  /** Names the server in logs and activity labels (e.g. 'update-service'). */
  name: string;
}

export interface HttpServer {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  port: number;
  /** Stops listening and ends every connection, idle keep-alive ones and requests in flight. */
  close(): Promise<void>;
}

/** Starts a server; resolves once it listens. */
export async function startHttpServer(options: HttpServerOptions): Promise<HttpServer> {
  const activity = options.activity ?? NO_ACTIVITY;
  const logger = (options.logger ?? silentLogger()).child({ component: options.name });
  const label = `http ${options.name}`;

  const server = createServer((req, res) => {
    let end: (() => void) | undefined = activity.begin(label);
    let closed = false;
    const pause = (): void => {
      end?.();
      end = undefined;
    };
    const resume = (): void => {
      if (!closed && end === undefined) end = activity.begin(label);
    };
    // 'close' fires once the response is finished or the connection is gone, whichever first.
    res.once('close', () => {
      closed = true;
      pause();
    });
    let result: void | Promise<void>;
    try {
      result = options.handler(req, res, { pause, resume });
    } catch (err) {
      fail(res, logger, req, err);
      return;
    }
    if (result instanceof Promise) result.catch((err: unknown) => fail(res, logger, req, err));
  });
  // Simulated clients keep connections alive; close() ends them explicitly.
  server.keepAliveTimeout = 60_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  logger.debug({ url }, 'listening');

  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** Answers a failed handler with 500 (or cuts the response if it had already started). */
function fail(res: ServerResponse, logger: Logger, req: IncomingMessage, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  logger.error({ method: req.method, url: req.url, err: message }, 'request handler failed');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (res.writableEnded) return;
  const body = `internal error: ${message}\n`;
  res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
