import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchesLabels, parseLabelSelector } from './label-selector.js';
import { checkFieldsSupported, matchesFields, parseFieldSelector } from './field-selector.js';

function matches(sel: string, labels: Record<string, string>): boolean {
  return matchesLabels(parseLabelSelector(sel), labels);
}

void test('label selectors: every operator', () => {
  const l = { app: 'web', tier: 'front', n: '5' };
  assert.equal(matches('', l), true);
  assert.equal(matches('app=web', l), true);
  assert.equal(matches('app==web', l), true);
  assert.equal(matches('app!=web', l), false);
  assert.equal(matches('app!=db', l), true);
  assert.equal(matches('missing!=x', l), true);
  assert.equal(matches('tier in (front, back)', l), true);
  assert.equal(matches('tier notin (front,back)', l), false);
  assert.equal(matches('app,tier', l), true);
  assert.equal(matches('!legacy', l), true);
  assert.equal(matches('!app', l), false);
  assert.equal(matches('app=web,tier=back', l), false);
  assert.equal(matches('n>3', l), true);
  assert.equal(matches('n<3', l), false);
  assert.equal(matches('in in (in)', { in: 'in' }), true);
  assert.equal(matches('example.com/role=x', { 'example.com/role': 'x' }), true);
});

function parseError(sel: string): string {
  try {
    parseLabelSelector(sel);
  } catch (err) {
    return (err as Error).message;
  }
  return assert.fail(`${sel} parsed`);
}

void test('label selector errors carry apimachinery messages', () => {
  assert.equal(parseError('a in (b'), "unable to parse requirement: found '', expected: ',' or ')'");
  assert.equal(parseError('=x'), "found '=', expected: !, identifier, or 'end of string'");
  assert.equal(parseError('a,'), "found '', expected: identifier after ','");
  assert.equal(parseError('a b'), "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt");
  assert.equal(parseError('a in b'), "unable to parse requirement: found 'b' expected: '('");
  assert.match(
    parseError('a=b@d'),
    /^unable to parse requirement: values\[0\]\[a\]: Invalid value: "b@d": a valid label must be an empty string/,
  );
  assert.match(
    parseError('-a=b'),
    /^unable to parse requirement: key: Invalid value: "-a": name part must consist of alphanumeric characters/,
  );
});

void test('field selectors: parse, match, supported fields', () => {
  const sel = parseFieldSelector('metadata.name=a,status.phase!=Running');
  assert.equal(matchesFields(sel, { 'metadata.name': 'a', 'status.phase': 'Pending' }), true);
  assert.equal(matchesFields(sel, { 'metadata.name': 'a', 'status.phase': 'Running' }), false);
  assert.equal(matchesFields(parseFieldSelector('spec.nodeName=='), { 'spec.nodeName': '' }), true);
  assert.equal(matchesFields(parseFieldSelector('metadata.name=a\\,b'), { 'metadata.name': 'a,b' }), true);
  assert.throws(() => parseFieldSelector('bogus'), { message: "invalid selector: 'bogus'; can't understand 'bogus'" });
  assert.throws(() => checkFieldsSupported(parseFieldSelector('spec.foo=1'), new Set(['metadata.name'])), {
    message: 'field label not supported: spec.foo',
  });
});
