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
export function applyOp(op: BinaryOp, left: number, right: number): number {
  switch (op) {
    case '+':
      return left + right;
    case '-':
      return left - right;
    case '*':
      return left * right;
    case '/':
      return left / right;
    case '%':
      return goMod(left, right);
    case '^':
      return Math.pow(left, right);
    case '==':
      return left === right ? 1 : 0;
    case '!=':
      return left !== right ? 1 : 0;
    case '>':
      return left > right ? 1 : 0;
    case '<':
      return left < right ? 1 : 0;
    case '>=':
      return left >= right ? 1 : 0;
    case '<=':
      return left <= right ? 1 : 0;
    case 'and':
    case 'or':
    case 'unless':
      throw executionError(`operator ${JSON.stringify(op)} not allowed between numbers`);
  }
}

/** Go's math.Mod: the sign follows the dividend (as JavaScript's % already does). */
function goMod(left: number, right: number): number {
  return left % right;
}

/** A comparison result without `bool` keeps the sample only when true. */
function keep(op: BinaryOp, left: number, right: number): boolean {
  return applyOp(op, left, right) === 1;
}

/** `vector <op> scalar` (or `scalar <op> vector` when `scalarLeft`). */
export function vectorScalar(
  binaryExpr: BinaryExpr,
  vec: Sample[],
  seconds: number,
  scalarLeft: boolean,
  time: number,
): Sample[] {
  const out: Sample[] = [];
  const cmp = isComparison(binaryExpr.op);
  for (const smp of vec) {
    const [a, b] = scalarLeft ? [seconds, smp.v] : [smp.v, seconds];
    if (cmp && !binaryExpr.returnBool) {
      if (keep(binaryExpr.op, a, b)) out.push({ metric: smp.metric, t: time, v: scalarLeft ? b : a });
      continue;
    }
    out.push({ metric: dropMetricName(smp.metric), t: time, v: applyOp(binaryExpr.op, a, b) });
  }
  return out;
}

function signature(vectorMatching: VectorMatching, labels: Labels): string {
  return labelsKey(
    vectorMatching.on
      ? keepLabels(labels, vectorMatching.labels)
      : withoutLabels(labels, [...vectorMatching.labels, '__name__']),
  );
}

/** `vector <op> vector` for arithmetic and comparison operators. */
export function vectorVector(binaryExpr: BinaryExpr, lhs: Sample[], rhs: Sample[], time: number): Sample[] {
  const m = binaryExpr.matching as VectorMatching;
  if (binaryExpr.op === 'and' || binaryExpr.op === 'or' || binaryExpr.op === 'unless')
    return setOp(binaryExpr.op, m, lhs, rhs);
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
  const cmp = isComparison(binaryExpr.op);
  const out: Sample[] = [];
  const seenOneToOne = new Set<string>();
  const seenResult = new Set<string>();
  for (const s of many) {
    const sig = signature(m, s.metric);
    const o = oneBySig.get(sig);
    if (!o) continue;
    if (m.card === 'one-to-one') {
      if (seenOneToOne.has(sig)) {
        throw executionError(
          'multiple matches for labels: many-to-one matching must be explicit (group_left/group_right)',
        );
      }
      seenOneToOne.add(sig);
    }
    const [a, b] = swap ? [o.v, s.v] : [s.v, o.v];
    let v: number;
    if (cmp && !binaryExpr.returnBool) {
      if (!keep(binaryExpr.op, a, b)) continue;
      v = a;
    } else {
      v = applyOp(binaryExpr.op, a, b);
    }
    const metric = resultMetric(s.metric, o.metric, binaryExpr.op, binaryExpr.returnBool, m);
    if (m.card !== 'one-to-one') {
      const key = labelsKey(metric);
      if (seenResult.has(key))
        throw executionError('multiple matches for labels: grouping labels must ensure unique matches');
      seenResult.add(key);
    }
    out.push({ metric, t: time, v });
  }
  return out;
}

function resultMetric(
  many: Labels,
  one: Labels,
  op: BinaryOp,
  returnBool: boolean,
  vectorMatching: VectorMatching,
): Labels {
  let out: Record<string, string> = { ...many };
  if (!isComparison(op) || returnBool) delete out['__name__'];
  if (vectorMatching.card === 'one-to-one') {
    out = vectorMatching.on ? keepLabels(out, vectorMatching.labels) : withoutLabels(out, vectorMatching.labels);
  }
  for (const l of vectorMatching.include) {
    const v = one[l];
    if (v !== undefined && v !== '') out[l] = v;
    else delete out[l];
  }
  return out;
}

function setOp(op: 'and' | 'or' | 'unless', vectorMatching: VectorMatching, lhs: Sample[], rhs: Sample[]): Sample[] {
  const rhsSigs = new Set(rhs.map((s) => signature(vectorMatching, s.metric)));
  switch (op) {
    case 'and':
      return lhs.filter((s) => rhsSigs.has(signature(vectorMatching, s.metric)));
    case 'unless':
      return lhs.filter((s) => !rhsSigs.has(signature(vectorMatching, s.metric)));
    case 'or': {
      const lhsSigs = new Set(lhs.map((s) => signature(vectorMatching, s.metric)));
      return [...lhs, ...rhs.filter((s) => !lhsSigs.has(signature(vectorMatching, s.metric)))];
    }
  }
}
