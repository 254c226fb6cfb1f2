/**
 * What a user watching a scenario sees at one moment, read from the UpgradeConfig (when an
 * operator runs), ClusterVersion and the MachineConfigPools; and the live progress line.
 */
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { upgradeJobState, upgradeJobStateReason } from '../../scheduled/metrics/upgrade-job-metrics.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';

/** One snapshot. */
export interface ScenarioProgress {
  /** Virtual ms since the scenario's manifests were applied. */
  elapsedMs: number;
  /** Phase of the UpgradeConfig's newest history entry (empty without one). */
  phase: string;
  /** The newest history condition as `Type=Status`, and its message. */
  step: string;
  stepMessage: string;
  /** Message of the UpgradeConfig's `Waiting` condition while it is True. */
  waiting: string;
  /** Pool name → [updated, total]. */
  pools: Record<string, [number, number]>;
  /** ClusterVersion: newest history entry, the Progressing message, the desired version. */
  clusterVersion: { version: string; state: string; progressing: string; desired: string };
  /** History condition types that are True. */
  doneSteps: string[];
  /** The scheduled flow's newest UpgradeJob (empty name without one). */
  upgradeJob: UpgradeJobProgress;
}

/** What a user sees of an UpgradeJob. */
export interface UpgradeJobProgress {
  name: string;
  /** As the `upgradejob_state` metric says: pending, active, paused, succeeded or failed. */
  state: string;
  /** The final reason (Succeeded or Failed), else empty. */
  reason: string;
  /** Message of the condition that changed last. */
  message: string;
  /** Condition types that are True. */
  trueConditions: string[];
}

/** The newest UpgradeJob by creation time (then name). */
export function newestUpgradeJob(jobs: readonly UpgradeJob[]): UpgradeJob | undefined {
  const key = (j: UpgradeJob): string => `${j.metadata?.creationTimestamp ?? ''}\u0000${j.metadata?.name ?? ''}`;
  return [...jobs].sort((a, b) => key(b).localeCompare(key(a)))[0];
}

/** The progress of one UpgradeJob. */
export function upgradeJobProgress(job: UpgradeJob | undefined): UpgradeJobProgress {
  const conditions = job?.status?.conditions ?? [];
  // The condition that changed last; of those changed in the same second, the one written last.
  let last: (typeof conditions)[number] | undefined;
  for (const c of conditions) {
    if (c.message && (!last || (c.lastTransitionTime ?? '') >= (last.lastTransitionTime ?? ''))) last = c;
  }
  return {
    name: job?.metadata?.name ?? '',
    state: job ? upgradeJobState(job) : '',
    reason: job ? upgradeJobStateReason(job) : '',
    message: last?.message ?? '',
    trueConditions: conditions.filter((c) => c.status === 'True').map((c) => c.type),
  };
}

/** The snapshot of these objects. */
export function snapshot(
  elapsedMs: number,
  cr: ManagedUpgradeConfig | undefined,
  cv: ClusterVersion | undefined,
  pools: Record<string, [number, number]>,
  job?: UpgradeJob,
): ScenarioProgress {
  const h = cr?.status?.history?.[0];
  const newest = h?.conditions?.[0];
  const waiting = cr?.status?.conditions?.find((c) => c.type === 'Waiting');
  const cvh = cv?.status?.history?.[0];
  return {
    elapsedMs,
    phase: h?.phase ?? '',
    step: newest ? `${newest.type}=${newest.status}` : '',
    stepMessage: newest?.message ?? '',
    waiting: waiting?.status === 'True' ? (waiting.message ?? '') : '',
    pools,
    clusterVersion: {
      version: cvh?.version ?? '',
      state: cvh?.state ?? '',
      progressing: cv?.status?.conditions?.find((c) => c.type === 'Progressing')?.message ?? '',
      desired: cv?.status?.desired?.version ?? '',
    },
    doneSteps: (h?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type),
    upgradeJob: upgradeJobProgress(job),
  };
}

/** Progress without the time, to tell whether anything changed. */
export function progressKey(scenarioProgress: ScenarioProgress): string {
  return JSON.stringify({ ...scenarioProgress, elapsedMs: 0 });
}

/** `+hh:mm:ss` of virtual time. */
export function formatElapsed(ms: number): string {
  const s = Math.floor(ms / 1000);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `+${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

/** Pools in name order as `name updated/total`. */
export function poolsText(pools: Readonly<Record<string, readonly [number, number]>>): string {
  return Object.entries(pools)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, [updated, total]]) => `${name} ${updated}/${total}`)
    .join('  ');
}

/**
 * One progress line. The managed flow: its phase, the Waiting message or the newest step's
 * message, the pools and ClusterVersion; the scheduled flow: the newest UpgradeJob's state and
 * newest condition message, the pools and ClusterVersion; no operator: the pools and the
 * Progressing message.
 */
export function progressLine(scenarioProgress: ScenarioProgress, flow: 'managed' | 'scheduled' | 'none'): string {
  const cv = scenarioProgress.clusterVersion;
  if (flow === 'none')
    return `[${formatElapsed(scenarioProgress.elapsedMs)}] ${poolsText(scenarioProgress.pools)}  ${cv.progressing}`;
  if (flow === 'scheduled') {
    const j = scenarioProgress.upgradeJob;
    const job = j.name
      ? `${j.state}${j.reason ? `/${j.reason}` : ''}  ${j.name}: ${j.message || 'created'}`
      : 'no UpgradeJob yet';
    const cvText = cv.state === 'Partial' && cv.progressing ? cv.progressing : `${cv.version} ${cv.state}`;
    return `[${formatElapsed(scenarioProgress.elapsedMs)}] ${job}  |  ${poolsText(scenarioProgress.pools)}  |  ClusterVersion ${cvText}`;
  }
  const what = scenarioProgress.waiting || scenarioProgress.stepMessage || 'waiting for the operator';
  const cvText = cv.state === 'Partial' && cv.progressing ? cv.progressing : `${cv.version} ${cv.state}`;
  return `[${formatElapsed(scenarioProgress.elapsedMs)}] ${(scenarioProgress.phase || '-').padEnd(9)} ${what}  |  ${poolsText(scenarioProgress.pools)}  |  ClusterVersion ${cvText}`;
}
