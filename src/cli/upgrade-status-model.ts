/**
 * The data model of `upgrade-operator status` (docs/configuration.md#upgrade-operator-status): the
 * snapshot the assessment reads, the report it produces (control plane, pools and nodes, health
 * insights, the upgrade operator's own objects), and the small helpers the assessment's parts
 * share. Types and pure helpers only; the rules live in upgrade-status-control-plane.ts,
 * upgrade-status-nodes.ts, upgrade-status-operator.ts and upgrade-status.ts.
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { Node, Pod } from 'kubernetes-types/core/v1.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import type { Condition } from 'kubernetes-types/meta/v1.js';
import type { ScheduledUpgradeConfig } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-config.js';
import type { UpgradeJob } from '../api/managedupgrade.appuio.io/v1beta1/upgrade-job.js';
import type { ClusterOperator } from '../api/openshift/config-v1/cluster-operator.js';
import type { ClusterOperatorStatusCondition, ClusterVersion } from '../api/openshift/config-v1/cluster-version.js';
import type { MachineConfigPool } from '../api/openshift/machineconfiguration-v1/machine-config-pool.js';
import type { MachineConfig } from '../api/openshift/machineconfiguration-v1/machine-config.js';
import type { ManagedUpgradeConfig } from '../api/upgrade.managed.openshift.io/v1alpha1/upgrade-config.js';
import { parseRfc3339 } from '../lib/rfc3339.js';

// ---- Snapshot ------------------------------------------------------------------------------

/** One part of the snapshot: read, absent (kind not served / object not found), or failed. */
export type SnapshotPart<T> =
  { state: 'ok'; value: T } | { state: 'absent'; reason: string } | { state: 'error'; error: string };

/** Everything the assessment reads, as the command lists it (GET and LIST only). */
export interface UpgradeStatusSnapshot {
  clusterVersion: SnapshotPart<ClusterVersion>;
  clusterOperators: SnapshotPart<ClusterOperator[]>;
  machineConfigPools: SnapshotPart<MachineConfigPool[]>;
  /** The rendered MachineConfigs nodes and pools name (only those; they carry the release version). */
  renderedMachineConfigs: SnapshotPart<MachineConfig[]>;
  nodes: SnapshotPart<Node[]>;
  /** Pods on the nodes that are draining (see `drainingNodeNames` in upgrade-status-nodes.ts). */
  pods: SnapshotPart<Pod[]>;
  podDisruptionBudgets: SnapshotPart<PodDisruptionBudget[]>;
  managedUpgradeConfigs: SnapshotPart<ManagedUpgradeConfig[]>;
  scheduledUpgradeConfigs: SnapshotPart<ScheduledUpgradeConfig[]>;
  upgradeJobs: SnapshotPart<UpgradeJob[]>;
  /** The scheduled flow's hook Jobs (label `upgradejobs.managedupgrade.appuio.io/upgradejobk`). */
  hookJobs: SnapshotPart<Job[]>;
}

/** The names of the snapshot's parts. */
export type SnapshotPartName = keyof UpgradeStatusSnapshot;

/** The value of a part, or undefined when it was not read. */
export function partValue<T>(snapshotPart: SnapshotPart<T>): T | undefined {
  return snapshotPart.state === 'ok' ? snapshotPart.value : undefined;
}

/** Why a part has no value ('' when it has one). */
export function partProblem(snapshotPart: SnapshotPart<unknown>): string {
  return snapshotPart.state === 'ok' ? '' : snapshotPart.state === 'absent' ? snapshotPart.reason : snapshotPart.error;
}

// ---- Report --------------------------------------------------------------------------------

/** A part of the snapshot that could not be read, and why. */
export interface UnknownPart {
  part: SnapshotPartName;
  reason: string;
}

/**
 * Control-plane assessment, after oc's: `Progressing`; `Slow` (oc: "Progressing - Slow");
 * `Stalled`; `Completed`; `Unknown` when the ClusterVersion cannot be read or has no history.
 */
export type ControlPlaneAssessment = 'Progressing' | 'Slow' | 'Stalled' | 'Completed' | 'Unknown';

/** ClusterOperator counts against the target version (oc's completion line). */
export interface OperatorProgress {
  total: number;
  updated: number;
  updating: number;
  waiting: number;
  /** floor(100 × updated / total); null without operators. */
  percent: number | null;
  /** Operators not at the target and Progressing=True or named by the CVO as waited on, sorted. */
  updatingNames: string[];
}

/** ClusterOperator health counts. */
export interface OperatorHealth {
  total: number;
  healthy: number;
  /** Degraded=True (and Available=True). */
  degraded: number;
  /** Available not True. */
  unavailable: number;
  /** No Available or no Degraded condition: not counted as healthy. */
  unknown: number;
}

/** One ClusterOperator that is not simply done and healthy. */
export interface OperatorRow {
  name: string;
  version: string | null;
  available: string;
  progressing: string;
  degraded: string;
  /** The Progressing condition's lastTransitionTime. */
  since: string | null;
  message: string;
}

/** The ETA, from the durations of earlier updates in ClusterVersion history. */
export interface Estimate {
  /** Mean duration of the earlier completed updates used. */
  totalMs: number;
  /** totalMs − elapsed, never below 0. */
  remainingMs: number;
  /** The update runs longer than the estimate. */
  overdue: boolean;
  /** How many earlier updates the estimate is made of. */
  basedOn: number;
}

/** The control plane (ClusterVersion and ClusterOperators). */
export interface ControlPlaneStatus {
  assessment: ControlPlaneAssessment;
  /** One line: why this assessment. */
  message: string;
  /** The newest Completed version in history. */
  currentVersion: string | null;
  /** The version the head of history is about (the update running or the last one done). */
  targetVersion: string | null;
  /** The Completed version before the target. */
  previousVersion: string | null;
  startedAt: string | null;
  completedAt: string | null;
  durationMs: number | null;
  estimate: Estimate | null;
  /** Why there is no estimate. */
  estimateUnknown: string | null;
  /** The Progressing condition's message, as the CVO wrote it. */
  cvoMessage: string;
  /** The CVO's manifest counts (informational: they can go backwards). */
  cvoProgress: { done: number; total: number; percent: number } | null;
  operators: OperatorProgress | null;
  operatorHealth: OperatorHealth | null;
  operatorRows: OperatorRow[];
}

/**
 * A node's assessment, after oc's: `Completed`, `Progressing`, `Outdated` (not started),
 * `Excluded` (its pool is paused), `Degraded`, `Unavailable`, `Unknown`.
 */
export type NodeAssessment =
  'Completed' | 'Progressing' | 'Outdated' | 'Excluded' | 'Degraded' | 'Unavailable' | 'Unknown';
/** Where a node is in its update. */
export type NodePhase = 'Pending' | 'Draining' | 'Updating' | 'Rebooting' | 'Paused' | 'Updated' | 'Unknown';

/** A pod a drain cannot evict, and the PodDisruptionBudget that protects it. */
export interface DrainBlocker {
  /** `namespace/name`. */
  pod: string;
  /** `namespace/name`. */
  pdb: string;
  message: string;
}

/** One node. */
export interface NodeStatus {
  name: string;
  pool: string;
  assessment: NodeAssessment;
  phase: NodePhase;
  /** The release of its current rendered config; null when unknown. */
  version: string | null;
  currentConfig: string | null;
  desiredConfig: string | null;
  /** The MCD's state annotation. */
  state: string | null;
  ready: boolean | null;
  cordoned: boolean;
  message: string;
  drainBlockers: DrainBlocker[];
}

/** A pool's assessment: `Pending`, `Progressing`, `Completed`, `Degraded`, `Excluded` (paused), `Unknown`. */
export type PoolAssessment = 'Pending' | 'Progressing' | 'Completed' | 'Degraded' | 'Excluded' | 'Unknown';

/** One MachineConfigPool. */
export interface PoolStatus {
  name: string;
  /** The pool the update waits for (`required-for-upgrade`, or named master). */
  controlPlane: boolean;
  paused: boolean;
  assessment: PoolAssessment;
  targetConfig: string | null;
  targetVersion: string | null;
  total: number;
  updated: number;
  progressing: number;
  draining: number;
  degraded: number;
  unavailable: number;
  excluded: number;
  /** floor(100 × updated / total); null when the nodes are unknown; 100 for an empty pool. */
  percent: number | null;
  message: string;
  nodes: NodeStatus[];
}

/** An "Update Health" insight (oc's levels and impacts). */
export interface HealthInsight {
  level: 'Error' | 'Warning' | 'Info';
  impact: 'API Availability' | 'Cluster Capacity' | 'Update Speed' | 'Update Stalled' | 'Unknown' | 'None';
  /** What it is about, e.g. `ClusterOperator etcd`, `Node worker-1`. */
  scope: string;
  message: string;
  since: string | null;
}

/** The whole report (`-o json` prints it as is). */
export interface UpgradeStatusReport {
  generatedAt: string;
  /** The control plane or an unpaused pool is updating (or stalled, or unknown). */
  updating: boolean;
  unknown: UnknownPart[];
  controlPlane: ControlPlaneStatus;
  pools: PoolStatus[];
  health: HealthInsight[];
  upgradeOperator: UpgradeOperatorStatus;
}

// ---- Report: the upgrade operator's objects ------------------------------------------------

/** The current step of a managed upgrade: the first condition of its history entry (MUO prepends). */
export interface ManagedStepView {
  type: string;
  status: string;
  reason: string;
  message: string;
  /** The step's startTime, else its lastTransitionTime. */
  since: string | null;
  /** now − since. */
  inStepMs: number | null;
}

/** One `upgrade.managed.openshift.io` UpgradeConfig. */
export interface ManagedUpgradeView {
  namespace: string;
  name: string;
  desiredVersion: string | null;
  channel: string | null;
  upgradeAt: string | null;
  /** upgradeAt − now while it is in the future, else null. */
  startsInMs: number | null;
  type: string | null;
  /** The phase of the history entry of the desired version (else of the newest entry); null before the first. */
  phase: string | null;
  startedAt: string | null;
  completedAt: string | null;
  step: ManagedStepView | null;
  /** The operator's `Waiting` condition (why it is not moving). */
  waiting: ConditionView | null;
}

/** One `managedupgrade.appuio.io` UpgradeConfig. */
export interface ScheduledConfigView {
  namespace: string;
  name: string;
  cron: string;
  isoWeek: string | null;
  location: string;
  suspended: boolean;
  nextWindow: string | null;
  lastScheduledUpgrade: string | null;
  waiting: ConditionView | null;
}

/** A hook Job of an UpgradeJob. */
export interface HookJobView {
  name: string;
  hook: string;
  event: string;
  trackingKey: string | null;
  state: 'Pending' | 'Running' | 'Complete' | 'Failed';
  startedAt: string | null;
  message: string;
}

/** An UpgradeJob's state from its conditions. */
export type UpgradeJobState = 'Scheduled' | 'Pending' | 'Running' | 'Paused' | 'Succeeded' | 'Failed';

/** One `managedupgrade.appuio.io` UpgradeJob. */
export interface UpgradeJobView {
  namespace: string;
  name: string;
  desiredVersion: string | null;
  startAfter: string | null;
  startBefore: string | null;
  state: UpgradeJobState;
  message: string;
  conditions: ConditionView[];
  hooks: HookJobView[];
}

/** Whether a flow's kinds could be read: `absent` = not installed on this cluster. */
export type FlowReadState = 'ok' | 'absent' | 'unknown';

/** The upgrade operator's own objects, both flows. */
export interface UpgradeOperatorStatus {
  managed: { state: FlowReadState; reason: string; upgradeConfigs: ManagedUpgradeView[] };
  scheduled: {
    state: FlowReadState;
    reason: string;
    upgradeConfigs: ScheduledConfigView[];
    /** Jobs neither Succeeded nor Failed, by startAfter. */
    activeJobs: UpgradeJobView[];
    /** The finished job with the latest startAfter. */
    lastFinishedJob: UpgradeJobView | null;
    /** Why hook Jobs are not shown, when they could not be read. */
    hookJobsUnknown: string | null;
  };
}

// ---- Helpers -------------------------------------------------------------------------------

/** The condition of a type in a ClusterVersion or ClusterOperator condition list. */
export function cond(
  list: readonly ClusterOperatorStatusCondition[] | undefined,
  type: string,
): ClusterOperatorStatusCondition | undefined {
  return list?.find((c) => c.type === type);
}

/** Orders strings by code unit (a sort comparator). */
export function byName(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** A message on one line: line breaks and the blanks around them become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/** `1 node`, `2 nodes`. */
export function nodeCount(count: number): string {
  return `${count} ${count === 1 ? 'node' : 'nodes'}`;
}

/** Epoch milliseconds of an RFC 3339 time; undefined when absent or not parseable. */
export function time(text: string | null | undefined): number | undefined {
  return text ? parseRfc3339(text) : undefined;
}

/** A condition of metav1.Condition shape, as the report shows it. */
export interface ConditionView {
  type: string;
  status: string;
  reason: string;
  message: string;
  lastTransitionTime: string | null;
}

/** Reads a metav1.Condition for the report. */
export function conditionView(condition: Condition | undefined): ConditionView | null {
  return condition
    ? {
        type: condition.type,
        status: condition.status,
        reason: condition.reason ?? '',
        message: oneLine(condition.message ?? ''),
        lastTransitionTime: condition.lastTransitionTime ?? null,
      }
    : null;
}
