/**
 * The implementations of the supported PromQL functions (see `functions-table.ts`), with
 * Prometheus' semantics: range functions return one sample per series that has samples in the
 * range and drop the metric name (`last_over_time` keeps it); `rate`/`increase` apply counter
 * resets and Prometheus' extrapolation to the range boundaries.
 */
import { compileAnchoredGoRegexp, type GoMatch } from '../../../lib/go-regexp.js';
import type { Expr, MatrixSelector } from './ast.js';
import { executionError } from './errors.js';
import { dropMetricName } from './values.js';
import type { Labels, Point, Sample, Series } from './values.js';

/** Labels `absent()` gives its result: the equality matchers of a selector argument. */
export function absentLabels(arg: Expr): Labels {
  const sel = arg.kind === 'vector' ? arg : arg.kind === 'matrix' ? arg.selector : undefined;
  if (!sel) return {};
  const out: Record<string, string> = {};
  const dup = new Set<string>();
  for (const m of sel.matchers) {
    if (m.name === '__name__') continue;
    if (m.type === '=') {
      if (m.name in out) dup.add(m.name);
      out[m.name] = m.value;
    }
  }
  for (const d of dup) delete out[d];
  return out;
}

/** Evaluates a range-vector function for one evaluation time `t`. */
export function rangeFunction(func: string, arg: MatrixSelector, series: Series[], time: number): Sample[] {
  const out: Sample[] = [];
  if (func === 'absent_over_time') {
    return series.length === 0 ? [{ metric: absentLabels(arg), t: time, v: 1 }] : [];
  }
  const rangeEnd = time - arg.selector.offsetMs;
  const rangeStart = rangeEnd - arg.rangeMs;
  for (const s of series) {
    const p = s.points;
    const last = p.at(-1);
    if (!last) continue;
    const metric = func === 'last_over_time' ? s.metric : dropMetricName(s.metric);
    let v: number | undefined;
    switch (func) {
      case 'max_over_time':
        v = p.reduce((acc, x) => (Number.isNaN(acc) || x.v > acc ? x.v : acc), (p[0] as Point).v);
        break;
      case 'min_over_time':
        v = p.reduce((acc, x) => (Number.isNaN(acc) || x.v < acc ? x.v : acc), (p[0] as Point).v);
        break;
      case 'last_over_time':
        v = last.v;
        break;
      case 'sum_over_time':
        v = p.reduce((acc, x) => acc + x.v, 0);
        break;
      case 'avg_over_time':
        v = p.reduce((acc, x) => acc + x.v, 0) / p.length;
        break;
      case 'count_over_time':
        v = p.length;
        break;
      case 'changes': {
        let n = 0;
        for (let i = 1; i < p.length; i++) {
          const a = (p[i - 1] as Point).v;
          const b = (p[i] as Point).v;
          if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) n++;
        }
        v = n;
        break;
      }
      case 'rate':
      case 'increase':
      case 'delta':
        v = extrapolatedRate(p, rangeStart, rangeEnd, func !== 'delta', func === 'rate');
        break;
      default:
        throw executionError(`function ${JSON.stringify(func)} is not a range-vector function`);
    }
    if (v !== undefined) out.push({ metric, t: time, v });
  }
  return out;
}

/** Prometheus' `extrapolatedRate` (rate, increase, delta). Undefined with fewer than 2 samples. */
function extrapolatedRate(
  points: Point[],
  rangeStart: number,
  rangeEnd: number,
  isCounter: boolean,
  isRate: boolean,
): number | undefined {
  if (points.length < 2) return undefined;
  const first = points[0] as Point;
  const last = points[points.length - 1] as Point;
  let result = last.v - first.v;
  if (isCounter) {
    let prev = 0;
    for (const x of points) {
      if (x.v < prev) result += prev;
      prev = x.v;
    }
  }
  let durationToStart = (first.t - rangeStart) / 1000;
  const durationToEnd = (rangeEnd - last.t) / 1000;
  const sampled = (last.t - first.t) / 1000;
  const avgStep = sampled / (points.length - 1);
  if (isCounter && result > 0 && first.v >= 0) {
    const durationToZero = sampled * (first.v / result);
    if (durationToZero < durationToStart) durationToStart = durationToZero;
  }
  const threshold = avgStep * 1.1;
  let interval = sampled;
  interval += durationToStart < threshold ? durationToStart : avgStep / 2;
  interval += durationToEnd < threshold ? durationToEnd : avgStep / 2;
  result *= interval / sampled;
  if (isRate) result /= (rangeEnd - rangeStart) / 1000;
  return result;
}

/** Elementwise math functions on an instant vector (the metric name is dropped). */
export function mathFunction(func: string, input: Sample[], arg: number | undefined): Sample[] {
  const f: (value: number) => number =
    func === 'abs'
      ? Math.abs
      : func === 'ceil'
        ? Math.ceil
        : func === 'floor'
          ? Math.floor
          : func === 'clamp_min'
            ? (v) => Math.max(v, arg ?? NaN)
            : func === 'clamp_max'
              ? (v) => Math.min(v, arg ?? NaN)
              : (v) => v;
  return input.map((s) => ({ metric: dropMetricName(s.metric), t: s.t, v: f(s.v) }));
}

/** `sort` / `sort_desc`: by value, NaN last. */
export function sortByValue(input: Sample[], desc: boolean): Sample[] {
  return [...input].sort((left, right) => {
    if (Number.isNaN(left.v)) return Number.isNaN(right.v) ? 0 : 1;
    if (Number.isNaN(right.v)) return -1;
    return desc ? right.v - left.v : left.v - right.v;
  });
}

/** `label_replace(v, dst, replacement, src, regex)`. */
export function labelReplace(input: Sample[], dst: string, replacement: string, src: string, regex: string): Sample[] {
  const compiled = compileAnchoredGoRegexp(regex, { dotAll: true });
  if (!compiled.ok) throw executionError(`invalid regular expression in label_replace(): ${regex}: ${compiled.error}`);
  const re = compiled.regexp;
  if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(dst))
    throw executionError(`invalid destination label name in label_replace(): ${dst}`);
  return input.map((sample) => {
    const m = re.exec(sample.metric[src] ?? '');
    if (!m) return sample;
    const value = expandTemplate(replacement, m);
    const metric: Record<string, string> = { ...sample.metric };
    if (value === '') delete metric[dst];
    else metric[dst] = value;
    return { metric, t: sample.t, v: sample.v };
  });
}

/** Go's `regexp.Expand`: `$1`, `${1}`, `$name`, `${name}`, `$$`. */
function expandTemplate(template: string, match: GoMatch): string {
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i] as string;
    if (c !== '$') {
      out += c;
      continue;
    }
    const next = template[i + 1];
    if (next === '$') {
      out += '$';
      i++;
      continue;
    }
    let name: string;
    if (next === '{') {
      const close = template.indexOf('}', i + 2);
      const inner = close < 0 ? '' : template.slice(i + 2, close);
      if (close < 0 || !/^[a-zA-Z0-9_]+$/.test(inner)) {
        out += '$';
        continue;
      }
      name = inner;
      i = close;
    } else {
      const w = /^[a-zA-Z0-9_]+/.exec(template.slice(i + 1));
      if (!w) {
        out += '$';
        continue;
      }
      name = w[0];
      i += name.length;
    }
    if (/^\d+$/.test(name)) out += match.groups[Number(name)] ?? '';
    else out += match.named[name] ?? '';
  }
  return out;
}
