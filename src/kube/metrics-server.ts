/**
 * The operator's HTTP endpoint for Prometheus and the kubelet: `GET <path>` for each registry
 * (MUO serves its gauges and its CR collector on separate endpoints), `/healthz` (liveness) and
 * `/readyz` (readiness). Plain `node:http`: three fixed routes need no framework.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server needs of a prom-client `Registry`. */
export interface ScrapeSource {
  metrics(): Promise<string>;
  readonly contentType: string;
}

/** One scrape endpoint. */
export interface RegistryRoute {
  /** URL path, e.g. `/metrics`. */
  path: string;
  registry: ScrapeSource;
}

/** Liveness and readiness as the probes see them. */
export interface HealthState {
  ready: boolean;
  live: boolean;
}

/** Options of {@link startMetricsServer}. */
export interface MetricsServerOptions {
  /** Bind address; default `127.0.0.1`. The CLI passes the configured bind address. */
  host?: string | undefined;
  /** Port; 0 picks a free one. */
  port: number;
  registries: readonly RegistryRoute[];
  health: () => HealthState;
}

/** A running metrics server. */
export interface MetricsServer {
  /** Base URL, e.g. `http://127.0.0.1:8383`. */
  readonly url: string;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

function send(
  res: ServerResponse,
  status: number,
  body: string,
  contentType = 'text/plain; charset=utf-8',
  headOnly = false,
): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(headOnly ? undefined : body);
}

function probe(res: ServerResponse, ok: boolean, headOnly: boolean): void {
  send(res, ok ? 200 : 503, ok ? 'ok\n' : 'not ok\n', undefined, headOnly);
}

async function handle(req: IncomingMessage, res: ServerResponse, options: MetricsServerOptions): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const route = options.registries.find((r) => r.path === path);
  const known = route !== undefined || path === '/healthz' || path === '/readyz';
  if (!known) return send(res, 404, '404 page not found\n');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return send(res, 405, 'method not allowed\n');
  }
  const headOnly = req.method === 'HEAD';
  if (path === '/healthz') return probe(res, options.health().live, headOnly);
  if (path === '/readyz') return probe(res, options.health().ready, headOnly);
  if (!route) return send(res, 404, '404 page not found\n');
  let text: string;
  try {
    text = await route.registry.metrics();
  } catch (error) {
    return send(res, 500, `error gathering metrics: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  send(res, 200, text, route.registry.contentType, headOnly);
}

/** Starts serving; resolves once listening. Rejects when the address cannot be bound. */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer((req, res) => {
    handle(req, res, options).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, `internal error: ${String(error)}\n`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${hostPart}:${address.port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
