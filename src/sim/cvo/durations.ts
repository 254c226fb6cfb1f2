/**
 * The simulated CVO's durations (docs/design/cluster-model.md#durations, HA-cloud column), as
 * triangular (min, mode, max) draws in virtual minutes, and the constants it copies from the real
 * CVO (docs/design/cluster-model.md#cvo-timing).
 */
import type { SeededRandom } from '../../lib/random.js';
import { MINUTE_MS, type Triangle } from '../durations.js';

export interface CvoDurations {
  /** Payload retrieval, verification and preconditions. */
  payloadRetrieval: Triangle;
  /** The CVO replacing itself at runlevel 0: no status writes meanwhile. */
  cvoRestartGap: Triangle;
  /** Runlevel 90 (ServiceMonitors, rules, dashboards) once machine-config is done. */
  runlevel90: Triangle;
  /** Applying one manifest elsewhere (virtual seconds). */
  manifestSeconds: number;
  /** Re-walking a runlevel already completed in an earlier attempt (virtual seconds). */
  reapplyRunlevelSeconds: number;
}

export const DEFAULT_CVO_DURATIONS: CvoDurations = {
  payloadRetrieval: [0.25, 0.7, 4],
  cvoRestartGap: [0.5, 1, 2],
  runlevel90: [0.2, 0.5, 1],
  manifestSeconds: 0.15,
  reapplyRunlevelSeconds: 2,
};

const MINUTE = MINUTE_MS;

/** Status writes: a token bucket of 2 refilled every 15 s (`statusInterval`). */
export const STATUS_INTERVAL_MS = 15_000;
export const STATUS_BURST = 2;
/** Upgradeable is re-evaluated every 2 min, and 15 s after a failed precondition. */
export const UPGRADEABLE_INTERVAL_MS = 2 * MINUTE;
export const UPGRADEABLE_RETRY_MS = 15_000;

/** Backoff after the n-th consecutive failed attempt (1-based): interval/16 doubled per error for 3 errors (≈15 s, 30 s, 60 s at 2 min), then the interval; ±20 %. */
export function attemptBackoffMs(interval: number, consecutiveErrors: number, random: SeededRandom): number {
  const base = consecutiveErrors <= 3 ? (interval / 16) * 2 ** consecutiveErrors : interval;
  return random.jitter(base, 0.2);
}
