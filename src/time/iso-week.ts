/**
 * ISO 8601 week numbering of a wall date, like Go's `t.ISOWeek()`: weeks start on Monday and
 * week 1 is the week holding the year's first Thursday, so 2020-12-29 is in week 53 of 2020 and
 * 2027-01-01 in week 53 of 2026. Pure arithmetic on calendar dates (no zone involved: callers
 * pass the wall date in the zone that matters).
 */

/** An ISO week: the week-numbering year and the week (1–53). */
export interface IsoWeek {
  readonly year: number;
  readonly week: number;
}

const DAY_MS = 86_400_000;

function dayNumber(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return Math.round(d.getTime() / DAY_MS);
}

/** ISO week-year and week of a calendar date (month 1–12). */
export function isoWeekOf(year: number, month: number, day: number): IsoWeek {
  const n = dayNumber(year, month, day);
  // 1970-01-01 was a Thursday; Monday = 0 … Sunday = 6.
  const mondayBased = (((n + 3) % 7) + 7) % 7;
  const thursday = n - mondayBased + 3;
  const weekYear = new Date(thursday * DAY_MS).getUTCFullYear();
  return { year: weekYear, week: Math.floor((thursday - dayNumber(weekYear, 1, 1)) / 7) + 1 };
}

/** How many ISO weeks a week-numbering year has (52 or 53). */
export function isoWeeksInYear(year: number): number {
  return isoWeekOf(year, 12, 28).week;
}
