/**
 * The simulated OpenShift Cluster Manager: its data (`state`, the in-process API for
 * scenarios and tests), its REST API served on loopback (`listen`), the in-cluster OCM agent's
 * API on a second server (`listenAgent`), a request log, and fault switches (down, error
 * status, slow) for each server.
 *
 * The OCM agent (openshift/ocm-agent) serves `GET /` (the cluster), `GET /upgrade_policies`
 * (a bare JSON array), `GET /upgrade_policies/{id}`, `GET|PATCH /upgrade_policies/{id}/state`,
 * `/livez` and `/readyz`, checks no credentials, and answers any failure with 400 and the OCM
 * SDK's error text. It also answers the clusters_mgmt and service_logs paths relative to its
 * URL, as MUO's SDK-based agent client sends them. It may be served under a path prefix: the
 * operator picks its agent client when `configManager.ocmBaseUrl` contains the agent's in-cluster
 * address, so a scenario puts that address in the path of the loopback URL.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActivityTracker } from '../../lib/activity.js';
import type { Clock } from '../../lib/clock.js';
import { isJsonObject } from '../../lib/json.js';
import type { Logger } from '../../lib/log.js';
import type { Random } from '../../lib/random.js';
import { startHttpServer, type HttpServer, type RequestActivity } from '../http-server.js';
import { OcmApi, type OcmAuthOptions, type OcmResponse } from './ocm-api.js';
import { CLUSTERS_MGMT, errorJson } from './ocm-model.js';
import { OcmState } from './ocm-state.js';
import { readRequestBody } from '../../lib/request-body.js';

/** A fault of one server. `match`, when given, limits it to request paths containing that text. */
export type OcmFault =
  | { kind: 'none' }
  /** Connections are reset without an answer. */
  | { kind: 'down'; match?: string }
  /** Requests are answered with this status (default 503) and OCM's error body. */
  | { kind: 'error'; status?: number; match?: string }
  /** Answers are held back this long on the clock. */
  | { kind: 'slow'; delayMs: number; match?: string };

/** One request the simulated OCM answered (or dropped). */
export interface OcmRequestRecord {
  /** ms */
  at: number;
  server: 'ocm' | 'agent';
  method: string;
  path: string;
  /** 0 when the connection was reset. */
  status: number;
}

export interface SimOcmOptions {
  clock: Clock;
  random: Random;
  /** Accepted credentials; without, every request is accepted. */
  auth?: OcmAuthOptions;
  /** `created_by` of posted service logs. */
  logAuthor?: string;
}

export interface ListenOptions {
  port?: number;
  activity?: ActivityTracker;
  logger?: Logger;
}

/** The simulated OCM. */
export class SimOcm {
  readonly state: OcmState;
  readonly #api: OcmApi;
  readonly #clock: Clock;
  readonly #faults: Record<'ocm' | 'agent', OcmFault> = { ocm: { kind: 'none' }, agent: { kind: 'none' } };
  readonly #log: OcmRequestRecord[] = [];

  constructor(options: SimOcmOptions) {
    this.#clock = options.clock;
    this.state = new OcmState({
      clock: options.clock,
      random: options.random,
      ...(options.logAuthor === undefined ? {} : { logAuthor: options.logAuthor }),
    });
    this.#api = new OcmApi(this.state, options.auth);
  }

  /** Switches the OCM server's fault ({ kind: 'none' } ends it). */
  setFault(fault: OcmFault): void {
    this.#faults.ocm = fault;
  }

  /** Switches the agent server's fault. */
  setAgentFault(fault: OcmFault): void {
    this.#faults.agent = fault;
  }

  /** Every request answered so far, oldest first. */
  requestLog(): OcmRequestRecord[] {
    return this.#log.map((r) => ({ ...r }));
  }

  /** Answers one request of the OCM API (no faults), e.g. for tests without a socket. */
  handle(method: string, target: string, init: { authorization?: string; body?: string } = {}): OcmResponse {
    return this.#api.handle({ method, target, ...init });
  }

  /** Serves the OCM API on 127.0.0.1. */
  async listen(options: ListenOptions = {}): Promise<HttpServer> {
    return this.#serve('ocm', options, (method, target, authorization, body) => {
      const req = { method, target, body, ...(authorization === undefined ? {} : { authorization }) };
      return this.#api.handle(req);
    });
  }

  /**
   * Serves the OCM agent's API for one cluster (OCM's internal id) on 127.0.0.1, under
   * `pathPrefix` when given (`/<prefix>/upgrade_policies`; a request outside it is a 404).
   */
  async listenAgent(options: ListenOptions & { clusterId: string; pathPrefix?: string }): Promise<HttpServer> {
    const clusterId = options.clusterId;
    const prefix = (options.pathPrefix ?? '').replace(/\/+$/, '');
    return this.#serve('agent', options, (method, target, _authorization, body) => {
      if (prefix === '') return this.#agent(clusterId, method, target, body);
      if (target !== prefix && !target.startsWith(`${prefix}/`) && !target.startsWith(`${prefix}?`))
        return agentText(404, '404 page not found\n');
      return this.#agent(clusterId, method, target.slice(prefix.length) || '/', body);
    });
  }

  #agent(clusterId: string, method: string, target: string, body: string): OcmResponse {
    const url = new URL(target, 'http://ocm-agent');
    const path = url.pathname;
    if (path === '/livez' || path === '/readyz') return { status: 200, headers: {} };
    // A failing upstream OCM fails the agent's call to it.
    const upstream = this.#faults.ocm;
    if (upstream.kind === 'down' || upstream.kind === 'error') {
      if (upstream.match === undefined || path.includes(upstream.match)) {
        const status = upstream.kind === 'error' ? (upstream.status ?? 503) : 0;
        return agentText(
          400,
          status === 0
            ? `Get "https://api.openshift.com${CLUSTERS_MGMT}": connection reset by peer`
            : sdkErrorText(status, errorJson(CLUSTERS_MGMT, status, 'Service Unavailable', '')),
        );
      }
    }
    let mapped: string;
    let list = false;
    if (path === '/' || path === '') {
      if (method !== 'GET') return agentText(400, 'Bad request body');
      mapped = `${CLUSTERS_MGMT}/clusters/${clusterId}`;
    } else if (path === '/upgrade_policies') {
      if (method !== 'GET') return agentText(400, 'Bad request body');
      mapped = `${CLUSTERS_MGMT}/clusters/${clusterId}/upgrade_policies?size=-1`;
      list = true;
    } else if (/^\/upgrade_policies\/[^/]+(\/state)?$/.test(path)) {
      const isState = path.endsWith('/state');
      if (method !== 'GET' && !(isState && method === 'PATCH')) return agentText(400, 'Bad request body');
      mapped = `${CLUSTERS_MGMT}/clusters/${clusterId}${path}`;
    } else if (path.startsWith('/api/')) {
      return this.#api.handle({ method, target, body }, { skipAuth: true });
    } else {
      return agentText(404, '404 page not found\n');
    }
    const res = this.#api.handle({ method, target: mapped, body }, { skipAuth: true });
    if (res.status >= 400) return agentText(400, sdkErrorText(res.status, res.body));
    if (list) {
      const items = isJsonObject(res.body) && Array.isArray(res.body['items']) ? res.body['items'] : [];
      return {
        status: 200,
        body: items,
        headers: { 'content-type': 'application/json', ...pick(res.headers, 'x-operation-id') },
      };
    }
    return res;
  }

  async #serve(
    server: 'ocm' | 'agent',
    options: ListenOptions,
    answer: (method: string, target: string, authorization: string | undefined, body: string) => OcmResponse,
  ): Promise<HttpServer> {
    return startHttpServer({
      name: server === 'ocm' ? 'ocm' : 'ocm-agent',
      ...(options.activity === undefined ? {} : { activity: options.activity }),
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      handler: async (req: IncomingMessage, res: ServerResponse, activity: RequestActivity) => {
        const method = (req.method ?? 'GET').toUpperCase();
        const target = req.url ?? '/';
        const path = new URL(target, 'http://ocm').pathname;
        const fault = this.#faults[server];
        const applies = fault.kind !== 'none' && (fault.match === undefined || path.includes(fault.match));
        const record = (status: number): void => {
          this.#log.push({ at: this.#clock.now(), server, method, path, status });
        };
        if (applies && fault.kind === 'down') {
          record(0);
          req.socket.destroy();
          return;
        }
        const body = await readRequestBody(req);
        if (applies && fault.kind === 'slow') {
          // Waiting for virtual time is no work: let the clock move while the answer is held back.
          activity.pause();
          await this.#clock.sleep(fault.delayMs);
          activity.resume();
        }
        let out: OcmResponse;
        if (applies && fault.kind === 'error') {
          const status = fault.status ?? 503;
          out =
            server === 'ocm'
              ? {
                  status,
                  body: errorJson(
                    path,
                    status,
                    status === 503 ? 'Service Unavailable' : 'Internal Server Error',
                    this.state.randomString(27),
                  ),
                  headers: { 'content-type': 'application/json' },
                }
              : agentText(status, `HTTP ${status}\n`);
        } else {
          out = answer(method, target, req.headers.authorization, body);
        }
        record(out.status);
        write(res, out);
      },
    });
  }
}

function pick(labels: Record<string, string>, key: string): Record<string, string> {
  return labels[key] === undefined ? {} : { [key]: labels[key] };
}

function agentText(status: number, text: string): OcmResponse {
  return {
    status,
    body: text,
    headers: { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
  };
}

/** What `err.Error()` of an OCM SDK call says for an error answer (the agent passes it on). */
function sdkErrorText(status: number, body: unknown): string {
  const b = (body ?? {}) as { id?: string; code?: string; operation_id?: string; reason?: string };
  return `status is ${status}, identifier is '${b.id ?? ''}', code is '${b.code ?? ''}' and operation identifier is '${b.operation_id ?? ''}': ${b.reason ?? ''}\n`;
}

function write(res: ServerResponse, ocmResponse: OcmResponse): void {
  const headers: Record<string, string | number> = { ...ocmResponse.headers };
  let payload = '';
  if (typeof ocmResponse.body === 'string' && String(headers['content-type']).startsWith('text/plain'))
    payload = ocmResponse.body;
  else if (ocmResponse.body !== undefined) payload = JSON.stringify(ocmResponse.body);
  headers['content-length'] = Buffer.byteLength(payload);
  res.writeHead(ocmResponse.status, headers);
  res.end(payload);
}
