/**
 * robfig/cron v3's standard parser (`cron.ParseStandard`) and `Schedule.Next`, ported for their
 * semantics (docs/design/scheduled-flow.md#cron-dialect, docs/design/dependencies.md#cron). Written
 * by hand because no npm cron library matches robfig on the star bit, `N/step`, weekday 7 or DST
 * (measured: croner, cron-parser). Parse errors use robfig's messages.
 *
 * `nextActivation` reproduces robfig's search: months and days advance on the wall clock (Go's
 * `AddDate`), hours and minutes in absolute time. So in Europe/Zurich a wall time missing on
 * the spring-forward day is skipped that day, and one repeated on the fall-back day fires twice.
 */
import { parseGoDuration, nanosToMs, SECOND } from '../../lib/go-duration.js';
import type { Zone } from '../../time/zone.js';
import { addDate, loadZone, wallClock, zonedDate } from '../../time/zone.js';
import type { CronField, CronSchedule, FieldBounds, SpecSchedule } from './cron-spec.js';
import { FIELD_BOUNDS, dayMatches, fieldIsEmpty, rangeField, someDayCanMatch } from './cron-spec.js';

/** Outcome of {@link parseCron}: the schedule, or robfig's error message. */
export type CronParseResult = { ok: true; schedule: CronSchedule } | { ok: false; error: string };

/** Go's `strings.Fields`/`TrimSpace` whitespace (unicode.IsSpace). */
const GO_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const FIELDS_SPLIT = new RegExp(`[${GO_SPACE}]+`);
const TRIM = new RegExp(`^[${GO_SPACE}]+|[${GO_SPACE}]+$`, 'g');

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

class CronSyntaxError extends Error {}

/** Go's `strconv.Quote`, for the ASCII range that cron input realistically holds. */
function goQuote(text: string): string {
  const escapes: Record<string, string> = {
    '"': '\\"',
    '\\': '\\\\',
    '\n': '\\n',
    '\t': '\\t',
    '\r': '\\r',
    '\v': '\\v',
    '\f': '\\f',
    '\b': '\\b',
    '\x07': '\\a',
  };
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (escapes[ch] !== undefined) out += escapes[ch];
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** robfig's `mustParseInt`: Go's `strconv.Atoi`, then no negatives. */
function mustParseInt(expr: string): bigint {
  if (!/^[+-]?[0-9]+$/.test(expr)) {
    throw new CronSyntaxError(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: invalid syntax`,
    );
  }
  const n = BigInt(expr);
  if (n > INT64_MAX || n < INT64_MIN) {
    throw new CronSyntaxError(
      `failed to parse int from ${expr}: strconv.Atoi: parsing ${goQuote(expr)}: value out of range`,
    );
  }
  if (n < 0n) throw new CronSyntaxError(`negative number (${n}) not allowed: ${expr}`);
  return n;
}

function parseIntOrName(expr: string, bounds: FieldBounds): bigint {
  const named = bounds.names?.[expr.toLowerCase()];
  return named !== undefined ? BigInt(named) : mustParseInt(expr);
}

/** robfig's `getRange`: one list item (`*`, `?`, `a`, `a-b`, each optionally `/step`). */
function parseRange(expr: string, bounds: FieldBounds, allowed: boolean[]): boolean {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = (rangeAndStep[0] ?? '').split('-');
  const single = lowAndHigh.length === 1;
  let start: bigint;
  let end: bigint;
  let star = false;
  const low = lowAndHigh[0] ?? '';
  if (low === '*' || low === '?') {
    start = BigInt(bounds.min);
    end = BigInt(bounds.max);
    star = true;
  } else {
    start = parseIntOrName(low, bounds);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1] ?? '', bounds);
    else throw new CronSyntaxError(`too many hyphens: ${expr}`);
  }
  let step: bigint;
  if (rangeAndStep.length === 1) step = 1n;
  else if (rangeAndStep.length === 2) {
    step = mustParseInt(rangeAndStep[1] ?? '');
    // "N/step" means "N-max/step".
    if (single) end = BigInt(bounds.max);
    if (step > 1n) star = false;
  } else throw new CronSyntaxError(`too many slashes: ${expr}`);
  if (start < BigInt(bounds.min))
    throw new CronSyntaxError(`beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > BigInt(bounds.max))
    throw new CronSyntaxError(`end of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new CronSyntaxError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0n) throw new CronSyntaxError(`step of range should be a positive number: ${expr}`);
  for (let v = Number(start); v <= Number(end); v += Number(step)) allowed[v] = true;
  return star;
}

/** robfig's `getField`: a comma list; empty items are dropped (so `,` allows nothing). */
function parseField(text: string, bounds: FieldBounds): CronField {
  const allowed: boolean[] = new Array<boolean>(bounds.max + 1).fill(false);
  let star = false;
  for (const expr of text.split(',').filter((e) => e !== '')) {
    if (parseRange(expr, bounds, allowed)) star = true;
  }
  return { allowed, star };
}

function parseDescriptor(descriptor: string, location: Zone | undefined): CronSchedule {
  const B = FIELD_BOUNDS;
  const first = (b: FieldBounds): CronField => rangeField(b, false, [b.min]);
  const all = (b: FieldBounds): CronField => rangeField(b, true);
  const base = { kind: 'spec', second: first(B.second), minute: first(B.minute), location } as const;
  switch (descriptor) {
    case '@yearly':
    case '@annually':
      return {
        ...base,
        hour: first(B.hour),
        dayOfMonth: first(B.dayOfMonth),
        month: first(B.month),
        dayOfWeek: all(B.dayOfWeek),
      };
    case '@monthly':
      return {
        ...base,
        hour: first(B.hour),
        dayOfMonth: first(B.dayOfMonth),
        month: all(B.month),
        dayOfWeek: all(B.dayOfWeek),
      };
    case '@weekly':
      return {
        ...base,
        hour: first(B.hour),
        dayOfMonth: all(B.dayOfMonth),
        month: all(B.month),
        dayOfWeek: first(B.dayOfWeek),
      };
    case '@daily':
    case '@midnight':
      return {
        ...base,
        hour: first(B.hour),
        dayOfMonth: all(B.dayOfMonth),
        month: all(B.month),
        dayOfWeek: all(B.dayOfWeek),
      };
    case '@hourly':
      return {
        ...base,
        hour: all(B.hour),
        dayOfMonth: all(B.dayOfMonth),
        month: all(B.month),
        dayOfWeek: all(B.dayOfWeek),
      };
  }
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    const d = parseGoDuration(descriptor.slice(every.length));
    if (!d.ok) throw new CronSyntaxError(`failed to parse duration ${descriptor}: ${d.error}`);
    // At least one second, rounded down to whole seconds.
    const ns = d.nanoseconds < SECOND ? SECOND : d.nanoseconds;
    return { kind: 'every', delayMs: nanosToMs(ns - (ns % SECOND)) };
  }
  throw new CronSyntaxError(`unrecognized descriptor: ${descriptor}`);
}

/**
 * Parses a schedule like robfig/cron v3's `ParseStandard`: five fields (minute hour dom month
 * dow) or a descriptor, optionally after `CRON_TZ=<zone> ` or `TZ=<zone> `.
 */
export function parseCron(text: string): CronParseResult {
  try {
    return { ok: true, schedule: parseOrThrow(text) };
  } catch (e) {
    if (e instanceof CronSyntaxError) return { ok: false, error: e.message };
    throw e;
  }
}

function parseOrThrow(text: string): CronSchedule {
  if (text.length === 0) throw new CronSyntaxError('empty spec string');
  let spec = text;
  let location: Zone | undefined;
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const eq = spec.indexOf('=');
    const space = spec.indexOf(' ');
    // robfig slices up to the first space and panics without one; we refuse instead.
    if (space < 0)
      throw new CronSyntaxError(`provided bad location ${spec.slice(eq + 1)}: no schedule after the time zone`);
    const name = spec.slice(eq + 1, space);
    const zone = loadZone(name, 'UTC');
    if (!zone.ok) throw new CronSyntaxError(`provided bad location ${name}: ${zone.error}`);
    location = zone.zone.local ? undefined : zone.zone;
    spec = spec.slice(space).replace(TRIM, '');
  }
  if (spec.startsWith('@')) return parseDescriptor(spec, location);
  const fields = spec.split(FIELDS_SPLIT).filter((f) => f !== '');
  if (fields.length !== 5)
    throw new CronSyntaxError(`expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]`);
  const [minute, hour, dom, month, dow] = fields as [string, string, string, string, string];
  const B = FIELD_BOUNDS;
  return {
    kind: 'spec',
    second: parseField('0', B.second),
    minute: parseField(minute, B.minute),
    hour: parseField(hour, B.hour),
    dayOfMonth: parseField(dom, B.dayOfMonth),
    month: parseField(month, B.month),
    dayOfWeek: parseField(dow, B.dayOfWeek),
    location,
  };
}

/**
 * robfig's `Next`: the first activation strictly after `afterMs` (searching from the next whole
 * second), or undefined when none exists within five years (robfig's zero time). A schedule
 * without `CRON_TZ` matches wall clocks in `zone` (the zone of the time robfig is given).
 */
export function nextActivation(schedule: CronSchedule, afterMs: number, zone: Zone): number | undefined {
  const start = Math.floor(afterMs / 1000) * 1000;
  if (schedule.kind === 'every') return start + schedule.delayMs;
  return nextSpec(schedule, start + 1000, schedule.location ?? zone);
}

function nextSpec(specSchedule: SpecSchedule, from: number, loc: Zone): number | undefined {
  // A field allowing nothing never matches: robfig would search for five years and give up.
  if (
    [specSchedule.second, specSchedule.minute, specSchedule.hour, specSchedule.month].some(fieldIsEmpty) ||
    !someDayCanMatch(specSchedule)
  )
    return undefined;
  let t = from;
  let added = false;
  const yearLimit = wallClock(loc, t).year + 5;
  wrap: for (;;) {
    let w = wallClock(loc, t);
    if (w.year > yearLimit) return undefined;
    while (!specSchedule.month.allowed[w.month]) {
      if (!added) {
        added = true;
        t = zonedDate(loc, { year: w.year, month: w.month, day: 1 });
      }
      t = addDate(loc, t, 0, 1, 0);
      w = wallClock(loc, t);
      if (w.month === 1) continue wrap;
    }
    while (!dayMatches(specSchedule, w.day, w.weekday)) {
      if (!added) {
        added = true;
        t = zonedDate(loc, { year: w.year, month: w.month, day: w.day });
      }
      t = addDate(loc, t, 0, 0, 1);
      w = wallClock(loc, t);
      // Where midnight does not exist, AddDate lands at 01:00 (or 23:00): robfig corrects it.
      if (w.hour !== 0) {
        t += (w.hour > 12 ? 24 - w.hour : -w.hour) * HOUR_MS;
        w = wallClock(loc, t);
      }
      if (w.day === 1) continue wrap;
    }
    while (!specSchedule.hour.allowed[w.hour]) {
      if (!added) {
        added = true;
        t = zonedDate(loc, { year: w.year, month: w.month, day: w.day, hour: w.hour });
      }
      t += HOUR_MS;
      w = wallClock(loc, t);
      if (w.hour === 0) continue wrap;
    }
    while (!specSchedule.minute.allowed[w.minute]) {
      if (!added) {
        added = true;
        t = Math.floor(t / MINUTE_MS) * MINUTE_MS;
      }
      t += MINUTE_MS;
      w = wallClock(loc, t);
      if (w.minute === 0) continue wrap;
    }
    while (!specSchedule.second.allowed[w.second]) {
      if (!added) {
        added = true;
        t = Math.floor(t / 1000) * 1000;
      }
      t += 1000;
      w = wallClock(loc, t);
      if (w.second === 0) continue wrap;
    }
    return t;
  }
}
