import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateMessage, fieldError, fieldErrorMessage } from './field-errors.js';

void test('tooLong says byte for a maximum of 1, bytes otherwise, and omits the value', () => {
  assert.equal(
    fieldErrorMessage(fieldError.tooLong('spec.x', 'ab', 1)),
    'spec.x: Too long: may not be more than 1 byte',
  );
  assert.equal(
    fieldErrorMessage(fieldError.tooLong('spec.x', 'abc', 2)),
    'spec.x: Too long: may not be more than 2 bytes',
  );
  assert.equal(
    fieldErrorMessage(fieldError.tooLong('spec.x', 'abc', 0)),
    'spec.x: Too long: may not be more than 0 bytes',
  );
  assert.equal(fieldErrorMessage(fieldError.tooLong('spec.x', 'abc', -1)), 'spec.x: Too long: value is too long');
});

void test('aggregateMessage brackets several messages and drops duplicates', () => {
  const a = fieldError.required('spec.a');
  const b = fieldError.invalid('spec.b', 3, 'must be even');
  assert.equal(aggregateMessage([a, a]), 'spec.a: Required value');
  assert.equal(aggregateMessage([a, b]), '[spec.a: Required value, spec.b: Invalid value: 3: must be even]');
});
