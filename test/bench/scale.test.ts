import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchScale, scaled } from './scale.js';

test('BENCH_SCALE: 1 when unset, a factor in (0, 1], anything else refused', () => {
  assert.equal(benchScale({}), 1);
  assert.equal(benchScale({ BENCH_SCALE: ' ' }), 1);
  assert.equal(benchScale({ BENCH_SCALE: '0.01' }), 0.01);
  for (const bad of ['0', '2', '-1', 'small', 'NaN'])
    assert.throws(() => benchScale({ BENCH_SCALE: bad }), /BENCH_SCALE=.*expected a number in \(0, 1\]/);
});

test('scaled counts round and never drop below one', () => {
  assert.equal(scaled(10_000, 1), 10_000);
  assert.equal(scaled(10_000, 0.005), 50);
  assert.equal(scaled(100, 0.001), 1);
});
