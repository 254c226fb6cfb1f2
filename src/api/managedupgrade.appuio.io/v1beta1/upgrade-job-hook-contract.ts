/**
 * Contract of APPUiO's UpgradeJobHook (managedupgrade.appuio.io/v1beta1): descriptor, events, run
 * modes, failure policies, and the labels and finalizer of the hook Jobs it creates
 * (docs/design/scheduled-flow.md#upgradejobhook, docs/design/scheduled-flow.md#hooks). No TypeBox
 * here.
 */
import { resource } from '../../resource.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';
import type { UpgradeJobHook } from './upgrade-job-hook.js';

/** Descriptor of UpgradeJobHook (namespaced). */
export const UpgradeJobHookResource = resource<UpgradeJobHook>({
  group: APPUIO_GROUP,
  version: APPUIO_VERSION,
  kind: 'UpgradeJobHook',
  plural: 'upgradejobhooks',
  namespaced: true,
});

/** `spec.events` values. */
export const UPGRADE_EVENTS = [
  'Create',
  'Start',
  'UpgradeComplete',
  'MachineConfigPoolUnpause',
  'Finish',
  'Success',
  'Failure',
] as const;
/** An upgrade event a hook runs on. */
export type UpgradeEvent = (typeof UPGRADE_EVENTS)[number];
/** Events whose hook Jobs the controller waits for, and whose `Abort` failures fail the UpgradeJob. */
export const EVENTS_INFLUENCING_OUTCOME: readonly UpgradeEvent[] = [
  'Create',
  'Start',
  'UpgradeComplete',
  'MachineConfigPoolUnpause',
];

/** `spec.run` values; empty means `All`. */
export const HOOK_RUN_MODES = ['Next', 'All'] as const;
/** A run mode. */
export type HookRunMode = (typeof HOOK_RUN_MODES)[number];
/** The run mode of a hook without `spec.run`. */
export const DEFAULT_HOOK_RUN_MODE: HookRunMode = 'All';

/** `spec.failurePolicy` values; empty means `Ignore`. */
export const HOOK_FAILURE_POLICIES = ['Abort', 'Ignore'] as const;
/** A failure policy. */
export type HookFailurePolicy = (typeof HOOK_FAILURE_POLICIES)[number];
/** The failure policy of a hook without `spec.failurePolicy`. */
export const DEFAULT_HOOK_FAILURE_POLICY: HookFailurePolicy = 'Ignore';

/** Labels the controller puts on every hook Job (the `upgradejobk` typo is part of the contract). */
export const HookJobLabel = {
  UpgradeJobHook: 'upgradejobs.managedupgrade.appuio.io/upgradejobhook',
  UpgradeJob: 'upgradejobs.managedupgrade.appuio.io/upgradejobk',
  Event: 'upgradejobs.managedupgrade.appuio.io/event',
  TrackingKey: 'upgradejobs.managedupgrade.appuio.io/tracking-key',
} as const;

/** Finalizer on hook Jobs until their outcome is recorded in the UpgradeJob's hookTracker. */
export const HOOK_JOB_TRACKER_FINALIZER = 'upgradejobs.managedupgrade.appuio.io/hook-job-tracker';
