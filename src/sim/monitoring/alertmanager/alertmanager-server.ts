/**
 * The simulated Alertmanager: the v2 HTTP API (`/api/v2/silences`, `/api/v2/silence/{id}`,
 * `/api/v2/alerts`, `/api/v2/alerts/groups`, `/api/v2/status`, `/api/v2/receivers`) and
 * `/-/healthy`, `/-/ready`, answering what Alertmanager 0.25 answers, plus a fault switch
 * (down, 5xx, slow) and an optional bearer-token check. Served by `../../http-server.ts`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActivityTracker } from '../../../lib/activity.js';
import type { Clock } from '../../../lib/clock.js';
import type { JsonValue } from '../../../lib/json.js';
import type { Logger } from '../../../lib/log.js';
import type { Random } from '../../../lib/random.js';
import { startHttpServer, type HttpServer, type RequestActivity } from '../../http-server.js';
import type { CompiledMatcher } from '../label-matcher.js';
import { AmError, amSwagger, amText } from './am-error.js';
import { AlertStore, goBool, type AlertQuery } from './alerts.js';
import { compileFilterMatcher, MatcherError, parseMatcher } from './matchers.js';
import { decodeAlertsBody, decodeSilenceBody } from './request-body.js';
import { SilenceStore } from './silences.js';
import { compileAnchoredGoRegexp } from '../../../lib/go-regexp.js';
import { readRequestBody } from '../../../lib/request-body.js';

/** What the fault switch makes the server do. */
export type AlertmanagerFault =
  | { kind: 'none' }
  /** Every connection is reset without an answer. */
  | { kind: 'down' }
  /** Every request is answered with this status (default 503). */
  | { kind: 'error'; status?: number }
  /** Every answer is delayed by this much clock time. */
  | { kind: 'slow'; delayMs: number };

/** Outcome of the optional bearer-token check. */
export type AuthDecision = 'allow' | 'unauthorized' | 'forbidden';

export interface SimAlertmanagerOptions {
  clock: Clock;
  /** Drives silence ids. */
  random: Random;
  /** Retention of expired silences; default 120 h. */
  retentionMs?: number;
  /** `global.resolve_timeout`; default 5 min. */
  resolveTimeoutMs?: number;
  /** Receivers an alert routes to; default the single receiver `null`. */
  receivers?: (labels: Readonly<Record<string, string>>) => string[];
  /** The route's `group_by`; default none. */
  groupBy?: readonly string[];
  /** What `/api/v2/receivers` lists; default `['null']`. */
  receiverNames?: readonly string[];
  /** Reported in `/api/v2/status`; default 0.25.0. */
  version?: string;
  /** Checks the `Authorization` header of `/api/` requests; default: allow all. */
  authorize?: (authorization: string | undefined) => AuthDecision;
}

/** A response: status, JSON body (undefined for none) or plain text. */
export interface SimResponse {
  status: number;
  body?: JsonValue;
  text?: string;
  headers?: Record<string, string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CONFIG_YAML =
  'global:\n  resolve_timeout: 5m\nroute:\n  receiver: "null"\n  continue: false\nreceivers:\n- name: "null"\ntemplates: []\n';

function fromError(err: unknown): SimResponse {
  if (err instanceof AmError)
    return err.body === undefined ? { status: err.status } : { status: err.status, body: err.body };
  throw err;
}

/** The simulated Alertmanager's state and request handling, without a socket. */
export class SimAlertmanager {
  readonly silences: SilenceStore;
  readonly alerts: AlertStore;
  readonly #clock: Clock;
  readonly #options: SimAlertmanagerOptions;
  readonly #startedAt: number;
  #fault: AlertmanagerFault = { kind: 'none' };

  constructor(options: SimAlertmanagerOptions) {
    this.#clock = options.clock;
    this.#options = options;
    this.#startedAt = options.clock.now();
    this.silences = new SilenceStore({
      clock: options.clock,
      random: options.random,
      ...(options.retentionMs === undefined ? {} : { retentionMs: options.retentionMs }),
    });
    this.alerts = new AlertStore({
      clock: options.clock,
      silences: this.silences,
      ...(options.resolveTimeoutMs === undefined ? {} : { resolveTimeoutMs: options.resolveTimeoutMs }),
      ...(options.receivers === undefined ? {} : { receivers: options.receivers }),
      ...(options.groupBy === undefined ? {} : { groupBy: options.groupBy }),
    });
  }

  /** Switches a fault on ({ kind: 'none' } switches it off). */
  setFault(fault: AlertmanagerFault): void {
    this.#fault = fault;
  }

  get fault(): AlertmanagerFault {
    return this.#fault;
  }

  /**
   * Answers one request as Alertmanager would (faults not applied). `target` is the path with
   * its query string.
   */
  handle(request: {
    method: string;
    target: string;
    contentType?: string;
    authorization?: string;
    body?: string;
  }): SimResponse {
    const url = new URL(request.target, 'http://alertmanager');
    const path = url.pathname;
    const method = request.method.toUpperCase();
    if (path === '/-/healthy' || path === '/-/ready') {
      if (method !== 'GET' && method !== 'HEAD') {
        return { status: 405, text: 'Method Not Allowed\n', headers: { allow: 'GET, HEAD, OPTIONS' } };
      }
      return { status: 200, text: 'OK' };
    }
    if (!path.startsWith('/api/v2/')) return { status: 404, text: '404 page not found\n' };
    const decision = this.#options.authorize?.(request.authorization) ?? 'allow';
    if (decision === 'unauthorized') return { status: 401, text: 'Unauthorized\n' };
    if (decision === 'forbidden') return { status: 403, text: 'Forbidden\n' };
    try {
      return this.#route(method, path, url.searchParams, request.contentType, request.body ?? '');
    } catch (err) {
      return fromError(err);
    }
  }

  #route(
    method: string,
    path: string,
    query: URLSearchParams,
    contentType: string | undefined,
    body: string,
  ): SimResponse {
    const allow = (methods: string[]): SimResponse | undefined =>
      methods.includes(method)
        ? undefined
        : {
            status: 405,
            body: { code: 405, message: `method ${method} is not allowed, but [${methods.join(',')}] are` },
            headers: { allow: methods.join(',') },
          };
    const json = (): void => {
      const type = (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();
      if (type !== 'application/json')
        throw amSwagger(
          415,
          `unsupported media type ${JSON.stringify(contentType)}, only [application/json] are allowed`,
        );
    };
    if (path === '/api/v2/status') return allow(['GET']) ?? { status: 200, body: this.#status() };
    if (path === '/api/v2/receivers') {
      return (
        allow(['GET']) ?? { status: 200, body: (this.#options.receiverNames ?? ['null']).map((name) => ({ name })) }
      );
    }
    if (path === '/api/v2/silences') {
      const bad = allow(['POST', 'GET']);
      if (bad) return bad;
      if (method === 'GET') {
        const filter = query.getAll('filter').map((field) => {
          const m = parseMatcherOr400(() => [parseMatcher(field)])[0]!;
          compileOr400(m);
          return m;
        });
        return { status: 200, body: this.silences.list(filter).map((s) => this.silences.toGettable(s)) };
      }
      json();
      const id = this.silences.post(decodeSilenceBody(body));
      return { status: 200, body: { silenceID: id } };
    }
    const one = /^\/api\/v2\/silence\/([^/]+)$/.exec(path);
    if (one) {
      const bad = allow(['GET', 'DELETE']);
      if (bad) return bad;
      const id = decodeURIComponent(one[1]!);
      if (!UUID.test(id)) throw amSwagger(601, `silenceID in path must be of type uuid: ${JSON.stringify(id)}`);
      if (method === 'DELETE') {
        this.silences.expire(id);
        return { status: 200 };
      }
      const s = this.silences.get(id);
      return s ? { status: 200, body: this.silences.toGettable(s) } : { status: 404 };
    }
    if (path === '/api/v2/alerts' || path === '/api/v2/alerts/groups') {
      const groups = path.endsWith('/groups');
      const bad = allow(groups ? ['GET'] : ['GET', 'POST']);
      if (bad) return bad;
      if (method === 'POST') {
        json();
        this.alerts.push(decodeAlertsBody(body));
        return { status: 200 };
      }
      const q = alertQuery(query);
      return { status: 200, body: groups ? this.alerts.groups(q) : this.alerts.list(q) };
    }
    return { status: 404, body: { code: 404, message: `path ${path} was not found` } };
  }

  #status(): JsonValue {
    const version = this.#options.version ?? '0.25.0';
    return {
      cluster: { peers: [], status: 'disabled' },
      config: { original: CONFIG_YAML },
      uptime: new Date(this.#startedAt).toISOString(),
      versionInfo: {
        branch: 'HEAD',
        buildDate: '',
        buildUser: 'simulated',
        goVersion: 'go1.19',
        revision: 'simulated',
        version,
      },
    };
  }

  /** Serves the API on 127.0.0.1 (port 0 picks a free one). */
  async listen(options: { port?: number; activity?: ActivityTracker; logger?: Logger } = {}): Promise<HttpServer> {
    return startHttpServer({
      name: 'alertmanager',
      ...(options.activity === undefined ? {} : { activity: options.activity }),
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
      handler: (req, res, activity) => this.#serve(req, res, activity),
    });
  }

  async #serve(req: IncomingMessage, res: ServerResponse, activity: RequestActivity): Promise<void> {
    const fault = this.#fault;
    if (fault.kind === 'down') {
      req.socket.destroy();
      return;
    }
    const body = await readRequestBody(req);
    if (fault.kind === 'slow') {
      // Waiting for virtual time is no work: let the clock move while the answer is held back.
      activity.pause();
      await this.#clock.sleep(fault.delayMs);
      activity.resume();
    }
    if (fault.kind === 'error') {
      const status = fault.status ?? 503;
      write(res, { status, text: status === 503 ? 'Service Unavailable\n' : `HTTP ${status}\n` });
      return;
    }
    const request: Parameters<SimAlertmanager['handle']>[0] = {
      method: req.method ?? 'GET',
      target: req.url ?? '/',
      body,
    };
    if (req.headers['content-type'] !== undefined) request.contentType = req.headers['content-type'];
    if (req.headers.authorization !== undefined) request.authorization = req.headers.authorization;
    write(res, this.handle(request));
  }
}

function parseMatcherOr400<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof MatcherError) throw amText(400, err.message);
    throw err;
  }
}

function compileOr400(matcher: Parameters<typeof compileFilterMatcher>[0]): CompiledMatcher {
  return parseMatcherOr400(() => compileFilterMatcher(matcher));
}

/** The query parameters of `GET /api/v2/alerts`: booleans default to true. */
function alertQuery(query: URLSearchParams): AlertQuery {
  const q: AlertQuery = {};
  for (const key of ['active', 'silenced', 'inhibited', 'unprocessed'] as const) {
    const v = query.get(key);
    if (v !== null) q[key] = goBool(v);
  }
  q.filter = query.getAll('filter').map((f) => compileOr400(parseMatcherOr400(() => parseMatcher(f))));
  const receiver = query.get('receiver');
  if (receiver !== null) {
    const compiled = compileAnchoredGoRegexp(receiver);
    if (!compiled.ok) throw amText(400, `failed to parse receiver param: ${compiled.error}`);
    q.receiver = compiled.regexp;
  }
  return q;
}

function write(res: ServerResponse, simResponse: SimResponse): void {
  const headers: Record<string, string | number> = { ...simResponse.headers };
  let payload = '';
  if (simResponse.body !== undefined) {
    payload = `${JSON.stringify(simResponse.body)}\n`;
    headers['content-type'] = 'application/json';
  } else if (simResponse.text !== undefined) {
    payload = simResponse.text;
    headers['content-type'] = 'text/plain; charset=utf-8';
  }
  headers['content-length'] = Buffer.byteLength(payload);
  res.writeHead(simResponse.status, headers);
  res.end(payload);
}
