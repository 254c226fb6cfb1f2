/**
 * APPUiO's UpgradeJobHook (managedupgrade.appuio.io/v1beta1): schema, TS types and CRD
 * (docs/design/scheduled-flow.md#upgradejobhook). `spec.template` is validated in part (see
 * `job-template.ts`). Runtime constants live in `upgrade-job-hook-contract.ts`.
 */
import { Type, type Static } from 'typebox';
import { crdFor, labelSelector, stringEnum, typeMeta } from '../../schema.js';
import type { JsonObject } from '../../../lib/json.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';
import { jobTemplateSpecSchema } from './job-template.js';
import { HOOK_FAILURE_POLICIES, HOOK_RUN_MODES, UPGRADE_EVENTS } from './upgrade-job-hook-contract.js';

/** `spec` of an UpgradeJobHook. */
export const UpgradeJobHookSpecSchema = Type.Object(
  {
    events: Type.Optional(
      Type.Array(stringEnum(UPGRADE_EVENTS, 'An upgrade event.'), {
        description:
          'Events the hook runs on. Create, Start, UpgradeComplete and MachineConfigPoolUnpause wait for the hook Job; Finish, Success and Failure do not.',
      }),
    ),
    run: Type.Optional(
      stringEnum(HOOK_RUN_MODES, 'Run for the Next UpgradeJob only (claimed for good), or for All. Defaults to All.'),
    ),
    failurePolicy: Type.Optional(
      stringEnum(
        HOOK_FAILURE_POLICIES,
        'Abort fails the UpgradeJob when the hook Job fails; Ignore only logs it. Defaults to Ignore.',
      ),
    ),
    disruptive: Type.Optional(
      Type.Boolean({
        description: 'Marks the hook as disruptive; informational, shown in metrics and META_matchesDisruptiveHooks.',
      }),
    ),
    selector: Type.Optional(
      labelSelector('UpgradeJobs the hook runs for, by label; empty selects all in the namespace.'),
    ),
    template: Type.Optional(jobTemplateSpecSchema('The batch Job created for each run.')),
  },
  { description: 'When the hook runs and the Job it runs.' },
);

/** `status.claimedBy`. */
export const ClaimReferenceSchema = Type.Object(
  {
    apiVersion: Type.String({ description: 'API version of the claiming object.' }),
    kind: Type.String({ description: 'Kind of the claiming object.' }),
    name: Type.String({ description: 'Name of the claiming object.' }),
    uid: Type.String({ description: 'UID of the claiming object.' }),
  },
  { description: 'The UpgradeJob that claimed a run: Next hook.', 'x-kubernetes-map-type': 'atomic' },
);

/** `status` of an UpgradeJobHook. */
export const UpgradeJobHookStatusSchema = Type.Object(
  { claimedBy: Type.Optional(ClaimReferenceSchema) },
  { description: 'Observed state of the hook.' },
);

/** A whole UpgradeJobHook object. */
export const UpgradeJobHookSchema = Type.Object(
  { ...typeMeta(), spec: Type.Optional(UpgradeJobHookSpecSchema), status: Type.Optional(UpgradeJobHookStatusSchema) },
  { description: 'UpgradeJobHook runs a Job on events of the UpgradeJobs it selects.' },
);

/** `spec` of an UpgradeJobHook. */
export type UpgradeJobHookSpec = Static<typeof UpgradeJobHookSpecSchema>;
/** `status.claimedBy`. */
export type ClaimReference = Static<typeof ClaimReferenceSchema>;
/** `status` of an UpgradeJobHook. */
export type UpgradeJobHookStatus = Static<typeof UpgradeJobHookStatusSchema>;
/** An UpgradeJobHook object. */
export type UpgradeJobHook = Static<typeof UpgradeJobHookSchema>;

/** Printer columns (the anchor has none). */
export const UPGRADE_JOB_HOOK_PRINTER_COLUMNS = [
  { name: 'Events', type: 'string', jsonPath: '.spec.events' },
  { name: 'Run', type: 'string', jsonPath: '.spec.run' },
  { name: 'Failure Policy', type: 'string', jsonPath: '.spec.failurePolicy' },
  { name: 'Disruptive', type: 'boolean', jsonPath: '.spec.disruptive', priority: 1 },
  { name: 'Claimed By', type: 'string', jsonPath: '.status.claimedBy.name' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
] as const;

/** The CustomResourceDefinition of UpgradeJobHook. */
export function upgradeJobHookCrd(): JsonObject {
  return crdFor({
    group: APPUIO_GROUP,
    version: APPUIO_VERSION,
    kind: 'UpgradeJobHook',
    plural: 'upgradejobhooks',
    singular: 'upgradejobhook',
    scope: 'Namespaced',
    shortNames: ['upjh'],
    schema: UpgradeJobHookSchema,
    printerColumns: UPGRADE_JOB_HOOK_PRINTER_COLUMNS,
    statusSubresource: true,
  });
}
