import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '../lib/random.js';
import { drawMs, minutesMs } from './durations.js';

void test('draws are whole milliseconds inside the triangle, scaled, and at least 1', () => {
  const random = new SeededRandom(5);
  for (let i = 0; i < 200; i++) {
    const ms = drawMs(random, [1, 2, 4]);
    assert.ok(Number.isInteger(ms) && ms >= 60_000 && ms <= 240_000, String(ms));
    const fast = drawMs(random, [1, 2, 4], 60);
    assert.ok(Number.isInteger(fast) && fast >= 1_000 && fast <= 4_000, String(fast));
  }
  assert.equal(drawMs(random, [0, 0, 0]), 1);
  assert.equal(minutesMs(1.5), 90_000);
  assert.equal(minutesMs(0), 0);
  assert.throws(() => minutesMs(1, 0), /timeScale must be positive/);
});
