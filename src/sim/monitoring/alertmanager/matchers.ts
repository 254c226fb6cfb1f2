/**
 * Alertmanager matchers: the API's `{name, value, isRegex, isEqual}` shape, its validation
 * (`silence/silence.go`), and the `filter` query syntax (`pkg/labels/parse.go`), with the
 * wording Alertmanager 0.25 answers. Matching itself is the shared Prometheus semantics of
 * `../label-matcher.ts`.
 */
import { compileGoRegexp } from '../../../lib/go-regexp.js';
import {
  compileMatcher,
  InvalidMatcherError,
  type CompiledMatcher,
  type LabelMatcher,
  type MatchType,
} from '../label-matcher.js';

/** A matcher as the v2 API carries it; `isEqual` defaults to true. */
export interface ApiMatcher {
  name: string;
  value: string;
  isRegex: boolean;
  isEqual?: boolean;
}

/** A silence matcher with its defaults filled in, as the API returns it. */
export interface SilenceMatcher {
  name: string;
  value: string;
  isRegex: boolean;
  isEqual: boolean;
}

/** Raised for input Alertmanager rejects; `message` is its exact text. */
export class MatcherError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MatcherError';
  }
}

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** Prometheus `model.LabelName.IsValid`. */
export function isValidLabelName(name: string): boolean {
  return LABEL_NAME.test(name);
}

/** Go's `%q` for the strings that occur here (JSON quoting agrees for printable text). */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}

/** The PromQL-style match type of an API matcher. */
export function matchTypeOf(apiMatcher: ApiMatcher): MatchType {
  const equal = apiMatcher.isEqual ?? true;
  if (apiMatcher.isRegex) return equal ? '=~' : '!~';
  return equal ? '=' : '!=';
}

/** The label matcher for an API matcher. */
export function toLabelMatcher(apiMatcher: ApiMatcher): LabelMatcher {
  return { name: apiMatcher.name, type: matchTypeOf(apiMatcher), value: apiMatcher.value };
}

/**
 * Compiles as Alertmanager's `labels.NewMatcher` does (a regex anchored as `^(?:re)$`, `.` not
 * matching a newline); a bad regex throws {@link MatcherError} with Go's error text.
 */
export function compileApiMatcher(apiMatcher: ApiMatcher): CompiledMatcher {
  try {
    return compileMatcher(toLabelMatcher(apiMatcher), { dotAll: false });
  } catch (err) {
    if (err instanceof InvalidMatcherError) throw new MatcherError(err.message);
    throw err;
  }
}

/**
 * Validates the matchers of a silence as `validateSilence` does and returns them with
 * defaults filled in; throws {@link MatcherError} (without the `silence invalid: ` prefix).
 */
export function validateSilenceMatchers(matchers: readonly ApiMatcher[]): SilenceMatcher[] {
  if (matchers.length === 0) throw new MatcherError('at least one matcher required');
  let allMatchEmpty = true;
  const out: SilenceMatcher[] = [];
  matchers.forEach((apiMatcher, index) => {
    if (!isValidLabelName(apiMatcher.name))
      throw new MatcherError(`invalid label matcher ${index}: invalid label name ${goQuote(apiMatcher.name)}`);
    if (apiMatcher.isRegex) {
      // validateSilence compiles the value as written (unanchored).
      const regex = compileGoRegexp(apiMatcher.value);
      if (!regex.ok)
        throw new MatcherError(
          `invalid label matcher ${index}: invalid regular expression ${goQuote(apiMatcher.value)}: ${regex.error}`,
        );
    }
    const compiled = compileApiMatcher(apiMatcher);
    allMatchEmpty &&= compiled.matches('');
    out.push({
      name: apiMatcher.name,
      value: apiMatcher.value,
      isRegex: apiMatcher.isRegex,
      isEqual: apiMatcher.isEqual ?? true,
    });
  });
  if (allMatchEmpty) throw new MatcherError('at least one matcher must not match the empty string');
  return out;
}

const MATCHER_RE = /^\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(=~|=|!=|!~)\s*([\s\S]*?)\s*$/;

/**
 * `labels.ParseMatcher`: one `name<op>value` matcher, the value optionally double-quoted. Both
 * `filter` parameters (silences and alerts) take one matcher each in Alertmanager 0.25.
 */
export function parseMatcher(text: string): LabelMatcher {
  const m = MATCHER_RE.exec(text);
  if (!m) throw new MatcherError(`bad matcher format: ${text}`);
  const name = m[1]!;
  const type = m[2] as MatchType;
  const raw = m[3]!;
  let body = raw;
  let expectTrailingQuote = false;
  if (body.startsWith('"')) {
    body = body.slice(1);
    expectTrailingQuote = true;
  }
  let value = '';
  let escaped = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (escaped) {
      escaped = false;
      value += c === 'n' ? '\n' : c === '"' || c === '\\' ? c : `\\${c}`;
      continue;
    }
    if (c === '\\') {
      if (i < body.length - 1) escaped = true;
      else value += '\\';
    } else if (c === '"') {
      if (!expectTrailingQuote || i < body.length - 1) {
        throw new MatcherError(`matcher value contains unescaped double quote: ${raw}`);
      }
      expectTrailingQuote = false;
    } else {
      value += c;
    }
  }
  if (expectTrailingQuote) throw new MatcherError(`matcher value contains unescaped double quote: ${raw}`);
  return { name, type, value };
}

/**
 * Compiles a filter matcher as `labels.NewMatcher` does (regexes anchored as `^(?:re)$`),
 * throwing {@link MatcherError} with Go's message for a bad regex.
 */
export function compileFilterMatcher(labelMatcher: LabelMatcher): CompiledMatcher {
  return compileApiMatcher({
    name: labelMatcher.name,
    value: labelMatcher.value,
    isRegex: labelMatcher.type === '=~' || labelMatcher.type === '!~',
    isEqual: labelMatcher.type === '=' || labelMatcher.type === '=~',
  });
}

/**
 * Alertmanager 0.25's silence filter: a silence passes when, for every filter matcher, it has
 * a matcher with the same name, type and value (matchers are compared, not evaluated).
 */
export function silenceMatchesFilter(silence: readonly SilenceMatcher[], filter: readonly LabelMatcher[]): boolean {
  return filter.every((f) =>
    silence.some((m) => m.name === f.name && m.value === f.value && matchTypeOf(m) === f.type),
  );
}
