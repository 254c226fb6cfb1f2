import { test } from 'node:test';
import assert from 'node:assert/strict';
import { peakRss } from './memory.js';
import { formatCount, formatMiB, formatMs, formatRate, quantileSorted, summarize } from './stats.js';

test('summarize: odd and even counts, p95 by nearest rank', () => {
  assert.deepEqual(summarize([3, 1, 2]), { count: 3, min: 1, median: 2, p95: 3, max: 3, mean: 2 });
  const even = summarize([4, 1, 3, 2]);
  assert.equal(even.median, 2.5);
  const hundred = Array.from({ length: 100 }, (_, i) => 100 - i);
  assert.equal(summarize(hundred).p95, 95);
  assert.equal(summarize(hundred).median, 50.5);
});

test('quantileSorted: edges and bad input', () => {
  assert.equal(quantileSorted([5, 6, 7], 0), 5);
  assert.equal(quantileSorted([5, 6, 7], 1), 7);
  assert.throws(() => quantileSorted([], 0.5), /no samples/);
  assert.throws(() => quantileSorted([1], 1.5), /not in/);
  assert.throws(() => summarize([]), /no samples/);
});

test('formatting', () => {
  assert.equal(formatMiB(128 * 1024 * 1024), '128.0 MiB');
  assert.equal(formatMs(0.4213), '0.42 ms');
  assert.equal(formatMs(12.34), '12.3 ms');
  assert.equal(formatMs(1234.4), '1234 ms');
  assert.equal(formatRate(5123.4), '5,123/s');
  assert.equal(formatCount(10000), '10,000');
});

test('peakRss reads VmHWM', () => {
  assert.equal(peakRss('Name:\tnode\nVmPeak:\t  999 kB\nVmHWM:\t   2048 kB\nVmRSS:\t 1024 kB\n'), 2048 * 1024);
  assert.equal(peakRss('Name:\tnode\n'), undefined);
});
