/**
 * Go (RE2) regular-expression syntax errors, worded as Go's regexp/syntax words them.
 *
 * Alertmanager compiles matcher regexes with Go's `regexp`, whose syntax and error messages
 * differ from JavaScript's: Go rejects look-arounds and back-references that JavaScript takes,
 * and its messages (`missing closing ): \`(\``) are part of what a client sees in a 400 body.
 * No npm package reproduces Go's parser errors, so this is a small hand-written checker for the
 * errors people actually hit. It also translates the few Go-only spellings JavaScript lacks.
 */

const PERL_CLASS_ESCAPES = new Set(['d', 'D', 's', 'S', 'w', 'W']);
const OTHER_ESCAPES = new Set(['a', 'f', 't', 'n', 'r', 'v', 'b', 'B', 'A', 'z', 'x', 'p', 'P', 'Q', 'E']);
const POSIX_CLASSES = new Set([
  'alnum',
  'alpha',
  'ascii',
  'blank',
  'cntrl',
  'digit',
  'graph',
  'lower',
  'print',
  'punct',
  'space',
  'upper',
  'word',
  'xdigit',
]);
const MAX_REPEAT = 1000;

/** Go's `error parsing regexp: <code>: \`<fragment>\`` text. */
function goError(code: string, fragment: string): string {
  return `error parsing regexp: ${code}: \`${fragment}\``;
}

/**
 * The error Go's `regexp.Compile(expr)` would return, or undefined when Go accepts `expr`.
 * Covers unbalanced parentheses and brackets, bad repetitions and repeat counts, unsupported
 * Perl groups (look-arounds, `(?<name>` in Go < 1.22), bad escapes and class ranges.
 */
export function goRegexpError(expr: string): string | undefined {
  let depth = 0;
  /** Can the next repetition operator apply to something? */
  let hasOperand = false;
  /** Start index of the repetition just parsed, if the previous item was one. */
  let lastRepeat = -1;
  let i = 0;
  while (i < expr.length) {
    const c = expr[i]!;
    const repeatStart = i;
    if (c === '*' || c === '+' || c === '?' || (c === '{' && repeatAt(expr, i) !== undefined)) {
      let end = i + 1;
      if (c === '{') {
        const rep = repeatAt(expr, i)!;
        end = rep.end;
        if (rep.min > MAX_REPEAT || (rep.max !== undefined && (rep.max > MAX_REPEAT || rep.max < rep.min))) {
          return goError('invalid repeat count', expr.slice(i, end));
        }
      }
      if (expr[end] === '?') end++;
      if (lastRepeat >= 0) return goError('invalid nested repetition operator', expr.slice(lastRepeat, end));
      if (!hasOperand) return goError('missing argument to repetition operator', expr.slice(i, end));
      lastRepeat = repeatStart;
      i = end;
      continue;
    }
    lastRepeat = -1;
    switch (c) {
      case '(': {
        if (expr[i + 1] === '?') {
          const group = perlGroupEnd(expr, i);
          if (typeof group === 'string') return group;
          if (group.flagsOnly) {
            i = group.end;
            continue; // (?i) changes flags; it is no operand
          }
          i = group.end;
        } else {
          i++;
        }
        depth++;
        hasOperand = false;
        continue;
      }
      case ')':
        if (depth === 0) return goError('unexpected )', expr);
        depth--;
        hasOperand = true;
        i++;
        continue;
      case '|':
        hasOperand = false;
        i++;
        continue;
      case '[': {
        const end = classEnd(expr, i);
        if (typeof end === 'string') return end;
        i = end;
        hasOperand = true;
        continue;
      }
      case '\\': {
        const end = escapeEnd(expr, i);
        if (typeof end === 'string') return end;
        i = end;
        hasOperand = true;
        continue;
      }
      default:
        i += c.length;
        hasOperand = true;
    }
  }
  if (depth > 0) return goError('missing closing )', expr);
  return undefined;
}

/** `{n}`, `{n,}` or `{n,m}` at i, or undefined when the brace is a literal (as in Go). */
function repeatAt(expr: string, index: number): { min: number; max: number | undefined; end: number } | undefined {
  const m = /^\{(\d+)(,(\d*))?\}/.exec(expr.slice(index));
  if (!m) return undefined;
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : m[3] === '' ? undefined : Number(m[3]);
  return { min, max, end: index + m[0].length };
}

/** Parses `(?…` at i: a group opener or a flag group; returns an error text for the rest. */
function perlGroupEnd(expr: string, index: number): { end: number; flagsOnly: boolean } | string {
  const rest = expr.slice(index);
  if (rest.startsWith('(?P<')) {
    const m = /^\(\?P<([A-Za-z0-9_]+)>/.exec(rest);
    if (!m) {
      const close = rest.indexOf('>');
      return goError('invalid named capture', close < 0 ? rest : rest.slice(0, close + 1));
    }
    return { end: index + m[0].length, flagsOnly: false };
  }
  const flags = /^\(\?(-?[imsU]+(?:-[imsU]*)?)?([:)])/.exec(rest);
  if (flags && (flags[1] !== undefined || flags[2] === ':')) {
    return { end: index + flags[0].length, flagsOnly: flags[2] === ')' };
  }
  if (rest.length < 3) return goError('missing closing )', expr);
  return goError('invalid or unsupported Perl syntax', rest.slice(0, 3));
}

/** Index after the bracket expression starting at i, or Go's error text. */
function classEnd(expr: string, start: number): number | string {
  let i = start + 1;
  if (expr[i] === '^') i++;
  let first = true;
  while (i < expr.length) {
    const c = expr[i]!;
    if (c === ']' && !first) return i + 1;
    first = false;
    if (c === '[' && expr[i + 1] === ':') {
      const close = expr.indexOf(':]', i + 2);
      if (close >= 0) {
        const name = expr.slice(i + 2, close).replace(/^\^/, '');
        if (!POSIX_CLASSES.has(name)) return goError('invalid character class range', expr.slice(i, close + 2));
        i = close + 2;
        continue;
      }
    }
    const lo = classChar(expr, i);
    if (typeof lo === 'string') return lo;
    if (expr[lo.end] === '-' && lo.end + 1 < expr.length && expr[lo.end + 1] !== ']') {
      const hi = classChar(expr, lo.end + 1);
      if (typeof hi === 'string') return hi;
      if (lo.code !== undefined && hi.code !== undefined && hi.code < lo.code) {
        return goError('invalid character class range', expr.slice(i, hi.end));
      }
      i = hi.end;
    } else {
      i = lo.end;
    }
  }
  return goError('missing closing ]', expr.slice(start));
}

/** One class member at i: its code point (undefined for \d and the like) and end. */
function classChar(expr: string, index: number): { code: number | undefined; end: number } | string {
  if (expr[index] !== '\\') {
    const cp = expr.codePointAt(index)!;
    return { code: cp, end: index + String.fromCodePoint(cp).length };
  }
  const end = escapeEnd(expr, index);
  if (typeof end === 'string') return end;
  const letter = expr[index + 1]!;
  const simple: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };
  if (/[A-Za-z0-9]/.test(letter)) return { code: simple[letter], end };
  return { code: letter.codePointAt(0), end };
}

/** Index after the escape at i (a backslash), or Go's error text. */
function escapeEnd(expr: string, index: number): number | string {
  const next = expr[index + 1];
  if (next === undefined) return goError('trailing backslash at end of expression', '');
  if (PERL_CLASS_ESCAPES.has(next) || next === 'a' || next === 'f' || next === 't' || next === 'n' || next === 'r') {
    return index + 2;
  }
  if (next === 'x') {
    const m = /^\\x(\{[0-9A-Fa-f]+\}|[0-9A-Fa-f]{2})/.exec(expr.slice(index));
    return m ? index + m[0].length : goError('invalid escape sequence', expr.slice(index, index + 2));
  }
  if (next === 'p' || next === 'P') {
    const m = /^\\[pP](\{\^?[A-Za-z_]+\}|[A-Za-z])/.exec(expr.slice(index));
    return m ? index + m[0].length : goError('invalid character class range', expr.slice(index, index + 3));
  }
  if (next === 'Q') {
    const close = expr.indexOf('\\E', index + 2);
    return close < 0 ? expr.length : close + 2;
  }
  if (OTHER_ESCAPES.has(next)) return index + 2;
  if (next === '0') return index + 2;
  if (/[A-Za-z0-9]/.test(next)) return goError('invalid escape sequence', expr.slice(index, index + 2));
  return index + 1 + next.length;
}

/**
 * The JavaScript spelling of a Go regex Go accepts: named groups `(?P<n>` become `(?<n>`,
 * `\A` and `\z` become `^` and `$`. Other Go-only syntax (inline flags) is left as is and
 * fails to compile in JavaScript.
 */
export function goRegexpToJs(expr: string): string {
  return expr
    .replace(/\(\?P</g, '(?<')
    .replace(/\\A/g, '^')
    .replace(/\\z/g, '$');
}
