/**
 * APPUiO's `isoWeek` filter (docs/design/scheduled-flow.md#iso-weeks): `@odd`, `@even` or a week
 * number, tested with Go's `ISOWeek()` on a schedule time **in the schedule's location**. Week 53
 * exists, so `@odd` runs in two consecutive weeks across such a year end (2020-W53, 2021-W01).
 */
import { isoWeekOf } from '../../time/iso-week.js';
import type { Zone } from '../../time/zone.js';
import { wallClock } from '../../time/zone.js';

/** A parsed filter: any week, odd weeks, even weeks, or one week number. */
export type IsoWeekFilter =
  | { readonly kind: 'any' }
  | { readonly kind: 'odd' }
  | { readonly kind: 'even' }
  | { readonly kind: 'week'; readonly week: number };

/** Outcome of {@link parseIsoWeekFilter}: the filter, or APPUiO's error message. */
export type IsoWeekFilterResult = { ok: true; filter: IsoWeekFilter } | { ok: false; error: string };

/**
 * Parses `spec.schedule.isoWeek`. Empty or absent means any week; a number is read like Go's
 * `strconv.Atoi` (so `05` and `+5` are week 5). Anything else: `unknown iso week: <value>`.
 * Week numbers the calendar never has (0, 54–99: the CRD pattern lets them through) parse, and
 * simply never match.
 */
export function parseIsoWeekFilter(text: string | undefined): IsoWeekFilterResult {
  if (text === undefined || text === '') return { ok: true, filter: { kind: 'any' } };
  if (text === '@odd') return { ok: true, filter: { kind: 'odd' } };
  if (text === '@even') return { ok: true, filter: { kind: 'even' } };
  if (/^[+-]?[0-9]{1,18}$/.test(text)) return { ok: true, filter: { kind: 'week', week: Number(text) } };
  return { ok: false, error: `unknown iso week: ${text}` };
}

/** Whether an ISO week number passes the filter. */
export function isoWeekNumberMatches(filter: IsoWeekFilter, week: number): boolean {
  switch (filter.kind) {
    case 'any':
      return true;
    case 'odd':
      return week % 2 === 1;
    case 'even':
      return week % 2 === 0;
    case 'week':
      return week === filter.week;
  }
}

/** Whether the instant's ISO week, read in `zone`, passes the filter. */
export function isoWeekFilterMatches(filter: IsoWeekFilter, ms: number, zone: Zone): boolean {
  if (filter.kind === 'any') return true;
  const w = wallClock(zone, ms);
  return isoWeekNumberMatches(filter, isoWeekOf(w.year, w.month, w.day).week);
}

/** The filter as written in the spec (`''` for any week). */
export function formatIsoWeekFilter(filter: IsoWeekFilter): string {
  switch (filter.kind) {
    case 'any':
      return '';
    case 'odd':
      return '@odd';
    case 'even':
      return '@even';
    case 'week':
      return String(filter.week);
  }
}
