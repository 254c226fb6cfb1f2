/** Aggregation operators over an instant vector, grouped `by` or `without` labels. */
import type { AggregateExpr } from './ast.js';
import { executionError } from './errors.js';
import { formatSampleValue, keepLabels, labelsKey, withoutLabels } from './values.js';
import type { Labels, Sample } from './values.js';

interface Group {
  labels: Labels;
  samples: Sample[];
}

function groupKey(aggregateExpr: AggregateExpr, metric: Labels): Labels {
  return aggregateExpr.without
    ? withoutLabels(metric, [...aggregateExpr.grouping, '__name__'])
    : keepLabels(metric, aggregateExpr.grouping);
}

/** Evaluates an aggregation; `param` is the scalar (topk) or string (count_values) argument. */
export function aggregate(
  aggregateExpr: AggregateExpr,
  input: Sample[],
  param: number | string | undefined,
  time: number,
): Sample[] {
  const groups = new Map<string, Group>();
  for (const s of input) {
    const labels = groupKey(aggregateExpr, s.metric);
    const key = labelsKey(labels);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { labels, samples: [] }));
    g.samples.push(s);
  }
  const out: Sample[] = [];
  for (const g of groups.values()) {
    const vs = g.samples.map((s) => s.v);
    switch (aggregateExpr.op) {
      case 'sum':
        out.push({ metric: g.labels, t: time, v: vs.reduce((a, b) => a + b, 0) });
        break;
      case 'avg':
        out.push({ metric: g.labels, t: time, v: vs.reduce((a, b) => a + b, 0) / vs.length });
        break;
      case 'count':
        out.push({ metric: g.labels, t: time, v: vs.length });
        break;
      case 'group':
        out.push({ metric: g.labels, t: time, v: 1 });
        break;
      case 'max':
      case 'min': {
        let acc = vs[0] as number;
        for (const v of vs.slice(1)) {
          if (Number.isNaN(acc) || (aggregateExpr.op === 'max' ? v > acc : v < acc)) acc = v;
        }
        out.push({ metric: g.labels, t: time, v: acc });
        break;
      }
      case 'topk':
      case 'bottomk': {
        const k = typeof param === 'number' ? Math.trunc(param) : 0;
        if (typeof param === 'number' && !Number.isFinite(param))
          throw executionError(`Scalar value ${formatSampleValue(param)} overflows int64`);
        if (k < 1) break;
        const sorted = [...g.samples].sort((a, b) => compareForK(a.v, b.v, aggregateExpr.op === 'topk'));
        for (const s of sorted.slice(0, k)) out.push({ metric: s.metric, t: time, v: s.v });
        break;
      }
      case 'count_values': {
        const label = typeof param === 'string' ? param : '';
        if (!/^[a-zA-Z_][a-zA-Z0-9_]*$/.test(label))
          throw executionError(`invalid label name ${JSON.stringify(label)}`);
        const counts = new Map<string, number>();
        for (const v of vs) {
          const str = formatSampleValue(v);
          counts.set(str, (counts.get(str) ?? 0) + 1);
        }
        for (const [str, n] of counts) out.push({ metric: { ...g.labels, [label]: str }, t: time, v: n });
        break;
      }
    }
  }
  return out;
}

/** Order for topk (descending) and bottomk (ascending); NaN always last. */
function compareForK(left: number, right: number, desc: boolean): number {
  if (Number.isNaN(left)) return Number.isNaN(right) ? 0 : 1;
  if (Number.isNaN(right)) return -1;
  return desc ? right - left : left - right;
}
