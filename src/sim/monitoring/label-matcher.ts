/**
 * Prometheus label matchers (`=`, `!=`, `=~`, `!~`) with Prometheus semantics: regular
 * expressions are Go's, fully anchored (`^(?s:re)$`; Alertmanager's `^(?:re)$`), and a label that
 * is absent equals "". Shared by the PromQL evaluator, the rule evaluator and the simulated
 * Alertmanager.
 */
import { compileAnchoredGoRegexp, type GoRegexp } from '../../lib/go-regexp.js';

/** The four matcher operators of PromQL and Alertmanager. */
export type MatchType = '=' | '!=' | '=~' | '!~';

/** One matcher, as written in a selector: `name <type> "value"`. */
export interface LabelMatcher {
  name: string;
  type: MatchType;
  value: string;
}

/** A matcher compiled to a predicate over one label value ("" when the label is absent). */
export interface CompiledMatcher {
  readonly name: string;
  readonly type: MatchType;
  readonly value: string;
  /** True when the label value (or "" for an absent label) satisfies the matcher. */
  matches(labelValue: string): boolean;
}

/** Thrown by {@link compileMatcher} for a regular expression Go's regexp refuses (Go's error text). */
export class InvalidMatcherError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidMatcherError';
  }
}

/** Compiled regexes by dialect and source, bounded (matchers repeat across rule evaluations). */
const regexCache = new Map<string, GoRegexp>();

/** The anchored regular expression for a matcher value; `dotAll` is Prometheus' dialect. */
function anchoredRegex(source: string, dotAll: boolean): GoRegexp {
  const key = `${dotAll ? 's' : '-'}${source}`;
  let re = regexCache.get(key);
  if (re === undefined) {
    const compiled = compileAnchoredGoRegexp(source, { dotAll });
    if (!compiled.ok) throw new InvalidMatcherError(compiled.error);
    re = compiled.regexp;
    if (regexCache.size >= 1000) regexCache.clear();
    regexCache.set(key, re);
  }
  return re;
}

/**
 * Compiles a matcher; throws {@link InvalidMatcherError} for a bad regular expression. Prometheus'
 * dialect by default (`.` matches a newline); Alertmanager's with `dotAll: false`.
 */
export function compileMatcher(labelMatcher: LabelMatcher, options: { dotAll?: boolean } = {}): CompiledMatcher {
  const dotAll = options.dotAll ?? true;
  let test: (value: string) => boolean;
  switch (labelMatcher.type) {
    case '=':
      test = (v) => v === labelMatcher.value;
      break;
    case '!=':
      test = (v) => v !== labelMatcher.value;
      break;
    case '=~': {
      const re = anchoredRegex(labelMatcher.value, dotAll);
      test = (v) => re.test(v);
      break;
    }
    case '!~': {
      const re = anchoredRegex(labelMatcher.value, dotAll);
      test = (v) => !re.test(v);
      break;
    }
  }
  return { name: labelMatcher.name, type: labelMatcher.type, value: labelMatcher.value, matches: test };
}

/** True when every matcher matches the label set (missing labels count as ""). */
export function matchesLabels(
  matchers: ReadonlyArray<LabelMatcher | CompiledMatcher>,
  labels: Readonly<Record<string, string>>,
): boolean {
  for (const m of matchers) {
    const c = 'matches' in m ? m : compileMatcher(m);
    if (!c.matches(labels[m.name] ?? '')) return false;
  }
  return true;
}

/** True when the matcher matches the empty string (so it also selects series lacking the label). */
export function matchesEmpty(matcher: LabelMatcher | CompiledMatcher): boolean {
  const c = 'matches' in matcher ? matcher : compileMatcher(matcher);
  return c.matches('');
}

/** The matcher as PromQL prints it: `name="value"` with Go-style quoting. */
export function formatMatcher(labelMatcher: LabelMatcher): string {
  return `${labelMatcher.name}${labelMatcher.type}${JSON.stringify(labelMatcher.value)}`;
}
