import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileAnchoredGoRegexp, compileGoRegexp, type GoRegexp } from './go-regexp.js';

function compiled(source: string): GoRegexp {
  const r = compileGoRegexp(source);
  assert.ok(r.ok, `${source} should compile: ${r.ok ? '' : r.error}`);
  return r.regexp;
}

test('patterns match unanchored, like regexp.MatchString, with RE2 syntax', () => {
  const cases: [string, string, boolean][] = [
    ['openshift-.*', 'openshift-monitoring', true],
    ['openshift-.*', 'my-openshift-thing', true],
    ['^openshift-.*', 'my-openshift-thing', false],
    ['^redhat-.*$', 'redhat-rhoam', true],
    ['^(kube|openshift)-system$', 'kube-system', true],
    ['^(kube|openshift)-system$', 'default', false],
    ['(?P<prefix>ns)-[0-9]+', 'ns-12', true],
    ['(?<prefix>ns)-\\d{2}', 'ns-12', true],
    ['(?i)^OpenShift-', 'openshift-x', true],
    ['^OpenShift-', 'openshift-x', false],
    ['a(?i)B', 'ab', true],
    ['(?U)^a+', 'aaa', true],
    ['\\Aabc\\z', 'abc', true],
    ['\\Aabc\\z', 'abcd', false],
    ['\\Qa.b\\E', 'a.b', true],
    ['\\Qa.b\\E', 'axb', false],
    ['^[[:alpha:]]+-[[:digit:]]$', 'ns-1', true],
    ['^[[:alpha:]]+$', 'ns1', false],
    ['^[[:^alpha:]]+$', '12', true],
    ['[]a]', ']', true],
    ['[]a]', 'b', false],
    ['^[^]a]$', 'b', true],
    ['\\-x\\_', '-x_', true],
    ['^\\pL+$', 'ñandú', true],
    ['^\\p{Greek}+$', 'αβ', true],
    ['^\\x{41}\\x42$', 'AB', true],
    ['a\\sb', 'a b', true],
    ['a\\sb', 'a\u00a0b', false],
    ['x{2,3}', 'xx', true],
    ['a{', 'a{', true],
    ['^a.b$', 'a\nb', false],
    ['(?s)^a.b$', 'a\nb', true],
  ];
  for (const [source, input, expected] of cases) {
    assert.equal(compiled(source).test(input), expected, `${source} on ${input}`);
  }
});

test("what Go's regexp refuses is refused with Go's error text, never a panic", () => {
  const bad: [string, string][] = [
    ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['foo(?=bar)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['foo(?!bar)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?!`'],
    ['(?<=a)b', 'error parsing regexp: invalid named capture: `(?<=a)b`'],
    ['(?>a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?>`'],
    ['\\Z', 'error parsing regexp: invalid escape sequence: `\\Z`'],
    ['\\u0041', 'error parsing regexp: invalid escape sequence: `\\u`'],
    ['[[:nope:]]', 'error parsing regexp: invalid character class range: `[:nope:]`'],
    ['a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
    ['[a-', 'error parsing regexp: missing closing ]: `[a-`'],
    ['(unclosed', 'error parsing regexp: missing closing ): `(unclosed`'],
    ['*', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['a**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['a\\', 'error parsing regexp: trailing backslash at end of expression: ``'],
  ];
  for (const [source, error] of bad) {
    const r = compileGoRegexp(source);
    assert.deepEqual(r, { ok: false, error }, source);
  }
});

test(
  'matching takes time linear in the input: a pattern that makes a backtracking engine explode ends',
  { timeout: 20_000 },
  () => {
    // JavaScript's RegExp needs about 2^41 steps here (it never ends); RE2 needs a few hundred.
    const evil = compiled('^(a+)+$');
    assert.equal(evil.test(`${'a'.repeat(41)}b`), false);
    assert.equal(evil.test('a'.repeat(10_000)), true);
    assert.equal(compiled('(x+x+)+y').test('x'.repeat(5_000)), false);
  },
);

test('anchored patterns match whole strings as label matchers do; dotAll is Prometheus’ (?s:…)', () => {
  const am = compileAnchoredGoRegexp('warning|critical');
  assert.ok(am.ok);
  assert.equal(am.regexp.test('critical'), true);
  assert.equal(am.regexp.test('critical-ish'), false);
  assert.equal(am.regexp.source, 'warning|critical');
  const line = compileAnchoredGoRegexp('a.b');
  const dotAll = compileAnchoredGoRegexp('a.b', { dotAll: true });
  assert.ok(line.ok && dotAll.ok);
  assert.equal(line.regexp.test('a\nb'), false);
  assert.equal(dotAll.regexp.test('a\nb'), true);
  assert.deepEqual(compileAnchoredGoRegexp('(x'), {
    ok: false,
    error: 'error parsing regexp: missing closing ): `^(?:(x)$`',
  });
  assert.deepEqual(compileAnchoredGoRegexp('(x', { dotAll: true }), {
    ok: false,
    error: 'error parsing regexp: missing closing ): `(x`',
  });
});

test('exec gives the groups by index and name; findAll the successive matches', () => {
  const m = compiled('(?P<node>[a-z]+)-(\\d+)(x)?').exec('pool: worker-12');
  assert.deepEqual(m, { groups: ['worker-12', 'worker', '12', undefined], named: { node: 'worker' } });
  assert.equal(compiled('z').exec('abc'), undefined);
  assert.deepEqual(compiled('[0-9]+').findAll('a1b22c333'), ['1', '22', '333']);
  assert.deepEqual(compiled('q').findAll('abc'), []);
});
