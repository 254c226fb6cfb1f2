/**
 * An RFC 3339 time (e.g. MUO's `spec.upgradeAt`) parsed like Go's `time.Parse(time.RFC3339, s)`
 * (docs/design/managed-flow.md#validation, docs/design/managed-flow.md#when-an-upgrade-may-start):
 * `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, with each field range-checked (month, day of that
 * month, hour < 24, minute and second < 60, offset < 24:00).
 *
 * Written by hand because `Date.parse` accepts far more (date-only text, missing zones read
 * as local time, out-of-range days rolled over). Stricter than Go's lenient fallback parser in
 * two corners nobody writes on purpose: a one-digit hour and a comma before the fraction.
 */
import { daysInMonth } from './gregorian.js';

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

/** Epoch milliseconds of an RFC 3339 time, or undefined when Go would refuse it. */
export function parseRfc3339(text: string): number | undefined {
  const m = RFC3339.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMin = 0;
  if (m[8] !== 'Z') {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMin = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // Milliseconds: the first three digits of the fraction (finer digits are dropped).
  const fractionMs = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, fractionMs);
  return date.getTime() - offsetMin * 60_000;
}
