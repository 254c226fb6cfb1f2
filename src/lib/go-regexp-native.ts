/**
 * The native fast path of Go regular expressions: a conservative translation of a Go (RE2)
 * expression to an ECMAScript `RegExp` (flag `u`, so both match code points), taken only where
 * both engines are known to give the same verdicts and the same groups, and where JavaScript's
 * backtracking stays linear in the input. Anything else is left to re2js (`go-regexp.ts`), which
 * also words the errors: this module never accepts an expression Go refuses.
 *
 * The accepted subset (the grammar of Go's `regexp` without flags):
 * - literal characters other than `\.+*?()|[]{}^$` (no lone surrogates), `\` before ASCII
 *   punctuation, and the escapes `\a \f \n \r \t \v`;
 * - `.` (Go: any character but `\n`; JavaScript's excludes `\r`, U+2028 and U+2029 too, so it
 *   becomes a class), `\d \D \w \W \s \S` (ASCII in Go; `\s` is `[\t\n\f\r ]` in Go, wider in
 *   JavaScript, so every class is written out as code-point ranges);
 * - bracket classes of literals, ranges (`lo <= hi`), escaped punctuation, those escapes and
 *   `\d`-like classes, negated or not, with Go's rules for a leading `]` and for `-`;
 *   no `[` inside (POSIX `[[:alpha:]]`), no `\p{…}`;
 * - `^` only as the first item and `$` only as the last item of the whole expression (outside any
 *   group and alternation): begin and end of text in both without flags (neither matches before
 *   a trailing newline);
 * - groups `( )` and `(?: )`, alternation, and the greedy quantifiers `* + ? {n} {n,} {n,m}` with
 *   counts up to Go's 1000.
 * Refused (left to re2js): flags `(?i)`, named groups, lazy quantifiers, `\b \B \A \z \Q…\E`,
 * octal, hex and Unicode-class escapes, a `{` that is not a repeat, stray `]` or `}`.
 *
 * Same groups: for this subset Go's leftmost-first semantics are a backtracking engine's
 * priority order. The one difference is a quantified group that can match the empty string
 * (`(a*)?` against `b`: Go captures `""`, JavaScript refuses the empty iteration and leaves the
 * group unset), so only `?` may apply to a group, and only to one that cannot match empty.
 *
 * The linearity rule. Quantifiers other than `?` apply to one character (a literal, an escape, a
 * class, `.`) and `?` never loops, so what follows any point of the expression is its textual
 * rest. A greedy loop over one character is run by the engine without growing a stack; when the
 * rest fails it gives back one character at a time and the rest is retried after each. The
 * bounded parts give at most W paths per start position (W: product over a sequence, sum over
 * alternatives, `?` adds one, `{m,n}` counts n-m+1) of at most L steps (a character, an anchor
 * and a group count one, a repeat its maximum, `{n,}` its n); W·L must stay within 2048. An unbounded quantifier (`*`, `+`, `{n,}`)
 * *ends the match* when its rest can match the empty string without `$` (the rest never fails,
 * so the loop never gives back), and is *guarded* when it ends the match or when every character
 * its rest can begin with is outside the loop's set and the rest cannot match empty but at the
 * final `$` (after a shorter run the next character is one of the loop's, so the rest fails on
 * it): either way the rest runs to completion once per entry into the loop, however long the run.
 * - Anchored expressions (a leading `^`, no alternation at the top) match at one start position
 *   (`^` fails at once at the others): every unbounded quantifier but the textually last must be
 *   guarded. With k of them on n characters the work is O(W·(k·n + n·L)).
 * - Unanchored expressions are tried at every start position: at most one unbounded quantifier,
 *   and it must end the match, so the first start position that reaches it ends the search
 *   (or, for `{n,}`, fails within n characters): O(n·W·L).
 * So `^(a+)+$` and `(a|a)*` (repeated groups), `a?a?…a?aa…a` (W over the budget), `^a*a*$` and
 * `^.*-.*$` (an unguarded loop before another) and unanchored `\d+\.` (each start position rescans
 * the run: quadratic) go to re2js; `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`, `openshift-.*` and
 * `^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$` are native.
 */

/** The JavaScript expression (for `new RegExp(source, 'u')`), or why the expression is left to re2js. */
export type NativeTranslation = { ok: true; source: string } | { ok: false; reason: string };

/** Go's limit on a repeat count (`a{1001}` is an error). */
const GO_MAX_REPEAT = 1000;
/** The bound on W·L (see above): the work per start position a backtracking match may need. */
const MAX_PATHS_TIMES_LENGTH = 2048;
/** Go allows nesting 1000 deep; nothing written by hand comes near this. */
const MAX_DEPTH = 64;
const MAX_CODE_POINT = 0x10ffff;

type Ranges = ReadonlyArray<readonly [number, number]>;

type Node =
  | { kind: 'chars'; ranges: Ranges }
  | { kind: 'begin' }
  | { kind: 'end' }
  | { kind: 'group'; capture: boolean; body: Node }
  | { kind: 'concat'; items: readonly Node[] }
  | { kind: 'alt'; branches: readonly Node[] }
  | { kind: 'repeat'; min: number; max: number | undefined; body: Node };

class Refused extends Error {}

/**
 * Translates Go `expression` to a JavaScript one that gives the same verdicts, groups and
 * matches in linear time, or says why it is left to re2js. `dotAll`: `.` matches `\n` too (Go's
 * `(?s)` over the whole expression).
 */
export function translateGoRegexp(expression: string, options: { dotAll?: boolean } = {}): NativeTranslation {
  try {
    const root = new Parser(expression, options.dotAll ?? false).parse();
    checkLinear(root);
    return { ok: true, source: emit(root) };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, reason: err.message };
    throw err;
  }
}

// ---- character sets as sorted, disjoint, non-adjacent code-point ranges ----

function normalized(ranges: Iterable<readonly [number, number]>): Ranges {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out.at(-1);
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function complement(ranges: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [lo, hi] of normalized(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT]);
  return out;
}

function disjoint(left: Ranges, right: Ranges): boolean {
  return left.every(([leftLo, leftHi]) => right.every(([lo, hi]) => leftHi < lo || hi < leftLo));
}

const code = (c: string): number => c.codePointAt(0) ?? 0;
const DIGIT: Ranges = [[code('0'), code('9')]];
const WORD: Ranges = normalized([DIGIT[0]!, [code('A'), code('Z')], [code('_'), code('_')], [code('a'), code('z')]]);
const SPACE: Ranges = normalized(['\t', '\n', '\f', '\r', ' '].map((c) => [code(c), code(c)] as const));
const NEWLINE: Ranges = [[10, 10]];
const PERL_CLASSES: Readonly<Record<string, Ranges>> = {
  d: DIGIT,
  D: complement(DIGIT),
  w: WORD,
  W: complement(WORD),
  s: SPACE,
  S: complement(SPACE),
};
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const SPECIAL = '\\.+*?()|[]{}^$';

// ---- parsing ----

class Parser {
  private readonly chars: readonly string[];
  private readonly dotAll: boolean;
  private pos = 0;

  constructor(expression: string, dotAll: boolean) {
    this.chars = [...expression];
    this.dotAll = dotAll;
  }

  parse(): Node {
    const root = this.alternation(0);
    if (this.pos < this.chars.length) throw new Refused('unbalanced )');
    return root;
  }

  private peek(ahead = 0): string | undefined {
    return this.chars[this.pos + ahead];
  }

  private next(): string {
    const c = this.chars[this.pos++];
    if (c === undefined) throw new Refused('unexpected end');
    return c;
  }

  private alternation(depth: number): Node {
    if (depth > MAX_DEPTH) throw new Refused(`groups nested deeper than ${MAX_DEPTH}`);
    const branches = [this.sequence(depth)];
    while (this.peek() === '|') {
      this.pos++;
      branches.push(this.sequence(depth));
    }
    return branches.length === 1 ? branches[0]! : { kind: 'alt', branches };
  }

  private sequence(depth: number): Node {
    const items: Node[] = [];
    for (let c = this.peek(); c !== undefined && c !== '|' && c !== ')'; c = this.peek()) {
      items.push(this.quantified(this.atom(depth)));
    }
    return items.length === 1 ? items[0]! : { kind: 'concat', items };
  }

  private atom(depth: number): Node {
    const c = this.next();
    switch (c) {
      case '(': {
        let capture = true;
        if (this.peek() === '?') {
          if (this.peek(1) !== ':') throw new Refused('flags, named groups and other (? syntax');
          this.pos += 2;
          capture = false;
        }
        const body = this.alternation(depth + 1);
        if (this.peek() !== ')') throw new Refused('unbalanced (');
        this.pos++;
        return { kind: 'group', capture, body };
      }
      case '[':
        return { kind: 'chars', ranges: this.bracketClass() };
      case '.':
        return { kind: 'chars', ranges: this.dotAll ? [[0, MAX_CODE_POINT]] : complement(NEWLINE) };
      case '^':
        return { kind: 'begin' };
      case '$':
        return { kind: 'end' };
      case '\\': {
        const perl = PERL_CLASSES[this.peek() ?? ''];
        if (perl) {
          this.pos++;
          return { kind: 'chars', ranges: perl };
        }
        const single = this.escapedChar();
        return { kind: 'chars', ranges: [[single, single]] };
      }
      default:
        if (SPECIAL.includes(c)) throw new Refused(`${c} where a character is expected`);
        return { kind: 'chars', ranges: [[literal(c), literal(c)]] };
    }
  }

  /** After `\`: a control escape or escaped punctuation. */
  private escapedChar(): number {
    const c = this.peek();
    if (c === undefined) throw new Refused('trailing backslash');
    this.pos++;
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) return control;
    if (PUNCTUATION.includes(c)) return code(c);
    throw new Refused(`escape \\${c}`);
  }

  /** After `[`, up to and including `]`, with Go's rules (parseClass, Perl flags). */
  private bracketClass(): Ranges {
    const negated = this.peek() === '^';
    if (negated) this.pos++;
    const ranges: (readonly [number, number])[] = [];
    for (let first = true; ; first = false) {
      const c = this.peek();
      if (c === undefined) throw new Refused('unbalanced [');
      if (c === ']' && !first) break;
      if (c === '[') throw new Refused('[ inside a class (POSIX classes)');
      if (c === '\\') {
        const perl = PERL_CLASSES[this.peek(1) ?? ''];
        if (perl) {
          this.pos += 2;
          ranges.push(...perl);
          continue;
        }
      }
      const lo = this.classChar();
      let hi = lo;
      if (this.peek() === '-' && this.peek(1) !== undefined && this.peek(1) !== ']') {
        this.pos++;
        if (this.peek() === '[') throw new Refused('[ inside a class (POSIX classes)');
        hi = this.classChar();
        if (hi < lo) throw new Refused('a class range whose end is before its start');
      }
      ranges.push([lo, hi]);
    }
    this.pos++;
    return negated ? complement(ranges) : normalized(ranges);
  }

  private classChar(): number {
    const c = this.next();
    if (c !== '\\') return literal(c);
    if (PERL_CLASSES[this.peek() ?? '']) throw new Refused('a class escape as a range end');
    return this.escapedChar();
  }

  private quantified(atom: Node): Node {
    const c = this.peek();
    let min: number;
    let max: number | undefined;
    if (c === '*') [min, max] = [0, undefined];
    else if (c === '+') [min, max] = [1, undefined];
    else if (c === '?') [min, max] = [0, 1];
    else if (c === '{') [min, max] = this.counts();
    else return atom;
    if (c !== '{') this.pos++;
    const after = this.peek();
    if (after !== undefined && '*+?{'.includes(after)) throw new Refused('lazy or nested repetition');
    if (atom.kind === 'begin' || atom.kind === 'end') throw new Refused('a repeated anchor');
    if (atom.kind === 'group') {
      if (min !== 0 || max !== 1) throw new Refused('a group repeated by other than ?');
      if (nullable(atom.body)) throw new Refused('? on a group that can match the empty string');
    }
    return { kind: 'repeat', min, max, body: atom };
  }

  /** `{n}`, `{n,}` or `{n,m}` (Go: no leading zeros, counts up to 1000); any other `{` is refused. */
  private counts(): [number, number | undefined] {
    const rest = this.chars.slice(this.pos, this.pos + 12).join('');
    const m = /^\{(0|[1-9]\d{0,3})(,(0|[1-9]\d{0,3})?)?\}/.exec(rest);
    if (!m) throw new Refused('a { that is not a repeat count');
    this.pos += m[0].length;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === undefined ? undefined : Number(m[3]);
    if (min > GO_MAX_REPEAT || (max ?? 0) > GO_MAX_REPEAT) throw new Refused('a repeat count over 1000');
    if (max !== undefined && max < min) throw new Refused('a repeat count range whose end is before its start');
    return [min, max];
  }
}

function literal(char: string): number {
  const point = code(char);
  if (point >= 0xd800 && point <= 0xdfff) throw new Refused('a lone surrogate');
  return point;
}

function nullable(node: Node): boolean {
  switch (node.kind) {
    case 'chars':
      return false;
    case 'begin':
    case 'end':
      return true;
    case 'group':
      return nullable(node.body);
    case 'concat':
      return node.items.every(nullable);
    case 'alt':
      return node.branches.some(nullable);
    case 'repeat':
      return node.min === 0 || nullable(node.body);
  }
}

// ---- the linearity rule ----

/** W and L of the module comment. */
function measure(node: Node): { paths: number; length: number } {
  switch (node.kind) {
    case 'chars':
    case 'begin':
    case 'end':
      return { paths: 1, length: 1 };
    case 'group': {
      const body = measure(node.body);
      return { paths: body.paths, length: body.length + 1 };
    }
    case 'concat':
      return node.items.map(measure).reduce((a, b) => ({ paths: a.paths * b.paths, length: a.length + b.length }), {
        paths: 1,
        length: 0,
      });
    case 'alt': {
      const parts = node.branches.map(measure);
      return {
        paths: parts.reduce((sum, p) => sum + p.paths, 0),
        length: Math.max(...parts.map((p) => p.length)),
      };
    }
    case 'repeat': {
      const body = measure(node.body);
      if (node.body.kind === 'group') return { paths: body.paths + 1, length: body.length };
      if (node.max === undefined) return { paths: 1, length: Math.max(node.min, 1) };
      return { paths: node.max - node.min + 1, length: Math.max(node.max, 1) };
    }
  }
}

interface Loop {
  /** Nothing after it can fail: the first time it is reached, the match succeeds. */
  endsMatch: boolean;
  /** Only at the end of its run can what follows it match (or nothing after it can fail). */
  guarded: boolean;
}

/** The unbounded quantifiers in textual order; `rest`: what follows `node` to the end of the expression. */
function loops(node: Node, rest: readonly Node[], out: Loop[] = []): Loop[] {
  switch (node.kind) {
    case 'group':
      loops(node.body, rest, out);
      break;
    case 'concat':
      node.items.forEach((item, index) => loops(item, [...node.items.slice(index + 1), ...rest], out));
      break;
    case 'alt':
      for (const branch of node.branches) loops(branch, rest, out);
      break;
    case 'repeat':
      if (node.body.kind === 'group') loops(node.body, rest, out);
      else if (node.max === undefined && node.body.kind === 'chars') {
        const endsMatch = rest.every((item) => item.kind !== 'end' && nullable(item));
        out.push({ endsMatch, guarded: endsMatch || startsApart(rest, node.body.ranges) });
      }
      break;
    case 'chars':
    case 'begin':
    case 'end':
  }
  return out;
}

/** Whether `rest` can match only where the next character is not in `run` (or at the end of text). */
function startsApart(rest: readonly Node[], run: Ranges): boolean {
  for (const item of rest) {
    if (item.kind === 'end') return true;
    if (!disjoint(firstChars(item), run)) return false;
    if (!nullable(item)) return true;
  }
  return false;
}

/** The characters a non-empty match of `node` can begin with. */
function firstChars(node: Node): Ranges {
  switch (node.kind) {
    case 'chars':
      return node.ranges;
    case 'begin':
    case 'end':
      return [];
    case 'group':
    case 'repeat':
      return firstChars(node.body);
    case 'concat': {
      const sets: Ranges[] = [];
      for (const item of node.items) {
        sets.push(firstChars(item));
        if (!nullable(item)) break;
      }
      return normalized(sets.flat());
    }
    case 'alt':
      return normalized(node.branches.flatMap(firstChars));
  }
}

function checkLinear(root: Node): void {
  const top = root.kind === 'concat' ? root.items : [root];
  const anchors = countAnchors(root);
  const leadingBegin = top[0]?.kind === 'begin' ? 1 : 0;
  const trailingEnd = top.length > leadingBegin && top.at(-1)?.kind === 'end' ? 1 : 0;
  if (anchors !== leadingBegin + trailingEnd) {
    throw new Refused('^ or $ other than at the start or end of the whole expression');
  }
  const { paths, length } = measure(root);
  if (paths * length > MAX_PATHS_TIMES_LENGTH) {
    throw new Refused(`too many backtracking paths (${paths} paths of up to ${length} characters)`);
  }
  const unbounded = loops(root, []);
  if (leadingBegin === 1) {
    if (unbounded.slice(0, -1).some((l) => !l.guarded)) {
      throw new Refused('an unguarded unbounded repeat before another one');
    }
  } else if (unbounded.length > 1 || (unbounded.length === 1 && !unbounded[0]!.endsMatch)) {
    throw new Refused('an unanchored expression with an unbounded repeat that something after it can fail');
  }
}

function countAnchors(node: Node): number {
  switch (node.kind) {
    case 'begin':
    case 'end':
      return 1;
    case 'chars':
      return 0;
    case 'group':
    case 'repeat':
      return countAnchors(node.body);
    case 'concat':
      return node.items.reduce((n, item) => n + countAnchors(item), 0);
    case 'alt':
      return node.branches.reduce((n, branch) => n + countAnchors(branch), 0);
  }
}

// ---- emitting ----

function emit(node: Node): string {
  switch (node.kind) {
    case 'chars':
      return `[${node.ranges.map(([lo, hi]) => (lo === hi ? escaped(lo) : `${escaped(lo)}-${escaped(hi)}`)).join('')}]`;
    case 'begin':
      return '^';
    case 'end':
      return '$';
    case 'group':
      return node.capture ? `(${emit(node.body)})` : `(?:${emit(node.body)})`;
    case 'concat':
      return node.items.map(emit).join('');
    case 'alt':
      return node.branches.map(emit).join('|');
    case 'repeat':
      return emit(node.body) + quantifier(node.min, node.max);
  }
}

function quantifier(min: number, max: number | undefined): string {
  if (max === undefined) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

const escaped = (point: number): string => `\\u{${point.toString(16)}}`;
