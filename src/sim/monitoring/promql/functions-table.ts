/**
 * The PromQL functions the simulated Prometheus supports, with their argument and return types
 * (used for Prometheus' static type checking). Anything else is rejected at parse time.
 */
import type { ValueType } from './ast.js';

/** A function's static signature. */
export interface FunctionSignature {
  readonly args: readonly ValueType[];
  /** How many trailing arguments may be left out. */
  readonly optional: number;
  readonly returns: ValueType;
}

const overTime = { args: ['matrix'], optional: 0, returns: 'vector' } as const;
const math = { args: ['vector'], optional: 0, returns: 'vector' } as const;

/** The supported functions by name. */
export const FUNCTIONS: Readonly<Record<string, FunctionSignature>> = {
  absent: { args: ['vector'], optional: 0, returns: 'vector' },
  absent_over_time: overTime,
  time: { args: [], optional: 0, returns: 'scalar' },
  vector: { args: ['scalar'], optional: 0, returns: 'vector' },
  scalar: { args: ['vector'], optional: 0, returns: 'scalar' },
  max_over_time: overTime,
  min_over_time: overTime,
  last_over_time: overTime,
  avg_over_time: overTime,
  sum_over_time: overTime,
  count_over_time: overTime,
  changes: overTime,
  rate: overTime,
  increase: overTime,
  delta: overTime,
  abs: math,
  ceil: math,
  floor: math,
  clamp_min: { args: ['vector', 'scalar'], optional: 0, returns: 'vector' },
  clamp_max: { args: ['vector', 'scalar'], optional: 0, returns: 'vector' },
  sort: math,
  sort_desc: math,
  label_replace: { args: ['vector', 'string', 'string', 'string', 'string'], optional: 0, returns: 'vector' },
};
