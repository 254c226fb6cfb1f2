/**
 * Contract of APPUiO's UpgradeJob (managedupgrade.appuio.io/v1beta1): descriptor, condition types,
 * reasons, messages' fixed parts and the ClusterVersion lock annotation
 * (docs/design/scheduled-flow.md#upgradejob,
 * docs/design/scheduled-flow.md#the-upgradejob-lifecycle). No TypeBox here.
 */
import { resource } from '../../resource.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';
import type { UpgradeJob } from './upgrade-job.js';

/** Descriptor of UpgradeJob (namespaced). */
export const UpgradeJobResource = resource<UpgradeJob>({
  group: APPUIO_GROUP,
  version: APPUIO_VERSION,
  kind: 'UpgradeJob',
  plural: 'upgradejobs',
  namespaced: true,
});

/** Condition types of `status.conditions`. */
export const UpgradeJobConditionType = {
  Started: 'Started',
  PreHealthCheckDone: 'PreHealthCheckDone',
  UpgradeCompleted: 'UpgradeCompleted',
  PostHealthCheckDone: 'PostHealthCheckDone',
  Paused: 'Paused',
  MachineConfigPoolsPaused: 'MachineConfigPoolsPaused',
  Succeeded: 'Succeeded',
  Failed: 'Failed',
} as const;
/** An UpgradeJob condition type. */
export type UpgradeJobConditionTypeName = (typeof UpgradeJobConditionType)[keyof typeof UpgradeJobConditionType];

/** Condition reasons. `Failed` is defined upstream but never used. */
export const UpgradeJobReason = {
  Started: 'Started',
  Succeeded: 'Succeeded',
  Skipped: 'Skipped',
  Completed: 'Completed',
  InProgress: 'InProgress',
  Expired: 'Expired',
  TimedOut: 'TimedOut',
  PreHealthCheckFailed: 'PreHealthCheckFailed',
  PostHealthCheckFailed: 'PostHealthCheckFailed',
  UpgradeWithdrawn: 'UpgradeWithdrawn',
  HookFailed: 'HookFailed',
  UnpausingPoolsExpired: 'UnpausingPoolsExpired',
  NoManagedPools: 'NoManagedPools',
  DelaySet: 'DelaySet',
  /** Used only as a hook event reason. */
  DelayReached: 'DelayReached',
  PausedOnFailure: 'PausedOnFailure',
  Failed: 'Failed',
} as const;
/** An UpgradeJob condition reason. */
export type UpgradeJobReasonName = (typeof UpgradeJobReason)[keyof typeof UpgradeJobReason];

/** `status.hookTracker[].status` values. */
export const HOOK_JOB_TRACKER_STATUSES = ['active', 'complete', 'failed'] as const;
/** A hook Job's tracked status. */
export type HookJobTrackerStatus = (typeof HOOK_JOB_TRACKER_STATUSES)[number];

/**
 * Annotation naming the UpgradeJob (`<namespace>/<name>`) that holds the lock on the upstream
 * ClusterVersion, and on MachineConfigPools it paused for a delay.
 */
export const ANNOTATION_UPGRADE_JOB = 'managedupgrade.appuio.io/upgrade-job';

/** Defaults the CRD applies to `spec.config`. */
export const UpgradeJobDefaults = {
  upgradeTimeout: '12h',
  healthCheckTimeout: '1h',
} as const;
