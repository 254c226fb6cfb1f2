/**
 * Binary operators: scalar/scalar, vector/scalar and vector/vector with Prometheus' vector
 * matching (`on`, `ignoring`, `group_left`, `group_right`), `bool`, and the set operators.
 */
import type { BinaryExpr, BinaryOp, VectorMatching } from './ast.js';
import { executionError } from './errors.js';
import { isComparison } from './parse.js';
import { dropMetricName, formatLabels, keepLabels, labelsKey, withoutLabels } from './values.js';
import type { Labels, Sample } from './values.js';

/** Applies an arithmetic or comparison operator; comparisons give 1/0 (NaN never compares). */
export function applyOp(op: BinaryOp, a: number, b: number): number {
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return a / b;
    case '%': return goMod(a, b);
    case '^': return Math.pow(a, b);
    case '==': return a === b ? 1 : 0;
    case '!=': return a !== b ? 1 : 0;
    case '>': return a > b ? 1 : 0;
    case '<': return a < b ? 1 : 0;
    case '>=': return a >= b ? 1 : 0;
    case '<=': return a <= b ? 1 : 0;
    case 'and':
    case 'or':
    case 'unless':
      throw executionError(`operator ${JSON.stringify(op)} not allowed between numbers`);
  }
}

/** Go's math.Mod: the sign follows the dividend (as JavaScript's % already does). */
function goMod(a: number, b: number): number {
  return a % b;
}

/** A comparison result without `bool` keeps the sample only when true. */
function keep(op: BinaryOp, a: number, b: number): boolean {
  return applyOp(op, a, b) === 1;
}

/** `vector <op> scalar` (or `scalar <op> vector` when `scalarLeft`). */
export function vectorScalar(e: BinaryExpr, vec: Sample[], s: number, scalarLeft: boolean, t: number): Sample[] {
  const out: Sample[] = [];
  const cmp = isComparison(e.op);
  for (const smp of vec) {
    const [a, b] = scalarLeft ? [s, smp.v] : [smp.v, s];
    if (cmp && !e.returnBool) {
      if (keep(e.op, a, b)) out.push({ metric: smp.metric, t, v: scalarLeft ? b : a });
      continue;
    }
    out.push({ metric: dropMetricName(smp.metric), t, v: applyOp(e.op, a, b) });
  }
  return out;
}

function signature(m: VectorMatching, labels: Labels): string {
  return labelsKey(m.on ? keepLabels(labels, m.labels) : withoutLabels(labels, [...m.labels, '__name__']));
}

/** `vector <op> vector` for arithmetic and comparison operators. */
export function vectorVector(e: BinaryExpr, lhs: Sample[], rhs: Sample[], t: number): Sample[] {
  const m = e.matching as VectorMatching;
  if (e.op === 'and' || e.op === 'or' || e.op === 'unless') return setOp(e.op, m, lhs, rhs);
  // group_right swaps the sides: the "one" side is always `oneSide`.
  const swap = m.card === 'one-to-many';
  const many = swap ? rhs : lhs;
  const one = swap ? lhs : rhs;
  const oneBySig = new Map<string, Sample>();
  for (const s of one) {
    const sig = signature(m, s.metric);
    const dup = oneBySig.get(sig);
    if (dup) {
      const side = swap ? 'left' : 'right';
      throw executionError(
        `found duplicate series for the match group ${formatLabels(m.on ? keepLabels(s.metric, m.labels) : withoutLabels(s.metric, [...m.labels, '__name__']))} on the ${side} hand-side of the operation: [${formatLabels(s.metric)}, ${formatLabels(dup.metric)}];many-to-many matching not allowed: matching labels must be unique on one side`,
      );
    }
    oneBySig.set(sig, s);
  }
  const cmp = isComparison(e.op);
  const out: Sample[] = [];
  const seenOneToOne = new Set<string>();
  const seenResult = new Set<string>();
  for (const s of many) {
    const sig = signature(m, s.metric);
    const o = oneBySig.get(sig);
    if (!o) continue;
    if (m.card === 'one-to-one') {
      if (seenOneToOne.has(sig)) {
        throw executionError('multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)');
      }
      seenOneToOne.add(sig);
    }
    const [a, b] = swap ? [o.v, s.v] : [s.v, o.v];
    let v: number;
    if (cmp && !e.returnBool) {
      if (!keep(e.op, a, b)) continue;
      v = a;
    } else {
      v = applyOp(e.op, a, b);
    }
    const metric = resultMetric(s.metric, o.metric, e.op, e.returnBool, m);
    if (m.card !== 'one-to-one') {
      const key = labelsKey(metric);
      if (seenResult.has(key)) throw executionError('multiple matches for labels: grouping labels must ensure unique matches');
      seenResult.add(key);
    }
    out.push({ metric, t, v });
  }
  return out;
}

function resultMetric(many: Labels, one: Labels, op: BinaryOp, returnBool: boolean, m: VectorMatching): Labels {
  let out: Record<string, string> = { ...many };
  if (!isComparison(op) || returnBool) delete out['__name__'];
  if (m.card === 'one-to-one') {
    out = m.on ? keepLabels(out, m.labels) : withoutLabels(out, m.labels);
  }
  for (const l of m.include) {
    const v = one[l];
    if (v !== undefined && v !== '') out[l] = v;
    else delete out[l];
  }
  return out;
}

function setOp(op: 'and' | 'or' | 'unless', m: VectorMatching, lhs: Sample[], rhs: Sample[]): Sample[] {
  const rhsSigs = new Set(rhs.map((s) => signature(m, s.metric)));
  switch (op) {
    case 'and':
      return lhs.filter((s) => rhsSigs.has(signature(m, s.metric)));
    case 'unless':
      return lhs.filter((s) => !rhsSigs.has(signature(m, s.metric)));
    case 'or': {
      const lhsSigs = new Set(lhs.map((s) => signature(m, s.metric)));
      return [...lhs, ...rhs.filter((s) => !lhsSigs.has(signature(m, s.metric)))];
    }
  }
}
