/**
 * Simulated durations (update-mechanics.md §8.4): triangular (min, mode, max) in virtual
 * minutes, divided by a `timeScale`, drawn from a seeded stream.
 */
import type { SeededRandom } from '../../lib/random.js';

/** (min, mode, max) in virtual minutes. */
export type Triangle = readonly [min: number, mode: number, max: number];

const MINUTE_MS = 60_000;

/** A draw in milliseconds (rounded to whole ms, at least 1). */
export function drawMs(random: SeededRandom, t: Triangle, timeScale = 1): number {
  const minutes = random.triangular(t[0], t[1], t[2]);
  return Math.max(1, Math.round((minutes * MINUTE_MS) / (timeScale > 0 ? timeScale : 1)));
}

/** Minutes to milliseconds under a time scale. */
export function minutesMs(minutes: number, timeScale = 1): number {
  return Math.max(0, Math.round((minutes * MINUTE_MS) / (timeScale > 0 ? timeScale : 1)));
}
