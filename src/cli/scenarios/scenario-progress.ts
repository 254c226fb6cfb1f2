/**
 * What a user watching a scenario sees at one moment, read from the UpgradeConfig (when an
 * operator runs), ClusterVersion and the MachineConfigPools; and the live progress line.
 */
import type { Event, Node } from 'kubernetes-types/core/v1.js';
import type { ClusterVersion } from '../../api/openshift/config-v1/cluster-version.js';
import type { MachineConfigPool } from '../../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { Alert } from '../../sim/monitoring/rules.js';
import { silenceState, type Silence } from '../../sim/monitoring/alertmanager/silences.js';
import { assessNode, poolOfNode } from '../upgrade-status-nodes.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { upgradeJobState, upgradeJobStateReason } from '../../scheduled/metrics/upgrade-job-metrics.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';

/** Which operator a scenario runs, i.e. whose state its progress reads. */
export type ScenarioFlow = 'managed' | 'scheduled' | 'none';

/** One snapshot. */
export interface ScenarioProgress {
  /** Virtual ms since the scenario's manifests were applied. */
  elapsedMs: number;
  /** The virtual time of the snapshot (ms since the epoch). */
  virtualNow: number;
  /** Phase of the UpgradeConfig's newest history entry (empty without one). */
  phase: string;
  /** The newest history condition as `Type=Status`, and its message. */
  step: string;
  stepMessage: string;
  /** Message of the UpgradeConfig's `Waiting` condition while it is True. */
  waiting: string;
  /** Reason of that condition (empty when it is not True). */
  waitingReason: string;
  /** Pool name → [updated, total]. */
  pools: Record<string, [number, number]>;
  /**
   * ClusterVersion: newest history entry (its version, state and start time), the Progressing
   * message, the desired version.
   */
  clusterVersion: { version: string; state: string; progressing: string; desired: string; startedTime?: string };
  /** History condition types that are True. */
  doneSteps: string[];
  /** The scheduled flow's newest UpgradeJob (empty name without one). */
  upgradeJob: UpgradeJobProgress;
  /** Pool name → its nodes being worked on (`draining worker-1`, `rebooting worker-2`); absent when none. */
  poolActivity: Record<string, string>;
  /** Names of firing alerts (without `severity="none"`, such as Watchdog), sorted, once each. */
  alerts: string[];
  /** Comments of the active silences, in order of creation. */
  silences: string[];
  /** The newest Warning Event of the operator's objects as `Reason: message` (empty without one). */
  warning: string;
}

/** What the snapshot reads besides the operator's objects, ClusterVersion and the pools. */
export interface ProgressExtras {
  poolActivity: Record<string, string>;
  alerts: string[];
  silences: string[];
  warning: string;
}

/** No nodes at work, no alerts, silences or warnings. */
export const NO_EXTRAS: ProgressExtras = { poolActivity: {}, alerts: [], silences: [], warning: '' };

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
  virtualNow: number,
  elapsedMs: number,
  cr: ManagedUpgradeConfig | undefined,
  cv: ClusterVersion | undefined,
  pools: Record<string, [number, number]>,
  job?: UpgradeJob,
  extras: ProgressExtras = NO_EXTRAS,
): ScenarioProgress {
  const h = cr?.status?.history?.[0];
  const newest = h?.conditions?.[0];
  const waiting = cr?.status?.conditions?.find((c) => c.type === 'Waiting');
  const cvh = cv?.status?.history?.[0];
  return {
    elapsedMs,
    virtualNow,
    phase: h?.phase ?? '',
    step: newest ? `${newest.type}=${newest.status}` : '',
    stepMessage: newest?.message ?? '',
    waiting: waiting?.status === 'True' ? (waiting.message ?? '') : '',
    waitingReason: waiting?.status === 'True' ? (waiting.reason ?? '') : '',
    pools,
    clusterVersion: {
      version: cvh?.version ?? '',
      state: cvh?.state ?? '',
      progressing: cv?.status?.conditions?.find((c) => c.type === 'Progressing')?.message ?? '',
      desired: cv?.status?.desired?.version ?? '',
      ...(cvh?.startedTime ? { startedTime: cvh.startedTime } : {}),
    },
    doneSteps: (h?.conditions ?? []).filter((c) => c.status === 'True').map((c) => c.type),
    upgradeJob: upgradeJobProgress(job),
    ...extras,
  };
}

/**
 * Pool name → what happens to its nodes now (`draining worker-1, rebooting worker-2`), with the
 * phases `upgrade-operator status` gives them (Draining, Rebooting, Updating). Pure.
 */
export function poolActivity(nodes: readonly Node[], pools: readonly MachineConfigPool[]): Record<string, string> {
  const busy = new Map<string, string[]>();
  const noConfigs = new Map<string, never>();
  for (const node of [...nodes].sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''))) {
    const pool = poolOfNode(node, pools);
    if (!pool) continue;
    const { phase, name } = assessNode(node, pool, noConfigs, null);
    if (phase !== 'Draining' && phase !== 'Rebooting' && phase !== 'Updating') continue;
    const poolName = pool.metadata?.name ?? '';
    busy.set(poolName, [...(busy.get(poolName) ?? []), `${phase.toLowerCase()} ${name}`]);
  }
  return Object.fromEntries([...busy].map(([pool, what]) => [pool, what.join(', ')]));
}

/** Names of the firing alerts, sorted and once each, without `severity="none"` (Watchdog, the heartbeat). Pure. */
export function firingAlertNames(alerts: readonly Pick<Alert, 'labels' | 'state'>[]): string[] {
  const names = alerts
    .filter((a) => a.state === 'firing' && a.labels['severity'] !== 'none')
    .map((a) => a.labels['alertname'] ?? '');
  return [...new Set(names)].filter((n) => n !== '').sort();
}

/** Comments of the silences active at `now`, in order of their start. Pure. */
export function activeSilenceComments(silences: readonly Silence[], now: number): string[] {
  return [...silences]
    .filter((s) => silenceState(s, now) === 'active')
    .sort((a, b) => a.startsAt - b.startsAt)
    .map((s) => s.comment || s.id);
}

/** The newest Warning Event among `events` as `Reason: message` ('' without one). Pure. */
export function newestWarning(events: readonly Event[]): string {
  const when = (e: Event): string => e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp ?? '';
  const warnings = events.filter((e) => e.type === 'Warning').sort((a, b) => when(a).localeCompare(when(b)));
  const newest = warnings.at(-1);
  return newest ? `${newest.reason ?? ''}: ${newest.message ?? ''}` : '';
}

/** Progress without the time, to tell whether anything changed. */
export function progressKey(scenarioProgress: ScenarioProgress): string {
  return JSON.stringify({ ...scenarioProgress, elapsedMs: 0, virtualNow: 0 });
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
export function progressLine(scenarioProgress: ScenarioProgress, flow: ScenarioFlow): string {
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
