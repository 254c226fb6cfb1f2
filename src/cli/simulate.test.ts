import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatElapsed, progressLine } from './simulate.js';

void test('progress lines show virtual elapsed time, pools in name order and the CVO message', () => {
  assert.equal(formatElapsed(0), '+00:00:00');
  assert.equal(formatElapsed(((1 * 60 + 30) * 60 + 5) * 1000 + 999), '+01:30:05');
  assert.equal(
    progressLine({ elapsedMs: 75_000, version: '4.15.3', progressing: 'Working towards 4.15.3: 12 of 883 done (1% complete)', pools: { worker: [0, 3], master: [1, 3] } }),
    '[+00:01:15] master 1/3  worker 0/3  Working towards 4.15.3: 12 of 883 done (1% complete)',
  );
});
