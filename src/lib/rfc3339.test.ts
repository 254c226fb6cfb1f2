import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRfc3339 } from './rfc3339.js';

test('RFC 3339 times parse to epoch milliseconds', () => {
  const cases: [string, string][] = [
    ['2030-01-01T10:00:00Z', '2030-01-01T10:00:00.000Z'],
    ['2030-01-01T10:00:00+02:00', '2030-01-01T08:00:00.000Z'],
    ['2030-01-01T10:00:00-05:30', '2030-01-01T15:30:00.000Z'],
    ['2030-01-01T10:00:00.5Z', '2030-01-01T10:00:00.500Z'],
    ['2030-01-01T10:00:00.123456789Z', '2030-01-01T10:00:00.123Z'],
    ['2028-02-29T00:00:00Z', '2028-02-29T00:00:00.000Z'],
    ['2000-02-29T23:59:59Z', '2000-02-29T23:59:59.000Z'],
  ];
  for (const [text, iso] of cases) assert.equal(parseRfc3339(text), Date.parse(iso), text);
  assert.equal(new Date(parseRfc3339('0001-01-01T00:00:00Z') ?? NaN).getUTCFullYear(), 1);
});

test('what Go time.Parse(time.RFC3339) refuses is refused', () => {
  for (const text of [
    '',
    '2030-01-01',
    '2030-01-01T10:00:00',
    '2030-01-01 10:00:00Z',
    '2030-01-01t10:00:00Z',
    '2030-01-01T10:00:00z',
    '2030-13-01T10:00:00Z',
    '2030-00-01T10:00:00Z',
    '2030-02-29T10:00:00Z',
    '1900-02-29T10:00:00Z',
    '2030-04-31T10:00:00Z',
    '2030-01-01T24:00:00Z',
    '2030-01-01T10:60:00Z',
    '2030-01-01T10:00:60Z',
    '2030-01-01T10:00:00+24:00',
    '2030-01-01T10:00:00+0200',
    '2030-01-01T10:00:00.Z',
    ' 2030-01-01T10:00:00Z',
    'tomorrow',
  ]) {
    assert.equal(parseRfc3339(text), undefined, text);
  }
});
