/**
 * IANA time zones with Go's semantics. Like Go, a zone's rules come from its TZif file in the
 * system's zoneinfo (zoneinfo.ts, tzif.ts, posix-tz.ts); when there is none (no such file, no
 * zoneinfo on the machine, a file that does not parse) they come from `Intl.DateTimeFormat`, the
 * tz database every Node process has, whose ICU data costs ~15 ms to start and is therefore only
 * the fallback (docs/design/dependencies.md#time-zones). What the anchors' Go code relies on:
 * - `time.LoadLocation`: `""`/`UTC` are UTC, `Local` is the process zone, anything else must be
 *   a tz database name (case-sensitive, as on Linux), with Go's error messages;
 * - `time.Date`: a wall time in a DST gap moves forward by the gap; in an overlap it takes the
 *   offset in force at "the wall time read as UTC" (east of UTC: the later instant, west: the
 *   earlier one) — Go's rule, not Temporal's `compatible` nor luxon's;
 * - `t.AddDate`, wall-clock fields, and `t.String()` for messages.
 * Instants are epoch milliseconds, never read from a clock. Zone files are read through an
 * injected {@link ZoneSource} (the machine's by default) and cached per process.
 */
import { zoneRulesFromTzif, zoneStateAt, type ZoneRules } from './zone-rules.js';
import {
  isZoneName,
  localZoneSource,
  systemZoneinfo,
  zoneFileCandidates,
  zoneNameOfPath,
  type ZoneinfoEnv,
  type ZoneinfoFs,
} from './zoneinfo.js';

/** A loaded location. `local` marks Go's `time.Local` (robfig treats it specially). */
export interface Zone {
  /** The name as Go prints it: `UTC`, `Local` or the tz database name given. */
  readonly name: string;
  /** The tz database identifier used for offsets (`UTC` for UTC). */
  readonly id: string;
  /** True for `Local`. */
  readonly local: boolean;
  /**
   * The rules from the zone's TZif file; absent when they come from Intl (and for UTC). `id` is
   * then the name looked up, or the file's path for a `Local` read from a file with no zone name.
   */
  readonly rules?: ZoneRules;
}

/** Where zone files are read from: a file system and the environment ($TZ, $ZONEINFO). */
export interface ZoneSource {
  readonly fs: ZoneinfoFs;
  readonly env: ZoneinfoEnv;
}

/** This machine's zoneinfo and this process's environment. */
export const SYSTEM_ZONE_SOURCE: ZoneSource = { fs: systemZoneinfo, env: process.env };

/** Go's `time.UTC`. */
export const UTC_ZONE: Zone = { name: 'UTC', id: 'UTC', local: false };

/** Outcome of {@link loadZone}. */
export type ZoneResult = { ok: true; zone: Zone } | { ok: false; error: string };

/** Wall-clock fields of an instant in a zone (month 1–12, weekday 0 = Sunday). */
export interface WallClock {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
  readonly weekday: number;
  /** Offset east of UTC, in seconds. */
  readonly offsetSeconds: number;
}

/** Fields for {@link zonedDate}; out-of-range values overflow like Go's `time.Date`. */
export interface DateFields {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour?: number;
  readonly minute?: number;
  readonly second?: number;
  readonly millisecond?: number;
}

/**
 * Offsets are cached per zone and UTC day. A day is assumed to hold at most one offset change
 * (DST and zone changes are months apart): its offset is read at its start, middle and end, and
 * a change is located to the second by bisection. Two changes inside one UTC day would be
 * misread.
 */
const BUCKET_MS = 86_400_000;
/** Beyond this many cached days a zone's cache restarts. */
const MAX_CACHED_BUCKETS = 100_000;

/** A UTC day containing one offset change: `before` until `at`, then `after`. */
interface Transition {
  readonly at: number;
  readonly before: number;
  readonly after: number;
}

interface ZoneCache {
  readonly format: Intl.DateTimeFormat;
  readonly buckets: Map<number, number | Transition>;
}

const caches = new Map<string, ZoneCache>();

/** Epoch ms of a wall time read as UTC; overflowing fields carry like Go's `time.Date`. */
export function utcFromFields(dateFields: DateFields): number {
  const d = new Date(0);
  d.setUTCFullYear(dateFields.year, dateFields.month - 1, dateFields.day);
  d.setUTCHours(dateFields.hour ?? 0, dateFields.minute ?? 0, dateFields.second ?? 0, dateFields.millisecond ?? 0);
  return d.getTime();
}

function intlTimeZone(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** Rules read per file system and path (null: unusable); a zone file is read once per process. */
const fileCache = new WeakMap<ZoneinfoFs, Map<string, ZoneRules | null>>();

function rulesAtPath(path: string, fs: ZoneinfoFs): ZoneRules | undefined {
  let cache = fileCache.get(fs);
  if (!cache) {
    cache = new Map();
    fileCache.set(fs, cache);
  }
  let rules = cache.get(path);
  if (rules === undefined) {
    const bytes = fs.readFile(path);
    const parsed = bytes === undefined ? undefined : zoneRulesFromTzif(bytes);
    rules = parsed?.ok ? parsed.rules : null;
    cache.set(path, rules);
  }
  return rules ?? undefined;
}

/** The rules of zone `name` from the first valid file Go would read. */
function rulesOfName(name: string, source: ZoneSource): ZoneRules | undefined {
  for (const path of zoneFileCandidates(name, source.env)) {
    const rules = rulesAtPath(path, source.fs);
    if (rules) return rules;
  }
  return undefined;
}

/** UTC under another name (`Etc/UTC`, `GMT`, …): one type at offset zero, no transitions. */
function isUtc(rules: ZoneRules): boolean {
  const footer = rules.footer;
  return (
    rules.tzif.transitions.length === 0 &&
    rules.tzif.types.every((t) => t.offsetSeconds === 0) &&
    (!footer || (footer.dst === undefined && footer.std.offsetSeconds === 0))
  );
}

/** A zone from file rules; zones that are UTC get id `UTC`, as Intl resolves them. */
function fileZone(name: string, id: string, local: boolean, rules: ZoneRules): Zone {
  return isUtc(rules) ? { name, id: 'UTC', local } : { name, id, local, rules };
}

/**
 * The zone this process runs in (what Go calls `Local`), as an id for {@link loadZone}: `UTC`, a
 * zone name, or the path of a zone file that has no name. Decided from $TZ and /etc/localtime
 * as Go decides; Intl is asked only when they give no readable zone. For wiring, not logic.
 */
export function processZoneId(source: ZoneSource = SYSTEM_ZONE_SOURCE): string {
  const local = localZoneSource(source.env);
  if (local.kind === 'utc') return 'UTC';
  if (local.kind === 'name') {
    const rules = isZoneName(local.name) ? rulesOfName(local.name, source) : undefined;
    if (rules) return isUtc(rules) ? 'UTC' : local.name;
  } else {
    const rules = rulesAtPath(local.path, source.fs);
    if (rules) {
      if (isUtc(rules)) return 'UTC';
      const name = zoneNameOfPath(local.path, source.fs.readLink(local.path));
      return name !== undefined && rulesOfName(name, source) ? name : local.path;
    }
  }
  return new Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** `Local` for a process zone id; an unusable one is UTC, as Go's is. */
function localZone(id: string, source: ZoneSource): Zone {
  const utc: Zone = { name: 'Local', id: 'UTC', local: true };
  if (id === 'UTC') return utc;
  const rules = id.startsWith('/') ? rulesAtPath(id, source.fs) : isZoneName(id) ? rulesOfName(id, source) : undefined;
  if (rules) return fileZone('Local', id, true, rules);
  const resolved = id.startsWith('/') ? undefined : intlTimeZone(id);
  return resolved === undefined ? utc : { name: 'Local', id: resolved, local: true };
}

/**
 * Go's `time.LoadLocation(name)`. `localZoneId` is what `Local` stands for (the process zone in
 * production, a fixed zone in tests). Errors carry Go's text: `unknown time zone Foo/Bar` or
 * `time: invalid location name`. Rules come from the zone's file when `source` has a valid one,
 * else from Intl.
 */
export function loadZone(name: string, localZoneId: string, source: ZoneSource = SYSTEM_ZONE_SOURCE): ZoneResult {
  if (name === '' || name === 'UTC') return { ok: true, zone: UTC_ZONE };
  if (name === 'Local') return { ok: true, zone: localZone(localZoneId, source) };
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) {
    return { ok: false, error: 'time: invalid location name' };
  }
  const unknown: ZoneResult = { ok: false, error: `unknown time zone ${name}` };
  // Offset strings ("+01:00", accepted by newer Intl) are no tz database names.
  if (!/^[A-Za-z]/.test(name)) return unknown;
  const rules = rulesOfName(name, source);
  if (rules) return { ok: true, zone: fileZone(name, name, false, rules) };
  const resolved = intlTimeZone(name);
  if (resolved === undefined) return unknown;
  // Go finds zone files case-sensitively; Intl does not.
  if (resolved !== name && resolved.toLowerCase() === name.toLowerCase()) return unknown;
  return { ok: true, zone: { name, id: resolved, local: false } };
}

function cacheFor(id: string): ZoneCache {
  let c = caches.get(id);
  if (!c) {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: id,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    c = { format, buckets: new Map() };
    caches.set(id, c);
  }
  return c;
}

/** Offset (seconds east of UTC) at a whole second, straight from Intl. */
function intlOffset(format: Intl.DateTimeFormat, ms: number): number {
  const at = Math.floor(ms / 1000) * 1000;
  const f: Record<string, string> = {};
  for (const p of format.formatToParts(at)) f[p.type] = p.value;
  let year = Number(f.year);
  if (f.era === 'BC' || f.era === 'B') year = 1 - year;
  const wall = utcFromFields({
    year,
    month: Number(f.month),
    day: Number(f.day),
    hour: Number(f.hour),
    minute: Number(f.minute),
    second: Number(f.second),
  });
  return Math.round((wall - at) / 1000);
}

/** The offset, or the one change, in the bucket starting at `start`. */
function bucketEntry(format: Intl.DateTimeFormat, start: number): number | Transition {
  const last = start + BUCKET_MS - 1000;
  const before = intlOffset(format, start);
  const middle = intlOffset(format, start + BUCKET_MS / 2);
  const after = intlOffset(format, last);
  if (before === middle && middle === after) return before;
  let lo = start;
  let hi = before === middle ? last : start + BUCKET_MS / 2;
  const target = before === middle ? after : middle;
  while (hi - lo > 1000) {
    const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
    if (intlOffset(format, mid) === before) lo = mid;
    else hi = mid;
  }
  return { at: hi, before, after: target };
}

/** The offset of a zone at an instant, in seconds east of UTC (from Intl: cached per UTC day). */
export function offsetSecondsAt(zone: Zone, ms: number): number {
  if (zone.id === 'UTC') return 0;
  if (zone.rules) return zoneStateAt(zone.rules, Math.floor(ms / 1000)).offsetSeconds;
  const cache = cacheFor(zone.id);
  const bucket = Math.floor(ms / BUCKET_MS);
  let entry = cache.buckets.get(bucket);
  if (entry === undefined) {
    entry = bucketEntry(cache.format, bucket * BUCKET_MS);
    if (cache.buckets.size >= MAX_CACHED_BUCKETS) cache.buckets.clear();
    cache.buckets.set(bucket, entry);
  }
  if (typeof entry === 'number') return entry;
  return ms < entry.at ? entry.before : entry.after;
}

/** Wall-clock fields of an instant in a zone (Go's `t.In(loc).Date()`, `.Clock()`, …). */
export function wallClock(zone: Zone, ms: number): WallClock {
  const offsetSeconds = offsetSecondsAt(zone, ms);
  const d = new Date(ms + offsetSeconds * 1000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
    weekday: d.getUTCDay(),
    offsetSeconds,
  };
}

/**
 * Go's `time.Date(year, month, day, hour, min, sec, nsec, loc)`: fields overflow into the next
 * larger unit; then the wall time L (read as UTC) is shifted by the offset in force at
 * `L - offset(L)`. A gap moves forward, an overlap resolves as Go resolves it.
 */
export function zonedDate(zone: Zone, fields: DateFields): number {
  const local = utcFromFields(fields);
  if (zone.id === 'UTC') return local;
  const guess = offsetSecondsAt(zone, local);
  return local - offsetSecondsAt(zone, local - guess * 1000) * 1000;
}

/** Go's `t.AddDate(years, months, days)` in a zone: wall-clock arithmetic, then `time.Date`. */
export function addDate(zone: Zone, ms: number, years: number, months: number, days: number): number {
  const w = wallClock(zone, ms);
  return zonedDate(zone, {
    year: w.year + years,
    month: w.month + months,
    day: w.day + days,
    hour: w.hour,
    minute: w.minute,
    second: w.second,
    millisecond: w.millisecond,
  });
}

function pad(count: number, width = 2): string {
  const s = String(Math.abs(count)).padStart(width, '0');
  return count < 0 ? `-${s}` : s;
}

function offsetText(offsetSeconds: number, colon: boolean): string {
  const sign = offsetSeconds < 0 ? '-' : '+';
  const abs = Math.abs(offsetSeconds);
  return `${sign}${pad(Math.floor(abs / 3600))}${colon ? ':' : ''}${pad(Math.floor((abs % 3600) / 60))}`;
}

/**
 * RFC 3339 in the zone's offset, seconds precision (`2024-03-31T03:00:00+02:00`; `Z` at offset
 * zero, as Go's `time.RFC3339` writes it).
 */
export function formatRfc3339InZone(zone: Zone, ms: number): string {
  const w = wallClock(zone, ms);
  const date = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
  return w.offsetSeconds === 0 ? `${date}Z` : `${date}${offsetText(w.offsetSeconds, true)}`;
}

/**
 * The zone's abbreviation at an instant: from its file as Go prints it, or as close to Go's as
 * Intl allows (`CET`, `EDT`, `UTC`; a numeric `+04` where the tz database has none).
 */
export function zoneAbbreviation(zone: Zone, ms: number): string {
  if (zone.id === 'UTC') return 'UTC';
  if (zone.rules) return zoneStateAt(zone.rules, Math.floor(ms / 1000)).abbreviation;
  const offsetSeconds = offsetSecondsAt(zone, ms);
  for (const locale of ['en-US', 'en-GB']) {
    const part = new Intl.DateTimeFormat(locale, { timeZone: zone.id, timeZoneName: 'short' })
      .formatToParts(ms)
      .find((p) => p.type === 'timeZoneName');
    if (part && !/^(GMT|UTC)[+-]/.test(part.value)) return part.value;
  }
  const text = offsetText(offsetSeconds, false);
  return text.endsWith('00') ? text.slice(0, 3) : text;
}

/** Go's `t.String()` without the monotonic part: `2024-03-31 03:00:00 +0200 CEST`. */
export function formatGoTime(zone: Zone, ms: number): string {
  const w = wallClock(zone, ms);
  const frac = w.millisecond === 0 ? '' : `.${pad(w.millisecond, 3).replace(/0+$/, '')}`;
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${frac} ${offsetText(w.offsetSeconds, false)} ${zoneAbbreviation(zone, ms)}`;
}
