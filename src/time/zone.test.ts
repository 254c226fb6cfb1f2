import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Zone, ZoneSource } from './zone.js';
import {
  UTC_ZONE,
  addDate,
  formatGoTime,
  formatRfc3339InZone,
  loadZone,
  offsetSecondsAt,
  processZoneId,
  wallClock,
  zoneAbbreviation,
  zonedDate,
} from './zone.js';
import { fixtureBytes, fixtureFs, fixtureSource, NO_ZONEINFO } from './zoneinfo-fixtures.test-support.js';

const iso = (ms: number): string => new Date(ms).toISOString();

function zoneFrom(source: ZoneSource, name: string, local = 'Europe/Zurich'): Zone {
  const r = loadZone(name, local, source);
  assert.ok(r.ok, `${name}: ${r.ok ? '' : r.error}`);
  return r.zone;
}

// Go's semantics, checked twice: with rules from zone files (the fixtures standing in for the
// machine's zoneinfo) and with rules from Intl (a machine without zoneinfo).
for (const [via, source] of [
  ['TZif', fixtureSource()],
  ['Intl', NO_ZONEINFO],
] as const) {
  const zone = (name: string, local = 'Europe/Zurich'): Zone => zoneFrom(source, name, local);
  const zurich = zone('Europe/Zurich');
  const newYork = zone('America/New_York');
  const london = zone('Europe/London');

  test(`loadZone follows Go’s LoadLocation (${via})`, () => {
    assert.equal(zurich.rules !== undefined, via === 'TZif');
    assert.deepEqual(loadZone('', 'Europe/Zurich', source), { ok: true, zone: UTC_ZONE });
    assert.deepEqual(loadZone('UTC', 'Europe/Zurich', source), { ok: true, zone: UTC_ZONE });
    const local = zone('Local', 'Europe/Zurich');
    assert.deepEqual([local.name, local.id, local.local], ['Local', 'Europe/Zurich', true]);
    assert.equal(offsetSecondsAt(local, Date.UTC(2024, 6, 1)), 7200);
    assert.deepEqual(loadZone('Local', 'Not/AZone', source), {
      ok: true,
      zone: { name: 'Local', id: 'UTC', local: true },
    });
    assert.deepEqual(loadZone('Etc/UTC', 'UTC', source), {
      ok: true,
      zone: { name: 'Etc/UTC', id: 'UTC', local: false },
    });
    assert.equal(zone('Europe/Zurich').name, 'Europe/Zurich');
    assert.equal(zone('US/Eastern').local, false);
    assert.equal(zone('Etc/GMT+5').name, 'Etc/GMT+5');
    assert.deepEqual(loadZone('Mars/Olympus', 'UTC', source), { ok: false, error: 'unknown time zone Mars/Olympus' });
    assert.deepEqual(loadZone('europe/zurich', 'UTC', source), { ok: false, error: 'unknown time zone europe/zurich' });
    assert.deepEqual(loadZone('utc', 'UTC', source), { ok: false, error: 'unknown time zone utc' });
    assert.deepEqual(loadZone('local', 'UTC', source), { ok: false, error: 'unknown time zone local' });
    assert.deepEqual(loadZone('+01:00', 'UTC', source), { ok: false, error: 'unknown time zone +01:00' });
    assert.deepEqual(loadZone('../etc/passwd', 'UTC', source), { ok: false, error: 'time: invalid location name' });
    assert.deepEqual(loadZone('/usr/share/zoneinfo/UTC', 'UTC', source), {
      ok: false,
      error: 'time: invalid location name',
    });
  });

  test(`offsets at instants, exact to the second of a change (${via})`, () => {
    assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 0, 15)), 3600);
    assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 6, 15)), 7200);
    assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 2, 31, 0, 59, 59, 999)), 3600);
    assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 2, 31, 1)), 7200);
    assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 9, 27, 0, 59, 59)), 7200);
    assert.equal(offsetSecondsAt(zurich, Date.UTC(2024, 9, 27, 1)), 3600);
    assert.equal(offsetSecondsAt(zone('Asia/Kolkata'), Date.UTC(2024, 0, 1)), 19_800);
    // Lord Howe shifts by 30 minutes, at 02:00 local standard time (15:30 UTC).
    const lordHowe = zone('Australia/Lord_Howe');
    assert.equal(offsetSecondsAt(lordHowe, Date.UTC(2024, 9, 5, 15, 29, 59)), 37_800);
    assert.equal(offsetSecondsAt(lordHowe, Date.UTC(2024, 9, 5, 15, 30)), 39_600);
    // Zurich's local mean time before 1894: +0:34:08.
    assert.equal(offsetSecondsAt(zurich, Date.UTC(1850, 0, 1)), 2048);
    assert.equal(offsetSecondsAt(UTC_ZONE, Date.UTC(2024, 6, 1)), 0);
  });

  test(`wall clock fields (${via})`, () => {
    assert.deepEqual(wallClock(zurich, Date.UTC(2024, 9, 27, 0, 30, 5, 250)), {
      year: 2024,
      month: 10,
      day: 27,
      hour: 2,
      minute: 30,
      second: 5,
      millisecond: 250,
      weekday: 0,
      offsetSeconds: 7200,
    });
    assert.equal(wallClock(zurich, Date.UTC(2024, 9, 27, 1, 30)).hour, 2);
    assert.equal(wallClock(newYork, Date.UTC(2024, 0, 1, 3)).day, 31);
  });

  test(`zonedDate resolves gaps and overlaps exactly like Go’s time.Date (${via})`, () => {
    const at = (z: Zone, y: number, mo: number, d: number, h: number, mi: number): string =>
      iso(zonedDate(z, { year: y, month: mo, day: d, hour: h, minute: mi }));
    // Spring forward: 02:30 does not exist. East of UTC Go moves it forward by the gap (03:30
    // CEST); west of UTC backward (01:30 EST), as Go's own test says of Los Angeles
    // ("2:30:00 PDT ≡ 1:30 PST").
    assert.equal(at(zurich, 2024, 3, 31, 2, 30), '2024-03-31T01:30:00.000Z');
    assert.equal(at(newYork, 2024, 3, 10, 2, 30), '2024-03-10T06:30:00.000Z');
    assert.equal(at(zone('America/Los_Angeles'), 2011, 3, 13, 2, 30), new Date(1_300_008_600_000).toISOString());
    assert.equal(at(zone('America/Los_Angeles'), 2011, 11, 6, 1, 0), new Date(1_320_566_400_000).toISOString());
    assert.equal(at(london, 2024, 3, 31, 1, 30), '2024-03-31T01:30:00.000Z');
    // Fall back: east of UTC (and London) takes the later offset, west the earlier.
    assert.equal(at(zurich, 2024, 10, 27, 2, 30), '2024-10-27T01:30:00.000Z');
    assert.equal(at(london, 2024, 10, 27, 1, 30), '2024-10-27T01:30:00.000Z');
    assert.equal(at(newYork, 2024, 11, 3, 1, 30), '2024-11-03T05:30:00.000Z');
    // Ordinary times and overflowing fields.
    assert.equal(at(zurich, 2024, 7, 1, 12, 0), '2024-07-01T10:00:00.000Z');
    assert.equal(at(zurich, 2024, 13, 1, 0, 0), '2024-12-31T23:00:00.000Z');
    assert.equal(at(zurich, 2024, 3, 0, 0, 0), '2024-02-28T23:00:00.000Z');
    assert.equal(at(UTC_ZONE, 2024, 1, 1, 25, 61), '2024-01-02T02:01:00.000Z');
    assert.equal(at(UTC_ZONE, 50, 1, 1, 0, 0), '0050-01-01T00:00:00.000Z');
  });

  test(`addDate keeps the wall clock, like Go’s AddDate (${via})`, () => {
    const jan31 = zonedDate(zurich, { year: 2024, month: 1, day: 31, hour: 10 });
    assert.equal(formatRfc3339InZone(zurich, addDate(zurich, jan31, 0, 1, 0)), '2024-03-02T10:00:00+01:00');
    const beforeSpring = zonedDate(zurich, { year: 2024, month: 3, day: 30, hour: 12 });
    assert.equal(formatRfc3339InZone(zurich, addDate(zurich, beforeSpring, 0, 0, 1)), '2024-03-31T12:00:00+02:00');
    assert.equal(addDate(zurich, beforeSpring, 0, 0, 1) - beforeSpring, 23 * 3_600_000);
    const gapDay = zonedDate(zurich, { year: 2024, month: 3, day: 30, hour: 2, minute: 30 });
    assert.equal(formatRfc3339InZone(zurich, addDate(zurich, gapDay, 0, 0, 1)), '2024-03-31T03:30:00+02:00');
  });

  test(`formats like Go (${via})`, () => {
    assert.equal(formatGoTime(zurich, Date.UTC(2024, 6, 1, 10)), '2024-07-01 12:00:00 +0200 CEST');
    assert.equal(formatGoTime(zurich, Date.UTC(2024, 0, 1, 10, 0, 0, 500)), '2024-01-01 11:00:00.5 +0100 CET');
    assert.equal(formatGoTime(UTC_ZONE, Date.UTC(2024, 0, 1)), '2024-01-01 00:00:00 +0000 UTC');
    assert.equal(formatGoTime(newYork, Date.UTC(2024, 0, 1)), '2023-12-31 19:00:00 -0500 EST');
    assert.equal(formatRfc3339InZone(zurich, Date.UTC(2024, 9, 27, 0, 30)), '2024-10-27T02:30:00+02:00');
    assert.equal(formatRfc3339InZone(zurich, Date.UTC(2024, 9, 27, 1, 30)), '2024-10-27T02:30:00+01:00');
    assert.equal(formatRfc3339InZone(UTC_ZONE, Date.UTC(2024, 9, 27, 1, 30)), '2024-10-27T01:30:00Z');
    assert.equal(formatRfc3339InZone(zone('Asia/Kolkata'), Date.UTC(2024, 0, 1)), '2024-01-01T05:30:00+05:30');
  });

  test(`zonedDate of an instant’s own wall clock lands on the same wall clock (${via})`, () => {
    const zones = [zurich, newYork, london, zone('Australia/Lord_Howe'), zone('America/Sao_Paulo'), UTC_ZONE];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2040, 0, 1) }),
        fc.constantFrom(...zones),
        (ms, z) => {
          const w = wallClock(z, ms);
          const back = zonedDate(z, w);
          const { offsetSeconds: _a, ...fields } = w;
          const { offsetSeconds: _b, ...again } = wallClock(z, back);
          assert.deepEqual(again, fields);
          assert.ok(Math.abs(back - ms) <= 3_600_000);
        },
      ),
    );
  });
}

test('a zone’s rules come from the first valid file Go would read, else from Intl', () => {
  const zurichSlim = fixtureBytes('slim/Europe/Zurich');
  const garbage = new TextEncoder().encode('not a zone file, but long enough to have a header......');
  const fs = fixtureFs({
    '/opt/tz/Europe/Zurich': zurichSlim,
    '/usr/share/zoneinfo/Europe/London': garbage,
    '/usr/share/zoneinfo/zone.tab': garbage,
    '/usr/share/zoneinfo/posixrules': fixtureBytes('zoneinfo/America/New_York'),
  });
  const fromZoneinfo = zoneFrom({ fs, env: { ZONEINFO: '/opt/tz' } }, 'Europe/Zurich');
  assert.equal(fromZoneinfo.rules?.tzif.transitions.length, 37);
  const plain = zoneFrom({ fs, env: {} }, 'Europe/Zurich');
  assert.ok((plain.rules?.tzif.transitions.length ?? 0) > 100);
  // A file that does not parse, and a zone with no file: Intl, with the same results.
  const london = zoneFrom({ fs, env: {} }, 'Europe/London');
  assert.equal(london.rules, undefined);
  assert.equal(formatGoTime(london, Date.UTC(2024, 6, 1)), '2024-07-01 01:00:00 +0100 BST');
  const tokyo = zoneFrom({ fs, env: {} }, 'Asia/Tokyo');
  assert.deepEqual(tokyo, { name: 'Asia/Tokyo', id: 'Asia/Tokyo', local: false });
  // Intl's en-US has no name for Tokyo's offset (Go, from the file, prints JST).
  assert.equal(formatGoTime(tokyo, Date.UTC(2024, 6, 1)), '2024-07-01 09:00:00 +0900 +09');
  // Go reads any valid file in the zoneinfo directory, and nothing else.
  assert.equal(zoneFrom({ fs, env: {} }, 'posixrules').rules?.footer?.std.name, 'EST');
  assert.deepEqual(loadZone('zone.tab', 'UTC', { fs, env: {} }), { ok: false, error: 'unknown time zone zone.tab' });
  assert.deepEqual(loadZone('europe/zurich', 'UTC', { fs, env: {} }), {
    ok: false,
    error: 'unknown time zone europe/zurich',
  });
  // Each file is read once per file system.
  assert.equal(fs.reads.filter((p) => p === '/usr/share/zoneinfo/Europe/Zurich').length, 1);
});

test('abbreviations straight from the file, as Go prints them', () => {
  const source = fixtureSource();
  const at = (name: string, ms: number): string => zoneAbbreviation(zoneFrom(source, name), ms);
  assert.equal(at('Europe/Zurich', Date.UTC(2024, 0, 1)), 'CET');
  assert.equal(at('Europe/Zurich', Date.UTC(1850, 0, 1)), 'LMT');
  assert.equal(at('America/Sao_Paulo', Date.UTC(2024, 0, 1)), '-03');
  assert.equal(at('Australia/Lord_Howe', Date.UTC(2024, 0, 1)), '+11');
  assert.equal(at('Pacific/Chatham', Date.UTC(2024, 6, 1)), '+1245');
  assert.equal(at('Asia/Kolkata', Date.UTC(2024, 6, 1)), 'IST');
  assert.equal(
    formatGoTime(zoneFrom(source, 'Pacific/Chatham'), Date.UTC(2024, 0, 1)),
    '2024-01-01 13:45:00 +1345 +1345',
  );
});

test('processZoneId: $TZ and /etc/localtime as Go reads them', () => {
  const zurich = fixtureBytes('zoneinfo/Europe/Zurich');
  const kolkata = fixtureBytes('zoneinfo/Asia/Kolkata');
  const linked = fixtureFs({ '/etc/localtime': zurich }, { '/etc/localtime': '/usr/share/zoneinfo/Europe/Zurich' });
  assert.equal(processZoneId(fixtureSource({}, linked)), 'Europe/Zurich');
  const relative = fixtureFs({ '/etc/localtime': kolkata }, { '/etc/localtime': '../usr/share/zoneinfo/Asia/Kolkata' });
  assert.equal(processZoneId(fixtureSource({}, relative)), 'Asia/Kolkata');
  const utc = fixtureFs({ '/etc/localtime': fixtureBytes('zoneinfo/Etc/UTC') }, { '/etc/localtime': 'Etc/UTC' });
  assert.equal(processZoneId(fixtureSource({}, utc)), 'UTC');
  // A copied file has no name: Local is read from the file itself.
  const copied = fixtureSource({}, fixtureFs({ '/etc/localtime': zurich }));
  assert.equal(processZoneId(copied), '/etc/localtime');
  const local = zoneFrom(copied, 'Local', '/etc/localtime');
  assert.deepEqual([local.name, local.id, local.local], ['Local', '/etc/localtime', true]);
  assert.equal(formatGoTime(local, Date.UTC(2024, 6, 1)), '2024-07-01 02:00:00 +0200 CEST');
  // $TZ: empty or UTC is UTC, a leading colon is dropped, a path is read, a name looked up.
  assert.equal(processZoneId(fixtureSource({ TZ: '' }, linked)), 'UTC');
  assert.equal(processZoneId(fixtureSource({ TZ: ':America/New_York' }, linked)), 'America/New_York');
  assert.equal(processZoneId(fixtureSource({ TZ: '/usr/share/zoneinfo/Asia/Kolkata' }, linked)), 'Asia/Kolkata');
  const opt = fixtureFs({ '/opt/zone': kolkata });
  assert.equal(processZoneId(fixtureSource({ TZ: '/opt/zone' }, opt)), '/opt/zone');
  assert.equal(offsetSecondsAt(zoneFrom(fixtureSource({}, opt), 'Local', '/opt/zone'), 0), 19_800);
  // A Local whose file went missing is UTC, as in Go.
  assert.deepEqual(loadZone('Local', '/gone', fixtureSource()), {
    ok: true,
    zone: { name: 'Local', id: 'UTC', local: true },
  });
  // Nothing readable: Intl's answer (Node's own reading of $TZ and /etc/localtime).
  const intl = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  assert.equal(processZoneId(NO_ZONEINFO), intl);
  assert.equal(processZoneId(fixtureSource({ TZ: 'Mars/Olympus' })), intl);
  assert.equal(processZoneId(fixtureSource({ TZ: '/nowhere' })), intl);
});

test('with zone files, loading and computing never construct an Intl.DateTimeFormat', () => {
  const original = Intl.DateTimeFormat;
  const calls: unknown[] = [];
  Object.defineProperty(Intl, 'DateTimeFormat', {
    value: function DateTimeFormat(...args: unknown[]): never {
      calls.push(args);
      throw new Error('Intl.DateTimeFormat used');
    },
    configurable: true,
    writable: true,
  });
  try {
    const fs = fixtureFs(
      { '/etc/localtime': fixtureBytes('zoneinfo/Europe/Zurich') },
      { '/etc/localtime': '/usr/share/zoneinfo/Europe/Zurich' },
    );
    const source = fixtureSource({}, fs);
    const id = processZoneId(source);
    const local = zoneFrom(source, 'Local', id);
    const zurich = zoneFrom(source, 'Europe/Zurich');
    const start = zonedDate(zurich, { year: 2024, month: 3, day: 31, hour: 2, minute: 30 });
    assert.equal(formatGoTime(local, addDate(local, start, 0, 0, 1)), '2024-04-01 03:30:00 +0200 CEST');
    assert.equal(formatRfc3339InZone(zurich, start), '2024-03-31T03:30:00+02:00');
    assert.equal(wallClock(zoneFrom(source, 'Pacific/Chatham'), start).hour, 15);
  } finally {
    Object.defineProperty(Intl, 'DateTimeFormat', { value: original, configurable: true, writable: true });
  }
  assert.deepEqual(calls, []);
});

test('DST gaps and overlaps of half-hour zones resolve as Go’s time.Date (TZif)', () => {
  const lordHowe = zoneFrom(fixtureSource(), 'Australia/Lord_Howe');
  const at = (mo: number, d: number, h: number, mi: number): string =>
    formatRfc3339InZone(lordHowe, zonedDate(lordHowe, { year: 2024, month: mo, day: d, hour: h, minute: mi }));
  // 02:00 → 02:30 on 6 October: 02:15 moves forward by the gap.
  assert.equal(at(10, 6, 2, 15), '2024-10-06T02:45:00+11:00');
  // 02:00 → 01:30 on 7 April: 01:45 happens twice; east of UTC, the later one.
  assert.equal(at(4, 7, 1, 45), '2024-04-07T01:45:00+10:30');
  const chatham = zoneFrom(fixtureSource(), 'Pacific/Chatham');
  // 02:45 → 03:45 on 29 September.
  assert.equal(
    formatRfc3339InZone(chatham, zonedDate(chatham, { year: 2024, month: 9, day: 29, hour: 3, minute: 0 })),
    '2024-09-29T04:00:00+13:45',
  );
});

// Node's ICU and the fixtures (tzdata 2025b) may be different tz releases. These zones' rules
// between 2000 and 2037 have not changed in any release since 2019 (Brazil ended DST in 2019b,
// Morocco's Ramadan rules were last revised in 2019), so both must agree to the second here.
test('offsets from TZif equal Intl’s, 2000–2037, at every change and between them', () => {
  const from = Date.UTC(2000, 0, 1) / 1000;
  const to = Date.UTC(2037, 0, 1) / 1000;
  const zones = [
    'Europe/Zurich',
    'America/New_York',
    'Australia/Lord_Howe',
    'Asia/Kolkata',
    'America/Sao_Paulo',
    'Africa/Casablanca',
    'Pacific/Chatham',
  ];
  for (const name of zones) {
    const file = zoneFrom(fixtureSource(), name);
    const intl = zoneFrom(NO_ZONEINFO, name);
    assert.ok(file.rules && !intl.rules);
    const instants: number[] = [];
    for (const t of file.rules.tzif.transitions) if (t >= from && t < to) instants.push(t - 1, t);
    for (let t = from; t < to; t += 9 * 86_400 + 7 * 3600 + 13) instants.push(t);
    for (const t of instants) {
      const ms = t * 1000;
      assert.equal(offsetSecondsAt(file, ms), offsetSecondsAt(intl, ms), `${name} at ${iso(ms)}`);
    }
  }
});
