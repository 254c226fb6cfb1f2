/**
 * MUO's UpgradeConfig (upgrade.managed.openshift.io/v1alpha1): schema, TS types and CRD. Field
 * names, enums, required lists and validation are MUO's
 * (docs/design/managed-flow.md#the-upgradeconfig), including the capitalised JSON key
 * `PDBForceDrainTimeout`. Runtime constants live in `upgrade-config-contract.ts`.
 */
import { Type, type Static } from 'typebox';
import { conditions, crdFor, dateTime, stringEnum, typeMeta } from '../../schema.js';
import type { JsonObject } from '../../../lib/json.js';
import {
  MANAGED_UPGRADE_GROUP,
  MANAGED_UPGRADE_VERSION,
  UPGRADE_PHASES,
  UPGRADE_TYPES,
} from './upgrade-config-contract.js';

/** `spec.desired`: the release to upgrade to. */
export const ManagedUpgradeDesiredSchema = Type.Object(
  {
    version: Type.Optional(Type.String({ description: 'OpenShift version to upgrade to, e.g. 4.15.3.' })),
    channel: Type.Optional(
      Type.String({ description: 'Update channel the cluster version operator uses, e.g. stable-4.15.' }),
    ),
    image: Type.Optional(
      Type.String({ description: 'Release image by digest; when set it takes precedence over version and channel.' }),
    ),
  },
  { description: 'The OpenShift release to upgrade to.' },
);

/** `spec` of MUO's UpgradeConfig. */
export const ManagedUpgradeConfigSpecSchema = Type.Object(
  {
    desired: ManagedUpgradeDesiredSchema,
    upgradeAt: Type.String({
      description: 'Earliest time the upgrade may start (RFC 3339; checked by the operator, not the API).',
    }),
    PDBForceDrainTimeout: Type.Integer({
      description:
        'Minutes a node drain blocked by a PodDisruptionBudget is respected before pods are removed by force; 0 forces the drain once the expected node drain time has passed.',
      format: 'int32',
      minimum: 0,
    }),
    type: stringEnum(UPGRADE_TYPES, 'Which upgrader runs the upgrade: OSD or ARO.'),
    capacityReservation: Type.Optional(
      Type.Boolean({ description: 'Add one extra worker per worker MachineSet for the duration of the upgrade.' }),
    ),
  },
  { description: 'The desired upgrade: target release, start time, upgrader and drain policy.' },
);

/** One upgrade step's condition in `status.history[].conditions`. */
export const UpgradeConditionSchema = Type.Object(
  {
    type: Type.String({ description: 'The upgrade step this condition reports on.' }),
    status: Type.String({ description: 'Status of the step: True, False or Unknown.' }),
    lastProbeTime: Type.Optional(dateTime('When the step was last checked.')),
    lastTransitionTime: Type.Optional(dateTime('When the status last changed.')),
    startTime: Type.Optional(dateTime('When the step started.')),
    completeTime: Type.Optional(dateTime('When the step completed.')),
    reason: Type.Optional(Type.String({ description: "Short reason for the condition's last transition." })),
    message: Type.Optional(Type.String({ description: 'Human-readable details of the last transition.' })),
  },
  { description: 'The state of one upgrade step.' },
);

/** One entry of `status.history`, keyed by version, newest first. */
export const UpgradeHistorySchema = Type.Object(
  {
    version: Type.Optional(Type.String({ description: 'The desired version this entry tracks.' })),
    precedingVersion: Type.Optional(Type.String({ description: 'The version the cluster ran before this upgrade.' })),
    phase: stringEnum(UPGRADE_PHASES, 'Phase of this upgrade.'),
    conditions: Type.Optional(
      Type.Array(UpgradeConditionSchema, {
        description: 'One condition per upgrade step, the most recently started first.',
      }),
    ),
    startTime: Type.Optional(dateTime('When the upgrade started.')),
    completeTime: Type.Optional(dateTime('When the upgrade completed.')),
    workerStartTime: Type.Optional(dateTime('When the worker nodes started to upgrade.')),
    workerCompleteTime: Type.Optional(dateTime('When all worker nodes had upgraded.')),
  },
  { description: 'The record of one upgrade.' },
);

/** `status` of MUO's UpgradeConfig. */
export const ManagedUpgradeConfigStatusSchema = Type.Object(
  {
    history: Type.Optional(
      Type.Array(UpgradeHistorySchema, { description: 'Every upgrade attempted, the newest first.' }),
    ),
    conditions: Type.Optional(
      conditions(
        'Why the upgrade is or is not moving, in words an SRE understands (an addition of upgrade-operator; MUO has no such field): `Waiting` (True while the upgrade waits or refuses, with the reason), `ConfigurationValid` (False when the operator ConfigMap has values that were replaced by their defaults) and `UpdateRecommended` (False or Unknown when the cluster version operator does not recommend the target or could not evaluate it; names each risk and its URL).',
      ),
    ),
  },
  { description: 'The observed progress of upgrades.' },
);

/** A whole MUO UpgradeConfig object. */
export const ManagedUpgradeConfigSchema = Type.Object(
  {
    ...typeMeta(),
    spec: Type.Optional(ManagedUpgradeConfigSpecSchema),
    status: Type.Optional(ManagedUpgradeConfigStatusSchema),
  },
  { description: 'UpgradeConfig tells the managed upgrade operator which OpenShift release to upgrade to, and when.' },
);

/** `spec.desired` of MUO's UpgradeConfig. */
export type ManagedUpgradeDesired = Static<typeof ManagedUpgradeDesiredSchema>;
/** `spec` of MUO's UpgradeConfig. */
export type ManagedUpgradeConfigSpec = Static<typeof ManagedUpgradeConfigSpecSchema>;
/** One upgrade step condition. */
export type UpgradeCondition = Static<typeof UpgradeConditionSchema>;
/** One upgrade history entry. */
export type UpgradeHistory = Static<typeof UpgradeHistorySchema>;
/** `status` of MUO's UpgradeConfig. */
export type ManagedUpgradeConfigStatus = Static<typeof ManagedUpgradeConfigStatusSchema>;
/** MUO's UpgradeConfig object. */
export type ManagedUpgradeConfig = Static<typeof ManagedUpgradeConfigSchema>;

/** Printer columns, exactly MUO's. */
export const MANAGED_UPGRADE_CONFIG_PRINTER_COLUMNS = [
  { name: 'desired_version', type: 'string', jsonPath: '.spec.desired.version' },
  { name: 'phase', type: 'string', jsonPath: '.status.history[0].phase' },
  { name: 'stage', type: 'string', jsonPath: '.status.history[0].conditions[0].type' },
  { name: 'status', type: 'string', jsonPath: '.status.history[0].conditions[0].status' },
  { name: 'reason', type: 'string', jsonPath: '.status.history[0].conditions[0].reason' },
  { name: 'message', type: 'string', jsonPath: '.status.history[0].conditions[0].message' },
] as const;

/** The CustomResourceDefinition of MUO's UpgradeConfig. */
export function managedUpgradeConfigCrd(): JsonObject {
  return crdFor({
    group: MANAGED_UPGRADE_GROUP,
    version: MANAGED_UPGRADE_VERSION,
    kind: 'UpgradeConfig',
    plural: 'upgradeconfigs',
    singular: 'upgradeconfig',
    scope: 'Namespaced',
    shortNames: ['upgrade'],
    schema: ManagedUpgradeConfigSchema,
    printerColumns: MANAGED_UPGRADE_CONFIG_PRINTER_COLUMNS,
    statusSubresource: true,
  });
}
