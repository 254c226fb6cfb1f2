/**
 * Go (RE2) regular expressions compiled as JavaScript RegExps, for
 * `nodeDrain.ignoredNamespacePatterns` (docs/design/managed-flow.md#the-operator-configmap:
 * unanchored, `regexp.MatchString`).
 *
 * Written by hand because no library translates RE2 syntax to JS (re2 bindings are native
 * addons). The two syntaxes mostly agree; this module translates the RE2 forms JS spells
 * differently and rejects what would silently mean something else in JS or what RE2 lacks:
 *
 * - translated: `(?P<name>…)` → `(?<name>…)`; leading flags `(?i)`, `(?s)`, `(?m)` (and
 *   combinations) → RegExp flags; `\A`, `\z`; `\Q…\E`; `\a`; `\x{HHHH}`; `\pL`/`\p{Greek}`
 *   (compiled in Unicode mode); POSIX classes such as `[[:alpha:]]`; a `]` first in a class;
 *   `\s`/`\S` (RE2's ASCII white space, not Unicode's).
 * - rejected: backreferences and octal escapes (`\1`), lookahead and lookbehind, atomic
 *   groups, inline flags anywhere but the start or with `U`/`-`, escapes RE2 does not know
 *   (`\Z`, `\u…`, `\c…`, `\k…`), negated POSIX classes, repeat counts above 1000.
 */

/** A compiled pattern, or why it cannot be used. */
export type GoRegexpResult = { ok: true; regexp: RegExp } | { ok: false; error: string };

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z',
  alpha: 'A-Za-z',
  ascii: '\\x00-\\x7F',
  blank: '\\t ',
  cntrl: '\\x00-\\x1F\\x7F',
  digit: '0-9',
  graph: '!-~',
  lower: 'a-z',
  print: ' -~',
  punct: '!-/:-@[-`{-~',
  space: '\\t\\n\\v\\f\\r ',
  upper: 'A-Z',
  word: '0-9A-Za-z_',
  xdigit: '0-9A-Fa-f',
};

/** Escapes of letters that mean the same in RE2 and JS. */
const SAME_LETTER_ESCAPES = new Set(['d', 'D', 'w', 'W', 'f', 't', 'n', 'r', 'v']);

class Reject extends Error {}

/** Compiles a Go regular expression (unanchored, as `regexp.MatchString` uses it). */
export function compileGoRegexp(source: string): GoRegexpResult {
  try {
    const { pattern, flags } = translate(source);
    return { ok: true, regexp: new RegExp(pattern, flags) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, error: err instanceof Reject ? message : `invalid regular expression: ${message}` };
  }
}

function translate(source: string): { pattern: string; flags: string } {
  let src = source;
  let flags = '';
  const lead = /^\(\?([a-zA-Z-]+)\)/.exec(src);
  if (lead) {
    const f = lead[1] ?? '';
    if (!/^[ims]+$/.test(f)) throw new Reject(`flags (?${f}) are not supported (only i, m and s)`);
    flags = [...new Set(f)].join('');
    src = src.slice(lead[0].length);
  }
  let out = '';
  let unicode = false;
  let i = 0;
  const chars = Array.from(src);
  while (i < chars.length) {
    const c = chars[i] ?? '';
    if (c === '\\') {
      const r = escape(chars, i, false);
      out += r.text;
      unicode ||= r.unicode;
      i = r.next;
    } else if (c === '[') {
      const r = charClass(chars, i);
      out += r.text;
      unicode ||= r.unicode;
      i = r.next;
    } else if (c === '(' && chars[i + 1] === '?') {
      const rest = chars.slice(i + 2, i + 4).join('');
      if (rest.startsWith(':')) {
        out += '(?:';
        i += 3;
      } else if (rest === 'P<') {
        out += '(?<';
        i += 4;
      } else if (rest.startsWith('<') && rest !== '<=' && rest !== '<!') {
        out += '(?<';
        i += 3;
      } else if (rest.startsWith('=') || rest.startsWith('!') || rest === '<=' || rest === '<!') {
        throw new Reject('lookahead and lookbehind are not supported by Go regular expressions');
      } else {
        throw new Reject(`group (?${rest}… is not supported (inline flags only at the start of the pattern)`);
      }
    } else if (c === '{') {
      const m = /^\{(\d+)(?:,(\d*))?\}/.exec(chars.slice(i, i + 20).join(''));
      if (m && (Number(m[1]) > 1000 || Number(m[2] ?? 0) > 1000))
        throw new Reject(`invalid repeat count ${m[0]} (at most 1000)`);
      out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return { pattern: out, flags: unicode ? `${flags}u` : flags };
}

/** Translates the escape at `chars[at]` (a backslash), inside a class or not. */
function escape(
  chars: readonly string[],
  at: number,
  inClass: boolean,
): { text: string; next: number; unicode: boolean } {
  const c = chars[at + 1];
  if (c === undefined) throw new Reject('trailing backslash at end of expression');
  const next = at + 2;
  if (/^[0-9]$/.test(c)) throw new Reject(`backreferences and octal escapes are not supported (\\${c})`);
  if (SAME_LETTER_ESCAPES.has(c)) return { text: `\\${c}`, next, unicode: false };
  switch (c) {
    case 'a':
      return { text: '\\x07', next, unicode: false };
    case 's':
      return { text: inClass ? '\\t\\n\\f\\r ' : '[\\t\\n\\f\\r ]', next, unicode: false };
    case 'S':
      if (inClass) throw new Reject('\\S inside a character class is not supported');
      return { text: '[^\\t\\n\\f\\r ]', next, unicode: false };
    case 'b':
    case 'B':
      if (inClass) throw new Reject(`invalid escape \\${c} inside a character class`);
      return { text: `\\${c}`, next, unicode: false };
    case 'A':
    case 'z':
      if (inClass) throw new Reject(`invalid escape \\${c} inside a character class`);
      return { text: c === 'A' ? '(?<![\\s\\S])' : '(?![\\s\\S])', next, unicode: false };
    case 'x': {
      const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(chars.slice(next, next + 9).join(''));
      if (braced) return { text: `\\u{${braced[1] ?? ''}}`, next: next + braced[0].length, unicode: true };
      const two = chars.slice(next, next + 2).join('');
      if (/^[0-9A-Fa-f]{2}$/.test(two)) return { text: `\\x${two}`, next: next + 2, unicode: false };
      throw new Reject('invalid escape \\x (expected \\xHH or \\x{H…})');
    }
    case 'p':
    case 'P': {
      const braced = /^\{\^?([A-Za-z_]+)\}/.exec(chars.slice(next, next + 40).join(''));
      if (braced) {
        const neg = braced[0].startsWith('{^') ? (c === 'p' ? 'P' : 'p') : c;
        return { text: `\\${neg}{${unicodeClass(braced[1] ?? '')}}`, next: next + braced[0].length, unicode: true };
      }
      const one = chars[next];
      if (one !== undefined && /^[A-Za-z]$/.test(one)) return { text: `\\${c}{${one}}`, next: next + 1, unicode: true };
      throw new Reject(`invalid escape \\${c} (expected a Unicode class name)`);
    }
    case 'Q': {
      let j = next;
      let text = '';
      while (j < chars.length && !(chars[j] === '\\' && chars[j + 1] === 'E')) {
        text += literal(chars[j] ?? '', inClass);
        j++;
      }
      return { text, next: j < chars.length ? j + 2 : j, unicode: false };
    }
    default:
      // RE2 accepts an escaped ASCII punctuation character and nothing else.
      if (/^[!-/:-@[-`{-~]$/.test(c)) return { text: literal(c, inClass), next, unicode: false };
      throw new Reject(`invalid escape \\${c}`);
  }
}

/** RE2's class names: general categories (one or two letters), `Any`, else scripts. */
function unicodeClass(name: string): string {
  return name.length <= 2 || name === 'Any' ? name : `Script=${name}`;
}

/**
 * A literal character in JS syntax valid with and without the `u` flag (which allows escaping
 * only syntax characters, and `-` inside a class).
 */
function literal(char: string, inClass: boolean): string {
  if (/^[\\^$.*+?()[\]{}|/]$/.test(char) || (inClass && char === '-')) return `\\${char}`;
  return char;
}

/** Translates the class starting at `chars[at]` (a `[`). */
function charClass(chars: readonly string[], at: number): { text: string; next: number; unicode: boolean } {
  let i = at + 1;
  let text = '[';
  let unicode = false;
  if (chars[i] === '^') {
    text += '^';
    i++;
  }
  let first = true;
  for (;;) {
    const c = chars[i];
    if (c === undefined) throw new Reject('missing closing ] in a character class');
    if (c === ']' && !first) return { text: `${text}]`, next: i + 1, unicode };
    if (c === ']') {
      // RE2 reads a leading ] as a literal; JS would read an empty class.
      text += '\\]';
      i++;
    } else if (c === '[' && chars[i + 1] === ':') {
      const m = /^\[:(\^?)([a-z]+):\]/.exec(chars.slice(i, i + 12).join(''));
      if (m) {
        const set = POSIX[m[2] ?? ''];
        if (set === undefined || m[1] === '^') throw new Reject(`character class ${m[0]} is not supported`);
        text += set;
        i += m[0].length;
      } else {
        text += '\\[';
        i++;
      }
    } else if (c === '[') {
      text += '\\[';
      i++;
    } else if (c === '\\') {
      const r = escape(chars, i, true);
      text += r.text;
      unicode ||= r.unicode;
      i = r.next;
    } else {
      text += c;
      i++;
    }
    first = false;
  }
}
