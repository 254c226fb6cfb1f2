import { test } from 'node:test';
import assert from 'node:assert/strict';
import { zoneRulesFromTzif, zoneStateAt, type ZoneRules } from './zone-rules.js';
import { tzif } from './tzif-writer.test-support.js';
import { fixtureBytes } from './zoneinfo-fixtures.test-support.js';

function rules(bytes: Uint8Array): ZoneRules {
  const r = zoneRulesFromTzif(bytes);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.rules;
}

const state = (r: ZoneRules, ms: number): string => {
  const s = zoneStateAt(r, Math.floor(ms / 1000));
  return `${s.abbreviation} ${s.offsetSeconds}${s.isDst ? ' dst' : ''}`;
};

const fatZurich = rules(fixtureBytes('zoneinfo/Europe/Zurich'));
const slimZurich = rules(fixtureBytes('slim/Europe/Zurich'));

test('transitions, the time before the first, and the footer after the last', () => {
  assert.equal(state(fatZurich, Date.UTC(1800, 0, 1)), 'LMT 2048');
  assert.equal(state(fatZurich, Date.UTC(1870, 0, 1)), 'BMT 1786');
  assert.equal(state(fatZurich, Date.UTC(1941, 6, 1)), 'CEST 7200 dst');
  assert.equal(state(fatZurich, Date.UTC(1970, 6, 1)), 'CET 3600');
  assert.equal(state(fatZurich, Date.UTC(2024, 2, 31, 0, 59, 59)), 'CET 3600');
  assert.equal(state(fatZurich, Date.UTC(2024, 2, 31, 1)), 'CEST 7200 dst');
  // After 2037's last transition, the footer.
  assert.equal(state(fatZurich, Date.UTC(2090, 6, 1)), 'CEST 7200 dst');
  assert.equal(state(fatZurich, Date.UTC(2090, 11, 1)), 'CET 3600');
  const kolkata = rules(fixtureBytes('zoneinfo/Asia/Kolkata'));
  assert.equal(state(kolkata, Date.UTC(1943, 0, 1)), '+0630 23400 dst');
  assert.equal(state(kolkata, Date.UTC(2030, 0, 1)), 'IST 19800');
  const utc = rules(fixtureBytes('zoneinfo/Etc/UTC'));
  assert.equal(state(utc, Date.UTC(2030, 0, 1)), 'UTC 0');
  assert.equal(state(utc, Date.UTC(1800, 0, 1)), 'UTC 0');
});

test('a slim file, which relies on its footer from 1996 on, agrees with the fat one', () => {
  assert.ok(slimZurich.tzif.transitions.length < fatZurich.tzif.transitions.length / 2);
  for (let ms = Date.UTC(1990, 0, 1); ms < Date.UTC(2040, 0, 1); ms += 3_599_000) {
    assert.equal(state(slimZurich, ms), state(fatZurich, ms), new Date(ms).toISOString());
  }
});

test('before the first transition: the first standard-time type, as Go picks it', () => {
  const types: [number, number, number][] = [
    [100, 0, 0],
    [3600, 0, 4],
    [7200, 1, 8],
  ];
  const chars = 'LMT\0STD\0DST\0';
  // Type 0 unused by the transitions: it is the time before them.
  assert.equal(state(rules(tzif({ transitions: [0], transitionTypes: [2], types, chars })), -1000), 'LMT 100');
  // Type 0 used, and the first transition goes to DST: the standard type before it.
  const used = rules(tzif({ transitions: [0, 10, 20], transitionTypes: [2, 0, 1], types, chars }));
  assert.equal(state(used, -1000), 'STD 3600');
  assert.equal(state(used, 15_000), 'LMT 100');
  assert.equal(state(used, 25_000), 'UTC 0');
});

test('without footer (version 1, or an empty one) the last type lasts forever', () => {
  const types: [number, number, number][] = [
    [3600, 0, 0],
    [7200, 1, 4],
  ];
  const v1 = rules(tzif({ version: 1, transitions: [0, 100], transitionTypes: [1, 0], types, chars: 'CET\0CEST\0' }));
  assert.equal(v1.footer, undefined);
  assert.equal(state(v1, 50_000), 'CEST 7200 dst');
  assert.equal(state(v1, Date.UTC(2090, 6, 1)), 'CET 3600');
  const empty = rules(tzif({ transitions: [0], transitionTypes: [1], types, chars: 'CET\0CEST\0', footer: '' }));
  assert.equal(state(empty, Date.UTC(2090, 0, 1)), 'CEST 7200 dst');
  assert.equal(state(rules(tzif({ version: 1 })), 0), 'UTC 0');
});

test('a footer that does not parse makes the file unusable', () => {
  assert.deepEqual(zoneRulesFromTzif(tzif({ footer: 'CET-1CEST,M13.5.0,M10.5.0' })), {
    ok: false,
    error:
      'invalid TZif footer: invalid TZ string: month out of range 1–12 at position 11 of "CET-1CEST,M13.5.0,M10.5.0"',
  });
  assert.deepEqual(zoneRulesFromTzif(new Uint8Array(3)), {
    ok: false,
    error: 'invalid TZif data: truncated: the header needs 44 bytes at offset 0, the file has 3',
  });
});
