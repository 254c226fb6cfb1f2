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
 *
 * Most patterns users write (`^[a-z][a-z0-9-]*$`, `openshift-.*`, the CRDs' `pattern`s) never
 * reach it: `go-regexp-native.ts` translates an expression to a JavaScript `RegExp` where both
 * engines are known to agree and the backtracking stays linear, and re2js takes all the rest,
 * including every expression Go refuses (its error texts).
 */
import { createRequire } from 'node:module';
import type * as Re2js from 're2js';
import { translateGoRegexp, type NativeTranslation } from './go-regexp-native.js';

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
  if (!alone.ok) return alone;
  // `source` compiles alone, so its groups are balanced and `(?s:…)` covers all of it.
  return compiled(`^(?s:${source})$`, source, translateGoRegexp(`^(?:${source})$`, { dotAll: true }));
}

function compiled(
  expression: string,
  source: string,
  native: NativeTranslation = translateGoRegexp(expression),
): GoRegexpResult {
  if (native.ok) return { ok: true, regexp: wrapNative(native.source, source) };
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
      const matcher = re.matcher(text);
      return goFindAll(text, (from) => (matcher.find(from) ? [matcher.start(), matcher.end()] : undefined));
    },
  };
}

function wrapNative(translated: string, source: string): GoRegexp {
  const once = new RegExp(translated, 'u');
  const searching = new RegExp(translated, 'gu');
  return {
    source,
    test: (text) => once.test(text),
    exec: (text) => {
      const match = once.exec(text);
      // Named groups are left to re2js, so there are none here.
      return match ? { groups: Array.from(match, (group: string | undefined) => group), named: {} } : undefined;
    },
    findAll: (text) =>
      goFindAll(text, (start) => {
        searching.lastIndex = start;
        const match = searching.exec(text);
        return match ? [match.index, match.index + match[0].length] : undefined;
      }),
  };
}

/**
 * Go's `FindAllString(text, -1)` over `next(from)`, the leftmost match starting at or after
 * `from` (UTF-16 offsets): after an empty match the search moves on by one character, and an
 * empty match right where the previous match ended is dropped (`a*` in `baaa`: `""`, `"aaa"`).
 */
function goFindAll(text: string, next: (from: number) => readonly [number, number] | undefined): string[] {
  const out: string[] = [];
  let previousEnd = -1;
  for (let from = 0; from <= text.length;) {
    const match = next(from);
    if (!match) break;
    const [start, end] = match;
    const accepted = end !== from || start !== previousEnd;
    if (end === from) from += (text.codePointAt(from) ?? 0) > 0xffff ? 2 : 1;
    else from = end;
    previousEnd = end;
    if (accepted) out.push(text.slice(start, end));
  }
  return out;
}

/** re2js words one error differently from Go: Go quotes its (empty) fragment after a trailing backslash. */
function goErrorText(message: string): string {
  return message.endsWith('trailing backslash at end of expression') ? `${message}: \`\`` : message;
}
