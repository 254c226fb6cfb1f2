/**
 * The JSONPath subset printer columns use (client-go's jsonpath as the CRD table convertor
 * runs it, keeping the first result): `.a.b`, `['key.with.dots']`, `[0]`, `[-1]`, `[*]`,
 * `..` is not supported; filters `[?(@.type=="Ready")]` with `==`/`!=` against a string or
 * number literal, and an optional `{...}` wrapper as kubectl writes templates.
 */
import { isJsonObject, type JsonValue } from '../../lib/json.js';

type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'all' }
  | { kind: 'filter'; path: Step[]; op: '==' | '!=' | 'exists'; value: JsonValue };

/** Parses a path into steps; throws on syntax it does not support. */
export function parsePrinterPath(jsonPath: string): Step[] {
  let p = jsonPath.trim();
  if (p.startsWith('{') && p.endsWith('}')) p = p.slice(1, -1).trim();
  if (p.startsWith('$')) p = p.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '.') {
      const m = /^[^.[\]]+/.exec(p.slice(i + 1));
      if (!m) {
        if (i + 1 === p.length) break;
        throw new Error(`unsupported path at ${i}: ${jsonPath}`);
      }
      steps.push({ kind: 'field', name: m[0] });
      i += 1 + m[0].length;
    } else if (c === '[') {
      const end = findClose(p, i);
      const inner = p.slice(i + 1, end).trim();
      i = end + 1;
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else if (inner.startsWith('?(') && inner.endsWith(')')) steps.push(parseFilter(inner.slice(2, -1), jsonPath));
      else throw new Error(`unsupported subscript [${inner}] in ${jsonPath}`);
    } else {
      throw new Error(`unexpected ${JSON.stringify(c)} in ${jsonPath}`);
    }
  }
  return steps;
}

function findClose(path: string, open: number): number {
  let quote = '';
  for (let j = open + 1; j < path.length; j++) {
    const ch = path[j]!;
    if (quote) {
      if (ch === quote) quote = '';
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === ']') return j;
  }
  throw new Error(`unterminated [ in ${path}`);
}

function parseFilter(expr: string, whole: string): Step {
  const m = /^@((?:\.[^.=!<> ]+)+)\s*(?:(==|!=)\s*(.+))?$/.exec(expr.trim());
  if (!m) throw new Error(`unsupported filter ${expr} in ${whole}`);
  const path = parsePrinterPath(m[1]!);
  if (m[2] === undefined) return { kind: 'filter', path, op: 'exists', value: null };
  const lit = m[3]!.trim();
  let value: JsonValue;
  if (/^'.*'$|^".*"$/.test(lit)) value = lit.slice(1, -1);
  else if (lit === 'true' || lit === 'false') value = lit === 'true';
  else if (!Number.isNaN(Number(lit))) value = Number(lit);
  else throw new Error(`unsupported literal ${lit} in ${whole}`);
  return { kind: 'filter', path, op: m[2] as '==' | '!=', value };
}

function apply(values: JsonValue[], step: Step): JsonValue[] {
  const out: JsonValue[] = [];
  for (const v of values) {
    if (step.kind === 'field') {
      if (isJsonObject(v) && step.name in v) out.push(v[step.name]!);
    } else if (step.kind === 'index') {
      if (Array.isArray(v)) {
        const i = step.index < 0 ? v.length + step.index : step.index;
        if (i >= 0 && i < v.length) out.push(v[i]!);
      }
    } else if (step.kind === 'all') {
      if (Array.isArray(v)) out.push(...v);
      else if (isJsonObject(v)) out.push(...Object.values(v));
    } else if (Array.isArray(v)) {
      for (const item of v) {
        const found = run([item], step.path);
        const ok = step.op === 'exists' ? found.length > 0 : found.some((f) => f === step.value) === (step.op === '==');
        if (ok) out.push(item);
      }
    }
  }
  return out;
}

function run(values: JsonValue[], steps: Step[]): JsonValue[] {
  return steps.reduce(apply, values);
}

/** Evaluates a printer column path; the first result, or undefined (missing or unparsable). */
export function evaluatePrinterColumn(obj: JsonValue, jsonPath: string): JsonValue | undefined {
  let steps: Step[];
  try {
    steps = parsePrinterPath(jsonPath);
  } catch {
    return undefined;
  }
  return run([obj], steps)[0];
}
