/**
 * What the operator asks of Prometheus: instant queries (health checks, paging-alert lookups).
 * The HTTP implementation is `prometheus-client.ts`; health checks and steps depend only on
 * this interface, so they are tested against a real Prometheus and a simulated one alike.
 */

/** One element of an instant vector. */
export interface PromSample {
  /** The series' labels, `__name__` included when present. */
  metric: Record<string, string>;
  /** The sample value (NaN and ±Inf as Prometheus sends them). */
  value: number;
  /** Sample time, epoch milliseconds. */
  timestamp: number;
}

/** Options of one instant query. */
export interface InstantQueryOptions {
  /** Evaluation time, epoch ms (default: the server's now). */
  time?: number;
  signal?: AbortSignal;
}

/** Prometheus' HTTP API as the operator uses it. */
export interface PrometheusApi {
  /**
   * `GET /api/v1/query`. Resolves the result as a vector (a scalar becomes one sample with no
   * labels). Rejects with an {@link import('./integration-error.js').IntegrationError} when the
   * server is unreachable, times out, answers an error status or an unparsable body — never
   * resolves "empty" for an unknown answer.
   */
  query(promql: string, options?: InstantQueryOptions): Promise<PromSample[]>;
}
