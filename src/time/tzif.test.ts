import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { tzif } from './tzif-writer.test-support.js';
import { parseTzif } from './tzif.js';
import { fixtureBytes } from './zoneinfo-fixtures.test-support.js';

const error = (bytes: Uint8Array): string => {
  const r = parseTzif(bytes);
  assert.ok(!r.ok, 'expected an error');
  return r.error;
};

test('a fat version 2 file: the 64-bit block, the footer, designations as written', () => {
  const r = parseTzif(fixtureBytes('zoneinfo/Europe/Zurich'));
  assert.ok(r.ok);
  const { version, transitions, transitionTypes, types, footer } = r.data;
  assert.equal(version, 2);
  assert.equal(footer, 'CET-1CEST,M3.5.0,M10.5.0/3');
  assert.deepEqual(types[0], { offsetSeconds: 2048, isDst: false, abbreviation: 'LMT' });
  // The spring change of 2024, at 01:00 UTC, to CEST (+2).
  const i = transitions.indexOf(Date.UTC(2024, 2, 31, 1) / 1000);
  assert.ok(i > 0);
  assert.deepEqual(types[transitionTypes[i] ?? -1], { offsetSeconds: 7200, isDst: true, abbreviation: 'CEST' });
  assert.deepEqual(types[transitionTypes[i - 1] ?? -1], { offsetSeconds: 3600, isDst: false, abbreviation: 'CET' });
  // The 64-bit block reaches before 1901, which 32-bit times cannot: Zurich's 1853 change to BMT.
  assert.ok((transitions[0] ?? 0) < -(2 ** 31));
  const kolkata = parseTzif(fixtureBytes('zoneinfo/Asia/Kolkata'));
  assert.ok(kolkata.ok);
  assert.equal(kolkata.data.footer, 'IST-5:30');
  assert.ok(kolkata.data.types.some((t) => t.abbreviation === '+0630'));
});

test('a slim file has few transitions and relies on its footer', () => {
  const r = parseTzif(fixtureBytes('slim/Europe/Zurich'));
  assert.ok(r.ok);
  assert.ok((r.data.transitions.at(-1) ?? Infinity) < Date.UTC(2000, 0, 1) / 1000);
  assert.equal(r.data.footer, 'CET-1CEST,M3.5.0,M10.5.0/3');
});

test('version 1 files are read from their 32-bit block and have no footer', () => {
  const bytes = tzif({
    version: 1,
    transitions: [-100, 1_000_000],
    transitionTypes: [1, 0],
    types: [
      [3600, 0, 0],
      [7200, 1, 4],
    ],
    chars: 'CET\0CEST\0',
  });
  const r = parseTzif(bytes);
  assert.ok(r.ok);
  assert.deepEqual(r.data, {
    version: 1,
    transitions: [-100, 1_000_000],
    transitionTypes: [1, 0],
    types: [
      { offsetSeconds: 3600, isDst: false, abbreviation: 'CET' },
      { offsetSeconds: 7200, isDst: true, abbreviation: 'CEST' },
    ],
    footer: undefined,
  });
});

test('versions 3 and 4 read like version 2; an empty footer is kept as empty', () => {
  for (const version of [3, 4]) {
    const r = parseTzif(tzif({ version, transitions: [2 ** 40], footer: '' }));
    assert.ok(r.ok);
    assert.equal(r.data.version, version);
    assert.deepEqual(r.data.transitions, [2 ** 40]);
    assert.equal(r.data.footer, '');
  }
});

test('malformed files give a clear error', () => {
  const good = tzif({});
  assert.ok(parseTzif(good).ok);
  assert.match(error(new Uint8Array()), /^invalid TZif data: truncated: the header needs 44 bytes/);
  assert.equal(
    error(new TextEncoder().encode('#!/bin/sh\n'.padEnd(60, ' '))),
    'invalid TZif data: bad magic: not a TZif file',
  );
  const badVersion = Uint8Array.from(good);
  badVersion[4] = 0x35;
  assert.equal(error(badVersion), 'invalid TZif data: unsupported version byte 0x35');
  assert.equal(error(tzif({ counts: { type: 0 } })), 'invalid TZif data: typecnt is zero');
  assert.equal(error(tzif({ counts: { type: 300 } })), 'invalid TZif data: typecnt 300 is above 256');
  assert.equal(error(tzif({ counts: { char: 0 } })), 'invalid TZif data: charcnt is zero');
  assert.equal(error(tzif({ counts: { isut: 3 } })), 'invalid TZif data: isutcnt 3 is neither 0 nor typecnt');
  assert.match(
    error(tzif({ counts: { time: 0x7fffffff } })),
    /truncated: the version 1 data block its header announces/,
  );
  assert.match(error(tzif({ counts: { leap: 1000 } })), /truncated/);
  assert.equal(error(tzif({ transitions: [10, 5] })), 'invalid TZif data: transition 1 is not after the one before it');
  assert.equal(
    error(tzif({ transitions: [10], transitionTypes: [1] })),
    'invalid TZif data: transition 0 names type 1, the file has 1',
  );
  assert.equal(error(tzif({ types: [[0, 0, 9]] })), 'invalid TZif data: type 0 names designation 9, charcnt is 4');
  assert.equal(error(tzif({ types: [[0, 2, 0]] })), 'invalid TZif data: type 0 has isdst 2');
  assert.equal(error(tzif({ chars: 'UTC' })), 'invalid TZif data: type 0: designation is not NUL-terminated');
  assert.equal(
    error(tzif({ footer: 'UTC0' }).subarray(0, -1)),
    'invalid TZif data: footer does not end with a newline',
  );
  assert.equal(error(tzif({ footer: 'UT\tC0' })), 'invalid TZif data: footer holds a byte that is not printable ASCII');
  const noNewline = tzif({});
  noNewline[noNewline.length - 6] = 0x20;
  assert.equal(error(noNewline), 'invalid TZif data: footer does not start with a newline');
});

test('every truncation of a real file is an error, never an exception', () => {
  const bytes = fixtureBytes('zoneinfo/America/New_York');
  for (let n = 0; n < bytes.length; n++) {
    const r = parseTzif(bytes.subarray(0, n));
    assert.equal(r.ok, false, `${n} bytes`);
  }
  assert.ok(parseTzif(bytes).ok);
});

test('random and corrupted bytes never throw', () => {
  const real = fixtureBytes('zoneinfo/Australia/Lord_Howe');
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      assert.equal(typeof parseTzif(bytes).ok, 'boolean');
    }),
  );
  fc.assert(
    fc.property(fc.integer({ min: 0, max: real.length - 1 }), fc.integer({ min: 0, max: 255 }), (at, value) => {
      const copy = Uint8Array.from(real);
      copy[at] = value;
      assert.equal(typeof parseTzif(copy).ok, 'boolean');
    }),
  );
});
