import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileMatcher, formatMatcher, InvalidMatcherError, matchesEmpty, matchesLabels } from './label-matcher.js';

const labels = { alertname: 'KubeNodeNotReady', severity: 'warning', namespace: 'openshift-monitoring' };

test('equality and inequality; a missing label equals ""', () => {
  assert.equal(matchesLabels([{ name: 'severity', type: '=', value: 'warning' }], labels), true);
  assert.equal(matchesLabels([{ name: 'severity', type: '!=', value: 'warning' }], labels), false);
  assert.equal(matchesLabels([{ name: 'missing', type: '=', value: '' }], labels), true);
  assert.equal(matchesLabels([{ name: 'missing', type: '!=', value: '' }], labels), false);
  assert.equal(matchesLabels([{ name: 'missing', type: '!=', value: 'x' }], labels), true);
});

test('regular expressions are fully anchored', () => {
  assert.equal(matchesLabels([{ name: 'namespace', type: '=~', value: 'openshift' }], labels), false);
  assert.equal(matchesLabels([{ name: 'namespace', type: '=~', value: 'openshift.*' }], labels), true);
  assert.equal(matchesLabels([{ name: 'severity', type: '=~', value: 'warning|critical' }], labels), true);
  assert.equal(matchesLabels([{ name: 'severity', type: '=~', value: 'warn|critical' }], labels), false);
  assert.equal(matchesLabels([{ name: 'severity', type: '!~', value: 'warn.*' }], labels), false);
  // The MUO namespace matcher with its own anchors still works.
  assert.equal(
    matchesLabels([{ name: 'namespace', type: '=~', value: '(^openshift.*|^kube.*|^redhat.*|^default$)' }], labels),
    true,
  );
  assert.equal(matchesLabels([{ name: 'missing', type: '=~', value: '.*' }], labels), true);
  assert.equal(matchesLabels([{ name: 'missing', type: '=~', value: '.+' }], labels), false);
});

test('every matcher must match', () => {
  assert.equal(
    matchesLabels(
      [
        { name: 'severity', type: '=', value: 'warning' },
        { name: 'alertname', type: '!~', value: 'Kube.*' },
      ],
      labels,
    ),
    false,
  );
  assert.equal(matchesLabels([], labels), true);
});

test('compileMatcher rejects invalid regular expressions and supports RE2 named groups', () => {
  assert.throws(() => compileMatcher({ name: 'a', type: '=~', value: '(' }), InvalidMatcherError);
  assert.equal(compileMatcher({ name: 'a', type: '=~', value: '(?P<x>a)b' }).matches('ab'), true);
  assert.equal(compileMatcher({ name: 'a', type: '=~', value: 'a.b' }).matches('a\nb'), true);
});

test('matchesEmpty and formatMatcher', () => {
  assert.equal(matchesEmpty({ name: 'a', type: '=~', value: '.*' }), true);
  assert.equal(matchesEmpty({ name: 'a', type: '=', value: 'x' }), false);
  assert.equal(formatMatcher({ name: 'a', type: '!~', value: 'x"y' }), 'a!~"x\\"y"');
});
