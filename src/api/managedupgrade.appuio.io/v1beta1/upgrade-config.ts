/**
 * APPUiO's UpgradeConfig (managedupgrade.appuio.io/v1beta1): schema, TS types and CRD
 * (docs/design/scheduled-flow.md#upgradeconfig). Named `ScheduledUpgradeConfig` in TypeScript so
 * that it can be imported beside MUO's `ManagedUpgradeConfig`. Runtime constants live in
 * `upgrade-config-contract.ts`.
 */
import { Type, type Static } from 'typebox';
import { conditions, crdFor, dateTime, duration, embeddedObjectMeta, typeMeta } from '../../schema.js';
import type { JsonObject } from '../../../lib/json.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';
import { UpgradeJobConfigSchema } from './upgrade-job.js';
import { ISO_WEEK_PATTERN, ScheduledUpgradeConfigDefaults } from './upgrade-config-contract.js';

/** `spec.schedule`. */
export const UpgradeConfigScheduleSchema = Type.Object(
  {
    cron: Type.String({
      description:
        'When maintenance windows start: a 5-field cron expression or descriptor (robfig/cron v3), optionally prefixed CRON_TZ=<zone>.',
    }),
    isoWeek: Type.Optional(
      Type.String({ description: 'ISO 8601 week filter: @odd, @even or a week number.', pattern: ISO_WEEK_PATTERN }),
    ),
    location: Type.String({
      description: 'IANA time zone the cron expression is evaluated in; Local is the controller’s zone.',
      default: ScheduledUpgradeConfigDefaults.location,
    }),
    suspend: Type.Optional(
      Type.Boolean({ description: 'While true, due windows pass without creating upgrade jobs.' }),
    ),
  },
  { description: 'The schedule of maintenance windows.' },
);

/** `spec.jobTemplate`. */
export const UpgradeJobTemplateSchema = Type.Object(
  {
    metadata: Type.Optional(embeddedObjectMeta('Labels and annotations copied to every UpgradeJob created.')),
    spec: Type.Object({ config: UpgradeJobConfigSchema }, { description: 'Spec of the UpgradeJobs created.' }),
  },
  { description: 'Template of the UpgradeJobs created for each window.' },
);

/** `spec` of APPUiO's UpgradeConfig. */
export const ScheduledUpgradeConfigSpecSchema = Type.Object(
  {
    schedule: UpgradeConfigScheduleSchema,
    pinVersionWindow: Type.Optional(
      Type.String({
        description:
          'How long before a window the job is created and its version pinned (Go duration); empty creates it at the window.',
      }),
    ),
    maxSchedulingDelay: duration(
      'How late after its creation time a job may still be created; later windows are skipped.',
      {
        default: ScheduledUpgradeConfigDefaults.maxSchedulingDelay,
      },
    ),
    maxUpgradeStartDelay: duration(
      'How long after the window start the upgrade may still start (sets the job’s startBefore).',
      {
        default: ScheduledUpgradeConfigDefaults.maxUpgradeStartDelay,
      },
    ),
    successfulJobsHistoryLimit: Type.Optional(
      Type.Integer({ description: 'How many succeeded jobs to keep; 4 when unset, no limit when ≤ 0.' }),
    ),
    jobTemplate: UpgradeJobTemplateSchema,
  },
  { description: 'When to upgrade, and how each upgrade runs.' },
);

/** `status` of APPUiO's UpgradeConfig. */
export const ScheduledUpgradeConfigStatusSchema = Type.Object(
  {
    lastScheduledUpgrade: Type.Optional(
      dateTime('Start of the last window handled: a job created, or a window skipped because suspended.'),
    ),
    nextPossibleSchedules: Type.Array(
      Type.Object({ time: dateTime('Start of the window.') }, { description: 'A coming maintenance window.' }),
      { description: 'The next windows of the schedule (suspension ignored).' },
    ),
    conditions: Type.Optional(
      conditions(
        'ScheduleValid (the schedule compiles) and Waiting (what the controller waits for); additions of this project.',
      ),
    ),
  },
  { description: 'Observed scheduling state.' },
);

/** A whole APPUiO UpgradeConfig object. */
export const ScheduledUpgradeConfigSchema = Type.Object(
  { ...typeMeta(), spec: ScheduledUpgradeConfigSpecSchema, status: Type.Optional(ScheduledUpgradeConfigStatusSchema) },
  { description: 'UpgradeConfig schedules cluster upgrades in recurring maintenance windows by creating UpgradeJobs.' },
);

/** `spec.schedule`. */
export type UpgradeConfigSchedule = Static<typeof UpgradeConfigScheduleSchema>;
/** `spec.jobTemplate`. */
export type UpgradeJobTemplate = Static<typeof UpgradeJobTemplateSchema>;
/** `spec` of APPUiO's UpgradeConfig. */
export type ScheduledUpgradeConfigSpec = Static<typeof ScheduledUpgradeConfigSpecSchema>;
/** `status` of APPUiO's UpgradeConfig. */
export type ScheduledUpgradeConfigStatus = Static<typeof ScheduledUpgradeConfigStatusSchema>;
/** APPUiO's UpgradeConfig object. */
export type ScheduledUpgradeConfig = Static<typeof ScheduledUpgradeConfigSchema>;

/** Printer columns (the anchor has none). */
export const SCHEDULED_UPGRADE_CONFIG_PRINTER_COLUMNS = [
  { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule.cron' },
  { name: 'ISO Week', type: 'string', jsonPath: '.spec.schedule.isoWeek' },
  { name: 'Location', type: 'string', jsonPath: '.spec.schedule.location' },
  { name: 'Suspended', type: 'boolean', jsonPath: '.spec.schedule.suspend' },
  { name: 'Next', type: 'string', jsonPath: '.status.nextPossibleSchedules[0].time' },
  { name: 'Last Scheduled', type: 'string', jsonPath: '.status.lastScheduledUpgrade', priority: 1 },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
] as const;

/** The CustomResourceDefinition of APPUiO's UpgradeConfig. */
export function scheduledUpgradeConfigCrd(): JsonObject {
  return crdFor({
    group: APPUIO_GROUP,
    version: APPUIO_VERSION,
    kind: 'UpgradeConfig',
    plural: 'upgradeconfigs',
    singular: 'upgradeconfig',
    scope: 'Namespaced',
    shortNames: ['upc'],
    schema: ScheduledUpgradeConfigSchema,
    printerColumns: SCHEDULED_UPGRADE_CONFIG_PRINTER_COLUMNS,
    statusSubresource: true,
  });
}
