/**
 * What an UpgradeJob decides from the ClusterVersion and the MachineConfigPools
 * (docs/design/scheduled-flow.md#the-started-path, docs/design/scheduled-flow.md#pool-delays,
 * docs/design/scheduled-flow.md#pausing-pools-on-failure,
 * docs/design/scheduled-flow.md#health-checks, docs/design/scheduled-flow.md#clusterversion-sync):
 * the lock annotation, `desiredUpdate` equality and availability, completion (history Completed for
 * the release and every unpaused pool updated), the `Paused` state, the `delayMin`/`delayMax` plan
 * and the pools to pause on failure. Pure.
 *
 * Deliberate difference
 * (docs/design/scheduled-flow.md#7-completion-and-availability-need-image-and-version): upstream
 * matched a release only when both image and version were equal, so a hand-written job naming only
 * a version was withdrawn at once (and could never have completed). Here a release matches when
 * every field the job sets (image, version) is equal; a job setting both is matched exactly as
 * upstream.
 */
import type { LabelSelector } from 'kubernetes-types/meta/v1.js';
import {
  ANNOTATION_UPGRADE_JOB,
  UpgradeJobConditionType,
  UpgradeJobReason,
} from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { ClusterVersion, Update } from '../../api/openshift/config-v1/cluster-version.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import { parseGoDurationMs } from '../../lib/go-duration.js';
import { evaluateLabelSelector } from '../../lib/label-selector.js';
import { targetCompleted } from '../../engine/cvo-progress.js';
import { jobCondition } from './upgrade-job-conditions.js';

/** The lock annotation's value for a job: `<namespace>/<name>`. */
export function lockValue(job: UpgradeJob): string {
  return `${job.metadata?.namespace ?? ''}/${job.metadata?.name ?? ''}`;
}

/** Who holds the ClusterVersion lock (the annotation's value), or undefined. */
export function lockHolder(
  obj: { metadata?: { annotations?: Record<string, string> } } | undefined,
): string | undefined {
  const v = obj?.metadata?.annotations?.[ANNOTATION_UPGRADE_JOB];
  return v === undefined || v === '' ? undefined : v;
}

/** The job a lock value names (`<ns>/<name>`), or undefined when it is not exactly one `/` apart. */
export function parseLockValue(value: string | undefined): { namespace: string; name: string } | undefined {
  const parts = (value ?? '').split('/');
  if (parts.length !== 2 || parts[0] === '' || parts[1] === '') return undefined;
  return { namespace: parts[0]!, name: parts[1]! };
}

/** The `desiredUpdate` the job writes: version, image, force and architecture, as Go serialises configv1.Update. */
export function desiredUpdateOf(job: UpgradeJob): Update | undefined {
  const d = job.spec?.desiredVersion;
  if (!d) return undefined;
  return {
    version: d.version ?? '',
    image: d.image ?? '',
    force: d.force ?? false,
    ...(d.architecture ? { architecture: d.architecture } : {}),
  };
}

/** Go struct equality of two `desiredUpdate`s on version, image, force and architecture (nil equals nothing but nil). */
export function sameDesiredUpdate(left: Update | undefined, right: Update | undefined): boolean {
  if (!left || !right) return !left && !right;
  return (
    (left.version ?? '') === (right.version ?? '') &&
    (left.image ?? '') === (right.image ?? '') &&
    (left.force ?? false) === (right.force ?? false) &&
    (left.architecture ?? '') === (right.architecture ?? '')
  );
}

/** True when a release `{version, image}` is the one the job asks for (every field the job sets matches). */
export function releaseMatches(release: { version?: string; image?: string }, desired: Update): boolean {
  const v = desired.version ?? '';
  const i = desired.image ?? '';
  if (v === '' && i === '') return false;
  return (v === '' || release.version === v) && (i === '' || release.image === i);
}

/** True when `status.availableUpdates` lists the desired release. */
export function isDesiredReleaseAvailable(cv: ClusterVersion, desired: Update): boolean {
  return (cv.status?.availableUpdates ?? []).some((r) => releaseMatches(r, desired));
}

/**
 * True when the CVO has observed the current spec and the history head is the desired release,
 * Completed. Upstream accepts any Completed entry; an older one (a retarget back, a rollback to the
 * previous version) would then read as done before the CVO took the new target
 * (docs/design/cluster-model.md#behaviour-7-a-retarget-and-a-stale-status), so only the head
 * counts.
 */
export function isVersionUpgradeCompleted(cv: ClusterVersion, desired: Update): boolean {
  return targetCompleted(cv, desired);
}

/** A pool whose machines are not all updated (`machineCount != updatedMachineCount`). */
export interface UpdatingPool {
  name: string;
  paused: boolean;
  total: number;
  updated: number;
}

/** The pools still updating. */
export function updatingPools(pools: readonly MachineConfigPool[]): UpdatingPool[] {
  return pools
    .filter((p) => (p.status?.machineCount ?? 0) !== (p.status?.updatedMachineCount ?? 0))
    .map((p) => ({
      name: p.metadata?.name ?? '',
      paused: p.spec.paused === true,
      total: p.status?.machineCount ?? 0,
      updated: p.status?.updatedMachineCount ?? 0,
    }));
}

/**
 * Completion (docs/design/scheduled-flow.md#the-started-path step 6): history Completed for the
 * release, and no unpaused pool updating.
 */
export function isUpgradeCompleted(cv: ClusterVersion, desired: Update, pools: readonly MachineConfigPool[]): boolean {
  return isVersionUpgradeCompleted(cv, desired) && updatingPools(pools).every((p) => p.paused);
}

/**
 * `Paused` (docs/design/scheduled-flow.md#the-started-path step 9): some updating pool is paused
 * and none of the updating pools is unpaused.
 */
export function isPausedState(pools: readonly MachineConfigPool[]): boolean {
  const updating = updatingPools(pools);
  return updating.some((p) => p.paused) && updating.every((p) => p.paused);
}

/** The pools a selector picks: absent selects none, `{}` all, an invalid selector none. */
export function poolsSelectedBy(
  pools: readonly MachineConfigPool[],
  selector: LabelSelector | undefined,
): MachineConfigPool[] {
  if (!selector) return [];
  return pools.filter((p) => evaluateLabelSelector(selector, p.metadata?.labels) === true);
}

/** One `machineConfigPools[]` entry with a delay. */
export interface PoolDelay {
  selector: LabelSelector | undefined;
  delayMinMs: number;
  delayMaxMs: number;
}

/** The entries with a non-zero delay; unreadable durations count as zero and are reported. */
export function poolDelays(job: UpgradeJob): { delays: PoolDelay[]; problems: string[] } {
  const delays: PoolDelay[] = [];
  const problems: string[] = [];
  const read = (text: string | undefined, where: string): number => {
    if (text === undefined || text === '') return 0;
    const r = parseGoDurationMs(text);
    if (r.ok) return r.ms;
    problems.push(`${where}: ${r.error}; using 0s`);
    return 0;
  };
  (job.spec?.config.machineConfigPools ?? []).forEach((entry, index) => {
    const min = read(entry.delayUpgrade?.delayMin, `spec.config.machineConfigPools[${index}].delayUpgrade.delayMin`);
    const max = read(entry.delayUpgrade?.delayMax, `spec.config.machineConfigPools[${index}].delayUpgrade.delayMax`);
    if (min === 0 && max === 0) return;
    delays.push({ selector: entry.matchLabels, delayMinMs: min, delayMaxMs: max });
  });
  return { delays, problems };
}

/** One change to a pool the delay plan asks for. */
export type PoolAction = { pool: string; action: 'pause' | 'unpause' };

/** What the delay step does this pass (docs/design/scheduled-flow.md#pool-delays). */
export interface PoolDelayPlan {
  /** A pool still paused at or after its `delayMax`: the job fails `UnpausingPoolsExpired`. */
  expired?: string;
  /** Pools to pause or to unpause (in entry, then pool order; a pool counts once, first entry wins). */
  actions: PoolAction[];
  /** `MachineConfigPoolsPaused` status: some matched pool should be paused now. */
  shouldBePaused: boolean;
  /** Some entry matched a pool (reason DelaySet, else NoManagedPools). */
  matched: boolean;
  /** Future instants at which the plan changes (`startAfter + delayMin`, `startAfter + delayMax`). */
  wakes: number[];
}

/** The delay plan at `now` for the job's entries over the pools. */
export function poolDelayPlan(
  now: number,
  startAfter: number,
  delays: readonly PoolDelay[],
  pools: readonly MachineConfigPool[],
): PoolDelayPlan {
  const elapsed = now - startAfter;
  const plan: PoolDelayPlan = { actions: [], shouldBePaused: false, matched: false, wakes: [] };
  const seen = new Set<string>();
  for (const d of delays) {
    const shouldPause = elapsed < d.delayMinMs;
    if (shouldPause) plan.wakes.push(startAfter + d.delayMinMs);
    if (d.delayMaxMs > 0 && elapsed < d.delayMaxMs) plan.wakes.push(startAfter + d.delayMaxMs);
    for (const pool of poolsSelectedBy(pools, d.selector)) {
      plan.matched = true;
      if (shouldPause) plan.shouldBePaused = true;
      const name = pool.metadata?.name ?? '';
      if (seen.has(name)) continue;
      seen.add(name);
      const paused = pool.spec.paused === true;
      if (paused && !shouldPause && d.delayMaxMs > 0 && elapsed >= d.delayMaxMs) {
        plan.expired ??= name;
        continue;
      }
      if (paused !== shouldPause) plan.actions.push({ pool: name, action: shouldPause ? 'pause' : 'unpause' });
    }
  }
  return plan;
}

/**
 * docs/design/scheduled-flow.md#the-started-path step 9: the first future instant among
 * `startAfter + delayMin/delayMax` of every entry and the timeout.
 */
export function pausedWakeAt(
  now: number,
  startAfter: number,
  delays: readonly PoolDelay[],
  timeoutAt: number,
): number | undefined {
  const candidates = [
    ...delays.flatMap((d) => [startAfter + d.delayMinMs, startAfter + d.delayMaxMs]),
    timeoutAt + 1,
  ].filter((t) => t > now);
  return candidates.length === 0 ? undefined : Math.min(...candidates);
}

/**
 * docs/design/scheduled-flow.md#pausing-pools-on-failure: the pools to pause when the job failed —
 * enabled, not done before (the condition `MachineConfigPoolsPaused` with reason `PausedOnFailure`
 * is the guard), matching the selector (absent or `{}`: all), not paused and still updating.
 */
export function poolsToPauseOnFailure(job: UpgradeJob, pools: readonly MachineConfigPool[]): string[] {
  const cfg = job.spec?.config.pauseMachineConfigPoolsOnFailure;
  if (cfg?.enabled !== true) return [];
  if (jobCondition(job, UpgradeJobConditionType.MachineConfigPoolsPaused)?.reason === UpgradeJobReason.PausedOnFailure)
    return [];
  const updating = new Set(
    updatingPools(pools)
      .filter((p) => !p.paused)
      .map((p) => p.name),
  );
  return poolsSelectedBy(pools, cfg.selector ?? {})
    .map((p) => p.metadata?.name ?? '')
    .filter((n) => updating.has(n));
}

/** Pools carrying this job's lock annotation (paused for a delay by it). */
export function poolsLockedBy(job: UpgradeJob, pools: readonly MachineConfigPool[]): MachineConfigPool[] {
  const v = lockValue(job);
  return pools.filter((p) => lockHolder(p) === v);
}
