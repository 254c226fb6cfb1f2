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
export function instantQuery(db: Queryable, query: string, t: number, options: EvalOptions = {}): Value {
  const expr = parsePromql(query);
  return evaluate(db, expr, t, options);
}

/** Evaluates a parsed expression at time `t` (ms). */
export function evaluate(db: Queryable, expr: Expr, t: number, options: EvalOptions = {}): Value {
  const ev = new Evaluator(db, options.lookbackMs ?? DEFAULT_LOOKBACK_MS);
  const v = ev.eval(expr, t);
  if (v.type === 'vector' && !isSorted(expr)) v.samples.sort((a, b) => compareLabels(a.metric, b.metric));
  if (v.type === 'matrix') v.series.sort((a, b) => compareLabels(a.metric, b.metric));
  return v;
}

function isSorted(e: Expr): boolean {
  if (e.kind === 'paren') return isSorted(e.expr);
  return e.kind === 'call' && (e.func === 'sort' || e.func === 'sort_desc');
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
    throw badData(`invalid expression type ${JSON.stringify(t === 'matrix' ? 'range vector' : t)} for range query, must be Scalar or instant Vector`);
  }
  if (end < start) throw badData('end timestamp must not be before start time');
  if (step <= 0) throw badData('zero or negative query resolution step widths are not accepted. Try a positive integer');
  if ((end - start) / step > MAX_RANGE_POINTS) {
    throw badData('exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)');
  }
  const ev = new Evaluator(db, options.lookbackMs ?? DEFAULT_LOOKBACK_MS);
  const byKey = new Map<string, { metric: Series['metric']; points: Point[] }>();
  for (let ts = start; ts <= end; ts += step) {
    const v = ev.eval(expr, ts);
    const samples: Sample[] = v.type === 'scalar' ? [{ metric: {}, t: ts, v: v.v }] : v.type === 'vector' ? v.samples : [];
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

  eval(e: Expr, t: number): Value {
    switch (e.kind) {
      case 'number':
        return { type: 'scalar', t, v: e.value };
      case 'string':
        return { type: 'string', t, v: e.value };
      case 'paren':
        return this.eval(e.expr, t);
      case 'vector': {
        const samples = this.#db.selectInstant(e.matchers, t - e.offsetMs, this.#lookbackMs);
        return { type: 'vector', samples: samples.map((s) => ({ metric: s.metric, t, v: s.v })) };
      }
      case 'matrix': {
        const maxt = t - e.selector.offsetMs;
        return { type: 'matrix', series: this.#db.selectRange(e.selector.matchers, maxt - e.rangeMs, maxt) };
      }
      case 'unary': {
        const v = this.eval(e.expr, t);
        if (e.op === '+') return v;
        if (v.type === 'scalar') return { type: 'scalar', t, v: -v.v };
        return { type: 'vector', samples: this.#unique(this.#vector(v).map((s) => ({ metric: dropMetricName(s.metric), t, v: -s.v }))) };
      }
      case 'binary': {
        const l = this.eval(e.lhs, t);
        const r = this.eval(e.rhs, t);
        if (l.type === 'scalar' && r.type === 'scalar') return { type: 'scalar', t, v: applyOp(e.op, l.v, r.v) };
        if (l.type === 'vector' && r.type === 'vector') {
          return { type: 'vector', samples: this.#unique(vectorVector(e, l.samples, r.samples, t)) };
        }
        if (l.type === 'vector' && r.type === 'scalar') return { type: 'vector', samples: this.#unique(vectorScalar(e, l.samples, r.v, false, t)) };
        if (l.type === 'scalar' && r.type === 'vector') return { type: 'vector', samples: this.#unique(vectorScalar(e, r.samples, l.v, true, t)) };
        throw executionError('binary expression must contain only scalar and instant vector types');
      }
      case 'aggregate': {
        const input = this.#vector(this.eval(e.expr, t));
        let param: number | string | undefined;
        if (e.param) {
          const p = this.eval(e.param, t);
          param = p.type === 'scalar' || p.type === 'string' ? p.v : undefined;
        }
        return { type: 'vector', samples: aggregate(e, input, param, t) };
      }
      case 'call':
        return this.#call(e.func, e.args, t);
    }
  }

  #vector(v: Value): Sample[] {
    if (v.type !== 'vector') throw executionError(`expected an instant vector, got ${v.type}`);
    return v.samples;
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

  #scalarArg(e: Expr | undefined, t: number): number {
    const v = e ? this.eval(e, t) : undefined;
    return v?.type === 'scalar' ? v.v : NaN;
  }

  #stringArg(e: Expr | undefined, t: number): string {
    const v = e ? this.eval(e, t) : undefined;
    return v?.type === 'string' ? v.v : '';
  }

  #call(func: string, args: Expr[], t: number): Value {
    const [a0, a1, a2, a3, a4] = args;
    switch (func) {
      case 'time':
        return { type: 'scalar', t, v: t / 1000 };
      case 'vector':
        return { type: 'vector', samples: [{ metric: {}, t, v: this.#scalarArg(a0, t) }] };
      case 'scalar': {
        const vec = this.#vector(this.eval(a0 as Expr, t));
        return { type: 'scalar', t, v: vec.length === 1 ? (vec[0] as Sample).v : NaN };
      }
      case 'absent': {
        const vec = this.#vector(this.eval(a0 as Expr, t));
        return { type: 'vector', samples: vec.length > 0 ? [] : [{ metric: absentLabels(a0 as Expr), t, v: 1 }] };
      }
      case 'abs':
      case 'ceil':
      case 'floor':
      case 'clamp_min':
      case 'clamp_max': {
        const vec = this.#vector(this.eval(a0 as Expr, t));
        return { type: 'vector', samples: this.#unique(mathFunction(func, vec, a1 ? this.#scalarArg(a1, t) : undefined)) };
      }
      case 'sort':
      case 'sort_desc':
        return { type: 'vector', samples: sortByValue(this.#vector(this.eval(a0 as Expr, t)), func === 'sort_desc') };
      case 'label_replace': {
        const vec = this.#vector(this.eval(a0 as Expr, t));
        const out = labelReplace(vec, this.#stringArg(a1, t), this.#stringArg(a2, t), this.#stringArg(a3, t), this.#stringArg(a4, t));
        return { type: 'vector', samples: this.#unique(out) };
      }
      default: {
        const arg = a0;
        if (arg?.kind !== 'matrix') throw badData(`expected type range vector in call to function ${JSON.stringify(func)}`);
        const m = this.eval(arg, t);
        if (m.type !== 'matrix') throw executionError(`expected a range vector in call to ${func}`);
        const out = rangeFunction(func, arg, m.series, t);
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

