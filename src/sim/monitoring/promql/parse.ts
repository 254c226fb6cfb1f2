/**
 * PromQL text → {@link Expr}, using the Prometheus project's own lezer grammar
 * (`@prometheus-io/lezer-promql`) for the syntax, plus the static checks of Prometheus' parser
 * (operand types, `bool` placement, vector matching, selector sanity) written here because the
 * lezer grammar is deliberately permissive. Constructs the evaluator does not implement are
 * rejected with a `bad_data` error naming them.
 */
import { parser } from '@prometheus-io/lezer-promql';
import type { SyntaxNode } from '@lezer/common';
import { compileMatcher, InvalidMatcherError, matchesEmpty } from '../label-matcher.js';
import type { LabelMatcher, MatchType } from '../label-matcher.js';
import { documentedType } from './ast.js';
import type { AggregateOp, BinaryOp, Expr, ValueType, VectorMatching, VectorSelector } from './ast.js';
import { badData } from './errors.js';
import type { PromqlError } from './errors.js';
import { FUNCTIONS } from './functions-table.js';

const AGGREGATES: ReadonlySet<string> = new Set<AggregateOp>([
  'sum',
  'count',
  'max',
  'min',
  'avg',
  'group',
  'topk',
  'bottomk',
  'count_values',
]);
const BINARY_NODES: Readonly<Record<string, BinaryOp>> = {
  Add: '+',
  Sub: '-',
  Mul: '*',
  Div: '/',
  Mod: '%',
  Pow: '^',
  Eql: '==',
  Neq: '!=',
  Gtr: '>',
  Lss: '<',
  Gte: '>=',
  Lte: '<=',
  And: 'and',
  Or: 'or',
  Unless: 'unless',
};
const COMPARISONS: ReadonlySet<BinaryOp> = new Set<BinaryOp>(['==', '!=', '>', '<', '>=', '<=']);
const SET_OPS: ReadonlySet<BinaryOp> = new Set<BinaryOp>(['and', 'or', 'unless']);

/** True for the comparison operators. */
export function isComparison(op: BinaryOp): boolean {
  return COMPARISONS.has(op);
}

/** True for `and`, `or`, `unless`. */
export function isSetOperator(op: BinaryOp): boolean {
  return SET_OPS.has(op);
}

/** Parses a PromQL expression; throws a `bad_data` {@link PromqlError} on any problem. */
export function parsePromql(query: string): Expr {
  if (query.trim() === '') throw badData('1:1: parse error: no expression found in input');
  const tree = parser.parse(query);
  let error: SyntaxNode | undefined;
  tree.iterate({
    enter: (syntaxNodeRef) => {
      if (error) return false;
      if (syntaxNodeRef.type.isError) {
        error = syntaxNodeRef.node;
        return false;
      }
      return undefined;
    },
  });
  if (error) throw parseError(query, error.from, unexpected(query, error.from));
  const top = tree.topNode.firstChild;
  if (!top) throw badData('1:1: parse error: no expression found in input');
  return new Converter(query).expr(top);
}

/** The static type of an expression. */
export function typeOf(expr: Expr): ValueType {
  switch (expr.kind) {
    case 'number':
      return 'scalar';
    case 'string':
      return 'string';
    case 'vector':
      return 'vector';
    case 'matrix':
      return 'matrix';
    case 'unary':
    case 'paren':
      return typeOf(expr.expr);
    case 'binary':
      return typeOf(expr.lhs) === 'scalar' && typeOf(expr.rhs) === 'scalar' ? 'scalar' : 'vector';
    case 'aggregate':
      return 'vector';
    case 'call':
      return FUNCTIONS[expr.func]?.returns ?? 'vector';
  }
}

function position(query: string, offset: number): string {
  const before = query.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - before.lastIndexOf('\n');
  return `${line}:${col}`;
}

function parseError(query: string, offset: number, message: string): PromqlError {
  return badData(`${position(query, offset)}: parse error: ${message}`);
}

function unexpected(query: string, offset: number): string {
  const rest = query.slice(offset).trimStart();
  if (rest === '') {
    const before = query.slice(0, offset).replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '');
    const open = (c: string): number => before.split(c).length - 1;
    if (open('{') > open('}')) return 'unexpected end of input inside braces';
    if (open('(') > open(')')) return 'unclosed left parenthesis';
    return 'unexpected end of input';
  }
  return `unexpected character ${JSON.stringify(rest[0])}`;
}

/** Go string-literal unquoting (double quotes and single quotes with escapes; backticks raw). */
export function unquote(lit: string): string {
  const q = lit[0];
  if (q === '`') return lit.slice(1, -1);
  const body = lit.slice(1, -1);
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[++i] ?? '';
    const simple: Record<string, string> = {
      n: '\n',
      t: '\t',
      r: '\r',
      a: '\x07',
      b: '\b',
      f: '\f',
      v: '\v',
      '\\': '\\',
      '"': '"',
      "'": "'",
    };
    const s = simple[e];
    if (s !== undefined) {
      out += s;
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + len);
      if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== len) throw badData(`invalid syntax in string ${lit}`);
      out += String.fromCodePoint(parseInt(hex, 16));
      i += len;
    } else if (/[0-7]/.test(e)) {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct)) throw badData(`invalid syntax in string ${lit}`);
      out += String.fromCharCode(parseInt(oct, 8));
      i += 2;
    } else {
      throw badData(`invalid syntax in string ${lit}`);
    }
  }
  return out;
}

const UNIT_MS: Readonly<Record<string, number>> = {
  y: 365 * 24 * 3600_000,
  w: 7 * 24 * 3600_000,
  d: 24 * 3600_000,
  h: 3600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
};

/** A Prometheus duration (`1h30m`, `90s`, `5m`) or a number of seconds, in milliseconds. */
export function parseDurationMs(text: string): number {
  const t = text.replace(/_/g, '');
  if (/^\d+(y|w|d|h|m|s|ms)(\d+(y|w|d|h|m|s|ms))*$/.test(t)) {
    let ms = 0;
    for (const m of t.matchAll(/(\d+)(ms|y|w|d|h|m|s)/g)) ms += Number(m[1]) * (UNIT_MS[m[2] ?? ''] ?? 0);
    return ms;
  }
  const n = Number(t);
  if (t !== '' && Number.isFinite(n)) return Math.round(n * 1000);
  throw badData(`not a valid duration string: ${JSON.stringify(text)}`);
}

function parseNumber(text: string): number {
  const t = text.replace(/_/g, '');
  const sign = t.startsWith('-') ? -1 : 1;
  const body = t.replace(/^[+-]/, '');
  const lower = body.toLowerCase();
  if (lower === 'inf') return sign * Infinity;
  if (lower === 'nan') return NaN;
  if (/^0x[0-9a-f]+$/.test(lower)) return sign * parseInt(lower.slice(2), 16);
  if (/^(\d+(y|w|d|h|m|s|ms))+$/.test(body)) return (sign * parseDurationMs(body)) / 1000;
  const n = Number(body);
  if (body === '' || Number.isNaN(n)) throw badData(`bad number or duration syntax: ${JSON.stringify(text)}`);
  return sign * n;
}

class Converter {
  readonly #q: string;
  constructor(query: string) {
    this.#q = query;
  }

  #text(syntaxNode: SyntaxNode): string {
    return this.#q.slice(syntaxNode.from, syntaxNode.to);
  }

  #unsupported(syntaxNode: SyntaxNode, what: string): PromqlError {
    return parseError(this.#q, syntaxNode.from, `${what} is not supported by the simulated Prometheus`);
  }

  #fail(syntaxNode: SyntaxNode, message: string): PromqlError {
    return parseError(this.#q, syntaxNode.from, message);
  }

  expr(syntaxNode: SyntaxNode): Expr {
    switch (syntaxNode.name) {
      case 'NumberDurationLiteral':
        return { kind: 'number', value: parseNumber(this.#text(syntaxNode)) };
      case 'StringLiteral':
        return { kind: 'string', value: unquote(this.#text(syntaxNode)) };
      case 'VectorSelector':
        return this.#vectorSelector(syntaxNode);
      case 'MatrixSelector':
        return this.#matrixSelector(syntaxNode);
      case 'OffsetExpr':
        return this.#offset(syntaxNode);
      case 'ParenExpr': {
        const inner = syntaxNode.firstChild;
        if (!inner) throw this.#fail(syntaxNode, 'unexpected ")"');
        return { kind: 'paren', expr: this.expr(inner) };
      }
      case 'UnaryExpr':
        return this.#unary(syntaxNode);
      case 'BinaryExpr':
        return this.#binary(syntaxNode);
      case 'AggregateExpr':
        return this.#aggregate(syntaxNode);
      case 'FunctionCall':
        return this.#call(syntaxNode);
      case 'SubqueryExpr':
        throw this.#unsupported(syntaxNode, 'subquery');
      case 'StepInvariantExpr':
        throw this.#unsupported(syntaxNode, 'the @ modifier');
      case 'AnchoredExpr':
      case 'SmoothedExpr':
        throw this.#unsupported(
          syntaxNode,
          `the ${syntaxNode.name === 'AnchoredExpr' ? 'anchored' : 'smoothed'} modifier`,
        );
      default:
        throw this.#fail(syntaxNode, `unexpected ${JSON.stringify(this.#text(syntaxNode))}`);
    }
  }

  #vectorSelector(syntaxNode: SyntaxNode): VectorSelector {
    const ident = syntaxNode.getChild('Identifier');
    const name = ident ? this.#text(ident) : undefined;
    const matchers: LabelMatcher[] = [];
    const list = syntaxNode.getChild('LabelMatchers');
    if (list) {
      for (let c = list.firstChild; c; c = c.nextSibling) {
        if (c.name === 'UnquotedLabelMatcher' || c.name === 'QuotedLabelMatcher') {
          matchers.push(this.#matcher(c));
        } else if (c.name === 'QuotedLabelName') {
          const lit = c.getChild('StringLiteral');
          matchers.push({ name: '__name__', type: '=', value: lit ? unquote(this.#text(lit)) : '' });
        }
      }
    }
    for (const m of matchers) {
      try {
        compileMatcher(m);
      } catch (err) {
        if (err instanceof InvalidMatcherError)
          throw this.#fail(syntaxNode, `invalid regular expression in matcher: ${err.message}`);
        throw err;
      }
    }
    if (name !== undefined) {
      if (matchers.some((m) => m.name === '__name__')) {
        throw this.#fail(
          syntaxNode,
          `metric name must not be set twice: ${JSON.stringify(name)} or ${JSON.stringify(matchers.find((m) => m.name === '__name__')?.value ?? '')}`,
        );
      }
      matchers.unshift({ name: '__name__', type: '=', value: name });
    } else if (matchers.every((m) => matchesEmpty(m))) {
      throw this.#fail(syntaxNode, 'vector selector must contain at least one non-empty matcher');
    }
    const metricName = name ?? matchers.find((m) => m.name === '__name__' && m.type === '=')?.value;
    return { kind: 'vector', name: metricName, matchers, offsetMs: 0 };
  }

  #matcher(syntaxNode: SyntaxNode): LabelMatcher {
    const nameNode = syntaxNode.firstChild;
    const op = syntaxNode.getChild('MatchOp')?.firstChild;
    const value = syntaxNode.getChild('StringLiteral');
    if (!nameNode || !op || !value) throw this.#fail(syntaxNode, 'unexpected label matcher');
    const name =
      nameNode.name === 'QuotedLabelName' ? unquote(this.#text(nameNode.firstChild ?? nameNode)) : this.#text(nameNode);
    const types: Record<string, MatchType> = { EqlSingle: '=', Neq: '!=', EqlRegex: '=~', NeqRegex: '!~' };
    const type = types[op.name];
    if (!type) throw this.#fail(op, `unexpected ${JSON.stringify(this.#text(op))} in label matching`);
    return { name, type, value: unquote(this.#text(value)) };
  }

  #matrixSelector(syntaxNode: SyntaxNode): Expr {
    const inner = syntaxNode.firstChild;
    const dur = syntaxNode.getChild('DurationExpr');
    if (!inner || !dur) throw this.#fail(syntaxNode, 'unexpected range');
    const sel = this.expr(inner);
    if (sel.kind !== 'vector') {
      throw this.#fail(syntaxNode, 'ranges only allowed for vector selectors');
    }
    if (sel.offsetMs !== 0) throw this.#fail(syntaxNode, 'no offset modifiers allowed before range');
    const rangeMs = this.#duration(dur);
    if (rangeMs <= 0) throw this.#fail(dur, `duration must be greater than 0`);
    return { kind: 'matrix', selector: sel, rangeMs };
  }

  #duration(syntaxNode: SyntaxNode): number {
    const lit = syntaxNode.firstChild;
    if (syntaxNode.name === 'NumberDurationLiteralInDurationContext') return parseDurationMs(this.#text(syntaxNode));
    if (lit && lit.name === 'NumberDurationLiteralInDurationContext' && !lit.nextSibling) {
      return parseDurationMs(this.#text(lit));
    }
    if (lit && lit.name === 'UnaryOp' && lit.nextSibling) {
      const v = this.#duration(lit.nextSibling);
      return this.#text(lit) === '-' ? -v : v;
    }
    throw this.#unsupported(syntaxNode, 'duration arithmetic');
  }

  #offset(syntaxNode: SyntaxNode): Expr {
    const inner = syntaxNode.firstChild;
    const dur = syntaxNode.getChild('OffsetDurationExpr');
    if (!inner || !dur) throw this.#fail(syntaxNode, 'unexpected offset');
    const e = this.expr(inner);
    const ms = this.#duration(dur);
    if (e.kind === 'vector') {
      if (e.offsetMs !== 0) throw this.#fail(syntaxNode, 'offset may not be set multiple times');
      return { ...e, offsetMs: ms };
    }
    if (e.kind === 'matrix') {
      if (e.selector.offsetMs !== 0) throw this.#fail(syntaxNode, 'offset may not be set multiple times');
      return { ...e, selector: { ...e.selector, offsetMs: ms } };
    }
    throw this.#fail(
      syntaxNode,
      'offset modifier must be preceded by an instant vector selector or range vector selector or a subquery',
    );
  }

  #unary(syntaxNode: SyntaxNode): Expr {
    const op = syntaxNode.getChild('UnaryOp');
    const inner = op?.nextSibling;
    if (!op || !inner) throw this.#fail(syntaxNode, 'unexpected unary operator');
    const e = this.expr(inner);
    const t = typeOf(e);
    if (t !== 'scalar' && t !== 'vector') {
      throw this.#fail(
        syntaxNode,
        `unary expression only allowed on expressions of type scalar or instant vector, got ${JSON.stringify(documentedType(t))}`,
      );
    }
    const sign = this.#text(op) === '-' ? '-' : '+';
    if (e.kind === 'number') return { kind: 'number', value: sign === '-' ? -e.value : e.value };
    return { kind: 'unary', op: sign, expr: e };
  }

  #binary(syntaxNode: SyntaxNode): Expr {
    const lhsNode = syntaxNode.firstChild;
    const opNode = lhsNode?.nextSibling;
    const rhsNode = syntaxNode.lastChild;
    if (!lhsNode || !opNode || !rhsNode) throw this.#fail(syntaxNode, 'unexpected binary expression');
    const op = BINARY_NODES[opNode.name];
    if (!op) throw this.#unsupported(opNode, `the ${JSON.stringify(this.#text(opNode))} operator`);
    let returnBool = false;
    let matchingNode: SyntaxNode | null = null;
    for (let c = opNode.nextSibling; c && c !== rhsNode; c = c.nextSibling) {
      if (c.name === 'BoolModifier') returnBool = true;
      else if (c.name === 'MatchingModifierClause') matchingNode = c;
      else if (c.name === 'FillModifier') throw this.#unsupported(c, 'the fill modifier');
    }
    const lhs = this.expr(lhsNode);
    const rhs = this.expr(rhsNode);
    const lt = typeOf(lhs);
    const rt = typeOf(rhs);
    for (const t of [lt, rt]) {
      if (t !== 'scalar' && t !== 'vector') {
        throw this.#fail(syntaxNode, 'binary expression must contain only scalar and instant vector types');
      }
    }
    if (returnBool && !isComparison(op))
      throw this.#fail(opNode, 'bool modifier can only be used on comparison operators');
    if (isComparison(op) && lt === 'scalar' && rt === 'scalar' && !returnBool) {
      throw this.#fail(opNode, 'comparisons between scalars must use BOOL modifier');
    }
    if (isSetOperator(op) && (lt !== 'vector' || rt !== 'vector')) {
      throw this.#fail(syntaxNode, `set operator ${JSON.stringify(op)} not allowed in binary scalar expression`);
    }
    let matching: VectorMatching | undefined;
    if (lt === 'vector' && rt === 'vector') {
      matching = { card: isSetOperator(op) ? 'many-to-many' : 'one-to-one', on: false, labels: [], include: [] };
      if (matchingNode) this.#matching(matchingNode, op, matching);
    } else if (matchingNode) {
      throw this.#fail(matchingNode, 'vector matching only allowed between instant vectors');
    }
    return { kind: 'binary', op, lhs, rhs, returnBool, matching };
  }

  #matching(syntaxNode: SyntaxNode, op: BinaryOp, vectorMatching: VectorMatching): void {
    const groupings = syntaxNode.getChildren('GroupingLabels');
    vectorMatching.on = syntaxNode.getChild('On') !== null;
    vectorMatching.labels = groupings[0] ? this.#labels(groupings[0]) : [];
    const left = syntaxNode.getChild('GroupLeft');
    const right = syntaxNode.getChild('GroupRight');
    if (left || right) {
      if (isSetOperator(op)) throw this.#fail(syntaxNode, `no grouping allowed for ${JSON.stringify(op)} operation`);
      vectorMatching.card = left ? 'many-to-one' : 'one-to-many';
      vectorMatching.include = groupings[1] ? this.#labels(groupings[1]) : [];
      if (vectorMatching.on) {
        for (const l of vectorMatching.include) {
          if (vectorMatching.labels.includes(l))
            throw this.#fail(syntaxNode, `label ${JSON.stringify(l)} must not occur in ON and GROUP clause at once`);
        }
      }
    }
  }

  #labels(syntaxNode: SyntaxNode): string[] {
    const out: string[] = [];
    for (let c = syntaxNode.firstChild; c; c = c.nextSibling) {
      if (c.name === 'LabelName') out.push(this.#text(c));
      else if (c.name === 'QuotedLabelName') out.push(unquote(this.#text(c.firstChild ?? c)));
    }
    return out;
  }

  #args(body: SyntaxNode | null): Expr[] {
    const out: Expr[] = [];
    if (!body) return out;
    for (let c = body.firstChild; c; c = c.nextSibling) {
      if (c.type.isSkipped || c.name === '(' || c.name === ')' || c.name === ',') continue;
      out.push(this.expr(c));
    }
    return out;
  }

  #aggregate(syntaxNode: SyntaxNode): Expr {
    const opNode = syntaxNode.getChild('AggregateOp')?.firstChild;
    if (!opNode) throw this.#fail(syntaxNode, 'unexpected aggregation');
    const op = this.#text(opNode).toLowerCase();
    if (!AGGREGATES.has(op)) throw this.#unsupported(opNode, `aggregation ${JSON.stringify(op)}`);
    const args = this.#args(syntaxNode.getChild('FunctionCallBody'));
    const mod = syntaxNode.getChild('AggregateModifier');
    const grouping = mod ? this.#labels(mod.getChild('GroupingLabels') ?? mod) : [];
    const without = mod?.getChild('Without') != null;
    const needsParam = op === 'topk' || op === 'bottomk' || op === 'count_values';
    if (args.length !== (needsParam ? 2 : 1)) {
      throw this.#fail(
        syntaxNode,
        `wrong number of arguments for aggregate expression provided, expected ${needsParam ? 2 : 1}, got ${args.length}`,
      );
    }
    const param = needsParam ? args[0] : undefined;
    const expr = (needsParam ? args[1] : args[0]) as Expr;
    const et = typeOf(expr);
    if (et !== 'vector')
      throw this.#fail(syntaxNode, `expected type instant vector in aggregation expression, got ${documentedType(et)}`);
    if (param) {
      const want: ValueType = op === 'count_values' ? 'string' : 'scalar';
      const pt = typeOf(param);
      if (pt !== want)
        throw this.#fail(
          syntaxNode,
          `expected type ${documentedType(want)} in aggregation parameter, got ${documentedType(pt)}`,
        );
    }
    return { kind: 'aggregate', op: op as AggregateOp, expr, param, grouping, without };
  }

  #call(syntaxNode: SyntaxNode): Expr {
    const id = syntaxNode.getChild('FunctionIdentifier');
    const name = id ? this.#text(id) : '';
    const sig = FUNCTIONS[name];
    if (!sig) throw this.#unsupported(syntaxNode, `function ${JSON.stringify(name)}`);
    const body = syntaxNode.getChild('FunctionCallBody');
    const args = this.#args(body);
    const argAt = body?.firstChild ?? syntaxNode;
    const min = sig.args.length - sig.optional;
    if (args.length < min || args.length > sig.args.length) {
      throw this.#fail(
        syntaxNode,
        `expected ${sig.args.length} argument(s) in call to ${JSON.stringify(name)}, got ${args.length}`,
      );
    }
    args.forEach((expr, index) => {
      const want = sig.args[index] as ValueType;
      const got = typeOf(expr);
      if (got !== want) {
        throw this.#fail(
          argAt,
          `expected type ${documentedType(want)} in call to function ${JSON.stringify(name)}, got ${documentedType(got)}`,
        );
      }
    });
    return { kind: 'call', func: name, args };
  }
}
