/**
 * The PromQL evaluator: instant queries (one evaluation time) and range queries (one instant
 * evaluation per step, collected into series), over any {@link Queryable}.
 */
import { DEFAULT_LOOKBACK_MS } from '../tsdb.js';
import type { Queryable } from '../tsdb.js';
import type { Expr } from './ast.js';
import { aggregate } from './aggregate.js';
import { applyOp, vectorScalar, vectorVector } from './binary.js';
import { badData, executionError } from './errors.js';
import { absentLabels, labelReplace, mathFunction, rangeFunction, sortByValue } from './functions.js';
import { parsePromql, typeOf } from './parse.js';
import { compareLabels, dropMetricName, labelsKey } from './values.js';
import type { Point, Sample, Series, Value } from './values.js';

/** Options of an evaluation. */
export interface EvalOptions {
  /** Instant-selector lookback in ms (default 5 min). */
  lookbackMs?: number;
}

/** Prometheus' cap on points per series in a range query. */
export const MAX_RANGE_POINTS = 11_000;

/** Parses and evaluates `query` at time `t` (ms). Throws {@link PromqlError}. */
export function instantQuery(db: Queryable, query: string, time: number, options: EvalOptions = {}): Value {
  const expr = parsePromql(query);
  return evaluate(db, expr, time, options);
}

/** Evaluates a parsed expression at time `t` (ms). */
export function evaluate(db: Queryable, expr: Expr, time: number, options: EvalOptions = {}): Value {
  const ev = new Evaluator(db, options.lookbackMs ?? DEFAULT_LOOKBACK_MS);
  const v = ev.eval(expr, time);
  if (v.type === 'vector' && !isSorted(expr)) v.samples.sort((a, b) => compareLabels(a.metric, b.metric));
  if (v.type === 'matrix') v.series.sort((a, b) => compareLabels(a.metric, b.metric));
  return v;
}

function isSorted(expr: Expr): boolean {
  if (expr.kind === 'paren') return isSorted(expr.expr);
  return expr.kind === 'call' && (expr.func === 'sort' || expr.func === 'sort_desc');
}

/** Parses and evaluates `query` over `[start, end]` every `step` ms; the result is a matrix. */
export function rangeQuery(
  db: Queryable,
  query: string,
  start: number,
  end: number,
  step: number,
  options: EvalOptions = {},
): Value & { type: 'matrix' } {
  const expr = parsePromql(query);
  const t = typeOf(expr);
  if (t !== 'scalar' && t !== 'vector') {
    throw badData(
      `invalid expression type ${JSON.stringify(t === 'matrix' ? 'range vector' : t)} for range query, must be Scalar or instant Vector`,
    );
  }
  if (end < start) throw badData('end timestamp must not be before start time');
  if (step <= 0)
    throw badData('zero or negative query resolution step widths are not accepted. Try a positive integer');
  if ((end - start) / step > MAX_RANGE_POINTS) {
    throw badData(
      'exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)',
    );
  }
  const ev = new Evaluator(db, options.lookbackMs ?? DEFAULT_LOOKBACK_MS);
  const byKey = new Map<string, { metric: Series['metric']; points: Point[] }>();
  for (let ts = start; ts <= end; ts += step) {
    const v = ev.eval(expr, ts);
    const samples: Sample[] =
      v.type === 'scalar' ? [{ metric: {}, t: ts, v: v.v }] : v.type === 'vector' ? v.samples : [];
    for (const s of samples) {
      const key = labelsKey(s.metric);
      let series = byKey.get(key);
      if (!series) byKey.set(key, (series = { metric: s.metric, points: [] }));
      series.points.push({ t: ts, v: s.v });
    }
  }
  const series = [...byKey.values()].sort((a, b) => compareLabels(a.metric, b.metric));
  return { type: 'matrix', series };
}

class Evaluator {
  readonly #db: Queryable;
  readonly #lookbackMs: number;
  constructor(db: Queryable, lookbackMs: number) {
    this.#db = db;
    this.#lookbackMs = lookbackMs;
  }

  eval(expr: Expr, time: number): Value {
    switch (expr.kind) {
      case 'number':
        return { type: 'scalar', t: time, v: expr.value };
      case 'string':
        return { type: 'string', t: time, v: expr.value };
      case 'paren':
        return this.eval(expr.expr, time);
      case 'vector': {
        const samples = this.#db.selectInstant(expr.matchers, time - expr.offsetMs, this.#lookbackMs);
        return { type: 'vector', samples: samples.map((s) => ({ metric: s.metric, t: time, v: s.v })) };
      }
      case 'matrix': {
        const maxt = time - expr.selector.offsetMs;
        return { type: 'matrix', series: this.#db.selectRange(expr.selector.matchers, maxt - expr.rangeMs, maxt) };
      }
      case 'unary': {
        const v = this.eval(expr.expr, time);
        if (expr.op === '+') return v;
        if (v.type === 'scalar') return { type: 'scalar', t: time, v: -v.v };
        return {
          type: 'vector',
          samples: this.#unique(this.#vector(v).map((s) => ({ metric: dropMetricName(s.metric), t: time, v: -s.v }))),
        };
      }
      case 'binary': {
        const l = this.eval(expr.lhs, time);
        const r = this.eval(expr.rhs, time);
        if (l.type === 'scalar' && r.type === 'scalar')
          return { type: 'scalar', t: time, v: applyOp(expr.op, l.v, r.v) };
        if (l.type === 'vector' && r.type === 'vector') {
          return { type: 'vector', samples: this.#unique(vectorVector(expr, l.samples, r.samples, time)) };
        }
        if (l.type === 'vector' && r.type === 'scalar')
          return { type: 'vector', samples: this.#unique(vectorScalar(expr, l.samples, r.v, false, time)) };
        if (l.type === 'scalar' && r.type === 'vector')
          return { type: 'vector', samples: this.#unique(vectorScalar(expr, r.samples, l.v, true, time)) };
        throw executionError('binary expression must contain only scalar and instant vector types');
      }
      case 'aggregate': {
        const input = this.#vector(this.eval(expr.expr, time));
        let param: number | string | undefined;
        if (expr.param) {
          const p = this.eval(expr.param, time);
          param = p.type === 'scalar' || p.type === 'string' ? p.v : undefined;
        }
        return { type: 'vector', samples: aggregate(expr, input, param, time) };
      }
      case 'call':
        return this.#call(expr.func, expr.args, time);
    }
  }

  #vector(value: Value): Sample[] {
    if (value.type !== 'vector') throw executionError(`expected an instant vector, got ${value.type}`);
    return value.samples;
  }

  /** Prometheus rejects results in which two samples have the same label set. */
  #unique(samples: Sample[]): Sample[] {
    const seen = new Set<string>();
    for (const s of samples) {
      const k = labelsKey(s.metric);
      if (seen.has(k)) throw executionError(`vector cannot contain metrics with the same labelset`);
      seen.add(k);
    }
    return samples;
  }

  #scalarArg(expr: Expr | undefined, time: number): number {
    const v = expr ? this.eval(expr, time) : undefined;
    return v?.type === 'scalar' ? v.v : NaN;
  }

  #stringArg(expr: Expr | undefined, time: number): string {
    const v = expr ? this.eval(expr, time) : undefined;
    return v?.type === 'string' ? v.v : '';
  }

  #call(func: string, args: Expr[], time: number): Value {
    const [a0, a1, a2, a3, a4] = args;
    switch (func) {
      case 'time':
        return { type: 'scalar', t: time, v: time / 1000 };
      case 'vector':
        return { type: 'vector', samples: [{ metric: {}, t: time, v: this.#scalarArg(a0, time) }] };
      case 'scalar': {
        const vec = this.#vector(this.eval(a0 as Expr, time));
        return { type: 'scalar', t: time, v: vec.length === 1 ? (vec[0] as Sample).v : NaN };
      }
      case 'absent': {
        const vec = this.#vector(this.eval(a0 as Expr, time));
        return { type: 'vector', samples: vec.length > 0 ? [] : [{ metric: absentLabels(a0 as Expr), t: time, v: 1 }] };
      }
      case 'abs':
      case 'ceil':
      case 'floor':
      case 'clamp_min':
      case 'clamp_max': {
        const vec = this.#vector(this.eval(a0 as Expr, time));
        return {
          type: 'vector',
          samples: this.#unique(mathFunction(func, vec, a1 ? this.#scalarArg(a1, time) : undefined)),
        };
      }
      case 'sort':
      case 'sort_desc':
        return {
          type: 'vector',
          samples: sortByValue(this.#vector(this.eval(a0 as Expr, time)), func === 'sort_desc'),
        };
      case 'label_replace': {
        const vec = this.#vector(this.eval(a0 as Expr, time));
        const out = labelReplace(
          vec,
          this.#stringArg(a1, time),
          this.#stringArg(a2, time),
          this.#stringArg(a3, time),
          this.#stringArg(a4, time),
        );
        return { type: 'vector', samples: this.#unique(out) };
      }
      default: {
        const arg = a0;
        if (arg?.kind !== 'matrix')
          throw badData(`expected type range vector in call to function ${JSON.stringify(func)}`);
        const m = this.eval(arg, time);
        if (m.type !== 'matrix') throw executionError(`expected a range vector in call to ${func}`);
        const out = rangeFunction(func, arg, m.series, time);
        const seen = new Map<string, Sample>();
        for (const s of out) {
          const k = labelsKey(s.metric);
          if (seen.has(k)) throw executionError(`vector cannot contain metrics with the same labelset`);
          seen.set(k, s);
        }
        return { type: 'vector', samples: out };
      }
    }
  }
}
