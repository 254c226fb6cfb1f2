/**
 * Simulated durations: triangular (min, mode, max) draws in virtual minutes
 * (docs/design/cluster-model.md#durations), turned into whole milliseconds under a time scale.
 * Every simulated component draws through here, from its own seeded stream.
 */
import type { SeededRandom } from '../lib/random.js';

/** (min, mode, max) in virtual minutes. */
export type Triangle = readonly [min: number, mode: number, max: number];

export const MINUTE_MS = 60_000;

/** One draw from a triangle, in whole milliseconds (at least 1), every duration divided by `timeScale`. */
export function drawMs(random: SeededRandom, triangle: Triangle, timeScale = 1): number {
  return minutesToMs(random.triangular(triangle[0], triangle[1], triangle[2]), timeScale, 1);
}

/** Minutes to whole milliseconds under a time scale (never negative). */
export function minutesMs(minutes: number, timeScale = 1): number {
  return minutesToMs(minutes, timeScale, 0);
}

function minutesToMs(minutes: number, timeScale: number, floor: number): number {
  if (!(timeScale > 0)) throw new RangeError(`timeScale must be positive, got ${timeScale}`);
  return Math.max(floor, Math.round((minutes * MINUTE_MS) / timeScale));
}
