import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareGoSemver, newestAvailableRelease, parseGoSemver } from './go-semver.js';

void test('accepts what golang.org/x/mod/semver accepts (after its v prefix), shorthands included', () => {
  for (const ok of [
    '4.15.3',
    '4.15.0-rc.3',
    '4.16.0-0.nightly-2024-01-01-000000',
    '4.15.3+build.1',
    '4',
    '4.15',
    '0.0.0',
  ]) {
    assert.ok(parseGoSemver(ok), ok);
  }
  for (const bad of [
    'v4.15.3',
    ' 4.15.3',
    '04.15.3',
    '4.015.3',
    '4.15-rc.1',
    '4.15.3-rc.01',
    '4.15.3-',
    '4.15.3+',
    '',
    'latest',
    '4.15.3.1',
  ]) {
    assert.equal(parseGoSemver(bad), undefined, bad);
  }
});

void test('orders like x/mod/semver: prereleases, build ignored, shorthands, invalid lowest', () => {
  assert.equal(compareGoSemver('4.14.10', '4.14.9'), 1);
  assert.equal(compareGoSemver('4.15.0-rc.3', '4.15.0'), -1);
  assert.equal(compareGoSemver('4.15.0-rc.3', '4.15.0-rc.10'), -1);
  assert.equal(compareGoSemver('4.15.0-ec.1', '4.15.0-rc.1'), -1);
  assert.equal(compareGoSemver('4.15.0+a', '4.15.0+b'), 0);
  assert.equal(compareGoSemver('4.15', '4.15.0'), 0);
  assert.equal(compareGoSemver('4', '4.0.1'), -1);
  assert.equal(compareGoSemver('garbage', '0.0.1'), -1);
  assert.equal(compareGoSemver('0.0.1', 'garbage'), 1);
  assert.equal(compareGoSemver('garbage', 'v1.0.0'), 0);
});

void test('the newest available release is the semver-highest, not the first; the first of equals; none when empty', () => {
  const r = (
    version: string,
    image = `quay.io/openshift-release-dev/ocp-release@sha256:${version}`,
  ): { version: string; image: string } => ({ version, image });
  assert.deepEqual(newestAvailableRelease([r('4.14.9'), r('4.14.10'), r('4.14.2'), r('nonsense')]), r('4.14.10'));
  assert.deepEqual(newestAvailableRelease([r('4.15.0-rc.3'), r('4.14.10')]), r('4.15.0-rc.3'));
  assert.deepEqual(newestAvailableRelease([r('4.15.1', 'a'), r('4.15.1+x', 'b')]), r('4.15.1', 'a'));
  assert.deepEqual(newestAvailableRelease([r('nonsense')]), r('nonsense'));
  assert.equal(newestAvailableRelease([]), undefined);
  assert.equal(newestAvailableRelease(null), undefined);
  assert.equal(newestAvailableRelease(undefined), undefined);
});
