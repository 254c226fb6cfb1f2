import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGoRegexp, type GoRegexp } from './go-regexp.js';
import { translateGoRegexp } from './go-regexp-native.js';
import { SeededRandom } from './random.js';

function compiled(source: string): GoRegexp {
  const r = compileGoRegexp(source);
  assert.ok(r.ok, `${source}: ${r.ok ? '' : r.error}`);
  return r.regexp;
}

/**
 * The same expression compiled by re2js: `(?i:)` matches the empty string and captures nothing,
 * and the translator refuses flags, so the wrapped expression always goes to re2js.
 */
function byRe2js(source: string): GoRegexp {
  assert.equal(translateGoRegexp(`(?i:)(?:${source})`).ok, false);
  return compiled(`(?i:)(?:${source})`);
}

const CRD_PATTERNS = ['^(@odd|@even|\\d{1,2})$', '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$'];

test('the translation table: what is taken natively, as what', () => {
  const accepted: [string, string][] = [
    [
      '^(@odd|@even|\\d{1,2})$',
      '^([\\u{40}][\\u{6f}][\\u{64}][\\u{64}]|[\\u{40}][\\u{65}][\\u{76}][\\u{65}][\\u{6e}]|[\\u{30}-\\u{39}]{1,2})$',
    ],
    ['a.b', '[\\u{61}][\\u{0}-\\u{9}\\u{b}-\\u{10ffff}][\\u{62}]'],
    ['\\s', '[\\u{9}-\\u{a}\\u{c}-\\u{d}\\u{20}]'],
    ['[^\\d]', '[\\u{0}-\\u{2f}\\u{3a}-\\u{10ffff}]'],
    ['[]a-]', '[\\u{2d}\\u{5d}\\u{61}]'],
    ['[\\d-z]', '[\\u{2d}\\u{30}-\\u{39}\\u{7a}]'],
    ['(?:x)\\.\\_\\t', '(?:[\\u{78}])[\\u{2e}][\\u{5f}][\\u{9}]'],
    ['é😀', '[\\u{e9}][\\u{1f600}]'],
    ['x{2}y{0,3}z{4,}', '[\\u{78}]{2}[\\u{79}]{0,3}[\\u{7a}]{4,}'],
    ['', ''],
  ];
  for (const [go, js] of accepted) assert.deepEqual(translateGoRegexp(go), { ok: true, source: js }, go);
  assert.deepEqual(translateGoRegexp('a.b', { dotAll: true }), {
    ok: true,
    source: '[\\u{61}][\\u{0}-\\u{10ffff}][\\u{62}]',
  });

  const refused: [string, string][] = [
    ['(?i)abc', 'flags, named groups'],
    ['(?P<n>a)', 'flags, named groups'],
    ['(?<n>a)', 'flags, named groups'],
    ['a*?', 'lazy or nested repetition'],
    ['a??', 'lazy or nested repetition'],
    ['a**', 'lazy or nested repetition'],
    ['a{2}{3}', 'lazy or nested repetition'],
    ['\\bword', 'escape \\b'],
    ['\\Aa\\z', 'escape \\A'],
    ['\\Qa.b\\E', 'escape \\Q'],
    ['\\x41', 'escape \\x'],
    ['\\101', 'escape \\1'],
    ['\\pL', 'escape \\p'],
    ['[[:alpha:]]', '[ inside a class'],
    ['[a-\\d]', 'a class escape as a range end'],
    ['[z-a]', 'end is before its start'],
    ['a{1001}', 'over 1000'],
    ['a{3,2}', 'end is before its start'],
    ['a{,2}', 'not a repeat count'],
    ['a{01}', 'not a repeat count'],
    ['a{', 'not a repeat count'],
    ['a}', '} where a character is expected'],
    ['a]', '] where a character is expected'],
    ['*a', '* where a character is expected'],
    ['(a', 'unbalanced ('],
    ['a)', 'unbalanced )'],
    ['[a', 'unbalanced ['],
    ['a\\', 'trailing backslash'],
    ['\ud800', 'a lone surrogate'],
    ['^*', 'a repeated anchor'],
    ['a^b', '^ or $ other than'],
    ['^a|b', '^ or $ other than'],
    ['(^a)', '^ or $ other than'],
    ['(a*)?', 'can match the empty string'],
    ['(ab)*', 'a group repeated by other than ?'],
    ['(a|b){2}', 'a group repeated by other than ?'],
    // Linearity: all of these backtrack without bound, or quadratically, in JavaScript.
    ['^(a+)+$', 'a group repeated by other than ?'],
    ['(a|a)*', 'a group repeated by other than ?'],
    [`^${'a?'.repeat(20)}${'a'.repeat(20)}$`, 'too many backtracking paths'],
    ['^\\d{1,100}\\d{1,100}$', 'too many backtracking paths'],
    ['(|)'.repeat(12), 'too many backtracking paths'],
    ['()'.repeat(3000), 'too many backtracking paths'],
    ['^a*a*$', 'an unguarded unbounded repeat before another one'],
    ['^.*-.*$', 'an unguarded unbounded repeat before another one'],
    ['^\\d+\\.\\d+x*.*$', 'an unguarded unbounded repeat before another one'],
    ['\\d+\\.', 'an unanchored expression with an unbounded repeat'],
    ['a*$', 'an unanchored expression with an unbounded repeat'],
    ['a+b+', 'an unanchored expression with an unbounded repeat'],
    ['(x.*)y', 'an unanchored expression with an unbounded repeat'],
  ];
  for (const [go, reason] of refused) {
    const t = translateGoRegexp(go);
    assert.ok(!t.ok && t.reason.includes(reason), `${go}: ${JSON.stringify(t)}`);
  }
});

test('what the translator accepts, Go compiles too, and JavaScript does as translated', () => {
  const random = new SeededRandom('go-regexp-native-syntax');
  const pieces = ['a', 'é', '\\', '.', '+', '*', '?', '(', ')', '(?:', '(?i)', '|', '[', ']', '^', '$'];
  pieces.push(
    '-',
    '{',
    '}',
    ',',
    '0',
    '1',
    '2',
    '{1001}',
    '{2,1}',
    '{1,2}',
    'd',
    's',
    'x',
    'p',
    'b',
    'n',
    ':',
    '[:',
    ' ',
  );
  let accepted = 0;
  for (let n = 0; n < 4000; n++) {
    let expression = '';
    for (let k = random.int(1, 8); k > 0; k--) expression += pieces[random.int(0, pieces.length - 1)];
    const translation = translateGoRegexp(expression);
    if (!translation.ok) continue;
    accepted++;
    assert.doesNotThrow(() => new RegExp(translation.source, 'u'), expression);
    assert.ok(compileGoRegexp(`(?i:)(?:${expression})`).ok, expression);
  }
  assert.ok(accepted > 200, `only ${accepted} accepted`);
});

test('the linearity rule admits the patterns users write', () => {
  for (const go of [
    ...CRD_PATTERNS,
    '^[a-zA-Z_][a-zA-Z0-9_]*$',
    '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
    '^v?\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$',
    '^(kube|openshift)-system$',
    'openshift-.*',
    '(x.*|y)z?',
    '^redhat-.*$',
    '^(?:warning|critical)$',
    '^(?:.*)$',
    '[0-9]+',
  ]) {
    assert.ok(translateGoRegexp(go).ok, go);
  }
});

/** A random expression over the accepted grammar (anchored about half the time). */
function randomExpression(random: SeededRandom): string {
  const pick = <T>(items: readonly T[]): T => items[random.int(0, items.length - 1)]!;
  const atoms = ['a', 'b', '-', '\\.', '.', '\\d', '\\w', '\\s', '\\D', '\\S', '\\W', 'é', '😀', '\\n', '[a-c]'];
  const classes = ['[^a]', '[^\\n]', '[\\d.-]', '[]a]', '[^]b]', '[a-]', '[\\s,:]', '[é-ü]', '[^\\w]'];
  const quantifiers = ['', '', '', '?', '*', '+', '{2}', '{1,3}', '{0,2}', '{2,}'];
  const sequence = (depth: number): string => {
    let out = '';
    for (let n = random.int(1, 4); n > 0; n--) {
      if (depth < 2 && random.next() < 0.25) {
        const branches = Array.from({ length: random.int(1, 3) }, () => sequence(depth + 1));
        out += `${pick(['(', '(?:'])}${branches.join('|')})${pick(['', '?'])}`;
      } else {
        out += pick(random.next() < 0.3 ? classes : atoms) + pick(quantifiers);
      }
    }
    return out;
  };
  const anchored = random.next() < 0.5;
  return `${anchored ? '^' : ''}${sequence(0)}${anchored && random.next() < 0.7 ? '$' : ''}`;
}

function randomInput(random: SeededRandom, expression: string): string {
  const own = [...expression].filter((c) => !'\\.+*?()|[]{}^$'.includes(c));
  const alphabet = [
    'a',
    'b',
    'c',
    'A',
    'Z',
    'z',
    '0',
    '9',
    '-',
    '.',
    '_',
    ',',
    ':',
    '@',
    ' ',
    '\n',
    '\r',
    '\t',
    '\f',
    '\v',
  ];
  alphabet.push('\u2028', '\u2029', '\u00a0', 'é', 'ü', '😀', '\ud800', ...own);
  let out = '';
  for (let n = random.int(0, 10); n > 0; n--) out += alphabet[random.int(0, alphabet.length - 1)];
  return out;
}

test('differential: test, exec groups and findAll agree with re2js on hand-written and random expressions', () => {
  const random = new SeededRandom('go-regexp-native');
  const handWritten = [
    ...CRD_PATTERNS,
    '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$',
    '^v?\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$',
    '^(kube|openshift)-system$',
    'openshift-.*',
    '(a|ab)(c|bcd)(d*)',
    '^(a)?(b)?(ab)?$',
    '^$',
    '$',
    '^',
    '',
    'a|',
    'a*',
    '\\s+',
    '.',
    '[^a]',
    '^(?:.*)$',
  ];
  const expressions = [...handWritten];
  let generated = 0;
  while (generated < 400) {
    const expression = randomExpression(random);
    if (!translateGoRegexp(expression).ok) continue;
    expressions.push(expression);
    generated++;
  }
  for (const expression of expressions) {
    assert.ok(translateGoRegexp(expression).ok, expression);
    const native = compiled(expression);
    const reference = byRe2js(expression);
    const inputs = Array.from({ length: 40 }, () => randomInput(random, expression));
    for (const input of inputs) {
      const what = `${expression} on ${JSON.stringify(input)}`;
      assert.equal(native.test(input), reference.test(input), what);
      assert.deepEqual(native.exec(input), reference.exec(input), what);
      assert.deepEqual(native.findAll(input), reference.findAll(input), what);
    }
  }
});

test("findAll is Go's FindAllString: no empty match right after a match, on either engine", () => {
  for (const regexp of [compiled('a*'), byRe2js('a*')]) {
    assert.deepEqual(regexp.findAll('baaa'), ['', 'aaa']);
    assert.deepEqual(regexp.findAll('😀a'), ['', 'a']);
    assert.deepEqual(regexp.findAll(''), ['']);
  }
  assert.deepEqual(compiled('').findAll('ab'), ['', '', '']);
});

test('an accepted expression on 100,000 adversarial characters ends, with the right outcome', () => {
  const long = 100_000;
  const [, name] = CRD_PATTERNS;
  const identifier = compiled(name!);
  assert.equal(identifier.test(`a${','.repeat(long)}`), false);
  assert.equal(identifier.test(`a${'a,'.repeat(long / 2)}b`), true);
  const semver = compiled('^v?\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$');
  assert.equal(semver.test('1'.repeat(long)), false);
  assert.equal(semver.test(`1.2.3-${'.'.repeat(long)}`), true);
  assert.equal(semver.test(`1.2.3-${'.'.repeat(long)}!`), false);
  const prefix = compiled('openshift-.*');
  assert.equal(prefix.test('openshift'.repeat(long / 9)), false);
  assert.deepEqual(prefix.findAll(`${'openshift-'.repeat(long / 10)}\nx`), ['openshift-'.repeat(long / 10)]);
  // Refused, so matched by re2js in linear time too.
  assert.equal(translateGoRegexp('^(a+)+$').ok, false);
  assert.equal(compiled('^(a+)+$').test(`${'a'.repeat(long)}b`), false);
});
