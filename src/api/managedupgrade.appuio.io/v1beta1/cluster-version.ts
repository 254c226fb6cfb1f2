/**
 * APPUiO's ClusterVersion (managedupgrade.appuio.io/v1beta1): the template of the cluster's
 * config.openshift.io ClusterVersion spec plus time-based overlays
 * (docs/design/scheduled-flow.md#clusterversion). Named `ManagedClusterVersion` in TypeScript
 * beside OpenShift's `ClusterVersion`. The descriptor lives in `cluster-version-contract.ts`.
 */
import { Type, type Static } from 'typebox';
import { crdFor, dateTime, nullable, typeMeta } from '../../schema.js';
import type { JsonObject } from '../../../lib/json.js';
import { APPUIO_GROUP, APPUIO_VERSION } from './group.js';
import { clusterVersionSpecSchema } from './cluster-version-spec.js';

/** `spec.overlays[]`. */
export const ClusterVersionOverlayConfigSchema = Type.Object(
  {
    from: dateTime('When this overlay starts to apply; the newest overlay already started wins.'),
    overlay: Type.Object(
      {
        spec: Type.Optional(
          clusterVersionSpecSchema(
            'Fields merged over the template: non-empty values replace, empty ones remove nothing.',
            false,
          ),
        ),
      },
      { description: 'The partial ClusterVersion applied over the template.' },
    ),
  },
  { description: 'A change of the ClusterVersion spec from a point in time.' },
);

/** `spec` of APPUiO's ClusterVersion. */
export const ManagedClusterVersionSpecSchema = Type.Object(
  {
    template: Type.Optional(
      Type.Object(
        {
          spec: Type.Optional(
            clusterVersionSpecSchema(
              'The ClusterVersion spec to keep in sync; desiredUpdate is ignored (UpgradeJobs own it).',
              true,
            ),
          ),
        },
        { description: 'The base applied to the cluster ClusterVersion.' },
      ),
    ),
    overlays: Type.Optional(
      Type.Array(ClusterVersionOverlayConfigSchema, { description: 'Time-based changes over the template.' }),
    ),
  },
  { description: 'The ClusterVersion spec to apply, and when it changes.' },
);

/** `status.overlays[]`: a preview of the template with one overlay. */
export const ClusterVersionStatusOverlaySchema = Type.Object(
  {
    from: dateTime('When the overlay starts to apply.'),
    preview: Type.Object(
      { spec: Type.Optional(clusterVersionSpecSchema('The template with this overlay merged.', false)) },
      { description: 'The rendered result of the overlay.' },
    ),
  },
  { description: 'Preview of one overlay.' },
);

/** `status` of APPUiO's ClusterVersion. */
export const ManagedClusterVersionStatusSchema = Type.Object(
  {
    current: Type.Optional(clusterVersionSpecSchema('The rendered spec that applies now.', false)),
    overlays: Type.Optional(
      Type.Array(ClusterVersionStatusOverlaySchema, { description: 'One preview per overlay, in spec order.' }),
    ),
    overlayApplied: Type.Optional(
      nullable(dateTime('The from time of the overlay that applies now; null when none does.')),
    ),
  },
  { description: 'The rendered specs.' },
);

/** A whole APPUiO ClusterVersion object. */
export const ManagedClusterVersionSchema = Type.Object(
  {
    ...typeMeta(),
    spec: Type.Optional(ManagedClusterVersionSpecSchema),
    status: Type.Optional(ManagedClusterVersionStatusSchema),
  },
  {
    description:
      'ClusterVersion holds the spec the controller keeps on the cluster ClusterVersion, with scheduled overlays.',
  },
);

/** One overlay. */
export type ClusterVersionOverlayConfig = Static<typeof ClusterVersionOverlayConfigSchema>;
/** `spec` of APPUiO's ClusterVersion. */
export type ManagedClusterVersionSpec = Static<typeof ManagedClusterVersionSpecSchema>;
/** `status` of APPUiO's ClusterVersion. */
export type ManagedClusterVersionStatus = Static<typeof ManagedClusterVersionStatusSchema>;
/** APPUiO's ClusterVersion object. */
export type ManagedClusterVersion = Static<typeof ManagedClusterVersionSchema>;

/** Printer columns (the anchor has none). */
export const MANAGED_CLUSTER_VERSION_PRINTER_COLUMNS = [
  { name: 'Channel', type: 'string', jsonPath: '.status.current.channel' },
  { name: 'Overlay Applied', type: 'string', jsonPath: '.status.overlayApplied' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
] as const;

/** The CustomResourceDefinition of APPUiO's ClusterVersion. */
export function managedClusterVersionCrd(): JsonObject {
  return crdFor({
    group: APPUIO_GROUP,
    version: APPUIO_VERSION,
    kind: 'ClusterVersion',
    plural: 'clusterversions',
    singular: 'clusterversion',
    scope: 'Namespaced',
    shortNames: ['mcv'],
    schema: ManagedClusterVersionSchema,
    printerColumns: MANAGED_CLUSTER_VERSION_PRINTER_COLUMNS,
    statusSubresource: true,
  });
}
