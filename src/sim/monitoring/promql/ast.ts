/**
 * The PromQL syntax tree the evaluator works on, converted from the lezer parse tree by
 * `parse.ts`. Durations are milliseconds.
 */
import type { LabelMatcher } from '../label-matcher.js';

/** Static type of an expression, as Prometheus names them in errors. */
export type ValueType = 'scalar' | 'vector' | 'matrix' | 'string';

/** Binary operators supported by the evaluator. */
export type BinaryOp =
  '+' | '-' | '*' | '/' | '%' | '^' | '==' | '!=' | '>' | '<' | '>=' | '<=' | 'and' | 'or' | 'unless';

/** Aggregation operators supported by the evaluator. */
export type AggregateOp = 'sum' | 'count' | 'max' | 'min' | 'avg' | 'group' | 'topk' | 'bottomk' | 'count_values';

/** Vector matching of a binary operation between two instant vectors. */
export interface VectorMatching {
  /** `one-to-many` is `group_right`, `many-to-one` is `group_left`; set operators are many-to-many. */
  card: 'one-to-one' | 'many-to-one' | 'one-to-many' | 'many-to-many';
  /** True for `on(...)`, false for `ignoring(...)` or no clause. */
  on: boolean;
  labels: string[];
  /** Extra labels copied from the "one" side (`group_left(x)`). */
  include: string[];
}

export interface NumberLiteral {
  kind: 'number';
  value: number;
}
export interface StringLiteral {
  kind: 'string';
  value: string;
}
export interface VectorSelector {
  kind: 'vector';
  name: string | undefined;
  matchers: LabelMatcher[];
  offsetMs: number;
}
export interface MatrixSelector {
  kind: 'matrix';
  selector: VectorSelector;
  rangeMs: number;
}
export interface UnaryExpr {
  kind: 'unary';
  op: '-' | '+';
  expr: Expr;
}
export interface ParenExpr {
  kind: 'paren';
  expr: Expr;
}
export interface BinaryExpr {
  kind: 'binary';
  op: BinaryOp;
  lhs: Expr;
  rhs: Expr;
  returnBool: boolean;
  /** Present when both sides are instant vectors. */
  matching: VectorMatching | undefined;
}
export interface AggregateExpr {
  kind: 'aggregate';
  op: AggregateOp;
  expr: Expr;
  param: Expr | undefined;
  grouping: string[];
  without: boolean;
}
export interface Call {
  kind: 'call';
  func: string;
  args: Expr[];
}

/** Any PromQL expression the evaluator understands. */
export type Expr =
  | NumberLiteral
  | StringLiteral
  | VectorSelector
  | MatrixSelector
  | UnaryExpr
  | ParenExpr
  | BinaryExpr
  | AggregateExpr
  | Call;

/** Prometheus' name for a value type in error messages. */
export function documentedType(valueType: ValueType): string {
  switch (valueType) {
    case 'vector':
      return 'instant vector';
    case 'matrix':
      return 'range vector';
    case 'scalar':
    case 'string':
      return valueType;
  }
}
