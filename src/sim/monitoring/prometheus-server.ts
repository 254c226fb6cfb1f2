/**
 * The simulated Prometheus HTTP API (v1) on loopback: `/api/v1/query` (GET and POST form),
 * `/api/v1/query_range`, `/api/v1/alerts`, `/api/v1/rules`, `/api/v1/status/buildinfo`,
 * `/-/healthy`, `/-/ready`, with Prometheus' JSON envelopes, plus a fault switch.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ActivityTracker } from '../../lib/activity.js';
import type { Clock } from '../../lib/clock.js';
import type { JsonObject, JsonValue } from '../../lib/json.js';
import type { Logger } from '../../lib/log.js';
import { startHttpServer } from '../http-server.js';
import { errorBody, errorStatus, queryData, successBody } from './api-format.js';
import { instantQuery, rangeQuery } from './promql/engine.js';
import { badData, PromqlError } from './promql/errors.js';
import { parseDurationMs } from './promql/parse.js';
import { formatExponent } from './promql/values.js';
import { rfc3339Nano } from './rules.js';
import type { Alert, RuleEvaluator, RuleStatus } from './rules.js';
import type { Tsdb } from './tsdb.js';
import { readRequestBody } from '../../lib/request-body.js';

/** How the server misbehaves: `down` resets connections, `5xx` answers 503, `slow` delays. */
export type PrometheusFault = { mode: 'none' } | { mode: 'down' } | { mode: '5xx' } | { mode: 'slow'; delayMs: number };

/** Options of {@link startPrometheusServer}. */
export interface PrometheusServerOptions {
  tsdb: Tsdb;
  rules: RuleEvaluator;
  clock: Clock;
  port?: number;
  activity?: ActivityTracker;
  logger?: Logger;
  /** Reported by `/api/v1/status/buildinfo` (OpenShift 4.14 ships 2.46.0). */
  version?: string;
}

/** A running simulated Prometheus. */
export interface PrometheusServer {
  url: string;
  port: number;
  /** Switches the fault mode (takes effect for the next request). */
  setFault(fault: PrometheusFault): void;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1. */
export async function startPrometheusServer(options: PrometheusServerOptions): Promise<PrometheusServer> {
  let fault: PrometheusFault = { mode: 'none' };
  const api = new PrometheusApi(options);
  const server = await startHttpServer({
    name: 'prometheus',
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.activity ? { activity: options.activity } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    handler: async (req, res, activity) => {
      const f = fault;
      if (f.mode === 'down') {
        req.socket.destroy();
        return;
      }
      if (f.mode === '5xx') {
        sendText(res, 503, 'Service Unavailable\n');
        return;
      }
      if (f.mode === 'slow') {
        // Waiting for virtual time is no work: let the clock move while the answer is held back.
        activity.pause();
        await options.clock.sleep(f.delayMs);
        activity.resume();
      }
      await api.handle(req, res);
    },
  });
  return {
    url: server.url,
    port: server.port,
    setFault: (next) => {
      fault = next;
    },
    close: () => server.close(),
  };
}

function sendText(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: JsonValue): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** A timestamp parameter: RFC 3339 or Unix seconds (float), to ms. */
export function parseTimeParam(name: string, value: string): number {
  const f = Number(value);
  if (value.trim() !== '' && Number.isFinite(f)) return Math.round(f * 1000);
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) {
    const ms = Date.parse(value);
    if (!Number.isNaN(ms)) return ms;
  }
  throw badData(
    `invalid parameter ${JSON.stringify(name)}: cannot parse ${JSON.stringify(value)} to a valid timestamp`,
  );
}

function parseDurationParam(name: string, value: string): number {
  const f = Number(value);
  if (value.trim() !== '' && Number.isFinite(f)) {
    if (f <= 0)
      throw badData(
        `invalid parameter ${JSON.stringify(name)}: cannot parse ${JSON.stringify(value)} to a valid duration. It overflows int64`,
      );
    return Math.round(f * 1000);
  }
  try {
    return parseDurationMs(value);
  } catch {
    throw badData(
      `invalid parameter ${JSON.stringify(name)}: cannot parse ${JSON.stringify(value)} to a valid duration`,
    );
  }
}

class PrometheusApi {
  readonly #o: PrometheusServerOptions;
  constructor(options: PrometheusServerOptions) {
    this.#o = options;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    if (path === '/-/healthy' || path === '/-/ready') {
      if (method !== 'GET' && method !== 'HEAD') return sendText(res, 405, 'Method Not Allowed\n');
      return sendText(
        res,
        200,
        path === '/-/healthy' ? 'Prometheus Server is Healthy.\n' : 'Prometheus Server is Ready.\n',
      );
    }
    const routes: Record<string, (urlSearchParams: URLSearchParams) => JsonValue> = {
      '/api/v1/query': (p) => this.#query(p),
      '/api/v1/query_range': (p) => this.#queryRange(p),
      '/api/v1/alerts': () => this.#alerts(),
      '/api/v1/rules': (p) => this.#rules(p),
      '/api/v1/status/buildinfo': () => this.#buildinfo(),
    };
    const route = routes[path];
    if (!route) return sendText(res, 404, '404 page not found\n');
    const formRoute = path === '/api/v1/query' || path === '/api/v1/query_range';
    if (method !== 'GET' && !(formRoute && method === 'POST')) return sendText(res, 405, 'Method Not Allowed\n');
    const params = new URLSearchParams(url.search);
    if (method === 'POST') {
      const type = req.headers['content-type'] ?? '';
      const body = await readRequestBody(req);
      if (type.startsWith('application/x-www-form-urlencoded')) {
        for (const [k, v] of new URLSearchParams(body)) params.append(k, v);
      }
    }
    try {
      sendJson(res, 200, successBody(route(params)));
    } catch (err) {
      if (err instanceof PromqlError)
        return sendJson(res, errorStatus(err.errorType), errorBody(err.errorType, err.message));
      throw err;
    }
  }

  #queryParam(urlSearchParams: URLSearchParams): string {
    return urlSearchParams.get('query') ?? '';
  }

  #withQueryParam<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      if (
        err instanceof PromqlError &&
        err.errorType === 'bad_data' &&
        /parse error|not supported|invalid expression type/.test(err.message)
      ) {
        throw badData(`invalid parameter "query": ${err.message}`);
      }
      throw err;
    }
  }

  #query(urlSearchParams: URLSearchParams): JsonObject {
    const time = urlSearchParams.get('time');
    const t = time !== null && time !== '' ? parseTimeParam('time', time) : this.#o.clock.now();
    const timeout = urlSearchParams.get('timeout');
    if (timeout !== null && timeout !== '') parseDurationParam('timeout', timeout);
    const v = this.#withQueryParam(() => instantQuery(this.#o.tsdb, this.#queryParam(urlSearchParams), t));
    return queryData(v);
  }

  #queryRange(urlSearchParams: URLSearchParams): JsonObject {
    const start = parseTimeParam('start', urlSearchParams.get('start') ?? '');
    const end = parseTimeParam('end', urlSearchParams.get('end') ?? '');
    if (end < start) throw badData('invalid parameter "end": end timestamp must not be before start time');
    const step = parseDurationParam('step', urlSearchParams.get('step') ?? '');
    if (step <= 0)
      throw badData(
        'invalid parameter "step": zero or negative query resolution step widths are not accepted. Try a positive integer',
      );
    if ((end - start) / step > 11_000) {
      throw badData(
        'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)',
      );
    }
    const timeout = urlSearchParams.get('timeout');
    if (timeout !== null && timeout !== '') parseDurationParam('timeout', timeout);
    const v = this.#withQueryParam(() => rangeQuery(this.#o.tsdb, this.#queryParam(urlSearchParams), start, end, step));
    return queryData(v);
  }

  #alerts(): JsonObject {
    return { alerts: this.#o.rules.activeAlerts().map((a) => alertJson(a)) };
  }

  #rules(urlSearchParams: URLSearchParams): JsonObject {
    const type = urlSearchParams.get('type');
    if (type !== null && type !== '' && type !== 'alert' && type !== 'record') {
      throw badData(`invalid parameter "type": not supported value ${JSON.stringify(type)}`);
    }
    const statuses = type === 'record' ? [] : this.#o.rules.status();
    const groups = new Map<string, { name: string; file: string; rules: JsonObject[]; last: number | undefined }>();
    for (const s of statuses) {
      const key = `${s.group.file}\u0000${s.group.name}`;
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { name: s.group.name, file: s.group.file, rules: [], last: undefined }));
      g.rules.push(ruleJson(s));
      if (s.lastEvaluation !== undefined) g.last = Math.max(g.last ?? 0, s.lastEvaluation);
    }
    return {
      groups: [...groups.values()].map((g) => ({
        name: g.name,
        file: g.file,
        rules: g.rules,
        interval: this.#o.rules.intervalMs / 1000,
        limit: 0,
        evaluationTime: 0.001,
        lastEvaluation: g.last === undefined ? '0001-01-01T00:00:00Z' : rfc3339Nano(g.last),
      })),
    };
  }

  #buildinfo(): JsonObject {
    return {
      version: this.#o.version ?? '2.46.0',
      revision: 'simulated',
      branch: 'rhaos-4.14-rhel-8',
      buildUser: 'root@simulated',
      buildDate: '20240101-00:00:00',
      goVersion: 'go1.20.10 X:strictfipsruntime',
    };
  }
}

function alertJson(alert: Alert): JsonObject {
  return {
    labels: { ...alert.labels },
    annotations: { ...alert.annotations },
    state: alert.state,
    activeAt: rfc3339Nano(alert.activeAt),
    value: formatExponent(alert.value),
  };
}

function ruleJson(ruleStatus: RuleStatus): JsonObject {
  const out: JsonObject = {
    state: ruleStatus.state,
    name: ruleStatus.rule.name,
    query: ruleStatus.rule.expr,
    duration: ruleStatus.forMs / 1000,
    labels: { ...(ruleStatus.rule.labels ?? {}) },
    annotations: { ...(ruleStatus.rule.annotations ?? {}) },
    alerts: ruleStatus.alerts.map((a) => alertJson(a)),
    health: ruleStatus.health,
    evaluationTime: 0.0001,
    lastEvaluation:
      ruleStatus.lastEvaluation === undefined ? '0001-01-01T00:00:00Z' : rfc3339Nano(ruleStatus.lastEvaluation),
    type: 'alerting',
  };
  if (ruleStatus.lastError !== undefined) out['lastError'] = ruleStatus.lastError;
  return out;
}
