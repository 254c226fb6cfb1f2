/**
 * When an UpgradeJob may start and when it must end (docs/design/scheduled-flow.md#pass-order,
 * docs/design/scheduled-flow.md#the-started-path, docs/design/scheduled-flow.md#timeouts): the
 * job's times, the start gate (start at `startAfter`, skip inside a matching
 * UpgradeSuspensionWindow, expire after `startBefore`), `upgradeTimeout` measured from
 * `startAfter`, and the bound that keeps a hook that never ends from blocking a job forever. Pure.
 *
 * The bound (a deliberate difference, issue 5 /
 * docs/design/scheduled-flow.md#2-an-unfinished-job-holds-up-every-later-window): upstream
 * checks `upgradeTimeout` only after the Start hooks finished and `startBefore` only after the
 * Create hooks finished, so a hook Job without `activeDeadlineSeconds` that never ends kept the job
 * (and with it every later schedule of its UpgradeConfig) open for good. Here, while Create or
 * Start hooks are still running, an unstarted job still expires (or is skipped) once `startBefore`
 * has passed, and every job fails `TimedOut` once `upgradeTimeout` after `startAfter` has passed.
 * Every other wait of a started job is already bounded by the timeout check, which runs on every
 * pass.
 */
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { UpgradeJobDefaults } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import { parseGoDurationMs } from '../../lib/go-duration.js';
import { evaluateLabelSelector } from '../../lib/label-selector.js';

/** The job's times in epoch ms. */
export interface JobTiming {
  startAfter: number;
  startBefore: number;
  /** `spec.config.upgradeTimeout` (default 12h). */
  timeoutMs: number;
  /** `startAfter + timeoutMs`: later than this the job has timed out. */
  timeoutAt: number;
  /** Settings that could not be read and what was used instead. */
  problems: string[];
}

/** Reads the job's times; an error when `startAfter`/`startBefore` are not times. */
export function jobTiming(job: UpgradeJob): { ok: true; timing: JobTiming } | { ok: false; error: string } {
  const startAfter = Date.parse(job.spec?.startAfter ?? '');
  const startBefore = Date.parse(job.spec?.startBefore ?? '');
  if (Number.isNaN(startAfter))
    return { ok: false, error: `spec.startAfter ${JSON.stringify(job.spec?.startAfter ?? '')} is not a time` };
  if (Number.isNaN(startBefore))
    return { ok: false, error: `spec.startBefore ${JSON.stringify(job.spec?.startBefore ?? '')} is not a time` };
  const problems: string[] = [];
  const text = job.spec?.config.upgradeTimeout ?? UpgradeJobDefaults.upgradeTimeout;
  let parsed = parseGoDurationMs(text);
  if (!parsed.ok) {
    problems.push(`spec.config.upgradeTimeout: ${parsed.error}; using ${UpgradeJobDefaults.upgradeTimeout}`);
    parsed = parseGoDurationMs(UpgradeJobDefaults.upgradeTimeout);
  }
  const timeoutMs = parsed.ok ? parsed.ms : 12 * 3_600_000;
  return { ok: true, timing: { startAfter, startBefore, timeoutMs, timeoutAt: startAfter + timeoutMs, problems } };
}

/** `now - startAfter > upgradeTimeout` (upstream's strict comparison). */
export function isTimedOut(now: number, timing: JobTiming): boolean {
  return now - timing.startAfter > timing.timeoutMs;
}

/** The first instant at which {@link isTimedOut} holds. */
export function timedOutAt(timing: JobTiming): number {
  return timing.timeoutAt + 1;
}

/** A suspension window that applies now. */
export interface ActiveWindow {
  name: string;
  reason: string;
}

/**
 * The UpgradeSuspensionWindow of the job's namespace whose `jobSelector` matches the job's labels
 * (absent: none; `{}`: all; invalid: none) and whose inclusive `[start, end]` holds `now`; the first
 * by name when several do.
 */
export function matchingSuspensionWindow(
  windows: readonly UpgradeSuspensionWindow[],
  job: UpgradeJob,
  now: number,
): ActiveWindow | undefined {
  const ns = job.metadata?.namespace ?? '';
  const sorted = [...windows].sort((a, b) =>
    (a.metadata?.name ?? '') < (b.metadata?.name ?? '')
      ? -1
      : (a.metadata?.name ?? '') > (b.metadata?.name ?? '')
        ? 1
        : 0,
  );
  for (const w of sorted) {
    const spec = w.spec;
    if ((w.metadata?.namespace ?? '') !== ns || !spec?.jobSelector) continue;
    if (evaluateLabelSelector(spec.jobSelector, job.metadata?.labels) !== true) continue;
    const start = Date.parse(spec.start);
    const end = Date.parse(spec.end);
    if (Number.isNaN(start) || Number.isNaN(end) || now < start || now > end) continue;
    return { name: w.metadata?.name ?? '', reason: spec.reason };
  }
  return undefined;
}

/** What the start gate decides for a job that has not started. */
export type StartDecision =
  { kind: 'wait'; until: number } | { kind: 'start' } | { kind: 'skip'; window: ActiveWindow } | { kind: 'expire' };

/**
 * docs/design/scheduled-flow.md#pass-order steps 7–9: after `startBefore` skip (window) or expire;
 * from `startAfter` on skip (window) or start; before it wait. Skipping is looked at only from
 * `startAfter` on (#90).
 */
export function startDecision(now: number, timing: JobTiming, window: ActiveWindow | undefined): StartDecision {
  if (now > timing.startBefore) return window ? { kind: 'skip', window } : { kind: 'expire' };
  if (now >= timing.startAfter) return window ? { kind: 'skip', window } : { kind: 'start' };
  return { kind: 'wait', until: timing.startAfter };
}

/** What the bound decides while outcome-influencing hooks (Create, Start) are still running. */
export type HookWaitBound =
  { kind: 'wait'; until: number } | { kind: 'skip'; window: ActiveWindow } | { kind: 'expire' } | { kind: 'timeout' };

/**
 * The bound on a hook wait (see the module comment): an unstarted job past `startBefore` is
 * skipped or expires; any job past `upgradeTimeout` times out; otherwise wait, at the latest
 * until the next of those instants.
 */
export function hookWaitBound(
  now: number,
  timing: JobTiming,
  started: boolean,
  window: ActiveWindow | undefined,
): HookWaitBound {
  if (!started && now > timing.startBefore) return window ? { kind: 'skip', window } : { kind: 'expire' };
  if (isTimedOut(now, timing)) return { kind: 'timeout' };
  const until = started ? timedOutAt(timing) : Math.min(timing.startBefore + 1, timedOutAt(timing));
  return { kind: 'wait', until };
}
