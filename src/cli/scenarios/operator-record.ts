/**
 * The operator's part of the JSON report of `simulate`: what the operator said over time (its
 * phase or job state, its newest step, the wait and its reason) and the maintenance windows it
 * worked in. Both feed the report's timeline picture (`--html`) and are documented in
 * docs/simulation.md#the-json-report. The states are pure functions of the progress snapshots;
 * the windows are read from the cluster at the end.
 */
import type { KubeClient } from '../../kube/client.js';
import { ConfigMapResource } from '../../api/builtin.js';
import {
  MANAGED_UPGRADE_CONFIGMAP_KEY,
  MANAGED_UPGRADE_CONFIGMAP_NAME,
} from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config-contract.js';
import type { ManagedUpgradeConfig } from '../../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { UpgradeJobResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job-contract.js';
import type { UpgradeJob } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import { UpgradeSuspensionWindowResource } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window-contract.js';
import type { UpgradeSuspensionWindow } from '../../api/managedupgrade.appuio.io/v1beta1/upgrade-suspension-window.js';
import type { ManagedOperatorConfig } from '../../managed/config/managed-operator-config.js';
import { parseManagedOperatorConfig } from '../../managed/config/managed-operator-config.js';
import { isNotFound } from '../../kube/status-error.js';
import { isoTime } from '../../sim/recorder/alerts-report.js';
import type { ScenarioFlow, ScenarioProgress } from './scenario-progress.js';

/** What the operator said at one moment; one entry each time any of it changed. */
export interface OperatorState {
  /** Virtual time (RFC 3339, milliseconds). */
  at: string;
  elapsedMs: number;
  /** Managed flow: the UpgradeConfig's phase; scheduled flow: the UpgradeJob's state (`pending`, `active`, …). */
  phase: string;
  /** Managed: the newest history condition as `Type=Status`; scheduled: the UpgradeJob's name. */
  step: string;
  /** The step's message (scheduled: the message of the job's condition that changed last). */
  message: string;
  /** Managed: reason and message of the `Waiting` condition while it is True (else empty). */
  waitingReason: string;
  waiting: string;
  /** The newest Warning Event of the operator's objects as `Reason: message` (empty without one). */
  warning: string;
}

/** The state one snapshot shows of the flow's operator. */
function stateOf(progress: ScenarioProgress, flow: 'managed' | 'scheduled'): OperatorState {
  const at = isoTime(progress.virtualNow);
  if (flow === 'managed')
    return {
      at,
      elapsedMs: progress.elapsedMs,
      phase: progress.phase,
      step: progress.step,
      message: progress.stepMessage,
      waitingReason: progress.waitingReason,
      waiting: progress.waiting,
      warning: progress.warning,
    };
  const job = progress.upgradeJob;
  return {
    at,
    elapsedMs: progress.elapsedMs,
    phase: job.reason ? `${job.state}/${job.reason}` : job.state,
    step: job.name,
    message: job.message,
    waitingReason: '',
    waiting: '',
    warning: progress.warning,
  };
}

function sameState(one: OperatorState, other: OperatorState): boolean {
  return (
    one.phase === other.phase &&
    one.step === other.step &&
    one.message === other.message &&
    one.waitingReason === other.waitingReason &&
    one.waiting === other.waiting &&
    one.warning === other.warning
  );
}

/** The operator's states in the snapshots, oldest first, one per change (none without an operator). Pure. */
export function operatorStates(timeline: readonly ScenarioProgress[], flow: ScenarioFlow): OperatorState[] {
  if (flow === 'none') return [];
  const states: OperatorState[] = [];
  for (const progress of timeline) {
    const state = stateOf(progress, flow);
    const last = states.at(-1);
    if (!last || !sameState(last, state)) states.push(state);
  }
  return states;
}

/** A maintenance window the operator works in (or is kept out of). */
export interface MaintenanceWindow {
  /** The object that defines it. */
  kind: 'UpgradeConfig' | 'UpgradeJob' | 'UpgradeSuspensionWindow';
  name: string;
  /** RFC 3339. */
  start: string;
  /** RFC 3339; null when the window has no end (a disabled `upgradeWindow.timeOut`, a job without `startBefore`). */
  end: string | null;
  /** One sentence on what the window means. */
  what: string;
}

/** The OSD upgrade window: `upgradeAt` to `upgradeAt` + `upgradeWindow.timeOut` (the upgrade must start in it). Pure. */
export function managedWindow(
  config: ManagedUpgradeConfig | undefined,
  operatorConfig: ManagedOperatorConfig,
): MaintenanceWindow | undefined {
  const upgradeAt = Date.parse(config?.spec?.upgradeAt ?? '');
  if (!config || Number.isNaN(upgradeAt)) return undefined;
  const timeout = operatorConfig.upgradeWindow.timeOutMs;
  return {
    kind: 'UpgradeConfig',
    name: config.metadata?.name ?? '',
    start: isoTime(upgradeAt),
    end: timeout > 0 ? isoTime(upgradeAt + timeout) : null,
    what:
      timeout > 0
        ? `upgrade window: the upgrade must start within ${Math.round(timeout / 60_000)} min of upgradeAt (upgradeWindow.timeOut)`
        : 'upgrade window: from upgradeAt, without an end (upgradeWindow.timeOut 0)',
  };
}

/** The scheduled flow's windows: each UpgradeJob's `startAfter`–`startBefore`, each suspension window. Pure. */
export function scheduledWindows(
  jobs: readonly UpgradeJob[],
  suspensions: readonly UpgradeSuspensionWindow[],
): MaintenanceWindow[] {
  const windows: MaintenanceWindow[] = [];
  for (const job of jobs) {
    const start = Date.parse(job.spec?.startAfter ?? '');
    if (Number.isNaN(start)) continue;
    const end = Date.parse(job.spec?.startBefore ?? '');
    windows.push({
      kind: 'UpgradeJob',
      name: job.metadata?.name ?? '',
      start: isoTime(start),
      end: Number.isNaN(end) ? null : isoTime(end),
      what: `UpgradeJob ${job.metadata?.name ?? ''} to ${job.spec?.desiredVersion?.version ?? '?'}: starts after startAfter${Number.isNaN(end) ? '' : ', fails unless started before startBefore'}`,
    });
  }
  for (const w of suspensions) {
    const start = Date.parse(w.spec?.start ?? '');
    const end = Date.parse(w.spec?.end ?? '');
    if (Number.isNaN(start)) continue;
    windows.push({
      kind: 'UpgradeSuspensionWindow',
      name: w.metadata?.name ?? '',
      start: isoTime(start),
      end: Number.isNaN(end) ? null : isoTime(end),
      what: `suspension window${w.spec?.reason ? ` (${w.spec.reason})` : ''}: no upgrade of the configs and jobs it selects`,
    });
  }
  const key = (w: MaintenanceWindow): string => `${w.start}\u0000${w.kind}\u0000${w.name}`;
  return windows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Reads the windows of the flows that ran from the cluster (the operator ConfigMap in `namespace` for the managed flow). */
export async function readMaintenanceWindows(
  client: KubeClient,
  flow: { managed: boolean; scheduled: boolean; namespace: string; upgradeConfig: ManagedUpgradeConfig | undefined },
  signal: AbortSignal,
): Promise<MaintenanceWindow[]> {
  const windows: MaintenanceWindow[] = [];
  if (flow.managed) {
    let text: string | undefined;
    try {
      const cm = await client.get(ConfigMapResource, flow.namespace, MANAGED_UPGRADE_CONFIGMAP_NAME, { signal });
      text = cm.data?.[MANAGED_UPGRADE_CONFIGMAP_KEY];
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
    const w = managedWindow(flow.upgradeConfig, parseManagedOperatorConfig(text).config);
    if (w) windows.push(w);
  }
  if (flow.scheduled) {
    const jobs = await client.list(UpgradeJobResource, { signal });
    const suspensions = await client.list(UpgradeSuspensionWindowResource, { signal });
    windows.push(...scheduledWindows(jobs.items, suspensions.items));
  }
  return windows;
}
