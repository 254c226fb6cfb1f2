/**
 * The geometry of the upgrade picture: virtual time to x, lanes to y, the axis' ticks, the
 * rectangles of segments. Pure; timeline-page.ts draws what this places.
 */
import { LANE_GROUPS, type Lane, type LaneGroup, type Segment, type Timeline } from './timeline-lanes.js';

/** Virtual time (ms since the epoch) to x (px), linear, clamped to the domain. */
export interface TimeScale {
  readonly d0: number;
  readonly d1: number;
  readonly x0: number;
  readonly x1: number;
  x(ms: number): number;
}

/** The scale mapping [d0, d1] onto [x0, x1]; an empty domain maps everything to x0. */
export function timeScale(d0: number, d1: number, x0: number, x1: number): TimeScale {
  const k = d1 > d0 ? (x1 - x0) / (d1 - d0) : 0;
  return {
    d0,
    d1,
    x0,
    x1,
    x: (ms) => x0 + (Math.min(Math.max(ms, d0), d1) - d0) * k,
  };
}

/** Tick spacings the axis may use, in minutes. */
export const TICK_STEPS_MINUTES = [1, 2, 5, 10, 15, 20, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080] as const;

/** The smallest spacing that gives at most `maxTicks` ticks over `durationMs`. */
export function tickStepMs(durationMs: number, maxTicks: number): number {
  for (const m of TICK_STEPS_MINUTES) if (durationMs / (m * 60_000) <= maxTicks) return m * 60_000;
  return Math.ceil(durationMs / maxTicks / 86_400_000) * 86_400_000;
}

/** Ticks at whole multiples of the step after the origin (elapsed time is what the picture counts in). */
export function ticks(originMs: number, endMs: number, maxTicks: number): number[] {
  const step = tickStepMs(endMs - originMs, maxTicks);
  const out: number[] = [];
  for (let t = originMs; t <= endMs; t += step) out.push(t);
  return out;
}

/** An axis label: `+0`, `+10m`, `+1h`, `+1h30m`, `+2d` (ticks fall on whole minutes). */
export function tickLabel(elapsedMs: number): string {
  const minutes = Math.round(elapsedMs / 60_000);
  if (minutes === 0) return '+0';
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  return `+${d > 0 ? `${d}d` : ''}${h > 0 ? `${h}h` : ''}${m > 0 ? `${m}m` : ''}`;
}

/** Sizes of the picture, px. */
export interface LayoutOptions {
  width: number;
  /** Width of the lane labels on the left. */
  labelWidth: number;
  /** Height of one row of a lane. */
  rowHeight: number;
  /** Space under the axis labels before the first group. */
  axisHeight: number;
  /** Height of a group's heading. */
  groupHeading: number;
  /** Space on the right. */
  rightMargin: number;
  maxTicks: number;
}

export const DEFAULT_LAYOUT: LayoutOptions = {
  width: 1400,
  labelWidth: 250,
  rowHeight: 18,
  axisHeight: 34,
  groupHeading: 22,
  rightMargin: 24,
  maxTicks: 14,
};

/** A lane at its place: y of its top and its height. */
export interface PlacedLane {
  lane: Lane;
  y: number;
  height: number;
}

/** A group's heading at its place. */
export interface PlacedGroup {
  group: LaneGroup;
  y: number;
}

/** Everything the page draws, placed. */
export interface Layout {
  width: number;
  height: number;
  scale: TimeScale;
  ticks: Array<{ ms: number; x: number; label: string }>;
  groups: PlacedGroup[];
  lanes: PlacedLane[];
  /** The rows' height, for segments. */
  rowHeight: number;
}

/** Lane padding above and below its rows. */
const LANE_PAD = 3;

/** Places the lanes group by group (a group without lanes takes no room) under the axis. Pure. */
export function layoutTimeline(timeline: Timeline, options: LayoutOptions = DEFAULT_LAYOUT): Layout {
  const scale = timeScale(timeline.originMs, timeline.endMs, options.labelWidth, options.width - options.rightMargin);
  const groups: PlacedGroup[] = [];
  const lanes: PlacedLane[] = [];
  let y = options.axisHeight;
  for (const group of LANE_GROUPS) {
    const own = timeline.lanes.filter((l) => l.group === group);
    if (own.length === 0) continue;
    groups.push({ group, y });
    y += options.groupHeading;
    for (const lane of own) {
      // Two text lines of label need two rows' height.
      const height = Math.max(lane.rows, lane.sublabel ? 2 : 1) * options.rowHeight + 2 * LANE_PAD;
      lanes.push({ lane, y, height });
      y += height;
    }
  }
  return {
    width: options.width,
    height: y + 8,
    scale,
    ticks: ticks(timeline.originMs, timeline.endMs, options.maxTicks).map((ms) => ({
      ms,
      x: scale.x(ms),
      label: tickLabel(ms - timeline.originMs),
    })),
    groups,
    lanes,
    rowHeight: options.rowHeight,
  };
}

/** A segment's rectangle in its lane: at least 2 px wide, so that an instant's step stays visible. */
export function segmentRect(
  segment: Pick<Segment, 'startMs' | 'endMs' | 'row'>,
  placed: Pick<PlacedLane, 'y'>,
  scale: TimeScale,
  rowHeight: number,
): { x: number; y: number; width: number; height: number } {
  const x = scale.x(segment.startMs);
  const width = Math.max(2, scale.x(segment.endMs) - x);
  return { x, y: placed.y + LANE_PAD + segment.row * rowHeight + 1, width, height: rowHeight - 2 };
}

/** The y (px) of a completion fraction (0–1) inside a lane: 1 at the top, 0 at the bottom. */
export function progressY(fraction: number, placed: Pick<PlacedLane, 'y' | 'height'>): number {
  const f = Math.min(Math.max(fraction, 0), 1);
  return placed.y + placed.height - LANE_PAD - f * (placed.height - 2 * LANE_PAD);
}
