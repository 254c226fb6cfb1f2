/**
 * When a Pending upgrade may start (docs/design/managed-flow.md#when-an-upgrade-may-start, MUO
 * `pkg/scheduler`).
 */
import { parseRfc3339 } from '../../lib/rfc3339.js';

/** Whether the upgrade may start now, and whether its start window has passed. */
export interface ScheduleDecision {
  /** `upgradeAt` has come. */
  ready: boolean;
  /** Ready, and the window after `upgradeAt` (`upgradeWindow.timeOut`) has passed. */
  breached: boolean;
  /** Milliseconds until `upgradeAt` when not ready; 0 when ready or unparsable. */
  untilMs: number;
}

/**
 * The scheduling decision for `upgradeAt` at `now` (epoch ms). An unparsable `upgradeAt` is
 * never ready (validation reports it). Differences from MUO: ready from `upgradeAt` itself
 * (MUO: strictly after, leaving an exact hit to the 5-minute resync), and a window of 0 is
 * never breached (0 means "no window", as for the OSD failure policy).
 */
export function scheduleDecision(upgradeAt: string, now: number, windowTimeoutMs: number): ScheduleDecision {
  const at = parseRfc3339(upgradeAt);
  if (at === undefined) return { ready: false, breached: false, untilMs: 0 };
  if (now < at) return { ready: false, breached: false, untilMs: at - now };
  return { ready: true, breached: windowTimeoutMs > 0 && now >= at + windowTimeoutMs, untilMs: 0 };
}
