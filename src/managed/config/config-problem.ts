/**
 * A problem found in the operator's configuration. Configuration never fails to load: each bad
 * or missing value falls back to its default, and the problem says which and why, so the
 * controller can put it in a condition, an Event, a metric and the log.
 */

/**
 * `error`: a value was set but cannot be used (a default or nothing was used instead);
 * `warning`: something has no effect (an unknown key or gate) or a value MUO requires is
 * missing and its default was used.
 */
export type ConfigProblemSeverity = 'error' | 'warning';

/** One problem with one configuration key. */
export interface ConfigProblem {
  /** Dotted path of the key, e.g. `nodeDrain.timeOut`, `scale.extraMachinePools[1]`. */
  key: string;
  /** What is wrong and what was used instead, e.g. `must be a positive number of minutes; using the default 45`. */
  message: string;
  severity: ConfigProblemSeverity;
}

/** `key: message` lines, for logs and condition messages. */
export function formatConfigProblems(problems: readonly ConfigProblem[]): string {
  return problems.map((p) => `${p.key}: ${p.message}`).join('; ');
}
