import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGoRegexp } from './go-regexp.js';

function compiled(source: string): RegExp {
  const r = compileGoRegexp(source);
  assert.ok(r.ok, `${source} should compile: ${r.ok ? '' : r.error}`);
  return r.regexp;
}

test('patterns match unanchored, like regexp.MatchString', () => {
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
    ['\\Aabc\\z', 'abc', true],
    ['\\Aabc\\z', 'abcd', false],
    ['\\Qa.b\\E', 'a.b', true],
    ['\\Qa.b\\E', 'axb', false],
    ['^[[:alpha:]]+-[[:digit:]]$', 'ns-1', true],
    ['^[[:alpha:]]+$', 'ns1', false],
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
  ];
  for (const [source, input, expected] of cases) {
    assert.equal(compiled(source).test(input), expected, `${source} on ${input}`);
  }
});

test('constructs RE2 lacks or JS reads differently are rejected, never a panic', () => {
  const bad: [string, RegExp][] = [
    ['(a)\\1', /backreferences/],
    ['foo(?=bar)', /lookahead/],
    ['foo(?!bar)', /lookahead/],
    ['(?<=a)b', /lookahead and lookbehind/],
    ['(?<!a)b', /lookahead and lookbehind/],
    ['(?>a)', /not supported/],
    ['a(?i)b', /not supported/],
    ['(?U)a+', /flags/],
    ['\\Z', /invalid escape \\Z/],
    ['\\u0041', /invalid escape \\u/],
    ['\\k<n>', /invalid escape \\k/],
    ['\\cA', /invalid escape \\c/],
    ['[[:^alpha:]]', /not supported/],
    ['[[:nope:]]', /not supported/],
    ['a{1001}', /repeat count/],
    ['[a-', /missing closing/],
    ['(unclosed', /invalid regular expression/],
    ['*', /invalid regular expression/],
    ['a\\', /trailing backslash/],
  ];
  for (const [source, why] of bad) {
    const r = compileGoRegexp(source);
    assert.equal(r.ok, false, `${source} should be rejected`);
    if (!r.ok) assert.match(r.error, why, source);
  }
});
