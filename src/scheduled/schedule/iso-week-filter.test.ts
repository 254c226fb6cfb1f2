import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UTC_ZONE, loadZone } from '../../time/zone.js';
import {
  formatIsoWeekFilter,
  isoWeekFilterMatches,
  isoWeekNumberMatches,
  parseIsoWeekFilter,
} from './iso-week-filter.js';

const zurichResult = loadZone('Europe/Zurich', 'UTC');
assert.ok(zurichResult.ok);
const zurich = zurichResult.zone;

test('parses @odd, @even and week numbers; anything else is APPUiO’s error', () => {
  assert.deepEqual(parseIsoWeekFilter(undefined), { ok: true, filter: { kind: 'any' } });
  assert.deepEqual(parseIsoWeekFilter(''), { ok: true, filter: { kind: 'any' } });
  assert.deepEqual(parseIsoWeekFilter('@odd'), { ok: true, filter: { kind: 'odd' } });
  assert.deepEqual(parseIsoWeekFilter('@even'), { ok: true, filter: { kind: 'even' } });
  assert.deepEqual(parseIsoWeekFilter('2'), { ok: true, filter: { kind: 'week', week: 2 } });
  assert.deepEqual(parseIsoWeekFilter('05'), { ok: true, filter: { kind: 'week', week: 5 } });
  assert.deepEqual(parseIsoWeekFilter('53'), { ok: true, filter: { kind: 'week', week: 53 } });
  assert.deepEqual(parseIsoWeekFilter('99'), { ok: true, filter: { kind: 'week', week: 99 } });
  assert.deepEqual(parseIsoWeekFilter('@weekly'), { ok: false, error: 'unknown iso week: @weekly' });
  assert.deepEqual(parseIsoWeekFilter('odd'), { ok: false, error: 'unknown iso week: odd' });
  assert.deepEqual(parseIsoWeekFilter('@ODD'), { ok: false, error: 'unknown iso week: @ODD' });
  assert.deepEqual(parseIsoWeekFilter(' 5'), { ok: false, error: 'unknown iso week:  5' });
  for (const text of ['', '@odd', '@even', '7']) {
    const r = parseIsoWeekFilter(text);
    assert.ok(r.ok);
    assert.equal(formatIsoWeekFilter(r.filter), text);
  }
});

test('odd, even and numbered weeks', () => {
  assert.equal(isoWeekNumberMatches({ kind: 'odd' }, 53), true);
  assert.equal(isoWeekNumberMatches({ kind: 'odd' }, 1), true);
  assert.equal(isoWeekNumberMatches({ kind: 'odd' }, 2), false);
  assert.equal(isoWeekNumberMatches({ kind: 'even' }, 52), true);
  assert.equal(isoWeekNumberMatches({ kind: 'even' }, 53), false);
  assert.equal(isoWeekNumberMatches({ kind: 'week', week: 53 }, 53), true);
  assert.equal(isoWeekNumberMatches({ kind: 'week', week: 0 }, 1), false);
  assert.equal(isoWeekNumberMatches({ kind: 'any' }, 17), true);
});

test('the week is read in the schedule’s location', () => {
  // Sunday 2024-01-14 23:30 UTC is Monday 00:30 in Zurich: week 2 in UTC, week 3 in Zurich.
  const t = Date.UTC(2024, 0, 14, 23, 30);
  assert.equal(isoWeekFilterMatches({ kind: 'week', week: 2 }, t, UTC_ZONE), true);
  assert.equal(isoWeekFilterMatches({ kind: 'week', week: 2 }, t, zurich), false);
  assert.equal(isoWeekFilterMatches({ kind: 'week', week: 3 }, t, zurich), true);
  // 2020-12-29 is week 53 and 2021-01-05 week 1: @odd passes both.
  assert.equal(isoWeekFilterMatches({ kind: 'odd' }, Date.UTC(2020, 11, 29, 12), zurich), true);
  assert.equal(isoWeekFilterMatches({ kind: 'odd' }, Date.UTC(2021, 0, 5, 12), zurich), true);
  assert.equal(isoWeekFilterMatches({ kind: 'even' }, Date.UTC(2021, 0, 5, 12), zurich), false);
});
