/**
 * UpgradeJob `status.conditions` bookkeeping (docs/design/scheduled-flow.md#upgradejob-conditions):
 * apimachinery's `meta.SetStatusCondition` semantics (a new condition is appended;
 * lastTransitionTime changes only when the status changes; reason and message are always updated),
 * the final-state test (Succeeded=True or Failed=True; nothing reverts it), and the shipped fixed
 * texts. Pure.
 */
import type { Condition } from 'kubernetes-types/meta/v1.js';
import {
  UpgradeJobConditionType,
  UpgradeJobReason,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { formatTime } from '../../lib/clock.js';
import { formatGoDurationMs } from '../../lib/go-duration.js';

/** A condition to set: lastTransitionTime comes from the clock. */
export interface ConditionInput {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/**
 * `meta.SetStatusCondition` on a list, returning the new list and whether anything changed.
 * The input list is not modified.
 */
export function setStatusCondition(
  conditions: readonly Condition[] | undefined,
  next: ConditionInput,
  now: number,
): { conditions: Condition[]; changed: boolean } {
  const list = [...(conditions ?? [])];
  const i = list.findIndex((c) => c.type === next.type);
  if (i < 0) {
    list.push({ ...next, lastTransitionTime: formatTime(now) });
    return { conditions: list, changed: true };
  }
  const prev = list[i]!;
  const updated: Condition = {
    ...prev,
    status: next.status,
    reason: next.reason,
    message: next.message,
    lastTransitionTime: prev.status === next.status ? prev.lastTransitionTime : formatTime(now),
  };
  const changed =
    prev.status !== updated.status ||
    prev.reason !== updated.reason ||
    prev.message !== updated.message ||
    prev.lastTransitionTime !== updated.lastTransitionTime;
  list[i] = updated;
  return { conditions: list, changed };
}

/** Sets a condition on the job's status in place; true when it changed. */
export function setJobCondition(job: UpgradeJob, next: ConditionInput, now: number): boolean {
  const status = (job.status ??= {});
  const r = setStatusCondition(status.conditions, next, now);
  status.conditions = r.conditions;
  return r.changed;
}

/** The job's condition of `type`, if any. */
export function jobCondition(job: UpgradeJob, type: string): Condition | undefined {
  return (job.status?.conditions ?? []).find((c) => c.type === type);
}

/** True when the job's condition of `type` is True. */
export function jobConditionTrue(job: UpgradeJob, type: string): boolean {
  return jobCondition(job, type)?.status === 'True';
}

/** Final: Succeeded=True or Failed=True. */
export function isJobFinal(job: UpgradeJob): boolean {
  return (
    jobConditionTrue(job, UpgradeJobConditionType.Succeeded) || jobConditionTrue(job, UpgradeJobConditionType.Failed)
  );
}

/** The shipped condition messages (docs/design/scheduled-flow.md#the-upgradejob-lifecycle). */
export const UpgradeJobMessage = {
  started: (now: number): string => `Upgrade started at ${formatTime(now)}`,
  expired: (startBefore: number): string => `Job could not be started before ${formatTime(startBefore)}`,
  skipped: (window: string, reason: string): string =>
    `Upgrade job skipped by UpgradeSuspensionWindow ${goQuote(window)}, reason: ${goQuote(reason)}`,
  timedOut: (timeoutMs: number): string => `Upgrade timed out after ${formatGoDurationMs(timeoutMs)}`,
  withdrawn: (version: string): string => `Upgrade became unavailable: ${version}`,
  unpausingExpired: (pool: string): string => `unpausing of pool ${goQuote(pool)} expired`,
  healthChecksStarted: 'Health checks started',
  upgradeInProgress: 'Upgrade in progress',
  upgradeCompleted: 'Upgrade completed',
  succeeded: 'Upgrade succeeded',
} as const;

/** Reasons with which a job ends Failed=True. */
export const FAILED_REASONS: readonly string[] = [
  UpgradeJobReason.Expired,
  UpgradeJobReason.TimedOut,
  UpgradeJobReason.PreHealthCheckFailed,
  UpgradeJobReason.PostHealthCheckFailed,
  UpgradeJobReason.UpgradeWithdrawn,
  UpgradeJobReason.HookFailed,
  UpgradeJobReason.UnpausingPoolsExpired,
];

/**
 * Go's `%q` (strconv.Quote) for the texts that appear in messages: `"` and `\` escaped, the
 * C escapes for control characters, other control characters as `\x..`/`\u....`; printable
 * Unicode is kept.
 */
export function goQuote(text: string): string {
  const named: Record<string, string> = {
    '\u0007': '\\a',
    '\b': '\\b',
    '\f': '\\f',
    '\n': '\\n',
    '\r': '\\r',
    '\t': '\\t',
    '\u000b': '\\v',
    '"': '\\"',
    '\\': '\\\\',
  };
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const esc = named[ch];
    if (esc !== undefined) out += esc;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if ((code >= 0x80 && code < 0xa0) || code === 0x2028 || code === 0x2029)
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}
