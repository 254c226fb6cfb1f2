/**
 * What the per-kind rules of `validate` share (src/cli/validate-objects.ts): the shape of one
 * kind's rules and findings, and the helpers that word them. Each kind's rules are a module of
 * their own, imported only when an object of that kind is judged, so that `validate` of one file
 * loads the operator code of the kinds in it and no other.
 */
import type { JsonObject } from '../../lib/json.js';
import type { ManagedOperatorConfig } from '../../managed/config/managed-operator-config.js';
import type { ValidateObjectsOptions, ValidationProblem } from '../validate-objects.js';

/** What one kind's operator rules found. */
export interface Findings {
  problems: ValidationProblem[];
  skipped: string[];
}

/** What every check of one run shares. */
export interface RunContext extends ValidateObjectsOptions {
  /**
   * The managed operator's configuration (from a ConfigMap among the inputs, else the defaults),
   * read when a rule first needs it.
   */
  operatorConfig(): Promise<ManagedOperatorConfig>;
}

/** One kind's CRD (as JSON, see src/cli/crds/) and the operator's rules for it. */
export interface KindRules {
  readonly crd: JsonObject;
  rules(object: JsonObject, ctx: RunContext): Promise<Findings> | Findings;
}

/** A finding of the operator's. */
export function operatorProblem(
  severity: 'error' | 'warning',
  message: string,
  extra: { field?: string | undefined; reason?: string | undefined } = {},
): ValidationProblem {
  return {
    source: 'operator',
    ...(extra.field !== undefined ? { field: extra.field } : {}),
    ...(extra.reason !== undefined ? { reason: extra.reason } : {}),
    message,
    severity,
  };
}

/** The field path a message starts with (`spec.start: …`, `spec.configSelector is …`). */
export function leadingField(message: string): string | undefined {
  return /^(spec(?:\.[A-Za-z0-9_]+|\[\d+\])*)/.exec(message)?.[1];
}

/** Why a check that compares with the running cluster was skipped. */
export const CHECK_NEEDS_CLUSTER = 'needs --cluster-version';
