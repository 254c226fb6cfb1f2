/**
 * The JSON shapes of the Prometheus HTTP API v1 (`web/api/v1/api.go`): the query envelope,
 * result types, `[<unix seconds>, "<value>"]` pairs, and error bodies.
 */
import type { JsonObject, JsonValue } from '../../lib/json.js';
import type { PromErrorType } from './promql/errors.js';
import { formatSampleValue, toApiTime } from './promql/values.js';
import type { Labels, Value } from './promql/values.js';

/** A `[seconds, "value"]` pair. */
export function apiPoint(time: number, value: number): JsonValue[] {
  return [toApiTime(time), formatSampleValue(value)];
}

function metricJson(labels: Labels): JsonObject {
  const out: JsonObject = {};
  for (const k of Object.keys(labels)) out[k] = labels[k] ?? '';
  return out;
}

/** `data` of a successful query: `{resultType, result}`. */
export function queryData(result: Value): JsonObject {
  switch (result.type) {
    case 'vector':
      return {
        resultType: 'vector',
        result: result.samples.map((s) => ({ metric: metricJson(s.metric), value: apiPoint(s.t, s.v) })),
      };
    case 'matrix':
      return {
        resultType: 'matrix',
        result: result.series.map((s) => ({
          metric: metricJson(s.metric),
          values: s.points.map((p) => apiPoint(p.t, p.v)),
        })),
      };
    case 'scalar':
      return { resultType: 'scalar', result: apiPoint(result.t, result.v) };
    case 'string':
      return { resultType: 'string', result: [toApiTime(result.t), result.v] };
  }
}

/** A success envelope; `warnings` only when there are some. */
export function successBody(data: JsonValue, warnings: readonly string[] = []): JsonObject {
  const body: JsonObject = { status: 'success', data };
  if (warnings.length > 0) body['warnings'] = [...warnings];
  return body;
}

/** An error envelope. */
export function errorBody(errorType: PromErrorType, error: string): JsonObject {
  return { status: 'error', errorType, error };
}

/** The HTTP status Prometheus answers for an error type. */
export function errorStatus(errorType: PromErrorType): number {
  switch (errorType) {
    case 'bad_data':
      return 400;
    case 'execution':
      return 422;
    case 'canceled':
    case 'timeout':
      return 503;
    case 'unavailable':
      return 503;
    case 'internal':
      return 500;
  }
}
