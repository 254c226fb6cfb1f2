import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utcTime } from './scrape-gauges.js';

void test('utcTime: Go RFC 3339 text and Unix seconds; malformed and absent are undefined', () => {
  assert.deepEqual(utcTime('2024-03-05T22:00:00+01:00'), { rfc3339: '2024-03-05T21:00:00Z', unix: 1709672400 });
  assert.deepEqual(utcTime('1969-12-31T23:59:59.5Z'), { rfc3339: '1969-12-31T23:59:59Z', unix: -1 });
  assert.equal(utcTime('2024-03-05'), undefined);
  assert.equal(utcTime(undefined), undefined);
  assert.equal(utcTime(null), undefined);
});
