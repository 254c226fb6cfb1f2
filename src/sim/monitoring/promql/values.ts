/**
 * PromQL value types (instant vector, range vector, scalar, string) and label-set helpers.
 * Times are integer milliseconds since the epoch; label sets include `__name__` when present.
 */

/** A label set; `__name__` holds the metric name. */
export type Labels = Readonly<Record<string, string>>;

/** The label holding the metric name. */
export const METRIC_NAME = '__name__';

/** One element of an instant vector. */
export interface Sample {
  readonly metric: Labels;
  readonly t: number;
  readonly v: number;
}

/** A (timestamp ms, value) pair. */
export interface Point {
  readonly t: number;
  readonly v: number;
}

/** One series of a range vector. */
export interface Series {
  readonly metric: Labels;
  readonly points: Point[];
}

/** The evaluated result of an expression. */
export type Value =
  | { readonly type: 'vector'; readonly samples: Sample[] }
  | { readonly type: 'matrix'; readonly series: Series[] }
  | { readonly type: 'scalar'; readonly t: number; readonly v: number }
  | { readonly type: 'string'; readonly t: number; readonly v: string };

/** A stable key for a label set (order-independent). */
export function labelsKey(labels: Labels): string {
  const names = Object.keys(labels).sort();
  let key = '';
  for (const n of names) key += `${n}\u0000${labels[n] ?? ''}\u0001`;
  return key;
}

/** The label set without `__name__`. */
export function dropMetricName(labels: Labels): Labels {
  if (!(METRIC_NAME in labels)) return labels;
  const out: Record<string, string> = { ...labels };
  delete out[METRIC_NAME];
  return out;
}

/** Only the named labels (empty values dropped). */
export function keepLabels(labels: Labels, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = labels[n];
    if (v !== undefined && v !== '') out[n] = v;
  }
  return out;
}

/** All labels except the named ones. */
export function withoutLabels(labels: Labels, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = { ...labels };
  for (const n of names) delete out[n];
  return out;
}

/** Compares two label sets as Prometheus orders them (by sorted name, then value). */
export function compareLabels(left: Labels, right: Labels): number {
  const an = Object.keys(left).sort();
  const bn = Object.keys(right).sort();
  const n = Math.min(an.length, bn.length);
  for (let i = 0; i < n; i++) {
    const x = an[i] as string;
    const y = bn[i] as string;
    if (x !== y) return x < y ? -1 : 1;
    const xv = left[x] ?? '';
    const yv = right[y] ?? '';
    if (xv !== yv) return xv < yv ? -1 : 1;
  }
  return an.length - bn.length;
}

/** The label set as Prometheus' `labels.Labels.String()` prints it: `{__name__="x", a="1"}`. */
export function formatLabels(labels: Labels): string {
  const parts = Object.keys(labels)
    .sort()
    .map((n) => `${n}=${JSON.stringify(labels[n] ?? '')}`);
  return `{${parts.join(', ')}}`;
}

/**
 * A float as Go's `strconv.FormatFloat(v, 'f', -1, 64)` writes it (the HTTP API's sample
 * values): shortest round-trip digits, never an exponent; `+Inf`, `-Inf`, `NaN`.
 */
export function formatSampleValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  const s = String(value);
  if (!s.includes('e')) return s;
  return expandExponent(s);
}

function expandExponent(text: string): string {
  const neg = text.startsWith('-');
  const body = neg ? text.slice(1) : text;
  const [mant = '', expStr = '0'] = body.split('e');
  const exp = Number(expStr);
  const [intPart = '', frac = ''] = mant.split('.');
  const digits = intPart + frac;
  const point = intPart.length + exp;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return neg ? `-${out}` : out;
}

/**
 * A float as Go's `strconv.FormatFloat(v, 'e', -1, 64)` writes it (the `value` of
 * `/api/v1/alerts`): `1e+00`, `2.5e-01`.
 */
export function formatExponent(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  const s = value.toExponential();
  const m = /^(-?[\d.]+)e([+-])(\d+)$/.exec(s);
  if (!m) return s;
  return `${m[1] ?? ''}e${m[2] ?? '+'}${(m[3] ?? '0').padStart(2, '0')}`;
}

/** Milliseconds → the API's seconds (a float with millisecond precision). */
export function toApiTime(ms: number): number {
  return ms / 1000;
}
