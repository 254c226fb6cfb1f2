import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  HOUR,
  MINUTE,
  SECOND,
  formatGoDuration,
  formatGoDurationMs,
  normalizeGoDuration,
  parseGoDuration,
  parseGoDurationMs,
} from './go-duration.js';

function ns(text: string): bigint {
  const r = parseGoDuration(text);
  assert.ok(r.ok, `${text}: ${r.ok ? '' : r.error}`);
  return r.nanoseconds;
}

function err(text: string): string {
  const r = parseGoDuration(text);
  assert.ok(!r.ok, `${text} should fail`);
  return r.error;
}

test('parses what Go parses, to the nanosecond', () => {
  const cases: [string, bigint][] = [
    ['0', 0n],
    ['+0', 0n],
    ['-0', 0n],
    ['0s', 0n],
    ['5s', 5n * SECOND],
    ['30s', 30n * SECOND],
    ['1478s', 1478n * SECOND],
    ['-5s', -5n * SECOND],
    ['+5s', 5n * SECOND],
    ['5.0s', 5n * SECOND],
    ['5.6s', 5n * SECOND + 600_000_000n],
    ['5.s', 5n * SECOND],
    ['.5s', 500_000_000n],
    ['1.0s', SECOND],
    ['1.00s', SECOND],
    ['1.004s', SECOND + 4_000_000n],
    ['1.0040s', SECOND + 4_000_000n],
    ['100.00100s', 100n * SECOND + 1_000_000n],
    ['10ns', 10n],
    ['11us', 11_000n],
    ['12µs', 12_000n],
    ['12μs', 12_000n],
    ['13ms', 13_000_000n],
    ['14s', 14n * SECOND],
    ['15m', 15n * MINUTE],
    ['16h', 16n * HOUR],
    ['3h30m', 3n * HOUR + 30n * MINUTE],
    ['10.5s4m', 4n * MINUTE + 10n * SECOND + 500_000_000n],
    ['-2m3.4s', -(2n * MINUTE + 3n * SECOND + 400_000_000n)],
    ['1h2m3s4ms5us6ns', HOUR + 2n * MINUTE + 3n * SECOND + 4_000_000n + 5_000n + 6n],
    ['39h9m14.425s', 39n * HOUR + 9n * MINUTE + 14n * SECOND + 425_000_000n],
    ['52763797000ns', 52_763_797_000n],
    ['0.3333333333333333333h', 20n * MINUTE],
    ['9007199254740993ns', (1n << 53n) + 1n],
    ['9223372036854775807ns', (1n << 63n) - 1n],
    ['9223372036854775.807us', (1n << 63n) - 1n],
    ['9223372036s854ms775us807ns', (1n << 63n) - 1n],
    ['-9223372036854775808ns', -(1n << 63n)],
    ['-9223372036854775.808us', -(1n << 63n)],
    ['-2562047h47m16.854775808s', -(1n << 63n)],
    ['0.100000000000000000000h', 6n * MINUTE],
    ['0.830103483285477580700h', 49n * MINUTE + 48n * SECOND + 372_539_827n],
  ];
  for (const [text, expected] of cases) assert.equal(ns(text), expected, text);
});

test('rejects what Go rejects, with Go’s messages', () => {
  assert.equal(err(''), 'time: invalid duration ""');
  assert.equal(err('3'), 'time: missing unit in duration "3"');
  assert.equal(err('1'), 'time: missing unit in duration "1"');
  assert.equal(err('-'), 'time: invalid duration "-"');
  assert.equal(err('s'), 'time: invalid duration "s"');
  assert.equal(err('.'), 'time: invalid duration "."');
  assert.equal(err('-.'), 'time: invalid duration "-."');
  assert.equal(err('.s'), 'time: invalid duration ".s"');
  assert.equal(err('+.s'), 'time: invalid duration "+.s"');
  assert.equal(err('1d'), 'time: unknown unit "d" in duration "1d"');
  assert.equal(err('2w'), 'time: unknown unit "w" in duration "2w"');
  assert.equal(err('1h '), 'time: unknown unit "h " in duration "1h "');
  assert.equal(err(' 1h'), 'time: invalid duration " 1h"');
  assert.equal(err('1µ'), 'time: unknown unit "\\xc2\\xb5" in duration "1\\xc2\\xb5"');
  assert.equal(err('3000000h'), 'time: invalid duration "3000000h"');
  assert.equal(err('9223372036854775808ns'), 'time: invalid duration "9223372036854775808ns"');
  assert.equal(err('9223372036854775.808us'), 'time: invalid duration "9223372036854775.808us"');
  assert.equal(err('9223372036854ms775us808ns'), 'time: invalid duration "9223372036854ms775us808ns"');
  assert.equal(err('-9223372036854775809ns'), 'time: invalid duration "-9223372036854775809ns"');
  assert.equal(err('1s"'), 'time: unknown unit "s\\"" in duration "1s\\""');
});

test('milliseconds truncate toward zero', () => {
  assert.deepEqual(parseGoDurationMs('1h'), { ok: true, ms: 3_600_000 });
  assert.deepEqual(parseGoDurationMs('1500us'), { ok: true, ms: 1 });
  assert.deepEqual(parseGoDurationMs('-1500us'), { ok: true, ms: -1 });
  assert.deepEqual(parseGoDurationMs('1d'), { ok: false, error: 'time: unknown unit "d" in duration "1d"' });
});

test('formats like Go’s Duration.String()', () => {
  const cases: [bigint, string][] = [
    [0n, '0s'],
    [1n, '1ns'],
    [1100n, '1.1µs'],
    [2_200_000n, '2.2ms'],
    [500_000_000n, '500ms'],
    [3_300_000_000n, '3.3s'],
    [4n * MINUTE + 5n * SECOND, '4m5s'],
    [4n * MINUTE + 5_001_000_000n, '4m5.001s'],
    [5n * HOUR + 6n * MINUTE + 7_001_000_000n, '5h6m7.001s'],
    [8n * MINUTE + 1n, '8m0.000000001s'],
    [HOUR, '1h0m0s'],
    [90n * SECOND, '1m30s'],
    [-SECOND, '-1s'],
    [(1n << 63n) - 1n, '2562047h47m16.854775807s'],
    [-(1n << 63n), '-2562047h47m16.854775808s'],
  ];
  for (const [d, text] of cases) assert.equal(formatGoDuration(d), text);
  assert.equal(formatGoDurationMs(90_000), '1m30s');
  assert.equal(formatGoDuration(1500), '1.5µs');
});

test('String() output parses back to the same duration', () => {
  fc.assert(
    fc.property(fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }), (d) => {
      assert.equal(ns(formatGoDuration(d)), d);
    }),
  );
});

test('normalises a stored duration to its Go spelling, leaving junk alone', () => {
  assert.equal(normalizeGoDuration('12h'), '12h0m0s');
  assert.equal(normalizeGoDuration('90m'), '1h30m0s');
  assert.equal(normalizeGoDuration('0s'), '0s');
  assert.equal(normalizeGoDuration('2d'), '2d');
});
