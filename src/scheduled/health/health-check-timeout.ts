/**
 * The `timeout` of an UpgradeJob's health check settings, as the health check steps read it. A
 * module of its own, without the checks, so that `upgrade-operator validate` reports an unreadable
 * timeout without loading the health checks (docs/design/command-line.md#lazy-commands).
 */
import { parseGoDurationMs } from '../../lib/go-duration.js';
import type { ScheduledHealthCheckSettings } from './scheduled-health-check.js';

/** The shipped default of `timeout` (the CRD default). */
export const DEFAULT_HEALTH_CHECK_TIMEOUT = '1h';

/** Pure: `timeout` in ms (default `1h`), or Go's parse error. */
export function healthCheckTimeoutMs(
  settings: ScheduledHealthCheckSettings,
): { ok: true; ms: number } | { ok: false; error: string } {
  return parseGoDurationMs(settings.timeout ?? DEFAULT_HEALTH_CHECK_TIMEOUT);
}

/** The timeout of a health check's settings; an unreadable one gives the default and the problem (logged). Pure. */
export function effectiveHealthCheckTimeout(settings: ScheduledHealthCheckSettings): { ms: number; problem?: string } {
  const timeout = healthCheckTimeoutMs(settings);
  if (timeout.ok) return { ms: timeout.ms };
  const fallback = parseGoDurationMs(DEFAULT_HEALTH_CHECK_TIMEOUT);
  return {
    ms: fallback.ok ? fallback.ms : 3_600_000,
    problem: `invalid health check timeout: ${timeout.error}; using ${DEFAULT_HEALTH_CHECK_TIMEOUT}`,
  };
}
