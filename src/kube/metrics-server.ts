/**
 * The operator's HTTP endpoint for Prometheus and the kubelet: `GET <path>` for each registry
 * (MUO serves its gauges and its CR collector on separate endpoints), `/healthz` (liveness) and
 * `/readyz` (readiness). With `?verbose`, a probe lists its checks as kube-apiserver's probes do
 * (`[+]informer-sync ok`, `[-]informer-sync failed: …`), so that what is not ready is named.
 * Plain `node:http`: three fixed routes need no framework.
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

/** One named check of a probe, and why it fails. */
export interface HealthCheck {
  name: string;
  ok: boolean;
  /** Why it fails, in words (shown with `?verbose`). */
  reason?: string;
}

/** Liveness and readiness as the probes see them; a probe passes when all its checks do. */
export interface HealthState {
  live: readonly HealthCheck[];
  ready: readonly HealthCheck[];
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

/** A probe's answer: `ok`, or with `verbose` one line per check and the verdict, as kube-apiserver writes them. */
export function probeText(
  kind: 'healthz' | 'readyz',
  checks: readonly HealthCheck[],
  verbose: boolean,
): { ok: boolean; body: string } {
  const ok = checks.every((c) => c.ok);
  if (!verbose) return { ok, body: ok ? 'ok\n' : `${kind} check failed\n` };
  const lines = checks.map((c) => (c.ok ? `[+]${c.name} ok` : `[-]${c.name} failed: ${c.reason ?? 'not ready'}`));
  return { ok, body: `${lines.join('\n')}\n${ok ? `${kind} check passed` : `${kind} check failed`}\n` };
}

function probe(
  res: ServerResponse,
  kind: 'healthz' | 'readyz',
  checks: readonly HealthCheck[],
  verbose: boolean,
  headOnly: boolean,
): void {
  const { ok, body } = probeText(kind, checks, verbose);
  send(res, ok ? 200 : 503, body, undefined, headOnly);
}

async function handle(req: IncomingMessage, res: ServerResponse, options: MetricsServerOptions): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname;
  const verbose = url.searchParams.has('verbose');
  const route = options.registries.find((r) => r.path === path);
  const known = route !== undefined || path === '/healthz' || path === '/readyz';
  if (!known) return send(res, 404, '404 page not found\n');
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    return send(res, 405, 'method not allowed\n');
  }
  const headOnly = req.method === 'HEAD';
  if (path === '/healthz') return probe(res, 'healthz', options.health().live, verbose, headOnly);
  if (path === '/readyz') return probe(res, 'readyz', options.health().ready, verbose, headOnly);
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
