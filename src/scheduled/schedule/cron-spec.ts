/**
 * The parsed form of a robfig/cron v3 schedule (docs/design/scheduled-flow.md#cron-dialect): one
 * bitset per field plus robfig's "star bit", and the day rule that reads it. Produced by `cron.ts`.
 */
import type { Zone } from '../../time/zone.js';

/** Values a field allows (index = value) and whether it was written with a bare `*` or `?`. */
export interface CronField {
  /** `allowed[v]` is true when value v matches; indexes outside the field's bounds are false. */
  readonly allowed: readonly boolean[];
  /** robfig's star bit: set by `*` or `?` (also with step 1), cleared by a step greater than 1. */
  readonly star: boolean;
}

/** A five-field schedule (robfig's `SpecSchedule`; seconds are always 0 in the standard parser). */
export interface SpecSchedule {
  readonly kind: 'spec';
  readonly second: CronField;
  readonly minute: CronField;
  readonly hour: CronField;
  readonly dayOfMonth: CronField;
  readonly month: CronField;
  readonly dayOfWeek: CronField;
  /**
   * The zone of a `CRON_TZ=`/`TZ=` prefix. Undefined means Go's `time.Local`, which robfig reads
   * as "the zone of the time passed to Next" (so does an explicit `CRON_TZ=Local`).
   */
  readonly location: Zone | undefined;
}

/** `@every <duration>` (robfig's `ConstantDelaySchedule`): a fixed delay, whole seconds ≥ 1 s. */
export interface EverySchedule {
  readonly kind: 'every';
  readonly delayMs: number;
}

/** A parsed cron schedule. */
export type CronSchedule = SpecSchedule | EverySchedule;

/** Bounds and names of one field. */
export interface FieldBounds {
  readonly min: number;
  readonly max: number;
  readonly names?: Readonly<Record<string, number>>;
}

/** The bounds robfig uses. Weekday 7 is out of range (robfig rejects it). */
export const FIELD_BOUNDS = {
  second: { min: 0, max: 59 },
  minute: { min: 0, max: 59 },
  hour: { min: 0, max: 23 },
  dayOfMonth: { min: 1, max: 31 },
  month: {
    min: 1,
    max: 12,
    names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 },
  },
  dayOfWeek: { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } },
} as const satisfies Record<string, FieldBounds>;

/** A field allowing `values` (default: all of min..max), with or without the star bit. */
export function rangeField(bounds: FieldBounds, star: boolean, values?: readonly number[]): CronField {
  const allowed: boolean[] = [];
  for (let v = 0; v <= bounds.max; v++) allowed.push(values ? values.includes(v) : v >= bounds.min);
  return { allowed, star };
}

/** Whether any value of the field is allowed. */
export function fieldIsEmpty(field: CronField): boolean {
  return !field.allowed.includes(true);
}

/**
 * robfig's `dayMatches`: when either day field carries the star bit, both must match (AND);
 * otherwise either may (OR, as Vixie cron).
 */
export function dayMatches(specSchedule: SpecSchedule, dayOfMonth: number, weekday: number): boolean {
  const dom = specSchedule.dayOfMonth.allowed[dayOfMonth] === true;
  const dow = specSchedule.dayOfWeek.allowed[weekday] === true;
  return specSchedule.dayOfMonth.star || specSchedule.dayOfWeek.star ? dom && dow : dom || dow;
}

/** Whether some day can ever match (a field list like `,` allows nothing). */
export function someDayCanMatch(specSchedule: SpecSchedule): boolean {
  const dom = !fieldIsEmpty(specSchedule.dayOfMonth);
  const dow = !fieldIsEmpty(specSchedule.dayOfWeek);
  return specSchedule.dayOfMonth.star || specSchedule.dayOfWeek.star ? dom && dow : dom || dow;
}
