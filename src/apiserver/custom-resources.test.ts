import { test } from 'node:test';
import assert from 'node:assert/strict';
import { strictValidationMessage } from './custom-resources.js';

const WINDOW = { group: 'managedupgrade.appuio.io', kind: 'UpgradeSuspensionWindow' };

void test("fieldValidation=Strict refuses unknown fields in kube-apiserver's words for each kind of write", () => {
  assert.equal(
    strictValidationMessage(WINDOW, 'v1beta1', ['spec.bogus'], 'body'),
    'UpgradeSuspensionWindow in version "v1beta1" cannot be handled as a UpgradeSuspensionWindow: strict decoding error: unknown field "spec.bogus"',
  );
  assert.equal(
    strictValidationMessage(WINDOW, 'v1beta1', ['spec.bogus', 'spec.other'], 'patch'),
    'strict decoding error: unknown field "spec.bogus", unknown field "spec.other"',
  );
  assert.equal(
    strictValidationMessage(WINDOW, 'v1beta1', ['spec.bogus'], 'apply'),
    'failed to create typed patch object (managedupgrade.appuio.io/v1beta1, Kind=UpgradeSuspensionWindow): .spec.bogus: field not declared in schema',
  );
  assert.equal(
    strictValidationMessage(WINDOW, 'v1beta1', ['spec.a', 'spec.b'], 'apply'),
    'failed to create typed patch object (managedupgrade.appuio.io/v1beta1, Kind=UpgradeSuspensionWindow): errors:\n  .spec.a: field not declared in schema\n  .spec.b: field not declared in schema',
  );
});
