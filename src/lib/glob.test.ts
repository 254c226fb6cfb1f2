import { test } from 'node:test';
import assert from 'node:assert/strict';
import { globMatches, globSyntaxError, matchGlob } from './glob.js';

/** Go's documented `path.Match` behaviour: [pattern, name, matched, bad pattern]. */
const cases: [string, string, boolean, boolean][] = [
  ['abc', 'abc', true, false],
  ['*', 'abc', true, false],
  ['*c', 'abc', true, false],
  ['a*', 'a', true, false],
  ['a*', 'abc', true, false],
  ['a*', 'ab/c', false, false],
  ['a*/b', 'abc/b', true, false],
  ['a*/b', 'a/c/b', false, false],
  ['a*b*c*d*e*/f', 'axbxcxdxe/f', true, false],
  ['a*b*c*d*e*/f', 'axbxcxdxexxx/f', true, false],
  ['a*b*c*d*e*/f', 'axbxcxdxe/xxx/f', false, false],
  ['a*b*c*d*e*/f', 'axbxcxdxexxx/fff', false, false],
  ['a*b?c*x', 'abxbbxdbxebxczzx', true, false],
  ['a*b?c*x', 'abxbbxdbxebxczzy', false, false],
  ['ab[c]', 'abc', true, false],
  ['ab[b-d]', 'abc', true, false],
  ['ab[e-g]', 'abc', false, false],
  ['ab[^c]', 'abc', false, false],
  ['ab[^b-d]', 'abc', false, false],
  ['ab[^e-g]', 'abc', true, false],
  ['a\\*b', 'a*b', true, false],
  ['a\\*b', 'ab', false, false],
  ['a?b', 'a☺b', true, false],
  ['a[^a]b', 'a☺b', true, false],
  ['a???b', 'a☺b', false, false],
  ['a[^a][^a][^a]b', 'a☺b', false, false],
  ['[a-ζ]*', 'α', true, false],
  ['*[a-ζ]', 'A', false, false],
  ['a?b', 'a/b', false, false],
  ['a*b', 'a/b', false, false],
  ['[\\]a]', ']', true, false],
  ['[\\-]', '-', true, false],
  ['[x\\-]', 'x', true, false],
  ['[x\\-]', '-', true, false],
  ['[x\\-]', 'z', false, false],
  ['[\\-x]', 'x', true, false],
  ['[\\-x]', '-', true, false],
  ['[\\-x]', 'a', false, false],
  ['[]a]', ']', false, true],
  ['[-]', '-', false, true],
  ['[x-]', 'x', false, true],
  ['[x-]', '-', false, true],
  ['[x-]', 'z', false, true],
  ['[-x]', 'x', false, true],
  ['[-x]', '-', false, true],
  ['[-x]', 'a', false, true],
  ['\\', 'a', false, true],
  ['[a-b-c]', 'a', false, true],
  ['[', 'a', false, true],
  ['[^', 'a', false, true],
  ['[^bc', 'a', false, true],
  ['a[', 'a', false, true],
  ['a[', 'ab', false, true],
  ['a[', 'x', false, true],
  ['a/b[', 'x', false, true],
  ['*x', 'xxx', true, false],
  // MUO's use: extra Hive machine pools.
  ['non-serving-*', 'non-serving-a', true, false],
  ['non-serving-*', 'serving-a', false, false],
  ['infra', 'infra', true, false],
  ['infra', 'infra2', false, false],
  ['', '', true, false],
  ['', 'a', false, false],
];

test('matchGlob follows Go path.Match on its documented cases', () => {
  for (const [pattern, name, matched, bad] of cases) {
    const got = matchGlob(pattern, name);
    assert.equal(got.matched, matched, `Match(${JSON.stringify(pattern)}, ${JSON.stringify(name)}) matched`);
    assert.equal(
      got.error !== undefined,
      bad,
      `Match(${JSON.stringify(pattern)}, ${JSON.stringify(name)}) bad pattern`,
    );
    assert.equal(globMatches(pattern, name), matched);
  }
});

test('globSyntaxError reports malformed patterns whatever the name', () => {
  assert.equal(globSyntaxError('non-serving-*'), undefined);
  assert.equal(globSyntaxError('[a-z]?\\*'), undefined);
  assert.equal(globSyntaxError('pool-['), 'syntax error in pattern');
  assert.equal(globSyntaxError('x*[]'), 'syntax error in pattern');
  assert.equal(globSyntaxError('a\\'), 'syntax error in pattern');
});

test('a pattern with many stars ends: no backtracking into earlier stars', () => {
  // A backtracking matcher would try about 4000^30 splits here.
  assert.equal(globMatches(`${'*a'.repeat(30)}*b`, 'a'.repeat(4000)), false);
  assert.equal(globMatches(`${'*a'.repeat(30)}*b`, `${'a'.repeat(4000)}b`), true);
});
