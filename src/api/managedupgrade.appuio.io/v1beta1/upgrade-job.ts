/**
 * APPUiO's UpgradeJob (managedupgrade.appuio.io/v1beta1): schema, TS types and CRD
 * (docs/design/scheduled-flow.md#upgradejob). `UpgradeJobConfigSchema` is shared with
 * UpgradeConfig's job template. Runtime constants live in `upgrade-job-contract.ts`.
 */
import { Type, type Static } from 'typebox';
import { conditions, crdFor, dateTime, duration, labelSelector, typeMeta } from '../../schema.js';
import type { JsonObject } from '../../../lib/json.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';
import { updateSchema } from './cluster-version-spec.js';
import { UpgradeJobDefaults, type HookJobTrackerStatus } from './upgrade-job-contract.js';

/** Health checks before or after the upgrade. */
export const UpgradeJobHealthCheckSchema = Type.Object(
  {
    timeout: duration('How long the cluster may stay unhealthy before the check fails.', {
      default: UpgradeJobDefaults.healthCheckTimeout,
    }),
    skipDegradedOperatorsCheck: Type.Optional(
      Type.Boolean({ description: 'Skip the check of the ClusterVersion for degraded operators.' }),
    ),
    checkCriticalAlerts: Type.Optional(
      Type.Boolean({
        description: 'Unhealthy while a critical alert fires (extension of the design; off by default).',
      }),
    ),
    checkDegradedOperators: Type.Optional(
      Type.Boolean({
        description:
          'Unhealthy while a ClusterOperator is Degraded or unavailable (extension of the design; off by default).',
      }),
    ),
    excludeAlerts: Type.Optional(
      Type.Array(Type.Object({ alertname: Type.String({ minLength: 1, description: 'Alert name to ignore.' }) }), {
        description: 'Critical alerts to ignore.',
      }),
    ),
    excludeNamespaces: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), { description: 'Namespaces whose critical alerts are ignored.' }),
    ),
    excludeOperators: Type.Optional(
      Type.Array(Type.String({ minLength: 1 }), {
        description: 'ClusterOperator names ignored by checkDegradedOperators.',
      }),
    ),
    customQueries: Type.Optional(
      Type.Array(
        Type.Object({
          query: Type.String({ minLength: 1, description: 'PromQL; a non-empty result means unhealthy.' }),
        }),
        { description: 'Extra PromQL health queries.' },
      ),
    ),
  },
  { description: 'Health checks to run.' },
);

/** One entry of `config.machineConfigPools`. */
export const UpgradeJobMachineConfigPoolSpecSchema = Type.Object(
  {
    matchLabels: Type.Optional(
      labelSelector(
        'Selects the MachineConfigPools this entry configures: empty selects all pools, absent selects none.',
      ),
    ),
    delayUpgrade: Type.Optional(
      Type.Object(
        {
          delayMin: Type.Optional(
            Type.String({
              description: 'How long after spec.startAfter the pools stay paused before they may update (Go duration).',
            }),
          ),
          delayMax: Type.Optional(
            Type.String({
              description:
                'Latest time after spec.startAfter by which the pools must have been unpaused, else the job fails (Go duration).',
            }),
          ),
        },
        { description: 'Delays the update of the selected pools by pausing them.' },
      ),
    ),
  },
  { description: 'How the upgrade treats the selected MachineConfigPools.' },
);

/** `spec.config` of an UpgradeJob, and `spec.jobTemplate.spec.config` of an UpgradeConfig. */
export const UpgradeJobConfigSchema = Type.Object(
  {
    upgradeTimeout: duration('How long after spec.startAfter the upgrade may take before it fails.', {
      default: UpgradeJobDefaults.upgradeTimeout,
    }),
    preUpgradeHealthChecks: Type.Object(UpgradeJobHealthCheckSchema.properties, {
      description: 'Health checks before the upgrade.',
    }),
    postUpgradeHealthChecks: Type.Object(UpgradeJobHealthCheckSchema.properties, {
      description: 'Health checks after the upgrade.',
    }),
    machineConfigPools: Type.Optional(
      Type.Array(UpgradeJobMachineConfigPoolSpecSchema, {
        description: 'Per-pool settings, e.g. delayed node updates.',
      }),
    ),
    pauseMachineConfigPoolsOnFailure: Type.Optional(
      Type.Object(
        {
          enabled: Type.Optional(
            Type.Boolean({ description: 'Pause the selected pools that are still updating when the job fails.' }),
          ),
          selector: Type.Optional(labelSelector('Selects the pools to pause; empty selects all pools.')),
        },
        { description: 'Pause still-updating MachineConfigPools when the upgrade fails.' },
      ),
    ),
  },
  { description: 'How the upgrade runs: timeouts, health checks and MachineConfigPool handling.' },
);

/** `spec` of an UpgradeJob. */
export const UpgradeJobSpecSchema = Type.Object(
  {
    startAfter: dateTime('The upgrade starts at or after this time; timeouts and pool delays count from it.'),
    startBefore: dateTime(
      'If the upgrade has not started by this time, the job fails as expired (or is skipped in a suspension window).',
    ),
    desiredVersion: Type.Optional(
      updateSchema(
        'The release to upgrade to; absent for a job created when no update was available (hooks and checks still run).',
      ),
    ),
    desiredVersionCheckAvailability: Type.Optional(
      Type.Boolean({
        description: 'Fail the job if desiredVersion is no longer among the available updates. Defaults to true.',
      }),
    ),
    config: UpgradeJobConfigSchema,
  },
  { description: 'One scheduled upgrade: when it may start, the release, and how it runs.' },
);

/** One entry of `status.hookTracker`. */
export const HookJobTrackerSchema = Type.Object(
  {
    hookEvent: Type.Optional(Type.String({ description: 'The event the hook ran for.' })),
    trackingKey: Type.Optional(
      Type.String({ description: 'Distinguishes several runs for one event, e.g. the pool name.' }),
    ),
    upgradeJobHook: Type.Optional(Type.String({ description: 'Name of the UpgradeJobHook.' })),
    status: Type.Optional(
      Type.Unsafe<HookJobTrackerStatus>({
        type: 'string',
        description: 'Outcome of the hook Job: active, complete or failed.',
      }),
    ),
    message: Type.Optional(Type.String({ description: 'Message of the hook Job outcome.' })),
  },
  { description: 'The remembered outcome of one hook Job.' },
);

/** `status` of an UpgradeJob. */
export const UpgradeJobStatusSchema = Type.Object(
  {
    conditions: Type.Optional(
      conditions('The state of the upgrade: Started, health checks, UpgradeCompleted, Paused, Succeeded, Failed.'),
    ),
    hookTracker: Type.Optional(
      Type.Array(HookJobTrackerSchema, { description: 'Outcomes of the hook Jobs run for this upgrade.' }),
    ),
  },
  { description: 'Observed state of the upgrade.' },
);

/** A whole UpgradeJob object. */
export const UpgradeJobSchema = Type.Object(
  { ...typeMeta(), spec: Type.Optional(UpgradeJobSpecSchema), status: Type.Optional(UpgradeJobStatusSchema) },
  {
    description:
      'UpgradeJob is one cluster upgrade, created by an UpgradeConfig for one maintenance window, or by hand.',
  },
);

/** Health check settings. */
export type UpgradeJobHealthCheck = Static<typeof UpgradeJobHealthCheckSchema>;
/** Per-pool settings. */
export type UpgradeJobMachineConfigPoolSpec = Static<typeof UpgradeJobMachineConfigPoolSpecSchema>;
/** `spec.config` of an UpgradeJob. */
export type UpgradeJobConfig = Static<typeof UpgradeJobConfigSchema>;
/** `spec` of an UpgradeJob. */
export type UpgradeJobSpec = Static<typeof UpgradeJobSpecSchema>;
/** One hook tracker entry. */
export type HookJobTracker = Static<typeof HookJobTrackerSchema>;
/** `status` of an UpgradeJob. */
export type UpgradeJobStatus = Static<typeof UpgradeJobStatusSchema>;
/** An UpgradeJob object. */
export type UpgradeJob = Static<typeof UpgradeJobSchema>;

/** Printer columns (the anchor has none). */
export const UPGRADE_JOB_PRINTER_COLUMNS = [
  { name: 'Version', type: 'string', jsonPath: '.spec.desiredVersion.version' },
  { name: 'Start After', type: 'string', jsonPath: '.spec.startAfter' },
  { name: 'Start Before', type: 'string', jsonPath: '.spec.startBefore', priority: 1 },
  { name: 'Started', type: 'string', jsonPath: '.status.conditions[?(@.type=="Started")].status' },
  { name: 'Succeeded', type: 'string', jsonPath: '.status.conditions[?(@.type=="Succeeded")].status' },
  { name: 'Failed', type: 'string', jsonPath: '.status.conditions[?(@.type=="Failed")].status' },
  { name: 'Reason', type: 'string', jsonPath: '.status.conditions[?(@.type=="Failed")].reason', priority: 1 },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
] as const;

/** The CustomResourceDefinition of UpgradeJob. */
export function upgradeJobCrd(): JsonObject {
  return crdFor({
    group: APPUIO_GROUP,
    version: APPUIO_VERSION,
    kind: 'UpgradeJob',
    plural: 'upgradejobs',
    singular: 'upgradejob',
    scope: 'Namespaced',
    shortNames: ['upj'],
    schema: UpgradeJobSchema,
    printerColumns: UPGRADE_JOB_PRINTER_COLUMNS,
    statusSubresource: true,
  });
}
