/**
 * Regular expressions that come from users, with Go's `regexp` syntax, semantics and error texts,
 * matched in time linear in the input. Every user-written pattern goes through here: the operator
 * ConfigMap's namespace patterns, CRD `pattern`s and CEL's regex functions in the embedded API
 * server, label matchers of the simulated Prometheus and Alertmanager, scenario files. The
 * operators and servers we stand in for (MUO, APPUiO's controller, kube-apiserver, Prometheus,
 * Alertmanager) all use Go's RE2 engine; JavaScript's RegExp backtracks, so `^(a+)+$` against 41
 * characters pins a CPU for good, and its syntax means other things (`\Z`, look-arounds).
 *
 * The engine is re2js: a maintained, dependency-free JavaScript port of RE2 (through RE2/J, the
 * same parser and automata as Go's regexp), linear in the input, with Go's error messages
 * (`error parsing regexp: missing closing ): \`(\``). The alternatives need a native addon whose
 * binaries are downloaded from outside the npm registry (`re2`) or are no longer maintained
 * (`re2-wasm`).
 *
 * re2js is one 260 KB module that costs more to load than the rest of `hook-env`'s start-up, and
 * most runs compile no pattern, so it is required (its CommonJS build: compiling is synchronous)
 * the first time a pattern is compiled (docs/design/command-line.md#lazy-commands). Its values
 * come only from here.
 */
import { createRequire } from 'node:module';
import type * as Re2js from 're2js';

let engine: typeof Re2js | undefined;

/** The re2js package, required the first time it is asked for. */
function re2js(): typeof Re2js {
  engine ??= createRequire(import.meta.url)('re2js') as typeof Re2js;
  return engine;
}

/** A compiled Go regular expression. */
export interface GoRegexp {
  /** The expression as written. */
  readonly source: string;
  /** Whether it matches somewhere in `text` (Go's `MatchString`). */
  test(text: string): boolean;
  /** The leftmost match with its groups (index 0: the whole match; unmatched groups undefined), or undefined. */
  exec(text: string): GoMatch | undefined;
  /** The successive non-overlapping matches (Go's `FindAllString(text, -1)`). */
  findAll(text: string): string[];
}

/** A match: the groups by index and the named groups by name. */
export interface GoMatch {
  readonly groups: ReadonlyArray<string | undefined>;
  readonly named: Readonly<Record<string, string | undefined>>;
}

/** A compiled expression, or Go's error text for it. */
export type GoRegexpResult = { ok: true; regexp: GoRegexp } | { ok: false; error: string };

/** Compiles `source` as Go's `regexp.Compile` does (unanchored). */
export function compileGoRegexp(source: string): GoRegexpResult {
  return compiled(source, source);
}

/**
 * Compiles `source` to match a whole string, as label matchers do. Alertmanager compiles
 * `^(?:source)$`, so its errors quote fragments of that expression. Prometheus (`dotAll`) parses
 * `source` with `.` matching a newline too, then matches it anchored: its errors quote `source`.
 */
export function compileAnchoredGoRegexp(source: string, options: { dotAll?: boolean } = {}): GoRegexpResult {
  if (!options.dotAll) return compiled(`^(?:${source})$`, source);
  // The flag changes no verdict, only what `.` matches; the error is the one of `source` alone.
  const alone = compiled(source, source);
  return alone.ok ? compiled(`^(?s:${source})$`, source) : alone;
}

function compiled(expression: string, source: string): GoRegexpResult {
  const { RE2JS, RE2JSException } = re2js();
  let re: Re2js.RE2JS;
  try {
    re = RE2JS.compile(expression);
  } catch (err) {
    if (err instanceof RE2JSException) return { ok: false, error: goErrorText(err.message) };
    throw err;
  }
  return { ok: true, regexp: wrap(re, source) };
}

function wrap(re: Re2js.RE2JS, source: string): GoRegexp {
  return {
    source,
    test: (text) => re.test(text),
    exec: (text) => {
      const matcher = re.matcher(text);
      if (!matcher.find()) return undefined;
      const groups: Array<string | undefined> = [];
      for (let index = 0; index <= matcher.groupCount(); index++) groups.push(matcher.group(index) ?? undefined);
      const named: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(matcher.getNamedGroups())) named[name] = value ?? undefined;
      return { groups, named };
    },
    findAll: (text) => {
      const out: string[] = [];
      const matcher = re.matcher(text);
      while (matcher.find()) out.push(matcher.group() ?? '');
      return out;
    },
  };
}

/** re2js words one error differently from Go: Go quotes its (empty) fragment after a trailing backslash. */
function goErrorText(message: string): string {
  return message.endsWith('trailing backslash at end of expression') ? `${message}: \`\`` : message;
}
