/**
 * Prometheus label matchers (`=`, `!=`, `=~`, `!~`) with Prometheus semantics: regular
 * expressions are fully anchored (`^(?:re)$`), and a label that is absent equals "".
 * Shared by the PromQL evaluator, the rule evaluator and the simulated Alertmanager.
 */

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

/** Thrown by {@link compileMatcher} for a regular expression JavaScript cannot compile. */
export class InvalidMatcherError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidMatcherError';
  }
}

const regexCache = new Map<string, RegExp>();

/**
 * The anchored regular expression for a matcher value. Go's RE2 syntax and JavaScript's agree
 * on everything PromQL users write in practice; the `s` flag makes `.` match newlines as
 * Prometheus does.
 */
function anchoredRegex(source: string): RegExp {
  let re = regexCache.get(source);
  if (re === undefined) {
    try {
      re = new RegExp(`^(?:${toJsRegexSource(source)})$`, 's');
    } catch (err) {
      throw new InvalidMatcherError(
        `error parsing regexp: ${err instanceof Error ? err.message : String(err)}: \`${source}\``,
      );
    }
    if (regexCache.size > 1000) regexCache.clear();
    regexCache.set(source, re);
  }
  return re;
}

/** RE2 spellings JavaScript lacks: named groups `(?P<name>…)` become `(?<name>…)`. */
export function toJsRegexSource(source: string): string {
  return source.replace(/\(\?P</g, '(?<');
}

/** Compiles a matcher; throws {@link InvalidMatcherError} for a bad regular expression. */
export function compileMatcher(labelMatcher: LabelMatcher): CompiledMatcher {
  let test: (value: string) => boolean;
  switch (labelMatcher.type) {
    case '=':
      test = (v) => v === labelMatcher.value;
      break;
    case '!=':
      test = (v) => v !== labelMatcher.value;
      break;
    case '=~': {
      const re = anchoredRegex(labelMatcher.value);
      test = (v) => re.test(v);
      break;
    }
    case '!~': {
      const re = anchoredRegex(labelMatcher.value);
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
