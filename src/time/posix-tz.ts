/**
 * POSIX TZ strings as TZif footers carry them (RFC 8536 section 3.3, with the version 3
 * extensions: rule times may be negative or exceed 24 hours), e.g. `CET-1CEST,M3.5.0,M10.5.0/3`,
 * `<+0330>-3:30`, `EST5EDT`. They give the offset of instants after a zone file's last
 * transition. Parsed and evaluated as Go's `time.tzset` does (zoneinfo_read.go's footer
 * handling): a DST part without rules takes the US rules `M3.2.0,M11.1.0`, hours run up to
 * 24×7, and each instant is placed within its UTC year. Hand-written, like tzif.ts.
 * Pure functions; malformed strings yield an error text.
 */
import { DAYS_BEFORE_MONTH, daysInMonth, isLeapYear } from '../lib/gregorian.js';

/** What is in force at an instant. */
export interface ZoneState {
  /** Offset east of UTC, in seconds. */
  readonly offsetSeconds: number;
  readonly isDst: boolean;
  readonly abbreviation: string;
}

/** A transition date: `Jn` (1–365, Feb 29 never counted), `n` (0–365), or `Mm.w.d`. */
export type RuleDate =
  | { readonly kind: 'julian'; readonly day: number }
  | { readonly kind: 'day-of-year'; readonly day: number }
  | { readonly kind: 'month-week-day'; readonly month: number; readonly week: number; readonly weekday: number };

/** A transition: a date and a local time of day in seconds (may be negative or above 24 h). */
export interface Rule {
  readonly date: RuleDate;
  readonly time: number;
}

export interface PosixTz {
  readonly std: { readonly name: string; readonly offsetSeconds: number };
  /** Absent for a zone without daylight saving time. */
  readonly dst?: {
    readonly name: string;
    readonly offsetSeconds: number;
    readonly start: Rule;
    readonly end: Rule;
  };
}

export type PosixTzResult = { ok: true; tz: PosixTz } | { ok: false; error: string };

const HOUR = 3600;
const DAY = 86_400;

class Cursor {
  readonly text: string;
  at = 0;

  constructor(text: string) {
    this.text = text;
  }

  get done(): boolean {
    return this.at >= this.text.length;
  }

  peek(): string {
    return this.text[this.at] ?? '';
  }

  fail(what: string): never {
    throw new PosixTzError(`${what} at position ${this.at} of ${JSON.stringify(this.text)}`);
  }

  expect(char: string, what: string): void {
    if (this.peek() !== char) this.fail(`expected ${what}`);
    this.at++;
  }

  /** Go's tzsetNum: one or more digits, within [min, max]. */
  num(min: number, max: number, what: string): number {
    const start = this.at;
    while (/[0-9]/.test(this.peek())) this.at++;
    if (this.at === start) this.fail(`expected ${what}`);
    const n = Number(this.text.slice(start, this.at));
    if (n < min || n > max) {
      this.at = start;
      this.fail(`${what} out of range ${min}–${max}`);
    }
    return n;
  }
}

class PosixTzError extends Error {}

/** A zone name: three or more characters that are no digit, sign or comma, or `<…>`. */
function name(cur: Cursor, what: string): string {
  if (cur.peek() === '<') {
    const close = cur.text.indexOf('>', cur.at);
    if (close < 0) cur.fail(`unterminated <…> ${what} name`);
    const n = cur.text.slice(cur.at + 1, close);
    cur.at = close + 1;
    return n;
  }
  const start = cur.at;
  while (!cur.done && !/[0-9,+-]/.test(cur.peek())) cur.at++;
  if (cur.at - start < 3) cur.fail(`${what} name of fewer than 3 characters`);
  return cur.text.slice(start, cur.at);
}

/** `[+-]hh[:mm[:ss]]` in seconds, with the sign as written. */
function signedTime(cur: Cursor, what: string): number {
  let sign = 1;
  if (cur.peek() === '+') cur.at++;
  else if (cur.peek() === '-') {
    sign = -1;
    cur.at++;
  }
  let seconds = cur.num(0, 24 * 7, `${what} hours`) * HOUR;
  if (cur.peek() === ':') {
    cur.at++;
    seconds += cur.num(0, 59, `${what} minutes`) * 60;
    if (cur.peek() === ':') {
      cur.at++;
      seconds += cur.num(0, 59, `${what} seconds`);
    }
  }
  return sign * seconds;
}

function rule(cur: Cursor): Rule {
  let date: RuleDate;
  if (cur.peek() === 'J') {
    cur.at++;
    date = { kind: 'julian', day: cur.num(1, 365, 'Julian day') };
  } else if (cur.peek() === 'M') {
    cur.at++;
    const month = cur.num(1, 12, 'month');
    cur.expect('.', "'.' after the month");
    const week = cur.num(1, 5, 'week');
    cur.expect('.', "'.' after the week");
    date = { kind: 'month-week-day', month, week, weekday: cur.num(0, 6, 'weekday') };
  } else {
    date = { kind: 'day-of-year', day: cur.num(0, 365, 'day of year') };
  }
  if (cur.peek() !== '/') return { date, time: 2 * HOUR };
  cur.at++;
  return { date, time: signedTime(cur, 'rule time') };
}

/** Parses a POSIX TZ string (an empty one is an error: it names no zone). */
export function parsePosixTz(text: string): PosixTzResult {
  try {
    const c = new Cursor(text);
    const stdName = name(c, 'standard time');
    // POSIX offsets are west of UTC; ours are east.
    const stdOffset = 0 - signedTime(c, 'standard offset');
    const std = { name: stdName, offsetSeconds: stdOffset };
    // Rules after a zone without a DST name are ignored, as by Go.
    if (c.done || c.peek() === ',') return { ok: true, tz: { std } };
    const dstName = name(c, 'daylight saving time');
    const dstOffset =
      c.done || c.peek() === ',' || c.peek() === ';' ? stdOffset + HOUR : 0 - signedTime(c, 'DST offset');
    // Without rules, tzcode (and Go) apply the US rules.
    const rules = c.done ? new Cursor(',M3.2.0,M11.1.0') : c;
    if (rules.peek() !== ',' && rules.peek() !== ';') rules.fail("expected ',' before the rules");
    rules.at++;
    const start = rule(rules);
    rules.expect(',', "',' between the rules");
    const end = rule(rules);
    if (!rules.done) rules.fail('trailing text');
    return { ok: true, tz: { std, dst: { name: dstName, offsetSeconds: dstOffset, start, end } } };
  } catch (err) {
    return { ok: false, error: `invalid TZ string: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** Go's tzruleTime: seconds from the start of the UTC year to the rule's instant. */
function ruleSecondsInYear(year: number, transition: Rule, offsetSeconds: number): number {
  let day: number;
  const d = transition.date;
  if (d.kind === 'julian') {
    day = d.day - 1 + (isLeapYear(year) && d.day >= 60 ? 1 : 0);
  } else if (d.kind === 'day-of-year') {
    day = d.day;
  } else {
    const firstWeekday = new Date(Date.UTC(year, d.month - 1, 1)).getUTCDay();
    let dom = (d.weekday - firstWeekday + 7) % 7;
    for (let i = 1; i < d.week; i++) {
      if (dom + 7 >= daysInMonth(year, d.month)) break;
      dom += 7;
    }
    day = dom + (DAYS_BEFORE_MONTH[d.month - 1] ?? 0) + (isLeapYear(year) && d.month > 2 ? 1 : 0);
  }
  return day * DAY + transition.time - offsetSeconds;
}

/** The state a TZ string gives an instant (Unix seconds), as Go's tzset computes it. */
export function posixTzAt(tz: PosixTz, unixSeconds: number): ZoneState {
  const std: ZoneState = { offsetSeconds: tz.std.offsetSeconds, isDst: false, abbreviation: tz.std.name };
  if (!tz.dst) return std;
  const dst: ZoneState = { offsetSeconds: tz.dst.offsetSeconds, isDst: true, abbreviation: tz.dst.name };
  const date = new Date(Math.floor(unixSeconds / DAY) * DAY * 1000);
  const year = date.getUTCFullYear();
  const secondsInYear = unixSeconds - Date.UTC(year, 0, 1) / 1000;
  const start = ruleSecondsInYear(year, tz.dst.start, tz.std.offsetSeconds);
  const end = ruleSecondsInYear(year, tz.dst.end, tz.dst.offsetSeconds);
  // Southern hemisphere: DST spans the new year, so the inner period is standard time.
  const [outside, inside, from, to] = end < start ? [dst, std, end, start] : [std, dst, start, end];
  return secondsInYear >= from && secondsInYear < to ? inside : outside;
}
