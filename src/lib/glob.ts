/**
 * Shell-style patterns with exactly Go's `path.Match` semantics, used for
 * `scale.extraMachinePools` (docs/design/managed-flow.md#the-operator-configmap).
 *
 * Written by hand: minimatch, picomatch and micromatch implement bash/glob semantics (`!`
 * negation, braces, `**`, dot-file rules) and disagree with Go on classes and escapes; MUO's
 * users wrote their patterns for Go. Syntax:
 *
 *     pattern:  { term }
 *     term:     '*'  any sequence of non-'/' characters
 *               '?'  any single non-'/' character
 *               '[' [ '^' ] { range } ']'  a character class (must be non-empty)
 *               c    the character c (c != '*', '?', '\\', '[')
 *               '\\' c  the character c
 *     range:    c (c != '\\', '-', ']')  |  '\\' c  |  lo '-' hi
 *
 * Like Go (since 1.16), a malformed pattern is reported even when the name already failed to
 * match. Characters are Unicode code points, as Go's runes.
 *
 * As in Go, each star commits to the first place where the chunk after it matches and never
 * backtracks into an earlier star, so matching takes polynomial time in the worst case, never the
 * exponential time of a backtracking regular expression (see lib/go-regexp.ts for those).
 */

/** The result of matching: `error` is set when the pattern is malformed (Go's ErrBadPattern). */
export interface GlobMatch {
  matched: boolean;
  error?: 'syntax error in pattern';
}

const BAD: GlobMatch = { matched: false, error: 'syntax error in pattern' };

/** True when `pattern` matches all of `name` (Go `path.Match`); a malformed pattern never matches. */
export function globMatches(pattern: string, name: string): boolean {
  return matchGlob(pattern, name).matched;
}

/** Undefined when `pattern` is well-formed, else Go's error text. */
export function globSyntaxError(pattern: string): string | undefined {
  return matchGlob(pattern, '').error;
}

/** Go's `path.Match(pattern, name)`: whether it matched, and the syntax error if any. */
export function matchGlob(pattern: string, name: string): GlobMatch {
  let pat = Array.from(pattern);
  let str = Array.from(name);
  outer: while (pat.length > 0) {
    const { star, chunk, rest } = scanChunk(pat);
    pat = rest;
    if (star && chunk.length === 0) {
      // A trailing star matches the rest of the name unless it has a '/'.
      return { matched: !str.includes('/') };
    }
    const first = matchChunk(chunk, str);
    if (first === 'bad') return BAD;
    if (first !== undefined && (first.length === 0 || pat.length > 0)) {
      str = first;
      continue;
    }
    if (star) {
      // Let the star swallow more and more characters (never a '/').
      for (let i = 0; i < str.length && str[i] !== '/'; i++) {
        const t = matchChunk(chunk, str.slice(i + 1));
        if (t === 'bad') return BAD;
        if (t !== undefined) {
          // The last chunk must consume the whole name.
          if (pat.length === 0 && t.length > 0) continue;
          str = t;
          continue outer;
        }
      }
    }
    // No match: still report a syntax error later in the pattern.
    while (pat.length > 0) {
      const next = scanChunk(pat);
      pat = next.rest;
      if (matchChunk(next.chunk, []) === 'bad') return BAD;
    }
    return { matched: false };
  }
  return { matched: str.length === 0 };
}

/** Splits off the leading stars and the following run of non-star terms. */
function scanChunk(pat: string[]): { star: boolean; chunk: string[]; rest: string[] } {
  let i = 0;
  while (pat[i] === '*') i++;
  const star = i > 0;
  const start = i;
  let inClass = false;
  for (; i < pat.length; i++) {
    const c = pat[i];
    if (c === '\\') {
      // Skip the escaped character (a trailing backslash is caught by matchChunk).
      if (i + 1 < pat.length) i++;
    } else if (c === '[') {
      inClass = true;
    } else if (c === ']') {
      inClass = false;
    } else if (c === '*' && !inClass) {
      break;
    }
  }
  return { star, chunk: pat.slice(start, i), rest: pat.slice(i) };
}

/**
 * Matches a star-free chunk at the start of `s`: the unmatched rest of `s`, undefined when it
 * does not match, or 'bad' for a malformed chunk (checked to its end even after a mismatch).
 */
function matchChunk(chunk: readonly string[], text: readonly string[]): string[] | undefined | 'bad' {
  let failed = false;
  let si = 0;
  let ci = 0;
  while (ci < chunk.length) {
    if (!failed && si >= text.length) failed = true;
    const c = chunk[ci];
    if (c === '[') {
      const r = failed ? undefined : text[si++];
      ci++;
      const negated = chunk[ci] === '^';
      if (negated) ci++;
      let hit = false;
      let ranges = 0;
      for (;;) {
        if (ci < chunk.length && chunk[ci] === ']' && ranges > 0) {
          ci++;
          break;
        }
        const lo = classChar(chunk, ci);
        if (lo === undefined) return 'bad';
        let hi = lo;
        ci = lo.next;
        if (chunk[ci] === '-') {
          const h = classChar(chunk, ci + 1);
          if (h === undefined) return 'bad';
          hi = h;
          ci = h.next;
        }
        if (r !== undefined && lo.cp <= codePoint(r) && codePoint(r) <= hi.cp) hit = true;
        ranges++;
      }
      if (hit === negated) failed = true;
    } else if (c === '?') {
      if (!failed) {
        if (text[si] === '/') failed = true;
        si++;
      }
      ci++;
    } else {
      if (c === '\\') {
        ci++;
        if (ci >= chunk.length) return 'bad';
      }
      if (!failed) {
        if (chunk[ci] !== text[si]) failed = true;
        si++;
      }
      ci++;
    }
  }
  return failed ? undefined : text.slice(si);
}

/** One possibly escaped character of a class; undefined when malformed or unterminated. */
function classChar(chunk: readonly string[], at: number): { cp: number; next: number } | undefined {
  let i = at;
  const c = chunk[i];
  if (c === undefined || c === '-' || c === ']') return undefined;
  if (c === '\\') {
    i++;
    if (i >= chunk.length) return undefined;
  }
  const ch = chunk[i];
  if (ch === undefined) return undefined;
  i++;
  // The class must be closed by something after this character.
  if (i >= chunk.length) return undefined;
  return { cp: codePoint(ch), next: i };
}

function codePoint(ch: string): number {
  return ch.codePointAt(0) ?? -1;
}
