/**
 * The simulated OpenShift Update Service (Cincinnati policy engine) over HTTP:
 * `GET <prefix>/v1/graph` and `GET <prefix>/graph` (prefix `/api/upgrades_info`, as Red Hat deploys
 * it) with the real parameter checks and JSON error bodies
 * (docs/design/cluster-model.md#request-and-response, cincinnati `commons`), and fault modes a
 * scenario switches at run time.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActivityTracker } from '../../lib/activity.js';
import type { Clock } from '../../lib/clock.js';
import type { Logger } from '../../lib/log.js';
import type { Catalogue } from '../releases/catalogue.js';
import { startHttpServer, type HttpServer, type RequestActivity } from '../http-server.js';
import { buildGraph } from './graph.js';

/** Faults: what the service does instead of answering normally. */
export type UpdateServiceFault =
  /** Nothing listens: connections are refused. */
  | { kind: 'refused' }
  /** A router in front answers 503 (the service has no endpoints). */
  | { kind: 'unavailable' }
  /** Requests are accepted and never answered (until the fault ends or the server closes). */
  | { kind: 'timeout' }
  /** 200 with a body that is not JSON. */
  | { kind: 'bad-json' }
  /** A 5xx with Cincinnati's error body (default 500 `failed_upstream_fetch`). */
  | { kind: 'server-error'; status?: number }
  /** The graph leaves these versions out (default: the request's `version` parameter). */
  | { kind: 'version-missing'; versions?: string[] };

export interface UpdateServiceOptions {
  catalogue: Catalogue;
  /** Channel membership follows this clock; without one every promotion counts as done. */
  clock?: Clock;
  port?: number;
  activity?: ActivityTracker;
  logger?: Logger;
  /** Default `/api/upgrades_info`. */
  pathPrefix?: string;
}

export interface UpdateService {
  /** Base URL, e.g. `http://127.0.0.1:4711`. */
  readonly url: string;
  /** The URL to put in `ClusterVersion.spec.upstream`. */
  readonly graphUrl: string;
  /** Graph requests received (whatever the answer). */
  readonly requests: number;
  /** Switches a fault on (or off with undefined); resolves once the listener state matches. */
  setFault(fault: UpdateServiceFault | undefined): Promise<void>;
  /** Replaces the catalogue (a scenario that publishes a release). */
  setCatalogue(catalogue: Catalogue): void;
  close(): Promise<void>;
}

export const CINCINNATI_CONTENT_TYPE = 'application/json';
export const CINCINNATI_V1_CONTENT_TYPE = 'application/vnd.redhat.cincinnati.v1+json';
const CHANNEL_RE = /^[0-9a-z\-.]+$/;
const ARCH_RE = /^[0-9a-z_]+$/;

/** The state the handler reads; mutated by the service. */
export interface UpdateServiceState {
  catalogue: Catalogue;
  fault: UpdateServiceFault | undefined;
  clock: Clock | undefined;
  pathPrefix: string;
  requests: number;
}

/** Writes Cincinnati's JSON error `{kind, value}`. */
function graphError(res: ServerResponse, status: number, kind: string, value: string): void {
  const body = JSON.stringify({ kind, value });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/**
 * The content type to answer with for an Accept header, or undefined for 406. Like Cincinnati's
 * `validate_content_type`, the header is compared as a whole (no list parsing); no header is fine.
 */
export function negotiate(accept: string | undefined): string | undefined {
  if (accept === undefined || accept.trim() === '') return CINCINNATI_CONTENT_TYPE;
  const a = accept.trim();
  if (a === CINCINNATI_V1_CONTENT_TYPE) return CINCINNATI_V1_CONTENT_TYPE;
  if ([CINCINNATI_CONTENT_TYPE, '*', '*/*', 'application/*'].includes(a)) return CINCINNATI_CONTENT_TYPE;
  return undefined;
}

/**
 * Handles one request (fault modes other than `refused`, `timeout` included). Returns false when
 * the request is deliberately left unanswered.
 */
export function handleGraphRequest(state: UpdateServiceState, req: IncomingMessage, res: ServerResponse): boolean {
  const url = new URL(req.url ?? '/', 'http://update-service');
  const paths = [`${state.pathPrefix}/v1/graph`, `${state.pathPrefix}/graph`];
  if (!paths.includes(url.pathname)) {
    res.writeHead(404, { 'content-length': 0 });
    res.end();
    return true;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-length': 0 });
    res.end();
    return true;
  }
  state.requests++;
  const fault = state.fault;
  if (fault?.kind === 'timeout') return false;
  if (fault?.kind === 'unavailable') {
    const body = '<html><body><h1>Application is not available</h1></body></html>\n';
    res.writeHead(503, {
      'content-type': 'text/html',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-cache',
    });
    res.end(body);
    return true;
  }

  const contentType = negotiate(req.headers.accept);
  if (!contentType) {
    graphError(res, 406, 'invalid_content_type', 'invalid Content-Type requested');
    return true;
  }
  const channel = url.searchParams.get('channel');
  if (channel === null) {
    graphError(res, 400, 'missing_params', 'mandatory client parameters missing: channel');
    return true;
  }
  if (!CHANNEL_RE.test(channel)) {
    graphError(
      res,
      400,
      'invalid_params',
      `invalid client parameters: channel '${channel}' does not match regex '^[0-9a-z\\-\\.]+$'`,
    );
    return true;
  }
  const arch = url.searchParams.get('arch') ?? 'amd64';
  if (!ARCH_RE.test(arch)) {
    graphError(
      res,
      400,
      'invalid_params',
      `invalid client parameters: arch '${arch}' does not match regex '^[0-9a-z_]+$'`,
    );
    return true;
  }
  if (fault?.kind === 'server-error') {
    const status = fault.status ?? 500;
    graphError(res, status, 'failed_upstream_fetch', `failed to fetch upstream graph: ${status} upstream unavailable`);
    return true;
  }
  if (fault?.kind === 'bad-json') {
    const body = '{"nodes":[{"version":"4.';
    res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
    res.end(body);
    return true;
  }
  let omitVersions: string[] = [];
  if (fault?.kind === 'version-missing') {
    const own = url.searchParams.get('version');
    omitVersions = fault.versions ?? (own ? [own] : []);
  }
  const graph = buildGraph(state.catalogue, {
    channel,
    arch,
    ...(state.clock ? { at: state.clock.now() } : {}),
    omitVersions,
  });
  const body = JSON.stringify(graph);
  res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}

/**
 * Starts the update service. A request that is never answered (fault `timeout`) is not counted
 * as work in flight: the client's own timeout must be able to fire on a virtual clock, which
 * jumps only when the system is quiet.
 */
export async function startUpdateService(options: UpdateServiceOptions): Promise<UpdateService> {
  const state: UpdateServiceState = {
    catalogue: options.catalogue,
    fault: undefined,
    clock: options.clock,
    pathPrefix: options.pathPrefix ?? '/api/upgrades_info',
    requests: 0,
  };
  const held = new Set<ServerResponse>();
  const handler = (req: IncomingMessage, res: ServerResponse, activity: RequestActivity): void => {
    if (!handleGraphRequest(state, req, res)) {
      held.add(res);
      res.once('close', () => held.delete(res));
      activity.pause();
    }
  };
  const serverOptions = {
    handler,
    ...(options.activity ? { activity: options.activity } : {}),
    name: 'update-service',
    ...(options.logger ? { logger: options.logger } : {}),
  };
  let server: HttpServer | undefined = await startHttpServer({ ...serverOptions, port: options.port ?? 0 });
  const port = server.port;
  const url = server.url;
  let closed = false;

  /** Cuts held requests: the client sees its connection reset, as when a hung server dies. */
  const dropHeld = (): void => {
    for (const res of held) res.destroy();
    held.clear();
  };

  return {
    url,
    graphUrl: `${url}${state.pathPrefix}/v1/graph`,
    get requests() {
      return state.requests;
    },
    async setFault(fault) {
      if (closed) return;
      if (state.fault?.kind === 'timeout' && fault?.kind !== 'timeout') dropHeld();
      state.fault = fault;
      if (fault?.kind === 'refused' && server) {
        const s = server;
        server = undefined;
        await s.close();
      } else if (fault?.kind !== 'refused' && !server) {
        server = await startHttpServer({ ...serverOptions, port });
      }
    },
    setCatalogue(catalogue) {
      state.catalogue = catalogue;
    },
    async close() {
      closed = true;
      dropHeld();
      const s = server;
      server = undefined;
      await s?.close();
    },
  };
}
