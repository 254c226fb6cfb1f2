import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGoRegexp } from '../../../lib/go-regexp.js';
import {
  compileFilterMatcher,
  MatcherError,
  parseMatcher,
  silenceMatchesFilter,
  validateSilenceMatchers,
} from './matchers.js';

test('Go regexp errors are worded as Go words them (checked against Alertmanager 0.25)', () => {
  const cases: Array<[string, string | undefined]> = [
    ['(', 'error parsing regexp: missing closing ): `(`'],
    ['^(?:()$', 'error parsing regexp: missing closing ): `^(?:()$`'],
    ['^(?:))$', 'error parsing regexp: unexpected ): `^(?:))$`'],
    ['^(?:[)$', 'error parsing regexp: missing closing ]: `[)$`'],
    ['x**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['x+*?', 'error parsing regexp: invalid nested repetition operator: `+*?`'],
    ['*', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['a|+', 'error parsing regexp: missing argument to repetition operator: `+`'],
    ['(?=x)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    // Alertmanager 0.25 was built with Go 1.19, which refused `(?<n>x)`; Go 1.22 accepts it, as we do.
    ['(?<n>x)', undefined],
    ['x{2,1}', 'error parsing regexp: invalid repeat count: `{2,1}`'],
    ['x{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
    ['(a)\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
    ['(warning|info)', undefined],
    ['(^openshift.*|^kube.*|^redhat.*|^default$)', undefined],
    ['x*?y+?z??', undefined],
    ['(?i)abc', undefined],
    ['(?P<n>x)', undefined],
    ['[]a]', undefined],
    ['[[:alpha:]-]+', undefined],
    ['\\d+\\.\\d+', undefined],
    ['a{,2}', undefined],
    ['\\z', undefined],
  ];
  for (const [expr, want] of cases) {
    const compiled = compileGoRegexp(expr);
    assert.equal(compiled.ok ? undefined : compiled.error, want, expr);
  }
});

test('parseMatcher follows labels.ParseMatcher', () => {
  assert.deepEqual(parseMatcher('alertname="KubeNodeNotReady"'), {
    name: 'alertname',
    type: '=',
    value: 'KubeNodeNotReady',
  });
  assert.deepEqual(parseMatcher('  node != n1 '), { name: 'node', type: '!=', value: 'n1' });
  assert.deepEqual(parseMatcher('a=~"x|y"'), { name: 'a', type: '=~', value: 'x|y' });
  assert.deepEqual(parseMatcher('a!~x'), { name: 'a', type: '!~', value: 'x' });
  assert.deepEqual(parseMatcher('a='), { name: 'a', type: '=', value: '' });
  assert.deepEqual(parseMatcher('a="say \\"hi\\"\\n\\x"'), { name: 'a', type: '=', value: 'say "hi"\n\\x' });
  assert.deepEqual(parseMatcher('a=x,b=y'), { name: 'a', type: '=', value: 'x,b=y' });
  const bad: Array<[string, string]> = [
    ['bad matcher', 'bad matcher format: bad matcher'],
    ['1a=b', 'bad matcher format: 1a=b'],
    ['{a="x"}', 'bad matcher format: {a="x"}'],
    ['a="x', 'matcher value contains unescaped double quote: "x'],
    ['a="x"y"', 'matcher value contains unescaped double quote: "x"y"'],
  ];
  for (const [input, message] of bad) {
    assert.throws(
      () => parseMatcher(input),
      (e: unknown) => e instanceof MatcherError && e.message === message,
      input,
    );
  }
});

test('filter matchers compile anchored, with Go errors', () => {
  const m = compileFilterMatcher({ name: 'a', type: '=~', value: 'x|y' });
  assert.equal(m.matches('x'), true);
  assert.equal(m.matches('xy'), false);
  assert.throws(() => compileFilterMatcher({ name: 'a', type: '=~', value: '(' }), {
    message: 'error parsing regexp: missing closing ): `^(?:()$`',
  });
});

test('silence matchers: defaults, empty-match rule and name validation', () => {
  assert.deepEqual(validateSilenceMatchers([{ name: 'a', value: 'x', isRegex: false }]), [
    { name: 'a', value: 'x', isRegex: false, isEqual: true },
  ]);
  assert.throws(() => validateSilenceMatchers([]), { message: 'at least one matcher required' });
  assert.throws(() => validateSilenceMatchers([{ name: 'a', value: 'x*', isRegex: true }]), {
    message: 'at least one matcher must not match the empty string',
  });
  assert.throws(() => validateSilenceMatchers([{ name: '', value: 'x', isRegex: false }]), {
    message: 'invalid label matcher 0: invalid label name ""',
  });
  validateSilenceMatchers([
    { name: 'a', value: 'x+', isRegex: true },
    { name: 'b', value: '', isRegex: false },
  ]);
});

test('silence filters compare matchers by name, type and value', () => {
  const sil = [
    { name: 'a', value: 'x', isRegex: false, isEqual: true },
    { name: 'node', value: 'n1', isRegex: false, isEqual: false },
  ];
  assert.equal(silenceMatchesFilter(sil, [{ name: 'a', type: '=', value: 'x' }]), true);
  assert.equal(
    silenceMatchesFilter(sil, [
      { name: 'node', type: '!=', value: 'n1' },
      { name: 'a', type: '=', value: 'x' },
    ]),
    true,
  );
  assert.equal(silenceMatchesFilter(sil, [{ name: 'node', type: '=', value: 'n1' }]), false);
  assert.equal(silenceMatchesFilter(sil, [{ name: 'a', type: '=~', value: 'x' }]), false);
  assert.equal(silenceMatchesFilter(sil, [{ name: 'b', type: '=', value: '' }]), false);
  assert.equal(silenceMatchesFilter(sil, []), true);
});
