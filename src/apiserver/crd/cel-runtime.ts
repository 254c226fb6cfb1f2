/**
 * `@bufbuild/cel`, loaded on first use. Validation is synchronous, and most objects a command
 * admits reach no `x-kubernetes-validations` rule, so the CEL evaluator (with its protobuf
 * runtime, about 130 modules and 110 ms at start-up) is required synchronously, through the
 * package's CommonJS build, the first time a rule is compiled, not imported when the schema
 * validation code loads (docs/benchmarks.md#start-up-and-footprint-issue-17). Every value of
 * the package (functions, types, errors) must come from here: mixing them with the ES module
 * build would mix two copies of it.
 */
import { createRequire } from 'node:module';
import type * as Cel from '@bufbuild/cel';
import type * as CelExt from '@bufbuild/cel/ext';

/** The package and its extensions. */
export interface CelRuntime {
  readonly cel: typeof Cel;
  readonly ext: typeof CelExt;
}

let runtime: CelRuntime | undefined;

/** The CEL package, required the first time it is asked for. */
export function celRuntime(): CelRuntime {
  if (runtime === undefined) {
    const require = createRequire(import.meta.url);
    runtime = { cel: require('@bufbuild/cel') as typeof Cel, ext: require('@bufbuild/cel/ext') as typeof CelExt };
  }
  return runtime;
}
