/**
 * An UpgradeConfig's `spec.schedule` as one schedule: cron + isoWeek + location, with APPUiO's
 * `pkg/schedule` semantics (docs/design/scheduled-flow.md#iso-weeks,
 * docs/design/scheduled-flow.md#time-zones-and-dst). `nextScheduleTime` chains cron activations
 * until one lies in an allowed ISO week, for at most 1000 activations; `nextScheduleTimes` is what
 * `status.nextPossibleSchedules` shows (10 of them) and what `upgrade-operator preview` prints.
 * Pure: instants in, instants out.
 */
import { isoWeekOf } from '../../time/iso-week.js';
import type { Zone } from '../../time/zone.js';
import { formatGoTime, formatRfc3339InZone, loadZone, wallClock } from '../../time/zone.js';
import type { CronSchedule } from './cron-spec.js';
import { nextActivation, parseCron } from './cron.js';
import type { IsoWeekFilter } from './iso-week-filter.js';
import { isoWeekFilterMatches, parseIsoWeekFilter } from './iso-week-filter.js';

/** How many cron activations APPUiO tries before giving up on the isoWeek filter. */
export const MAX_ISO_WEEK_ACTIVATIONS = 1000;

/** A compiled `spec.schedule`. */
export interface MaintenanceSchedule {
  readonly cron: CronSchedule;
  readonly isoWeek: IsoWeekFilter;
  /** `spec.schedule.location`: where the cron matches (unless it has `CRON_TZ=`) and where ISO weeks are read. */
  readonly zone: Zone;
}

/** `spec.schedule` as written (only the fields the schedule needs). */
export interface ScheduleFields {
  readonly cron: string;
  readonly isoWeek?: string | undefined;
  readonly location?: string | undefined;
}

/** Why a schedule cannot be used; `field` is the JSON path of the culprit. */
export interface ScheduleProblem {
  readonly reason: 'InvalidCron' | 'UnknownTimeZone' | 'InvalidIsoWeek';
  readonly field: string;
  readonly message: string;
}

/** Outcome of {@link compileSchedule}. */
export type CompileScheduleResult =
  { ok: true; schedule: MaintenanceSchedule } | { ok: false; problem: ScheduleProblem };

/** Outcome of {@link nextScheduleTime}. */
export type NextScheduleResult = { ok: true; time: number } | { ok: false; error: string };

/**
 * Compiles `spec.schedule`. `localZoneId` is what `Local` (and an empty location) means: the
 * controller's zone in production, a fixed zone in tests.
 */
export function compileSchedule(fields: ScheduleFields, localZoneId: string): CompileScheduleResult {
  const cron = parseCron(fields.cron);
  if (!cron.ok) {
    return {
      ok: false,
      problem: {
        reason: 'InvalidCron',
        field: 'spec.schedule.cron',
        message: `cannot parse cron schedule ${JSON.stringify(fields.cron)}: ${cron.error}`,
      },
    };
  }
  const location = fields.location === undefined || fields.location === '' ? 'Local' : fields.location;
  const zone = loadZone(location, localZoneId);
  if (!zone.ok)
    return { ok: false, problem: { reason: 'UnknownTimeZone', field: 'spec.schedule.location', message: zone.error } };
  const isoWeek = parseIsoWeekFilter(fields.isoWeek);
  if (!isoWeek.ok)
    return { ok: false, problem: { reason: 'InvalidIsoWeek', field: 'spec.schedule.isoWeek', message: isoWeek.error } };
  return { ok: true, schedule: { cron: cron.schedule, isoWeek: isoWeek.filter, zone: zone.zone } };
}

/**
 * The first schedule time strictly after `afterMs`: the cron's next activation in an allowed
 * ISO week, trying at most {@link MAX_ISO_WEEK_ACTIVATIONS} activations. Fails with APPUiO's
 * `could not find next scheduled time, checked until "…": no next time found`; also when the
 * cron has no activation within five years (where APPUiO would return year 1 as a time).
 */
export function nextScheduleTime(schedule: MaintenanceSchedule, afterMs: number): NextScheduleResult {
  let t = afterMs;
  for (let i = 0; i < MAX_ISO_WEEK_ACTIVATIONS; i++) {
    const next = nextActivation(schedule.cron, t, schedule.zone);
    if (next === undefined) {
      return {
        ok: false,
        error: `could not find next scheduled time within five years after ${JSON.stringify(formatGoTime(schedule.zone, t))}: no next time found`,
      };
    }
    t = next;
    if (isoWeekFilterMatches(schedule.isoWeek, t, schedule.zone)) return { ok: true, time: t };
  }
  return {
    ok: false,
    error: `could not find next scheduled time, checked until ${JSON.stringify(formatGoTime(schedule.zone, t))}: no next time found`,
  };
}

/**
 * The next `count` schedule times after `afterMs` (APPUiO's `NextN`). On failure, the times
 * found so far and the error.
 */
export function nextScheduleTimes(
  schedule: MaintenanceSchedule,
  afterMs: number,
  count: number,
): { times: number[]; error?: string } {
  const times: number[] = [];
  let t = afterMs;
  while (times.length < count) {
    const next = nextScheduleTime(schedule, t);
    if (!next.ok) return { times, error: next.error };
    times.push(next.time);
    t = next.time;
  }
  return { times };
}

/** A schedule time as `preview` shows it. */
export interface ScheduleTimeDetails {
  /** RFC 3339, UTC (`status.nextPossibleSchedules[].time`). */
  readonly time: string;
  /** RFC 3339 with the location's offset. */
  readonly local: string;
  /** The location's name (`Local`, `UTC`, an IANA name). */
  readonly location: string;
  readonly isoWeekYear: number;
  readonly isoWeek: number;
  readonly weekday: string;
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/** Details of a schedule time, read in the schedule's location. */
export function scheduleTimeDetails(schedule: Pick<MaintenanceSchedule, 'zone'>, ms: number): ScheduleTimeDetails {
  const w = wallClock(schedule.zone, ms);
  const week = isoWeekOf(w.year, w.month, w.day);
  return {
    time: new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z'),
    local: formatRfc3339InZone(schedule.zone, ms),
    location: schedule.zone.name,
    isoWeekYear: week.year,
    isoWeek: week.week,
    weekday: WEEKDAYS[w.weekday] ?? '',
  };
}
