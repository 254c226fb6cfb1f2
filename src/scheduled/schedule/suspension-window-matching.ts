/**
 * The status of an UpgradeSuspensionWindow (docs/design/scheduled-flow.md#upgradesuspensionwindow):
 * which UpgradeConfigs its `configSelector` selects and which UpgradeJobs its `jobSelector` selects
 * with `startAfter` in `[start, end]`, each sorted by name. Pure.
 *
 * Selectors: absent selects nothing, `{}` everything, one Kubernetes would refuse nothing (and
 * is reported as a problem). Jobs are matched with {@link matchingSuspensionWindow}, the very
 * rule the UpgradeJob controller skips jobs by, evaluated at the job's `startAfter`.
 *
 * Difference from APPUiO (its bug
 * docs/design/scheduled-flow.md#14-suspension-window-status-across-namespaces, fixed): only configs
 * and jobs in the window's own namespace are listed — the only ones the window affects — where
 * APPUiO listed those of every namespace in its cache.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import type { ScheduledUpgradeConfig } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type {
  UpgradeSuspensionWindow,
  UpgradeSuspensionWindowStatus,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import { jsonEqual } from '../../lib/json.js';
import { evaluateLabelSelector } from '../../lib/label-selector.js';
import { startAfterMs } from './config-jobs.js';
import { matchingSuspensionWindow } from '../steps/upgrade-job-gate.js';

/** The status a window should have, and what is wrong with its spec. */
export interface SuspensionWindowMatches {
  status: { matchingConfigs: Array<{ name: string }>; matchingJobs: Array<{ name: string }> };
  /** Human-readable problems of the spec (invalid selector, start/end not a time); empty when none. */
  problems: string[];
}

function sorted(names: string[]): string[] {
  return names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** True when Kubernetes would refuse the selector (as {@link evaluateLabelSelector} judges it). */
export function isInvalidSelector(selector: LabelSelector): boolean {
  return (selector.matchExpressions ?? []).some(
    (e) => evaluateLabelSelector({ matchExpressions: [e] }, {}) === 'invalid',
  );
}

/** Names of the configs of the window's namespace that its `configSelector` selects, sorted. */
export function windowMatchingConfigs(
  window: UpgradeSuspensionWindow,
  configs: readonly ScheduledUpgradeConfig[],
): string[] {
  const selector = window.spec?.configSelector;
  if (!selector) return [];
  const ns = window.metadata?.namespace ?? '';
  const names = configs
    .filter((c) => (c.metadata?.namespace ?? '') === ns && evaluateLabelSelector(selector, c.metadata?.labels) === true)
    .map((c) => c.metadata?.name ?? '');
  return sorted(names);
}

/**
 * Names of the jobs of the window's namespace that its `jobSelector` selects and whose
 * `startAfter` lies in the inclusive `[start, end]`, sorted.
 */
export function windowMatchingJobs(window: UpgradeSuspensionWindow, jobs: readonly UpgradeJob[]): string[] {
  const names: string[] = [];
  for (const job of jobs) {
    const at = startAfterMs(job);
    if (at === undefined) continue;
    if (matchingSuspensionWindow([window], job, at)) names.push(job.metadata?.name ?? '');
  }
  return sorted(names);
}

/** The window's status from the configs and jobs in the cache (any namespace; others are ignored). */
export function suspensionWindowMatches(
  window: UpgradeSuspensionWindow,
  configs: readonly ScheduledUpgradeConfig[],
  jobs: readonly UpgradeJob[],
): SuspensionWindowMatches {
  const problems: string[] = [];
  const spec = window.spec;
  if (spec?.configSelector && isInvalidSelector(spec.configSelector))
    problems.push('spec.configSelector is invalid: it selects nothing');
  if (spec?.jobSelector && isInvalidSelector(spec.jobSelector))
    problems.push('spec.jobSelector is invalid: it selects nothing');
  for (const field of ['start', 'end'] as const) {
    const text = spec?.[field];
    if (text !== undefined && Number.isNaN(Date.parse(text)))
      problems.push(`spec.${field}: ${JSON.stringify(text)} is not a time; no job matches`);
  }
  return {
    status: {
      matchingConfigs: windowMatchingConfigs(window, configs).map((name) => ({ name })),
      matchingJobs: windowMatchingJobs(window, jobs).map((name) => ({ name })),
    },
    problems,
  };
}

/**
 * True when the stored status lists exactly these matches. An absent list differs from an empty
 * one: a new window gets both lists written once, as APPUiO writes them, so a reader can tell
 * "nothing matches" from "not looked at yet".
 */
export function suspensionWindowStatusEqual(
  stored: UpgradeSuspensionWindowStatus | undefined,
  status: SuspensionWindowMatches['status'],
): boolean {
  return (
    jsonEqual(stored?.matchingConfigs, status.matchingConfigs) && jsonEqual(stored?.matchingJobs, status.matchingJobs)
  );
}
