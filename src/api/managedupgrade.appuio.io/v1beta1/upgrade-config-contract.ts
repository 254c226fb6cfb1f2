/**
 * Contract of APPUiO's UpgradeConfig (managedupgrade.appuio.io/v1beta1): descriptor, defaults, the
 * isoWeek pattern and Event reasons (docs/design/scheduled-flow.md#upgradeconfig,
 * docs/design/scheduled-flow.md#schedules). No TypeBox here.
 */
import { resource } from '../../resource.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';
import type { ScheduledUpgradeConfig } from './upgrade-config.js';

/** Descriptor of APPUiO's UpgradeConfig (namespaced). */
export const ScheduledUpgradeConfigResource = resource<ScheduledUpgradeConfig>({
  group: APPUIO_GROUP,
  version: APPUIO_VERSION,
  kind: 'UpgradeConfig',
  plural: 'upgradeconfigs',
  namespaced: true,
});

/** The CRD pattern of `spec.schedule.isoWeek`: `@odd`, `@even` or a one- or two-digit week. */
export const ISO_WEEK_PATTERN = '^(@odd|@even|\\d{1,2})$';

/** Defaults: the CRD's (`location`, delays) and the controller's (history limit, schedule count). */
export const ScheduledUpgradeConfigDefaults = {
  location: 'Local',
  maxSchedulingDelay: '1h',
  maxUpgradeStartDelay: '1h',
  /** Applied by the controller when `successfulJobsHistoryLimit` is absent; ≤ 0 means unlimited. */
  successfulJobsHistoryLimit: 4,
  /** Length of `status.nextPossibleSchedules`. */
  nextPossibleSchedules: 10,
} as const;

/** Kubernetes Event reasons emitted on an UpgradeConfig. */
export const UpgradeConfigEventReason = {
  Suspended: 'UpgradeConfigSuspended',
  SuspendedBySuspensionWindow: 'UpgradeConfigSuspendedBySuspensionWindow',
} as const;
