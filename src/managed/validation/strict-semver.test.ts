import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareStrictSemver, isStrictSemver, parseStrictSemver } from './strict-semver.js';

test('strict parsing accepts SemVer 2.0.0 and nothing more (blang/semver Parse)', () => {
  for (const v of [
    '4.15.3',
    '0.0.0',
    '4.16.0-rc.3',
    '4.16.0-0.nightly-2024-01-01-000000',
    '4.15.3+build.01',
    '1.2.3-alpha-1.x',
    '10.20.30',
  ]) {
    assert.equal(isStrictSemver(v), true, v);
  }
  for (const v of [
    'v4.15.3',
    ' 4.15.3',
    '4.15.3 ',
    '4.15',
    '4',
    '04.15.3',
    '4.015.3',
    '4.15.03',
    '4.15.3-rc.03',
    '4.15.3-',
    '4.15.3+',
    '4.15.3-rc..1',
    '',
    'latest',
    '4.15.3.1',
  ]) {
    assert.equal(isStrictSemver(v), false, v);
  }
});

test('comparison: prereleases sort below the release, numeric identifiers numerically, build ignored', () => {
  const cmp = (a: string, b: string): number => {
    const pa = parseStrictSemver(a);
    const pb = parseStrictSemver(b);
    assert.ok(pa && pb);
    return compareStrictSemver(pa, pb);
  };
  assert.equal(cmp('4.15.0-rc.3', '4.15.0'), -1);
  assert.equal(cmp('4.15.0-rc.3', '4.15.0-rc.10'), -1);
  assert.equal(cmp('4.15.0-ec.1', '4.15.0-rc.1'), -1);
  assert.equal(cmp('4.14.10', '4.14.9'), 1);
  assert.equal(cmp('4.14.9+a', '4.14.9+b'), 0);
  assert.equal(cmp('4.14.9', '4.14.9'), 0);
});
