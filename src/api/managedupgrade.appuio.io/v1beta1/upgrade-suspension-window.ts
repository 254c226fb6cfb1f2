/**
 * APPUiO's UpgradeSuspensionWindow (managedupgrade.appuio.io/v1beta1): schema, TS types and CRD
 * (docs/design/scheduled-flow.md#upgradesuspensionwindow). The descriptor lives in
 * `upgrade-suspension-window-contract.ts`.
 */
import { Type, type Static } from 'typebox';
import { crdFor, dateTime, labelSelector, typeMeta } from '../../schema.js';
import type { JsonObject } from '../../../lib/json.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';

/** `spec` of an UpgradeSuspensionWindow. */
export const UpgradeSuspensionWindowSpecSchema = Type.Object(
  {
    start: dateTime('Start of the window (inclusive).'),
    end: dateTime('End of the window (inclusive).'),
    reason: Type.String({
      description:
        'Why upgrades are suspended; shown in events, messages and metrics (the metric label is cut at 256 characters).',
      maxLength: 1024,
    }),
    configSelector: Type.Optional(
      labelSelector('UpgradeConfigs that create no jobs during the window; empty selects all, absent selects none.'),
    ),
    jobSelector: Type.Optional(
      labelSelector(
        'UpgradeJobs that are skipped (marked succeeded) if due during the window; empty selects all, absent selects none.',
      ),
    ),
  },
  { description: 'A time window in which upgrades are suspended.' },
);

const nameRef = Type.Object(
  { name: Type.String({ description: 'Name of the object.' }) },
  { description: 'A matching object.' },
);

/** `status` of an UpgradeSuspensionWindow. */
export const UpgradeSuspensionWindowStatusSchema = Type.Object(
  {
    matchingConfigs: Type.Optional(
      Type.Array(nameRef, { description: 'UpgradeConfigs the configSelector matches, by name.' }),
    ),
    matchingJobs: Type.Optional(
      Type.Array(nameRef, {
        description: 'UpgradeJobs the jobSelector matches whose startAfter is in the window, by name.',
      }),
    ),
  },
  { description: 'Objects the window affects.' },
);

/** A whole UpgradeSuspensionWindow object. */
export const UpgradeSuspensionWindowSchema = Type.Object(
  {
    ...typeMeta(),
    spec: Type.Optional(UpgradeSuspensionWindowSpecSchema),
    status: Type.Optional(UpgradeSuspensionWindowStatusSchema),
  },
  { description: 'UpgradeSuspensionWindow suspends scheduled upgrades during a time window.' },
);

/** `spec` of an UpgradeSuspensionWindow. */
export type UpgradeSuspensionWindowSpec = Static<typeof UpgradeSuspensionWindowSpecSchema>;
/** `status` of an UpgradeSuspensionWindow. */
export type UpgradeSuspensionWindowStatus = Static<typeof UpgradeSuspensionWindowStatusSchema>;
/** An UpgradeSuspensionWindow object. */
export type UpgradeSuspensionWindow = Static<typeof UpgradeSuspensionWindowSchema>;

/** Printer columns (the anchor has none). */
export const UPGRADE_SUSPENSION_WINDOW_PRINTER_COLUMNS = [
  { name: 'Start', type: 'string', jsonPath: '.spec.start' },
  { name: 'End', type: 'string', jsonPath: '.spec.end' },
  { name: 'Reason', type: 'string', jsonPath: '.spec.reason' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
] as const;

/** The CustomResourceDefinition of UpgradeSuspensionWindow. */
export function upgradeSuspensionWindowCrd(): JsonObject {
  return crdFor({
    group: APPUIO_GROUP,
    version: APPUIO_VERSION,
    kind: 'UpgradeSuspensionWindow',
    plural: 'upgradesuspensionwindows',
    singular: 'upgradesuspensionwindow',
    scope: 'Namespaced',
    shortNames: ['usw'],
    schema: UpgradeSuspensionWindowSchema,
    printerColumns: UPGRADE_SUSPENSION_WINDOW_PRINTER_COLUMNS,
    statusSubresource: true,
  });
}
