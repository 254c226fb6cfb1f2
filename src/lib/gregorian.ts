/** The proleptic Gregorian calendar's month lengths, as Go's `time` package counts them. */

/** Whether `year` has a 29 February. */
export function isLeapYear(year: number): boolean {
  return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
}

/** Days before each month of a common year (index 0: January), and the year's length at 12. */
export const DAYS_BEFORE_MONTH: readonly number[] = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365];

/** The number of days in `month` (1–12) of `year`. */
export function daysInMonth(year: number, month: number): number {
  if (month === 2 && isLeapYear(year)) return 29;
  return (DAYS_BEFORE_MONTH[month] ?? 0) - (DAYS_BEFORE_MONTH[month - 1] ?? 0);
}
