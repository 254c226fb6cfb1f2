import { test } from 'node:test';
import assert from 'node:assert/strict';
import { apiVersion, splitApiVersion } from './resource.js';

void test('splitApiVersion: the core group is empty; apiVersion() is its inverse', () => {
  assert.deepEqual(splitApiVersion('v1'), { group: '', version: 'v1' });
  assert.deepEqual(splitApiVersion('config.openshift.io/v1'), { group: 'config.openshift.io', version: 'v1' });
  assert.deepEqual(splitApiVersion(''), { group: '', version: '' });
  for (const v of ['v1', 'apps/v1', 'managedupgrade.appuio.io/v1beta1'])
    assert.equal(apiVersion(splitApiVersion(v)), v);
});
