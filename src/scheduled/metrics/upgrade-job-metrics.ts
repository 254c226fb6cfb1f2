/**
 * APPUiO's UpgradeJob gauges (docs/design/scheduled-flow.md#metrics): `upgradejob_state`,
 * `upgradejob_start_after_timestamp_seconds` and `upgradejob_start_before_timestamp_seconds`,
 * under the namespace `openshift_upgrade_controller`. Names, label names and label values are
 * APPUiO's, exactly; help texts are ours. Computed at scrape time from the cached UpgradeJobs and
 * UpgradeJobHooks (the pure {@link upgradeJobSeries}); {@link UpgradeJobCollector} puts them into
 * prom-client gauges on the `Registry` handed in. As in APPUiO there is no namespace label: two
 * jobs of one name in two namespaces share the timestamp series (the later one listed wins).
 */
import type { Registry } from 'prom-client';
import { UpgradeJobConditionType } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { UpgradeJobHook } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-hook.js';
import { matchesDisruptiveHooks } from '../hooks/hook-selection.js';
import { jobCondition, jobConditionTrue } from '../steps/upgrade-job-conditions.js';
import {
  goTime,
  registerScrapeGauges,
  type GaugeFamily,
  type MetricSeries,
  type ScrapeCollectorOptions,
} from './scrape-gauges.js';

/** Family names, APPUiO's spelling. */
export const UpgradeJobMetricName = {
  state: 'openshift_upgrade_controller_upgradejob_state',
  startAfter: 'openshift_upgrade_controller_upgradejob_start_after_timestamp_seconds',
  startBefore: 'openshift_upgrade_controller_upgradejob_start_before_timestamp_seconds',
} as const;

/** The families with their label names and our help texts. */
export const UPGRADE_JOB_FAMILIES: readonly GaugeFamily[] = [
  {
    name: UpgradeJobMetricName.state,
    help: "State of an UpgradeJob, always 1: state is pending, active, paused, succeeded or failed; reason is the Succeeded or Failed condition's reason once final.",
    labelNames: [
      'upgradejob',
      'start_after',
      'start_before',
      'desired_version_force',
      'desired_version_image',
      'desired_version_version',
      'state',
      'reason',
      'matches_disruptive_hooks',
    ],
  },
  {
    name: UpgradeJobMetricName.startAfter,
    help: "The UpgradeJob's spec.startAfter as a Unix time in seconds.",
    labelNames: ['upgradejob'],
  },
  {
    name: UpgradeJobMetricName.startBefore,
    help: "The UpgradeJob's spec.startBefore as a Unix time in seconds.",
    labelNames: ['upgradejob'],
  },
];

/** Values of the `state` label. */
export type UpgradeJobMetricState = 'pending' | 'active' | 'paused' | 'succeeded' | 'failed';

/** APPUiO's `state`: the first true of Succeeded, Failed, Paused, Started; else pending. */
export function upgradeJobState(job: UpgradeJob): UpgradeJobMetricState {
  const T = UpgradeJobConditionType;
  if (jobConditionTrue(job, T.Succeeded)) return 'succeeded';
  if (jobConditionTrue(job, T.Failed)) return 'failed';
  if (jobConditionTrue(job, T.Paused)) return 'paused';
  if (jobConditionTrue(job, T.Started)) return 'active';
  return 'pending';
}

/** APPUiO's `reason`: the reason of a true Succeeded condition, else of a true Failed one, else empty. */
export function upgradeJobStateReason(job: UpgradeJob): string {
  for (const type of [UpgradeJobConditionType.Succeeded, UpgradeJobConditionType.Failed]) {
    const c = jobCondition(job, type);
    if (c?.status === 'True') return c.reason;
  }
  return '';
}

/**
 * Every series of the three families, keyed by family name. Pure. A job without a desired
 * version has empty image and version and force `false`, as APPUiO; a job without a start time
 * has Go's zero time, as APPUiO (`0001-01-01T00:00:00Z` in the label, -62135596800 in the
 * timestamp series); a start time that does not parse gives an empty time label and leaves out
 * that timestamp series.
 */
export function upgradeJobSeries(
  jobs: readonly UpgradeJob[],
  hooks: readonly UpgradeJobHook[],
): Map<string, MetricSeries[]> {
  const N = UpgradeJobMetricName;
  const out = new Map<string, MetricSeries[]>([
    [N.state, []],
    [N.startAfter, []],
    [N.startBefore, []],
  ]);
  const add = (family: string, labels: Record<string, string>, value: number): void =>
    void out.get(family)?.push({ labels, value });
  for (const job of jobs) {
    const upgradejob = job.metadata?.name ?? '';
    const after = goTime(job.spec?.startAfter);
    const before = goTime(job.spec?.startBefore);
    const v = job.spec?.desiredVersion;
    add(
      N.state,
      {
        upgradejob,
        start_after: after?.rfc3339 ?? '',
        start_before: before?.rfc3339 ?? '',
        desired_version_force: v?.force === true ? 'true' : 'false',
        desired_version_image: v?.image ?? '',
        desired_version_version: v?.version ?? '',
        state: upgradeJobState(job),
        reason: upgradeJobStateReason(job),
        matches_disruptive_hooks: matchesDisruptiveHooks(job, hooks) ? 'true' : 'false',
      },
      1,
    );
    if (after) add(N.startAfter, { upgradejob }, after.unix);
    if (before) add(N.startBefore, { upgradejob }, before.unix);
  }
  return out;
}

/** What {@link UpgradeJobCollector} reads on every scrape (typically the controller's informer caches). */
export interface UpgradeJobSources {
  jobs: () => readonly UpgradeJob[];
  hooks: () => readonly UpgradeJobHook[];
}

/** Registers the three UpgradeJob families on `registry`; if either source throws, all three have no series. */
export class UpgradeJobCollector {
  /** Throws if one of the names is already registered on `registry`. */
  constructor(registry: Registry, sources: UpgradeJobSources, options: ScrapeCollectorOptions) {
    registerScrapeGauges(
      registry,
      [{ families: UPGRADE_JOB_FAMILIES, series: () => upgradeJobSeries(sources.jobs(), sources.hooks()) }],
      options.log,
    );
  }
}
