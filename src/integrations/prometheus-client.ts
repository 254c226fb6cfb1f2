/**
 * {@link PrometheusApi} over HTTP: instant queries (`GET /api/v1/query`) against Prometheus or
 * Thanos Querier, as MUO queries `prometheus-k8s` with the `prometheus-k8s` service-account
 * token and the service CA (docs/design/cluster-model.md#prometheus-queries).
 */
import { HttpClient, bodyExcerpt, type HttpTransportOptions } from './http/http-client.js';
import { IntegrationError } from './integration-error.js';
import { parsePromValue } from './prom-value.js';
import type { InstantQueryOptions, PromSample, PrometheusApi } from './prometheus-api.js';

const API = 'prometheus';

/** Options of a {@link PrometheusClient}. */
export interface PrometheusClientOptions extends HttpTransportOptions {
  /** Base URL, e.g. `https://prometheus-k8s.openshift-monitoring.svc:9091`. Timeout default 30 s. */
  url: string;
}

/** Queries one Prometheus. */
export class PrometheusClient implements PrometheusApi {
  readonly #http: HttpClient;

  constructor(options: PrometheusClientOptions) {
    this.#http = new HttpClient({ ...options, api: API, baseUrl: options.url, timeoutMs: options.timeoutMs ?? 30_000 });
  }

  async query(promql: string, options: InstantQueryOptions = {}): Promise<PromSample[]> {
    const res = await this.#http.request({
      path: '/api/v1/query',
      query: { query: promql, time: options.time === undefined ? undefined : formatPromTime(options.time) },
      headers: { accept: 'application/json' },
      acceptErrorStatus: true,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch (err) {
      if (res.status >= 400)
        throw new IntegrationError(API, 'HttpStatus', `${res.url}: HTTP ${res.status}: ${bodyExcerpt(res.text)}`, {
          status: res.status,
        });
      throw new IntegrationError(API, 'BadResponse', `${res.url}: the answer is not JSON: ${bodyExcerpt(res.text)}`, {
        status: res.status,
        cause: err,
      });
    }
    return parseQueryResponse(body, res.status);
  }

  /** Closes the connection pool. */
  async close(): Promise<void> {
    await this.#http.close();
  }
}

/** Epoch ms as Prometheus' `time` parameter (Unix seconds with a fraction). */
export function formatPromTime(ms: number): string {
  return String(ms / 1000);
}

function bad(message: string, status: number): IntegrationError {
  return new IntegrationError(API, 'BadResponse', message, { status });
}

function parsePoint(point: unknown, status: number): { value: number; timestamp: number } {
  if (!Array.isArray(point) || point.length !== 2 || typeof point[0] !== 'number')
    throw bad(`malformed sample ${bodyExcerpt(JSON.stringify(point) ?? '')}`, status);
  const value = parsePromValue(point[1]);
  if (value === undefined) throw bad(`malformed sample value ${JSON.stringify(point[1])}`, status);
  return { value, timestamp: Math.round(point[0] * 1000) };
}

function parseMetric(metric: unknown, status: number): Record<string, string> {
  if (metric === undefined) return {};
  if (typeof metric !== 'object' || metric === null || Array.isArray(metric))
    throw bad('malformed series labels', status);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(metric)) {
    if (typeof v !== 'string') throw bad(`malformed label ${k}`, status);
    out[k] = v;
  }
  return out;
}

/**
 * The samples of an instant-query answer (a scalar becomes one sample without labels). Throws
 * `BadResponse` for `status: "error"` bodies (message `<errorType>: <error>`), other result
 * types and malformed bodies.
 */
export function parseQueryResponse(body: unknown, status: number): PromSample[] {
  if (typeof body !== 'object' || body === null) throw bad('the answer is not a Prometheus API object', status);
  const b = body as { status?: unknown; errorType?: unknown; error?: unknown; data?: unknown };
  if (b.status === 'error') {
    throw bad(
      `${typeof b.errorType === 'string' ? b.errorType : 'error'}: ${typeof b.error === 'string' ? b.error : 'unknown error'}`,
      status,
    );
  }
  if (b.status !== 'success') throw bad(`unexpected status ${JSON.stringify(b.status)}`, status);
  if (status >= 400) throw new IntegrationError(API, 'HttpStatus', `HTTP ${status} with a success body`, { status });
  const data = b.data as { resultType?: unknown; result?: unknown } | undefined;
  if (typeof data !== 'object' || data === null) throw bad('no data in the answer', status);
  switch (data.resultType) {
    case 'vector': {
      if (!Array.isArray(data.result)) throw bad('vector result is not a list', status);
      return data.result.map((item: unknown) => {
        if (typeof item !== 'object' || item === null) throw bad('malformed vector element', status);
        const { metric, value } = item as { metric?: unknown; value?: unknown };
        return { metric: parseMetric(metric, status), ...parsePoint(value, status) };
      });
    }
    case 'scalar':
      return [{ metric: {}, ...parsePoint(data.result, status) }];
    default:
      throw bad(`expected a vector or scalar result, got ${JSON.stringify(data.resultType)}`, status);
  }
}
